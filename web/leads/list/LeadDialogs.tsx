import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Lead } from '../../api/leads';
import { may as offers } from './may';
import { TimelineDialog } from './TimelineDialog';
import { NameDialog } from './NameDialog';
import { DocumentDialog } from './DocumentDialog';
import { AppointmentDialog, CloseDialog, ContactDialog } from './StepDialogs';

type Dialog = 'timeline' | 'name' | 'document' | 'contact' | 'appointment' | 'close';

/** Opens one of a lead's dialogs; the same function from one render to the next, so rows stay memoised. */
export type OpenDialog = (dialog: Dialog, lead: Lead) => void;

interface Shown {
  dialog: Dialog;
  id: number;
  /** The lead as last seen in the list: a search may leave it out for a moment. */
  lead: Lead | null;
  opened: boolean;
}

/**
 * Which lead's dialog is open, kept by the list's owner rather than by a row: a search or a live
 * update draws the rows again (skeletons for a moment), and the dialog stays open on its lead.
 */
export function useLeadDialogs(leads: Lead[] | undefined) {
  const [params] = useSearchParams();
  // The new-lead mail links to ?lead=<id>: that lead's timeline opens once the list holds it.
  const [shown, setShown] = useState<Shown | null>(() => {
    const id = Number(params.get('lead'));
    return id ? { dialog: 'timeline', id, lead: null, opened: true } : null;
  });
  const fresh = shown && leads?.find((l) => l.id === shown.id);
  if (shown && fresh && fresh !== shown.lead) setShown({ ...shown, lead: fresh });
  const open = useCallback<OpenDialog>((dialog, lead) => setShown({ dialog, id: lead.id, lead, opened: true }), []);
  const close = useCallback(() => setShown((s) => s && { ...s, opened: false }), []);
  return { shown, open, close };
}

/** The open dialog (or the one closing), over whatever the list shows meanwhile. */
export function LeadDialogs({ shown, close }: Pick<ReturnType<typeof useLeadDialogs>, 'shown' | 'close'>) {
  if (!shown?.lead) return null;
  return <LeadDialog key={`${shown.dialog}-${shown.id}`} dialog={shown.dialog} lead={shown.lead} opened={shown.opened} onClose={close} />;
}

function LeadDialog({ dialog, ...props }: { dialog: Dialog; lead: Lead; opened: boolean; onClose: () => void }) {
  const may = offers(props.lead);
  if (!may[dialog]) return null;
  if (dialog === 'timeline') return <TimelineDialog {...props} />;
  if (dialog === 'name') return <NameDialog {...props} />;
  if (dialog === 'contact') return <ContactDialog {...props} />;
  if (dialog === 'appointment') return <AppointmentDialog {...props} />;
  if (dialog === 'close') return <CloseDialog {...props} />;
  return <DocumentDialog {...props} />;
}
