import { z } from 'zod';
import { MSG } from './auth-messages';
import { formatCents, MIN_SALE_DATE, parseMoneyToCents } from './commission';
import { normalizeName, normalizeRole } from './roles';
import { HAND_OUT_WHOM, SKIP_WHOM } from './rotation';
import { isValidDayKey } from './time';
import { CONTACT_CHANNELS } from './speed';
import { CONTACT_OUTCOMES, LOCAL_TIME } from './stages';
import { BAD_CODE, BAD_TIMEZONE, isTimeZone, newCodeError, readCode } from './stores';
import { BAD_DEALER, MAX_DEALER } from './dealers';
import { INVALID_EMAIL, parseEmail } from './email';
import { isCleanLines, isOneLine } from './text';

const MAX_TEXT = 200;
const MAX_NOTES = 5000;
const MAX_GREETING = 80;
const MAX_NOTE = 500;
const MAX_SNOOZE_MINUTES = 480;

const tooLong = (max: number) => `Too long (max ${max} characters)`;
const INVALID_CHARS = 'Contains invalid characters';
const NOT_TEXT = 'Must be text';
const INVALID_DATE = 'Enter a real date (YYYY-MM-DD)';
const BAD_MINUTES = `Snooze must be 1 to ${MAX_SNOOZE_MINUTES} minutes`;
const GROSS_REQUIRED = 'Front gross is required';
const GROSS_INVALID = 'Front gross must be a number like 1500 or 1500.50';

/** Text that comes from outside (a lead by API, ADF or mail): control characters are refused, other marks kept, so no lead is lost to an invisible one. */
const CONTROL = /\p{Cc}/u;

/** A request body: unknown keys are refused, and a body that is not an object says so. */
export function body<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? `Unknown field: ${iss.keys.join(', ')}` : 'Invalid request body'),
  });
}

/** Trimmed single-line text (domain/text.ts, the one text rule); `required` is the message when it is absent, null or blank. */
function text(required: string, max = MAX_TEXT) {
  return z
    .string({ error: (iss) => (iss.input == null ? required : NOT_TEXT) })
    .trim()
    .min(1, { error: required, abort: true })
    .max(max, { error: tooLong(max), abort: true })
    .refine(isOneLine, { error: INVALID_CHARS });
}

/** Trimmed text that may be blank. */
function optionalText(max: number, multiline = false) {
  return z
    .string({ error: NOT_TEXT })
    .trim()
    .max(max, { error: tooLong(max), abort: true })
    .refine(multiline ? isCleanLines : isOneLine, { error: INVALID_CHARS });
}

/** An e-mail address, read by the one parser (domain/email.ts): lower-case, its domain a host name. */
function email(required: string) {
  return text(required).transform((s, ctx) => parseEmail(s)?.address ?? (ctx.addIssue({ code: 'custom', message: INVALID_EMAIL }), z.NEVER));
}

export const sendLinkSchema = body({ email: email(MSG.emailRequired) });

export const completeLinkSchema = body({
  email: email(MSG.missingEmail),
  token: z.string({ error: MSG.invalidLink }).regex(/^[\x21-\x7e]{1,200}$/, { error: MSG.invalidLink }),
});

/** The link that confirms a new e-mail address (see EMAIL_LINK_SPENT on the server for a spent one). */
export const confirmEmailSchema = body({
  token: z.string({ error: 'This confirmation link is not complete.' }).regex(/^[\x21-\x7e]{1,200}$/, { error: 'This confirmation link is not complete.' }),
});

export const profileSchema = body({
  name: text(MSG.nameRequired),
  greeting: optionalText(MAX_GREETING)
    .nullable()
    .optional()
    .transform((g) => (g === '' ? null : g)),
});

/** Made by the form when it is filled; a request repeated with it is answered once (see rotation service). */
const actionId = z
  .string({ error: 'actionId must be text' })
  .regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'actionId must be 8 to 64 letters, digits, - or _' })
  .optional();

export const assignSchema = body({
  customer: text('Customer is required'),
  actionId,
  /** A be-back: the salesman the customer asks for gets the lead, outside the rotation. */
  askedFor: z.preprocess((v) => (v === '' || v === null ? undefined : v), text('Choose the salesman the customer asks for').optional()),
});

