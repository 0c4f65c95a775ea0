import { expect, type Browser } from '@playwright/test';
import { personPage, unique, uniqueEmail } from './people';
import { E2E_TZ } from './clock';

/** A store code nobody else in the run uses, starting with `first`. */
export const uniqueCode = (first: string) => `${first}${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 36).toString(36)}`.toUpperCase();

/**
 * A store of the test's own, made by the group manager (`boss`): its screens, line and log show
 * what the test made, not what the worker's earlier specs left in its portal. `at` is a screen's
 * address in it, `there` the header that points an API call at it; `add` makes someone of the
 * store, `person` signs them in on a page of their own (their home store is this one).
 */
export async function ownStore(browser: Browser, name: string) {
  const boss = await personPage(browser, 'manager@e2e.test', 'Manny Manager');
  const code = uniqueCode(name[0]);
  const storeName = unique(name);
  const made = await boss.request.post('/api/stores', { data: { name: storeName, code, timezone: E2E_TZ } });
  expect(made.status(), await made.text()).toBe(201);
  const there = { 'x-store': code };
  const add = async (prefix: string, personName: string, role: 'staff' | 'manager' = 'staff') => {
    const email = uniqueEmail(prefix);
    const res = await boss.request.post('/api/users', { data: { email, name: personName, role, stores: [code] }, headers: there });
    expect(res.ok(), await res.text()).toBeTruthy();
    return { email, id: (await res.json()).user.id as string };
  };
  return {
    boss,
    code,
    name: storeName,
    there,
    at: (path: string) => `/s/${code}${path}`,
    add,
    person: async (prefix: string, personName: string, role: 'staff' | 'manager' = 'staff') =>
      personPage(browser, (await add(prefix, personName, role)).email, personName),
  };
}
