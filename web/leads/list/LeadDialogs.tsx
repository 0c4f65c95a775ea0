import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Lead } from '../../api/leads';
import { may as offers } from './may';
import { TimelineDialog } from './TimelineDialog';
import { NameDialog } from './NameDialog';
import { DocumentDialog } from './DocumentDialog';
import { AppointmentDialog, CloseDialog, ContactDialog } from './StepDialogs';

/** 'lead': the lead itself, to work on: Log contact (with the ways to reach the customer) for whoever may, else its timeline. */
type Dialog = 'lead' | 'timeline' | 'name' | 'document' | 'contact' | 'appointment' | 'close';

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
export function useLeadDialogs(leads: Lead[] | undefined, { linked = true } = {}) {
  const [params, setParams] = useSearchParams();
  // The new-lead mail and text, the browser's alert and Accept link to ?lead=<id>: that lead opens
  // once the list holds it (the screen's main list: `linked`), and the address drops the id (a reload opens no dialog again).
  const asked = (linked && Number(params.get('lead'))) || null;
  const [shown, setShown] = useState<Shown | null>(null);
  // Opened once per address: another lead opened meanwhile stays open.
  const [taken, setTaken] = useState<number | null>(null);
  if (asked && taken !== asked) {
    setTaken(asked);
    setShown({ dialog: 'lead', id: asked, lead: null, opened: true });
  }
  useEffect(() => {
    if (asked && shown?.lead)
      setParams(
        (p) => {
          p.delete('lead');
          return p;
        },
        { replace: true },
      );
  }, [asked, shown?.lead, setParams]);
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

function LeadDialog({ dialog: asked, ...props }: { dialog: Dialog; lead: Lead; opened: boolean; onClose: () => void }) {
  const may = offers(props.lead);
  const dialog = asked === 'lead' ? (may.contact ? 'contact' : 'timeline') : asked;
  if (!may[dialog]) return null;
  if (dialog === 'timeline') return <TimelineDialog {...props} />;
  if (dialog === 'name') return <NameDialog {...props} />;
  if (dialog === 'contact') return <ContactDialog {...props} />;
  if (dialog === 'appointment') return <AppointmentDialog {...props} />;
  if (dialog === 'close') return <CloseDialog {...props} />;
  return <DocumentDialog {...props} />;
}