export const skipSchema = body({
  actionId,
  targetUid: text(SKIP_WHOM),
  reason: text('Reason required'),
  minutes: z
    .number({ error: BAD_MINUTES })
    .int({ error: BAD_MINUTES })
    .min(1, { error: BAD_MINUTES })
    .max(MAX_SNOOZE_MINUTES, { error: BAD_MINUTES })
    /** Left out: the dealership's Skip snooze rule. */
    .optional(),
});

export const toggleSchema = body({
  uid: text('uid required'),
  active: z.boolean({ error: 'active must be true or false' }).optional(),
  onDuty: z.boolean({ error: 'onDuty must be true or false' }).optional(),
}).refine((v) => v.active !== undefined || v.onDuty !== undefined, {
  error: 'Say which status to change: active or onDuty',
});

/** At most this many people in a line a manager reorders. */
const MAX_LINE = 500;
const idList = (what: string) =>
  z
    .array(
      z
        .string({ error: `${what} must be a list of user ids` })
        .min(1, { error: `${what} must be a list of user ids` })
        .max(MAX_TEXT, { error: tooLong(MAX_TEXT) }),
      {
        error: `${what} must be a list of user ids`,
      },
    )
    .max(MAX_LINE, { error: `${what}: at most ${MAX_LINE} people` });

/**
 * A manager reorders the line: whom he moved, the line as his screen showed it (ids, Next Up
 * first) and the same people in the order he wants them served. A line that changed since his
 * screen was drawn is refused (see domain/rotation.ts reorderLine).
 */
export const reorderSchema = body({
  uid: text('uid required'),
  shown: idList('shown (the line as your screen shows it)'),
  order: idList('order (the line as you want it)'),
});

const storeCode = z.unknown().transform((v, ctx) => readCode(v) ?? (ctx.addIssue({ code: 'custom', message: BAD_CODE }), z.NEVER));
const timezone = text(BAD_TIMEZONE, 64).refine(isTimeZone, { error: BAD_TIMEZONE });
/** The stores a person is in, by code: at least one. */
const storeCodes = z.array(storeCode, { error: 'stores must be a list of store codes' }).min(1, { error: 'Choose at least one store' }).max(100);

/** A new store's code: a code, and none the portal reads as something else (domain/stores.ts RESERVED_CODES). */
const newStoreCode = z.unknown().transform((v, ctx) => {
  const error = newCodeError(v);
  return error ? (ctx.addIssue({ code: 'custom', message: error }), z.NEVER) : (readCode(v) as string);
});
export const storeSchema = body({ name: text('Store name is required', 80), code: newStoreCode, timezone });
export const storePatchSchema = body({ name: text('Store name is required', 80).optional(), timezone: timezone.optional() });
export const chooseStoreSchema = body({ code: storeCode });
/** A dealer (its name or id, as a group key's sender writes it) mapped to a store. */
export const dealerMapSchema = body({ dealer: text(BAD_DEALER, MAX_DEALER), store: storeCode });

export const saveUserSchema = body({
  id: text('id required').optional(),
  email: email('Email is required.'),
  name: optionalText(MAX_TEXT).nullable().optional().transform(normalizeName),
  role: z.unknown().optional().transform(normalizeRole),
  /** A group manager: every store. Only a group manager may make one. */
  groupManager: z.boolean({ error: 'groupManager must be true or false' }).optional(),
  /** Left out: the store the request is made in. */
  stores: storeCodes.optional(),
});

/** A change to a person: the e-mail is always sent; a name or role left out keeps its value. */
export const editUserSchema = body({
  id: text('id required').optional(),
  email: email('Email is required.'),
  name: optionalText(MAX_TEXT)
    .nullable()
    .optional()
    .transform((n) => (n === undefined ? undefined : normalizeName(n))),
  role: z
    .unknown()
    .optional()
    .transform((r) => (r === undefined ? undefined : normalizeRole(r))),
  groupManager: z.boolean({ error: 'groupManager must be true or false' }).optional(),
  stores: storeCodes.optional(),
});

export const notesSchema = body({ notes: optionalText(MAX_NOTES, true) });

const frontGross = z.union([z.string(), z.number()], { error: (iss) => (iss.input == null ? GROSS_REQUIRED : GROSS_INVALID) }).transform((v, ctx) => {
  const blank = typeof v === 'string' && v.trim() === '';
  const cents = blank ? null : parseMoneyToCents(v);
  if (cents === null) {
    ctx.issues.push({ code: 'custom', message: blank ? GROSS_REQUIRED : GROSS_INVALID, input: v });
    return z.NEVER;
  }
  return cents;
});

