import type { BoardLine, BoardRow } from './board';

/**
 * The showroom TV by its own link (issue #66): a manager makes a view-only link for his store's
 * TV; its secret opens the store's leaderboard and its live updates, and nothing else. What the
 * TV shows is this file's: the board's rank, name, units, pace and days since the last sale.
 */

/** The header the TV's page sends its link's secret in (its live stream, which can send no header, sends `?tv=`). */
export const TV_HEADER = 'x-tv-token';

/** What an open TV shows when its link was revoked. */
export const TV_REVOKED = 'This TV link was revoked. Ask a manager for a new one.';
/** A secret that is no link's (mistyped, cut short, or of a database since restored). */
export const TV_UNKNOWN = 'This TV link is not valid. Ask a manager for a new one.';

/** Active links a store may have at once. */
export const MAX_TV_LINKS = 20;
export const TOO_MANY_TV_LINKS = `A store may have at most ${MAX_TV_LINKS} TV links. Revoke one you no longer use, then make the new one.`;

/** A TV link's address: the secret after #, so no server, proxy or log on the way ever sees it. */
export const tvAddress = (origin: string, token: string) => `${origin.replace(/\/+$/, '')}/tv#${token}`;

/** The TV's page finds the secret after #; a bit of text that cannot be one is no secret. */
export const tokenInHash = (hash: string): string | null => {
  const t = hash.replace(/^#/, '');
  return /^[A-Za-z0-9_-]{20,100}$/.test(t) ? t : null;
};

/** A line of the TV: units this month, its pace to the month's end, days since the last sale. */
export interface TvLine {
  units: number;
  pace: number;
  daysSinceLastSale: number | null;
}

export interface TvBoard {
  today: string;
  rows: (TvLine & { name: string })[];
  team: TvLine;
}

const tvLine = (l: BoardLine): TvLine => ({ units: l.mtd.units, pace: l.pace, daysSinceLastSale: l.daysSinceLastSale });

/** The team board as the TV shows it, in its order: no id, no money, no leads. */
export const tvBoard = (b: { today: string; rows: BoardRow[]; team: BoardLine }): TvBoard => ({
  today: b.today,
  rows: b.rows.map((r) => ({ name: r.name, ...tvLine(r) })),
  team: tvLine(b.team),
});
