/** How long every lead mail is listed (and kept) with what became of it. */
export const MAIL_KEPT_DAYS = 30;

/** What a manager's "Make a lead" form starts with, read from a mail with no ADF in it. */
export interface Prefill {
  customer: string;
  phone: string;
  email: string;
  vehicle: string;
  comments: string;
}

/** The labels web forms and providers write, folded to lower case without spaces, by the field they fill. */
const LABELS: Record<keyof Prefill, string[]> = {
  customer: ['name', 'fullname', 'customer', 'customername', 'contact', 'contactname', 'firstlastname'],
  phone: ['phone', 'phonenumber', 'telephone', 'tel', 'mobile', 'cell', 'cellphone', 'dayphone', 'homephone'],
  email: ['email', 'e-mail', 'emailaddress', 'e-mailaddress', 'mail'],
  vehicle: ['vehicle', 'vehicleofinterest', 'car', 'interestedin', 'stock', 'model', 'vehicleinterest'],
  comments: ['comments', 'comment', 'message', 'questions', 'notes', 'note', 'question'],
};
const FIRST = ['firstname', 'first'];
const LAST = ['lastname', 'last', 'surname'];

const fold = (label: string) => label.toLowerCase().replace(/[\s_*]+/g, '');

/**
 * "Label: value" lines of a mail's text, read into a lead's fields: the first value of each field
 * wins; a First name and a Last name make the name; a Comments label takes the lines after it up
 * to the next label or blank line. Nothing found is ''.
 */
export function labelledFields(text: string): Prefill {
  const out: Prefill = { customer: '', phone: '', email: '', vehicle: '', comments: '' };
  let first = '';
  let last = '';
  let inComments = false;
  const lines = text.replace(/\r\n?/g, '\n').split('\n').slice(0, 500);
  for (const raw of lines) {
    const line = raw.replace(/^[>\s]+/, '').trim();
    const m = /^([A-Za-z][A-Za-z _*-]{0,30}?)\s*[:=]\s*(.*)$/.exec(line);
    const label = m ? fold(m[1]) : '';
    const field = m ? (Object.keys(LABELS) as (keyof Prefill)[]).find((f) => LABELS[f].includes(label)) : undefined;
    const value = m ? m[2].trim().slice(0, 1000) : '';
    if (m && (field || FIRST.includes(label) || LAST.includes(label))) {
      inComments = field === 'comments';
      if (FIRST.includes(label)) first ||= value;
      else if (LAST.includes(label)) last ||= value;
      else if (field && !out[field]) out[field] = value;
      continue;
    }
    // A comment runs on to the next label or the first blank line after it.
    if (m || (!line && out.comments)) inComments = false;
    else if (inComments && line) out.comments = out.comments ? `${out.comments}\n${line}` : line;
  }
  if (!out.customer) out.customer = [first, last].filter(Boolean).join(' ');
  out.email = /[^@\s<>()]+@[^@\s<>()]+\.[^@\s<>()]+/.exec(out.email)?.[0] ?? '';
  out.comments = out.comments.slice(0, 2000);
  return out;
}

/** The domain of a sender's address ('' when none): a mail lead's source when its ADF names no provider. */
export const senderDomain = (address: string) => /@([^@\s>]+)\s*$/.exec(address.trim())?.[1]?.toLowerCase() ?? '';

/** The slowest a message may come in by SMTP: bytes a second on average since its DATA began, once a grace period is over (0: no minimum). */
export interface RateRule {
  bytesPerSecond: number;
  graceMs: number;
}

/** The first moment a DATA phase begun at `began`, with `bytes` received, may be too slow: when to look again. */
export const slowFrom = (began: number, bytes: number, rule: RateRule) =>
  rule.bytesPerSecond > 0 ? began + Math.max(rule.graceMs, (bytes / rule.bytesPerSecond) * 1000) : Infinity;

/** Whether it is too slow at `now`: past the grace period, and under the minimum on average. */
export const tooSlow = (began: number, bytes: number, now: number, rule: RateRule) =>
  rule.bytesPerSecond > 0 && now - began >= rule.graceMs && bytes * 1000 < rule.bytesPerSecond * (now - began);
