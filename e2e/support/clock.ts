import fs from 'node:fs';
import { expect } from '@playwright/test';
import { dayKey } from '../../domain/time';
import { slotEnv } from './slot';

/** The e2e server's zone (APP_TIMEZONE's default): "today" is its date, not UTC's. */
export const E2E_TZ = 'America/New_York';
export const today = () => dayKey(new Date(), E2E_TZ);

const offsetNow = (file: string) => (fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8')) : 0);

/** Sets the worker's portal's clock `offset` ms off real time and waits until the portal has taken it. */
async function setServerClock(offset: number) {
  const file = slotEnv('CLOCK_FILE');
  fs.rmSync(`${file}.ack`, { force: true });
  fs.writeFileSync(file, String(offset));
  process.kill(Number(slotEnv('PID')), 'SIGUSR2');
  await expect.poll(() => (fs.existsSync(`${file}.ack`) ? fs.readFileSync(`${file}.ack`, 'utf8') : null)).toBe(String(offset));
}

/**
 * Moves the worker's portal's clock `ms` ahead (support/server-clock.mjs) and waits until the
 * portal has taken it. Its next sweep (within 15 s) sees the moved time. The browsers keep real
 * time unless the test moves theirs too (page.clock).
 */
export const moveServerClock = (ms: number) => setServerClock(offsetNow(slotEnv('CLOCK_FILE')) + ms);

/**
 * Puts the portal's clock back on real time, as a test that moved it does when it ends: the next
 * test's browsers count down to the portal's deadlines on their own clocks (a portal left 100 s
 * ahead showed a one-minute window as "2:41 left").
 */
export const resetServerClock = () => setServerClock(0);
