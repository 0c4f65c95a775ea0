export const FOLLOW_UP_HOURS = 24;
export const LEADS_PAGE_SIZE = 100;
/** The source of a lead a manager enters by hand. */
export const LEAD_SOURCE = 'BDC Portal';

export function followUpDue(assignedAt: Date, hours = FOLLOW_UP_HOURS): Date {
  return new Date(assignedAt.getTime() + hours * 3_600_000);
}
