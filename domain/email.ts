import { isHostName } from './net';

export const INVALID_EMAIL = 'Enter a valid e-mail address';

/** An e-mail address as the portal keeps it: lower-case, its domain in ASCII (IDNA). */
export interface Email {
  address: string;
  local: string;
  domain: string;
}

/** Dot-separated words of letters (any script), digits, marks and _ ' + -: what people's work addresses are made of. */
const LOCAL = /^[\p{L}\p{M}\p{N}_'+-]+(\.[\p{L}\p{M}\p{N}_'+-]+)*$/u;
const DOMAIN_CHARS = /^[\p{L}\p{M}\p{N}.-]+$/u;
const ASCII = /^[\x20-\x7e]*$/;

/** Whether the text is as NFKC writes it: a Kelvin sign, a long s or a full-width letter is refused, not folded into another letter. */
const stable = (s: string) => s === s.normalize('NFKC');

/**
 * A domain as a lower-case ASCII host name: ASCII as it is, an international one in its IDNA form
 * (by the URL parser, the same in browsers and node); null when it is no host name.
 */
export function emailDomain(input: string): string | null {
  let d = input.toLowerCase();
  if (!ASCII.test(d)) {
    if (!DOMAIN_CHARS.test(d) || !stable(d)) return null;
    try {
      d = new URL(`http://${d}`).hostname;
    } catch {
      return null;
    }
  }
  return isHostName(d) ? d : null;
}

/**
 * The one reading of an e-mail address, wherever one enters (the link, single sign-on, the command
 * line, the API): exactly one @, no quotes or comments, a local part of plain words, a domain
 * that is a host name; nothing that NFKC would change (so no address turns into another person's by
 * case folding); lower-cased. Null when it is not such an address.
 */
export function parseEmail(input: string): Email | null {
  const s = input.trim();
  if (s.length > 254 || !stable(s)) return null;
  const at = s.indexOf('@');
  if (at < 1 || s.indexOf('@', at + 1) !== -1) return null;
  const local = s.slice(0, at).toLowerCase();
  if (local.length > 64 || !LOCAL.test(local) || !stable(local)) return null;
  const domain = emailDomain(s.slice(at + 1));
  if (!domain) return null;
  const address = `${local}@${domain}`;
  return address.length > 254 ? null : { address, local, domain };
}
