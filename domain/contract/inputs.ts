import { readCode } from '../stores';
import { z } from 'zod';
import { LEADS_PAGE_SIZE } from '../leads';
import { OVERVIEW_LOG_SIZE, ROUTING_LOG_SIZE } from '../rotation';
import { isValidDayKey } from '../time';
import { funnelQuery } from '../funnel';

/**
 * What a route takes in its path and query string. Paths and queries arrive as text; the web
 * may write numbers and flags as numbers and booleans, which the address turns into text.
 */

const text = z.union([z.string(), z.number()]).transform(String);

/**
 * A row id in a path: plain decimal digits only, so "0x10", "1e1", "+16" or " 16" do not reach
 * row 16. Anything else names no row; its message is the 404's.
 */
export const rowId = (notFound: string) =>
  z.object({
    id: text.pipe(
      z
        .string()
        .regex(/^[1-9][0-9]{0,14}$/, { error: notFound })
        .transform(Number),
    ),
  });

/** A person's id in a path. */
export const personId = z.object({ id: text.pipe(z.string().min(1, { error: 'User not found' }).max(100, { error: 'User not found' })) });

/** A yes/no in the query: true, 1, "true" or "1" is yes. */
const flag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['true', 'false', '1', '0'])])
  .optional()
  .transform((v) => v === true || v === 1 || v === 'true' || v === '1');

const count = (min: number, max: number) => z.union([z.number(), z.string()]).pipe(z.coerce.number<string | number>().int().min(min).max(max)).optional();

export const rotationQuery = z.object({ log: count(1, ROUTING_LOG_SIZE).transform((n) => n ?? OVERVIEW_LOG_SIZE) });

export const leadsQuery = z.strictObject({
  q: z.string().max(200, 'Search is too long (max 200 characters)').optional(),
  open: flag,
  unassigned: flag,
  waiting: flag,
  cursor: z.string().max(60).optional(),
  limit: count(1, LEADS_PAGE_SIZE),
});

export const usersQuery = z.object({ deleted: flag });

/** Whose sales: a person's id (a manager reading someone's tracker), else one's own. */
export const salesQuery = z.object({ user: z.string().trim().max(100, 'No such user').optional() });

const INVALID_DATE = 'Enter a real date (YYYY-MM-DD)';
/** A day of the floor report; today when absent. Whether it is after today, the server checks with its clock. */
export const dayQuery = z.object({
  day: z.string({ error: INVALID_DATE }).trim().refine(isValidDayKey, { error: INVALID_DATE }).optional(),
});

/** A store by its code in the path; one that cannot be a code names no store. */
export const storeCode = z.object({
  code: z.string().transform((v, ctx) => readCode(v) ?? (ctx.addIssue({ code: 'custom', message: 'Store not found' }), z.NEVER)),
});

/**
 * The group report's stores: codes, comma-separated or the parameter repeated; none, every store;
 * the floor's day; the funnel's days.
 * Whether each names a store is the server's to say (404 "Store not found", as everywhere).
 */
export const groupReportQuery = z.strictObject({
  stores: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => [...new Set([v ?? []].flat().flatMap((s) => s.split(',').map((c) => c.trim().toUpperCase())))].filter(Boolean))
    .pipe(z.array(z.string()).max(200, 'Too many stores (max 200)')),
  day: dayQuery.shape.day,
  /** The funnel's period, each store on its own clock (this month so far when absent). */
  from: funnelQuery.shape.from,
  to: funnelQuery.shape.to,
});

/** Leads → Mail to review: the mail waiting for a manager, or every mail of the last 30 days. */
export const mailQuery = z.object({ show: z.enum(['review', 'all'], { error: 'show must be review or all' }).default('review') });
