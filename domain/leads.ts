export const FOLLOW_UP_HOURS = 24;
export const LEADS_PAGE_SIZE = 100;
/** The source of a lead a manager enters by hand. */
export const LEAD_SOURCE = 'BDC Portal';

type Optional = string | null | undefined;

/** What a new lead keeps of what was sent about its customer: a blank as null, the portal itself when no source is named. */
export const customerFields = (l: {
  customer: string;
  phone?: Optional;
  email?: Optional;
  vehicle?: Optional;
  vin?: Optional;
  comments?: Optional;
  source?: string;
}) => ({
  customer: l.customer,
  phone: l.phone || null,
  email: l.email || null,
  vehicle: l.vehicle || null,
  vin: l.vin || null,
  comments: l.comments || null,
  source: l.source ?? LEAD_SOURCE,
});

export function followUpDue(assignedAt: Date, hours = FOLLOW_UP_HOURS): Date {
  return new Date(assignedAt.getTime() + hours * 3_600_000);
}
