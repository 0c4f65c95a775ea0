const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
const real = (v: string) => (v && !v.startsWith('__') ? v : '');

/** Names the server writes into the page, so one build serves every dealership. */
export const APP_NAME = real(meta('app-name')) || 'BDC Portal';
export const DEALERSHIP_NAME = real(meta('dealership-name'));
