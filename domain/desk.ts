import { z } from 'zod';
import { STAGES } from './stages';
import { isOneLine } from './text';

/**
 * The desk log: every walk-in up of a store's day, for the desk manager. A walk-in up is a lead
 * of source WALK_IN handed out through the rotation like any Assign (a be-back to the salesman
 * asked for); its time in is when it was first handed out (when he walked in), which a hand-on
 * or a later hand-out does not move; its outcome the lead's stage. Once his time out is set (he
 * left), no one is handed him any more (domain/rotation.ts LEFT).
 */
export const WALK_IN = 'Walk-in';

const MAX_CUSTOMER = 200;
const MAX_VEHICLE = 120;

const strict = <T extends z.ZodRawShape>(shape: T) =>
  z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? `Unknown field: ${iss.keys.join(', ')}` : 'Invalid request body'),
  });

/** Trimmed one-line text of at most `max` characters. */
const line = (max: number, what: string) =>
  z
    .string({ error: (iss) => (iss.input == null ? `${what} is required` : `${what} must be text`) })
    .trim()
    .max(max, { error: `${what} is too long (max ${max} characters)`, abort: true })
    .refine(isOneLine, { error: `${what} contains invalid characters` });

const yesNo = (what: string) => z.boolean({ error: `${what} must be true or false` });

/** A manager logs an up: the customer, what he came to see, whether he brings a trade-in; `askedFor` makes it a be-back. */
export const deskUpSchema = strict({
  customer: line(MAX_CUSTOMER, 'Customer').min(1, { error: 'Customer is required' }),
  vehicle: z.preprocess((v) => (v === null ? undefined : v), line(MAX_VEHICLE, 'Vehicle of interest').optional()),
  tradeIn: yesNo('Trade-in'),
  askedFor: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.string({ error: 'Choose the salesman the customer asks for' }).trim().min(1).max(100, { error: 'Choose the salesman the customer asks for' }).optional(),
  ),
  actionId: z
    .string({ error: 'actionId must be text' })
    .regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'actionId must be 8 to 64 letters, digits, - or _' })
    .optional(),
});
export type DeskUp = z.output<typeof deskUpSchema>;

/** What the desk writes on an up: a worksheet, the manager he was turned over to (null: none), that he left (once). */
export const deskPatchSchema = strict({
  worksheet: yesNo('Worksheet').optional(),
  toManager: z.string({ error: 'Choose a manager' }).trim().min(1, { error: 'Choose a manager' }).max(100, { error: 'Choose a manager' }).nullable().optional(),
  out: z.literal(true, { error: 'out must be true' }).optional(),
}).refine((p) => p.worksheet !== undefined || p.toManager !== undefined || p.out !== undefined, {
  error: 'Nothing to change: send worksheet, toManager or out',
});
export type DeskPatch = z.output<typeof deskPatchSchema>;

const iso = z.iso.datetime({ offset: true });
const person = z.object({ id: z.string(), name: z.string() });

export const deskRow = z.object({
  id: z.number().int(),
  customer: z.string(),
  timeIn: iso,
  /** null: the up waits in Unassigned. */
  salesman: person.nullable(),
  beBack: z.boolean(),
  vehicle: z.string().nullable(),
  tradeIn: z.boolean(),
  worksheet: z.boolean(),
  toManager: person.nullable(),
  timeOut: iso.nullable(),
  stage: z.enum(STAGES),
  /** Whether the caller may write on this up (its holder or a manager). */
  mine: z.boolean(),
});
export type DeskRow = z.infer<typeof deskRow>;

/** A store's day of walk-ins, in the order they came in, and the managers an up may be turned over to. */
export const deskLog = z.object({
  day: z.string(),
  today: z.string(),
  ups: z.array(deskRow),
  managers: z.array(person),
});
export type DeskLog = z.infer<typeof deskLog>;
