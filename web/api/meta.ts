const meta = (name: string) => (typeof document === 'undefined' ? '' : (document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? ''));
const real = (v: string) => (v && !v.startsWith('__') ? v : '');

/** Names the server writes into the page, so one build serves every dealership. */
export let APP_NAME = real(meta('app-name')) || 'BDC Portal';
export let DEALERSHIP_NAME = real(meta('dealership-name'));
/**
 * The server's APP_TIMEZONE: a new store's default, and the clock of the pages outside a store.
 * A store's screens use that store's own zone (useTimeZone in stores/store.ts).
 */
export let APP_TIMEZONE = real(meta('app-timezone')) || Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Where the server draws a page (web/entry-server.tsx), the names it writes into the page. */
export function setNames(names: { appName: string; dealershipName: string; timezone: string }) {
  APP_NAME = names.appName || APP_NAME;
  DEALERSHIP_NAME = names.dealershipName;
  APP_TIMEZONE = names.timezone || APP_TIMEZONE;
}
