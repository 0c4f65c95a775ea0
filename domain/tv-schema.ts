import { z } from 'zod';
import type { TvBoard } from './tv';

/** The showroom TV's answers (domain/tv.ts holds its rules): apart, so the TV's page loads no schema code. */

const iso = z.iso.datetime({ offset: true });
const tvLine = z.object({ units: z.number().int(), pace: z.number(), daysSinceLastSale: z.number().int().nullable() });

/** What a TV link opens: its store's name and its leaderboard, nothing more. */
export const tvBoardAnswer = z.object({
  store: z.string(),
  today: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  rows: z.array(tvLine.extend({ name: z.string() })),
  team: tvLine,
}) satisfies z.ZodType<TvBoard & { store: string }>;

/** A TV link as its store's managers see it: never its secret. */
export const tvLink = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: iso,
  /** When a TV last read its board with it. */
  lastSeenAt: iso.nullable(),
  revokedAt: iso.nullable(),
});
export const tvLinkList = z.object({ links: z.array(tvLink) });
/** The link's address, with its secret: shown once, here, and never again. */
export const createdTvLink = z.object({ url: z.string(), link: tvLink });
export const oneTvLink = z.object({ link: tvLink });

export type TvLinkInfo = z.infer<typeof tvLink>;
