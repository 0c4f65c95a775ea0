import fs from 'node:fs';
import { expect } from '@playwright/test';
import { dayKey } from '../../domain/time';
import { slotEnv } from './slot';

/** The e2e server's zone (APP_TIMEZONE's default): "today" is its date, not UTC's. */
export const E2E_TZ = 'America/New_York';
export const today = () => dayKey(new Date(), E2E_TZ);

const offsetNow = (file: string) => (fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8')) : 0);

/**
 * Moves the worker's portal's clock `ms` ahead (support/server-clock.mjs) and waits until the
 * portal has taken it. Its next sweep (within 15 s) sees the moved time. It only goes forward, as
 * a real clock does: nothing the portal stamped meanwhile ends up in its future.
 */
export async function moveServerClock(ms: number) {
  if (!(ms > 0)) throw new Error(`the portal's clock only goes forward (asked to move it ${ms} ms)`);
  const file = slotEnv('CLOCK_FILE');
  const offset = offsetNow(file) + ms;
  fs.rmSync(`${file}.ack`, { force: true });
  fs.writeFileSync(file, String(offset));
  process.kill(Number(slotEnv('PID')), 'SIGUSR2');
  await expect.poll(() => (fs.existsSync(`${file}.ack`) ? fs.readFileSync(`${file}.ack`, 'utf8') : null)).toBe(String(offset));
}
