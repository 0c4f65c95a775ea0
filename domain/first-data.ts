/**
 * The screens whose first data the app asks for as it starts, before it knows the person's store
 * (web/main.tsx). The page names the same data with its address (server/http/preload.ts): on an
 * address without a store, without one, and the server answers from the person's own store.
 */
const ASKED_AT_START = ['overview', 'routing'] as const;
export type AskedAtStart = (typeof ASKED_AT_START)[number];
export const isAskedAtStart = (screen: string): screen is AskedAtStart => (ASKED_AT_START as readonly string[]).includes(screen);

/**
 * The screens the server draws with their data (server/http/drawn.ts), by their address after
 * /dashboard/ (the group's is /group): a phone paints them before the app's code arrives.
 */
const DRAWN_SCREENS = [
  'overview',
  'routing',
  'leads',
  'desk',
  'settings',
  'management',
  'associates',
  'stats/sales',
  'stats/leads',
  'stats/funnel',
  'group',
] as const;
export type DrawnScreen = (typeof DRAWN_SCREENS)[number];
export const isDrawn = (screen: string | null): screen is DrawnScreen => DRAWN_SCREENS.some((s) => s === screen);
/** The element of a drawn page that holds its data for the app to take over (web/main.tsx). */
export const DRAWN_ID = 'drawn';
/** A drawn page's data: the address it was drawn at (a store's), the app's cache as the server filled it, and whether it was drawn for a phone. */
export interface Drawn {
  at: string;
  /** When the server began drawing it, by its clock: a change after that is not in it. */
  drawnAt: number;
  state: unknown;
  phone: boolean;
}
