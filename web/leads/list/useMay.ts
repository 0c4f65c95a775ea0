import type { Lead } from '../../api/leads';
import { useSession } from '../../session/SessionProvider';

/** What the lead list offers this person on a lead; only courtesy, the server enforces each. */
export function useMay(lead: Lead) {
  const { user, isManager } = useSession();
  const holder = !!user && lead.assignedTo === user.uid;
  return {
    accept: holder && lead.waiting,
    handOut: isManager && !lead.assignedTo && !lead.closed,
    timeline: isManager || holder,
    contact: holder && !lead.closed,
    name: lead.nameMissing && (isManager || holder),
    document: isManager && lead.hasDocument,
  };
}
