import type { Lead } from '../../api/leads';

/**
 * What the lead list offers on a lead: what the server says this reader may do to it (`can`),
 * where the lead's state calls for it (Accept while it waits, Name while the name is missing,
 * Hand out to Next Up from Unassigned, Shown or No-show while an appointment is set).
 */
export const may = (l: Lead) => ({
  close: l.can.sell || l.can.lose,
  reopen: l.can.reopen,
  appointment: l.can.appoint,
  markShown: l.can.markShown,
  accept: l.can.accept && l.waiting,
  handOut: l.can.handOut && !l.assignedTo,
  timeline: l.can.timeline,
  contact: l.can.contact,
  name: l.can.name && l.nameMissing,
  document: l.can.document,
});
