import type { Browser, Page } from '@playwright/test';
import { signIn } from './session';

/** A person signed in on a page of their own, with a unique display name. */
export async function personPage(browser: Browser, email: string, name: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email);
  const res = await page.request.patch('/api/profile', { data: { name } });
  if (!res.ok()) throw new Error(`could not name ${email}: ${res.status()}`);
  await page.reload();
  return page;
}

export const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
