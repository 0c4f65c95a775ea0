import { z } from 'zod';

const BAD_MOBILE = 'Enter a mobile number like +1 843 555 0123 (with the country code, or 10 digits in the US).';
const BAD_MOBILE_CODE = 'Enter the six-digit code from the text.';

/** The longest a number may be typed with spaces, dashes, dots and brackets. */
const MAX_TYPED = 32;

/**
 * A mobile number as typed, in E.164 (+ and 8 to 15 digits, no leading 0), or null. Spaces,
 * dashes, dots and brackets are dropped; 10 digits (or 11 starting with 1) without + are a US
 * number (area code and exchange start with 2 to 9).
 */
export function readMobile(typed: string): string | null {
  if (typed.length > MAX_TYPED) return null;
  const s = typed.trim().replace(/[\s().-]/g, '');
  if (/^\+[1-9][0-9]{7,14}$/.test(s)) return s.startsWith('+1') && !isNanp(s.slice(2)) ? null : s;
  const us = /^1?([0-9]{10})$/.exec(s)?.[1];
  return us && isNanp(us) ? `+1${us}` : null;
}

/** A North American number after the +1: area code and exchange each start with 2 to 9. */
const isNanp = (ten: string) => /^[2-9][0-9]{2}[2-9][0-9]{6}$/.test(ten);

/** Shows +18435550123 as +1 843-555-0123; other countries as sent. */
export function showMobile(e164: string): string {
  const m = /^\+1([0-9]{3})([0-9]{3})([0-9]{4})$/.exec(e164);
  return m ? `+1 ${m[1]}-${m[2]}-${m[3]}` : e164;
}

export const mobileSchema = z.strictObject(
  {
    mobile: z
      .string({ error: BAD_MOBILE })
      .max(MAX_TYPED, { error: BAD_MOBILE, abort: true })
      .transform((v, ctx) => readMobile(v) ?? (ctx.addIssue({ code: 'custom', message: BAD_MOBILE }), z.NEVER)),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? `Unknown field: ${iss.keys.join(', ')}` : 'Invalid request body') },
);

export const mobileCodeSchema = z.strictObject(
  {
    code: z
      .string({ error: BAD_MOBILE_CODE })
      .trim()
      .regex(/^[0-9]{6}$/, { error: BAD_MOBILE_CODE }),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? `Unknown field: ${iss.keys.join(', ')}` : 'Invalid request body') },
);

/** His text messages as Settings shows them. */
export const mobileState = z.object({
  /** Whether the portal can send texts at all (the provider is set up). */
  enabled: z.boolean(),
  /** His confirmed number, E.164. */
  mobile: z.string().nullable(),
  /** He sent STOP from the phone: no texts until he sends START. */
  stopped: z.boolean(),
  /** A number waiting for its code. */
  pending: z.string().nullable(),
});
export type MobileState = z.infer<typeof mobileState>;

/** What one text from the phone asks: STOP and its synonyms turn texts off, START turns them on again. */
export function keyword(body: string): 'stop' | 'start' | null {
  const w = body.trim().toUpperCase();
  if (['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'].includes(w)) return 'stop';
  if (['START', 'UNSTOP', 'YES'].includes(w)) return 'start';
  return null;
}

/**
 * The mail to a person whose confirmed number someone else has now confirmed with the code texted
 * to it: it is no longer his. It says nothing of who (he may not know the colleague).
 */
export function numberMovedMail(app: string, name: string, mobile: string, settings: string) {
  return {
    subject: 'Your mobile number was removed',
    text: [
      `Hi ${name},`,
      '',
      `${showMobile(mobile)} was confirmed by someone else on ${app} with a code texted to it, so texts from ${app} now go to that person, no longer to you.`,
      '',
      `If it is still your phone, enter the number again under Settings → Text messages: a code will be texted to it. ${settings}`,
    ].join('\n'),
  };
}