// Not strict: a client may send its own commission, which is dropped because the server computes it.
const saleFields = {
  date: z.string({ error: INVALID_DATE }).trim().refine(isValidDayKey, { error: INVALID_DATE }),
  vehicleType: z.enum(['new', 'used'], { error: 'Vehicle type must be new or used' }),
  frontGross,
  split: z.enum(['full', 'half'], { error: 'Split must be full or half' }),
  /** Who bought; a sale of a lead takes the lead's customer. */
  customer: optionalText(MAX_TEXT).optional(),
  /** The salesman answered the store's question about a large front gross (saleAmountQuestion): the amount is right. */
  sure: z.boolean({ error: 'sure must be true or false' }).optional(),
};
const inCents = <T extends { frontGross?: number }>({ frontGross, ...rest }: T): Omit<T, 'frontGross'> & { frontGrossCents: T['frontGross'] } => ({
  ...rest,
  frontGrossCents: frontGross,
});

export const saleSchema = z
  .object({ ...saleFields, vehicleType: saleFields.vehicleType.default('new'), split: saleFields.split.default('full') }, { error: 'Invalid request body' })
  .transform(inCents);

/** Sold: the sale of the lead (its customer comes from the lead), once per action id. */
export const soldSchema = z
  .strictObject(
    { ...saleFields, vehicleType: saleFields.vehicleType.default('new'), split: saleFields.split.default('full'), actionId: text('actionId required', 100) },
    { error: (iss) => (iss.code === 'unrecognized_keys' ? `Unknown field: ${iss.keys.join(', ')}` : 'Invalid request body') },
  )
  .transform(inCents);

/** A change to a sale: the fields sent replace the sale's, the others stay. */
export const salePatchSchema = z.object(saleFields, { error: 'Invalid request body' }).partial().transform(inCents);

const DATE_IN_FUTURE = 'Date cannot be in the future.';
const DATE_TOO_EARLY = 'Date cannot be before 2000.';

/** What is wrong with a sale's date, given today in the dealership's time zone (YYYY-MM-DD); null when fine. */
export function saleDateError(date: string, today: string): string | null {
  if (!isValidDayKey(date)) return INVALID_DATE;
  if (date < MIN_SALE_DATE) return DATE_TOO_EARLY;
  if (date > today) return DATE_IN_FUTURE;
  return null;
}

/** The store's question before a front gross above its amount (the rule "Ask before saving a front gross above"); null when none. */
export function saleAmountQuestion(frontGrossCents: number, checkAboveDollars: number): string | null {
  return frontGrossCents > checkAboveDollars * 100
    ? `Front gross ${formatCents(frontGrossCents)} is above ${formatCents(checkAboveDollars * 100)}. Check the amount, or save it as it is.`
    : null;
}

/** A sale as of `today`: no date after today, none before 2000. */
export const saleSchemaOn = (today: string) =>
  saleSchema.superRefine((v, ctx) => {
    const err = saleDateError(v.date, today);
    if (err) ctx.addIssue({ code: 'custom', message: err, path: ['date'] });
  });

// ADF comments come with CRLF line ends, so a lead's text may hold \r where a note may not.
const CONTROL_BUT_CRLF = /[^\P{Cc}\n\t\r]/u;

const leadField = (label: string, max: number, multiline = false) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, { error: `${label}: ${tooLong(max)}`, abort: true })
    .refine((s) => !(multiline ? CONTROL_BUT_CRLF : CONTROL).test(s), { error: `${label} contains invalid characters` })
    .nullish();

/** A lead sent as JSON. Only the customer's name is required. */
export const leadSchema = z.strictObject(
  {
    customer: z
      .string({ error: (iss) => (iss.input == null ? 'Customer name is required' : 'customer must be text') })
      .trim()
      .min(1, { error: 'Customer name is required', abort: true })
      .max(200, { error: `customer: ${tooLong(200)}`, abort: true })
      .refine((s) => !CONTROL.test(s), { error: 'customer contains invalid characters' })
      .meta({ description: "The customer's name." }),
    phone: leadField('phone', 40),
    email: leadField('email', 200),
    vehicle: leadField('vehicle', 200).meta({ description: 'Vehicle of interest, e.g. "2024 Honda Accord EX".' }),
    vin: leadField('vin', 40),
    comments: leadField('comments', 5000, true),
    source: leadField('source', 100).meta({ description: "Where the lead came from; defaults to the integration's name." }),
    externalId: leadField('externalId', 200).meta({
      description: 'Your id for this lead. The same id from the same source is stored once; a repeat answers "duplicate".',
    }),
    dealer: leadField('dealer', 200).meta({
      description:
        "With a key for the whole group: the dealership the lead is for (its name or id), mapped to a store under Manager → Integrations. A store's own key ignores it.",
    }),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? `Unknown field: ${iss.keys.join(', ')}` : 'Expected a JSON object with at least "customer"') },
);
export type LeadInput = z.output<typeof leadSchema>;

