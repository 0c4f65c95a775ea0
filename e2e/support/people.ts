import type { Browser, Page } from '@playwright/test';
import { signInQuietly } from './session';

/**
 * A person signed in on a page of their own, with a unique display name. Newcomers start off
 * duty; a salesman clocks in ("I'm on the floor") unless `onFloor` is false.
 */
export async function personPage(browser: Browser, email: string, name: string, { onFloor = true } = {}): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signInQuietly(page, email);
  const res = await page.request.patch('/api/profile', { data: { name } });
  if (!res.ok()) throw new Error(`could not name ${email}: ${res.status()}`);
  const me = (await (await page.request.get('/api/auth/me')).json()).user;
  if (onFloor && me.role === 'staff') {
    const duty = await page.request.post('/api/rotation/duty', { data: { onDuty: true } });
    if (!duty.ok()) throw new Error(`could not clock ${email} in: ${duty.status()}`);
  }
  await page.goto('/dashboard/overview');
  return page;
}

export const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

/** An address nobody else in the run uses (the staff domain), so a spec starts from a new person. */
export const uniqueEmail = (prefix: string) => `${prefix}.${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}@e2e.test`;

/**
 * Hands walk-ins out through the real API until `name` is Next Up, so the next lead is theirs
 * however many others the shared database has on the floor.
 */
export async function makeNextUp(manager: Page, name: string) {
  for (let i = 0; i < 500; i++) {
    const view = await (await manager.request.get('/api/rotation')).json();
    if (view.nextUp?.name === name) return;
    const res = await manager.request.post('/api/rotation/assign', { data: { customer: unique('Filler') } });
    if (!res.ok()) throw new Error(`assign failed: ${res.status()} ${await res.text()}`);
  }
  throw new Error(`${name} never came up in the rotation`);
}

/** Assigns customers through the real API until `count` of them went to `name`; returns theirs. */
export async function assignUntil(manager: Page, name: string, count: number, prefix = 'Lead'): Promise<string[]> {
  const theirs: string[] = [];
  for (let i = 0; i < 500 && theirs.length < count; i++) {
    const customer = unique(prefix);
    const res = await manager.request.post('/api/rotation/assign', { data: { customer } });
    if (!res.ok()) throw new Error(`assign failed: ${res.status()} ${await res.text()}`);
    if ((await res.json()).assignedTo.name === name) theirs.push(customer);
  }
  if (theirs.length < count) throw new Error(`${name} never came up in the rotation`);
  return theirs;
}
