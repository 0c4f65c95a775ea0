const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
const real = (v: string) => (v && !v.startsWith('__') ? v : '');

/** Names the server writes into the page, so one build serves every dealership. */
export const APP_NAME = real(meta('app-name')) || 'BDC Portal';
export const DEALERSHIP_NAME = real(meta('dealership-name'));
/**
 * The server's APP_TIMEZONE: a new store's default, and the clock of the pages outside a store.
 * A store's screens use that store's own zone (useTimeZone in stores/store.ts).
 */
export const APP_TIMEZONE = real(meta('app-timezone')) || Intl.DateTimeFormat().resolvedOptions().timeZone;
