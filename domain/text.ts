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

/**
 * How a search reads text: in lower case, each accented Latin letter as its base letter ("María"
 * reads "maria"), so "maria" finds "María González" and "gonzalez" too. The letters are those of
 * Latin-1 to Latin Extended-B and Latin Extended Additional that Unicode decomposes into an ASCII
 * letter and accents; letters that are not a base letter with accents (ø, æ, đ, ß) stay. The
 * database reads text the same way from these two strings (PostgreSQL's translate, the SQLite
 * fold function); SQLite's full-text table strips the same accents itself (remove_diacritics).
 */
export const [FOLD_FROM, FOLD_TO] = (() => {
  let from = '';
  let to = '';
  for (const [lo, hi] of [
    [0xc0, 0x24f],
    [0x1e00, 0x1eff],
  ])
    for (let cp = lo; cp <= hi; cp++) {
      const c = String.fromCodePoint(cp);
      if (c.toLowerCase() !== c) continue;
      const base = c.normalize('NFD').replace(/\p{M}/gu, '');
      if (base !== c && /^[a-z]$/.test(base)) {
        from += c;
        to += base;
      }
    }
  return [from, to];
})();
const FOLDS = new Map([...FOLD_FROM].map((c, i) => [c, FOLD_TO[i]]));

/** Text as a search reads it (see FOLD_FROM). The Turkish İ lowers to i and a dot here, to i in PostgreSQL: i. */
export const fold = (s: string) => Array.from(s.replaceAll('İ', 'I').toLowerCase(), (c) => FOLDS.get(c) ?? c).join('');
