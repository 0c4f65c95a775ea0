const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
const real = (v: string) => (v && !v.startsWith('__') ? v : '');

/** Names the server writes into the page, so one build serves every dealership. */
export const APP_NAME = real(meta('app-name')) || 'BDC Portal';
export const DEALERSHIP_NAME = real(meta('dealership-name'));
/** The dealership's zone (APP_TIMEZONE): "today" and every time shown are on its clock. */
export const APP_TIMEZONE = real(meta('app-timezone')) || Intl.DateTimeFormat().resolvedOptions().timeZone;
