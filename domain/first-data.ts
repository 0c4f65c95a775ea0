/**
 * The screens whose first data the app asks for as it starts, before it knows the person's store
 * (web/main.tsx). The page names the same data with its address (server/http/preload.ts): on an
 * address without a store, without one, and the server answers from the person's own store.
 */
const ASKED_AT_START = ['overview', 'routing'] as const;
export type AskedAtStart = (typeof ASKED_AT_START)[number];
export const isAskedAtStart = (screen: string): screen is AskedAtStart => (ASKED_AT_START as readonly string[]).includes(screen);