/** A name for a lead that came in without one (or a corrected one), set by its salesman or a manager. */
export const leadNameSchema = body({ customer: text('Customer name is required') });

/** A salesman clocking themselves in or out. */
export const dutySchema = body({ onDuty: z.boolean({ error: 'onDuty must be true or false' }) });

/** The name a manager gives an API key (Manager → Integrations). */
export const keyNameSchema = body({ name: text(MSG.nameRequired, 60) });

/** The name a manager gives a showroom TV's link ("Showroom TV"), so his store's links tell apart. */
export const tvLinkSchema = body({ name: text('Name the TV link', 60) });

/** A passkey's name in Settings ("Work laptop"); domain/passkeys.ts has the rest of its inputs. */
export const passkeyName = text('Name the passkey', 60);

export function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid input';
}

/** A salesman's contact with the customer: how, and an optional note. */
/** A date and time on the dealership's clock, as a date-time field sends it: "2026-11-26T15:30". */
const localTime = (label: string) =>
  z
    .string({ error: `${label} must be a date and time` })
    .trim()
    .refine((s) => LOCAL_TIME.test(s) && isValidDayKey(s.slice(0, 10)), { error: `${label} must be a date and time like 2026-11-26T15:30` });

/** A logged contact: how, how it went, a note, and when to follow up next (the rule's default when left out). */
export const contactSchema = body({
  channel: z.enum(CONTACT_CHANNELS, { error: 'Choose how you contacted the customer' }),
  outcome: z.enum(CONTACT_OUTCOMES, { error: `Outcome must be one of: ${CONTACT_OUTCOMES.join(', ')}` }).optional(),
  note: optionalText(MAX_NOTE).optional(),
  nextFollowUp: localTime('Next follow-up').optional(),
});
export const appointmentSchema = body({ at: localTime('Appointment') });
export const showSchema = body({ shown: z.boolean({ error: 'Say whether the customer came: shown true or false' }) });
export const lostSchema = body({ reason: text('Choose why the lead was lost', 60), note: optionalText(MAX_NOTE).optional() });

const HAND_OUT_WHY = 'Say why you hand it to this salesman';
const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/**
 * A manager hands out a lead waiting in Unassigned: to Next Up, or to a salesman he names (`to`,
 * an override, with the reason why). A lead waiting for its salesman's Accept may be handed to a
 * named salesman too. A second press finds it taken.
 */
export const handOutSchema = body({
  to: z.preprocess(blankToUndefined, text(HAND_OUT_WHOM).optional()),
  reason: z.preprocess(blankToUndefined, text(HAND_OUT_WHY).optional()),
}).superRefine((v, ctx) => {
  if (v.to && !v.reason) ctx.addIssue({ code: 'custom', message: HAND_OUT_WHY, path: ['reason'] });
  if (!v.to && v.reason) ctx.addIssue({ code: 'custom', message: HAND_OUT_WHOM, path: ['to'] });
});

const DAY_NOT_YET = 'Pick today or a day before it.';

/** The day of a floor report, given today in the dealership's zone: a real date, not after today. */
export const reportDaySchemaOn = (today: string) =>
  body({
    day: z
      .string({ error: INVALID_DATE })
      .trim()
      .refine(isValidDayKey, { error: INVALID_DATE, abort: true })
      .refine((d) => d <= today, { error: DAY_NOT_YET }),
  });

/** An address the portal takes lead mail for, added under Manager → Integrations. */
export const leadAddressSchema = body({ address: email('Enter the lead address, like leads@yourdealer.com') });

/** A lead a manager makes from a mail with no ADF in it (Leads → Mail to review). */
export const mailLeadSchema = body({
  customer: text('Customer name is required'),
  phone: leadField('phone', 40),
  email: leadField('email', 200),
  vehicle: leadField('vehicle', 200),
  comments: leadField('comments', 5000, true),
});

/** Why a manager dismisses a mail that made no lead. */
export const dismissMailSchema = body({ reason: text('Say why this mail is dismissed') });
