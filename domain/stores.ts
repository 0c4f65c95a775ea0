/** A rooftop of the group, as every screen and route names it. */
export interface Store {
  id: number;
  /** Short and unique, in capitals: it is in the address (/s/NSH/dashboard). */
  code: string;
  name: string;
  /** Its clock: "today", hours, closing and reports. */
  timezone: string;
}

const STORE_CODE = /^[A-Z0-9]{2,8}$/;
export const BAD_CODE = 'Store code must be 2 to 8 letters or digits, like NSH';
export const BAD_TIMEZONE = 'Time zone must be an IANA zone like America/Chicago';

/** A store's code as written in an address or a form: capitals, no spaces; null when it cannot be one. */
export function readCode(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const code = v.trim().toUpperCase();
  return STORE_CODE.test(code) ? code : null;
}

/**
 * Codes the portal reads as something else, which no new store may take: GROUP is the group's own
 * marker in INBOUND_ADDRESSES (`leads@dealer.com=GROUP`); the others are kept for the words an
 * address or a setting may come to read (S is the store part of /s/NSH, too short anyway). A store
 * an older release gave one keeps it (codes never change); `=GROUP` still means the group.
 */
const RESERVED_CODES: readonly string[] = ['GROUP', 'API', 'S', 'ALL', 'NEW', 'ADMIN', 'NONE', 'STORE', 'STORES'];
const reservedCodeText = (code: string) => `${code} means something else in the portal: pick another store code.`;

/** Why a code cannot be a new store's, or null when it can. */
export function newCodeError(v: unknown): string | null {
  const code = readCode(v);
  if (!code) return BAD_CODE;
  return RESERVED_CODES.includes(code) ? reservedCodeText(code) : null;
}

/** A code made from a name ("Northside Honda" → NH) for a store nobody named one for. */
export function codeFromName(name: string): string {
  const words = name.toUpperCase().match(/[A-Z0-9]+/g) ?? [];
  const initials = words.map((w) => w[0]).join('');
  const code = (initials.length >= 2 ? initials : (words[0] ?? '')).slice(0, 8);
  return code.length >= 2 && !RESERVED_CODES.includes(code) ? code : 'MAIN';
}

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz.length > 0;
  } catch {
    return false;
  }
}

/** The path of a screen in a store: /s/NSH/dashboard/routing. */
export const storePath = (code: string, rest: string) => `/s/${code}${rest.startsWith('/') ? rest : `/${rest}`}`;
