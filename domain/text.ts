/**
 * The one rule for text people type into the portal (names, labels, reasons, notes). Refused:
 * control characters (a tab, a line break, NUL, a bell …), the Unicode line and paragraph
 * separators, the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069: they
 * reorder what follows on screen, so "‮gnp.exe" shows as "exe.png"), and a byte-order mark.
 * Text of several lines (a note) may hold its line breaks and tabs. Zero-width joiners stay: an
 * emoji and some scripts' names need them.
 */
const HIDDEN = '\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069\\uFEFF';
const NOT_IN_A_LINE = new RegExp(`[\\p{Cc}${HIDDEN}]`, 'u');
const NOT_IN_LINES = new RegExp(`[^\\P{Cc}\\n\\t]|[${HIDDEN}]`, 'u');

/** Whether `s` is clean one-line text. */
export const isOneLine = (s: string) => !NOT_IN_A_LINE.test(s);

/** Whether `s` is clean text of one or more lines (line breaks and tabs allowed). */
export const isCleanLines = (s: string) => !NOT_IN_LINES.test(s);

/** A clean-text refusal that names what was typed: "A team name may not hold …". */
export const notOneLineText = (what: string) => `${what} may not hold tabs, line breaks or hidden characters`;
