import { z } from 'zod';
import { DEFAULT_RULES, isRuleKey } from './rule-defaults';
import { choicesSchema } from './notices';
import { routingSchema } from './routing';
import { isOneLine, notOneLineText } from './text';

/** Response window: 0 turns accepting off; otherwise whole minutes, at most two hours. */
const MAX_RESPONSE_WINDOW = 120;
const RESPONSE_WINDOW_MSG = `Response window must be a whole number from 1 to ${MAX_RESPONSE_WINDOW} minutes, or 0 for off`;
const FOLLOW_UP_MSG = 'Follow-up due must be a whole number of hours from 1 to 168';
const SKIP_SNOOZE_MSG = 'Skip snooze must be a whole number of minutes from 1 to 240';
const NEXT_FOLLOW_UP_MSG = 'Next follow-up must be a whole number of hours from 1 to 336';
const SALE_CHECK_MSG = 'The front gross to ask about must be a whole number of dollars from 1,000 to 1,000,000';
const LOST_REASON_MSG = 'Each lost reason must be 1 to 60 characters';
const LOST_REASONS_MSG = 'Keep 1 to 20 lost reasons, each once';

const whole = (min: number, max: number, error: string) => z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
const flag = (name: string) => z.boolean({ error: `${name} must be on or off` });

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;
const clock = (label: string) => z.string({ error: `${label} must be a time like 09:00` }).regex(CLOCK, { error: `${label} must be a time like 09:00` });

/** One weekday: open and close on the dealership's clock (24-hour "09:00"), or null: closed all day. */
const dayHours = (day: string) =>
  z
    .strictObject({ open: clock(`${day} opening`), close: clock(`${day} closing`) }, { error: `${day} must have an opening and a closing time, or be closed` })
    .refine((h) => h.open < h.close, { error: `${day} must close after it opens`, path: ['close'] })
    .nullable();

/**
 * Business hours, Sunday first, in APP_TIMEZONE; null: open around the clock (no closing, nobody
 * is taken off duty).
 */
export const businessHoursSchema = z
  .tuple([dayHours('Sunday'), dayHours('Monday'), dayHours('Tuesday'), dayHours('Wednesday'), dayHours('Thursday'), dayHours('Friday'), dayHours('Saturday')], {
    error: 'Business hours must list the seven weekdays, Sunday first',
  })
  .nullable();

/**
 * The dealership's rules, one record kept by managers under Manager → Dealership rules. Every
 * field has a default, so a rule added later reads its default from a record saved before it.
 */
export const rulesSchema = z.strictObject(
  {
    responseWindowMinutes: whole(0, MAX_RESPONSE_WINDOW, RESPONSE_WINDOW_MSG),
    followUpHours: whole(1, 168, FOLLOW_UP_MSG),
    skipSnoozeMinutes: whole(1, 240, SKIP_SNOOZE_MSG),
    /** The day's queue is the order salesmen clocked in; clocking out and in again goes to the end. */
    checkInOrder: flag('Serve in check-in order'),
    /** A salesman with an open lead past its follow-up time (and no contact) gets no new leads. */
    holdOut: flag('Hold out salesmen with past-due follow-ups'),
    /** Per weekday, Sunday first; null: open around the clock. At closing everyone goes off duty. */
    businessHours: businessHoursSchema,
    /** After a contact (or a showing, a no-show, a reopen): when the next follow-up falls due unless the salesman picks a time. */
    nextFollowUpHours: whole(1, 336, NEXT_FOLLOW_UP_MSG),
    /** A sale with a larger front gross (dollars) asks the salesman whether the amount is right before it is saved. */
    saleCheckAbove: whole(1000, 1_000_000, SALE_CHECK_MSG),
    /** What a salesman chooses from when he marks a lead Lost (and may add his own words). */
    lostReasons: z
      .array(
        z
          .string({ error: LOST_REASON_MSG })
          .trim()
          .min(1, { error: LOST_REASON_MSG })
          .max(60, { error: LOST_REASON_MSG, abort: true })
          .refine(isOneLine, { error: notOneLineText('A lost reason') }),
        { error: LOST_REASONS_MSG },
      )
      .min(1, { error: LOST_REASONS_MSG })
      .max(20, { error: LOST_REASONS_MSG })
      .refine((xs) => new Set(xs.map((x) => x.toLowerCase())).size === xs.length, { error: LOST_REASONS_MSG }),
    /** What reaches a salesman, per kind of notice, unless he chose otherwise in Settings (domain/notices.ts). */
    notify: choicesSchema,
    /** Routing rules, the fallback line and whether serving in one line moves a person to the back of his others (domain/routing.ts). */
    routing: routingSchema,
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? `Unknown field: ${iss.keys.join(', ')}` : 'Invalid request body') },
);
export type Rules = z.infer<typeof rulesSchema>;

/** A change to the rules: any of them, at least one. */
export const rulesChangeSchema = rulesSchema.partial().refine((v) => Object.keys(v).length > 0, { error: 'Say which rule to change' });

export { DEFAULT_RULES };

/** A stored record read with today's schema: what is missing or no longer valid takes its default. */
export function readRules(stored: unknown): Rules {
  const out: Record<string, unknown> = { ...DEFAULT_RULES };
  if (stored && typeof stored === 'object') {
    for (const [k, v] of Object.entries(stored)) {
      if (isRuleKey(k) && rulesSchema.shape[k].safeParse(v).success) out[k] = v;
    }
  }
  // Every field is its default or a value its own schema took, so the whole parses.
  return rulesSchema.parse(out);
}

/** The store's own spelling of a lost reason given, case aside; null when it is not one of the store's. */
export const storeLostReason = (reasons: readonly string[], given: string): string | null =>
  reasons.find((r) => r.toLowerCase() === given.trim().toLowerCase()) ?? null;
export const pickLostReasonText = (reasons: readonly string[]) => `Pick one of this store's lost reasons: ${reasons.join(', ')}.`;

/** What a save changed, field by field, for the audit log. */
export function ruleChanges(before: Rules, after: Rules): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const k of Object.keys(after).filter(isRuleKey)) {
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) out[k] = { from: before[k], to: after[k] };
  }
  return out;
}
