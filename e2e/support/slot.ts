/**
 * Each Playwright worker has a portal of its own (global-setup starts one per worker: its own
 * SQLite database, mail, texts and lead mail receiver), so two tests running at once never see
 * each other's rotation. A worker finds its portal by its parallel index.
 */
export const slot = () => Number(process.env.TEST_PARALLEL_INDEX ?? 0);
/** The worker's portal (read by playwright.config.ts in each worker, after global-setup chose the ports). */
export const slotUrl = () => process.env[`E2E_URL_${slot()}`];

type Key = 'URL' | 'PID' | 'CLOCK_FILE' | 'MAIL_DIR' | 'DATA_DIR' | 'INBOUND_PORT' | 'SMS_DIR' | 'SMS_TOKEN' | 'SESSION_SECRET' | 'PUSH_PORT';
/** This worker's value of a setting global-setup made for each portal. */
export function slotEnv(key: Key): string {
  const value = process.env[`E2E_${key}_${slot()}`];
  if (value === undefined) throw new Error(`E2E_${key}_${slot()} is not set: run the browser tests with playwright test`);
  return value;
}
export const setSlotEnv = (n: number, key: Key, value: string) => (process.env[`E2E_${key}_${n}`] = value);
