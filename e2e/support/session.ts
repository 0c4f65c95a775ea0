import { expect, type Page } from '@playwright/test';
import { mailsTo, nextLink } from './mail';

/** Signs in through the real page, the real mail and the real link; ends on the overview. */
export async function signIn(page: Page, email: string) {
  const seen = mailsTo(email).length;
  await page.goto('/');
  await page.getByLabel('Work Email').fill(email);
  await page.getByRole('button', { name: 'Send Sign-in Link' }).click();
  await expect(page.getByText('Link Sent!')).toBeVisible();
  const link = await nextLink(email, seen);
  await page.goto(link);
  await expect(page).toHaveURL(/\/dashboard\/overview$/);
  return link;
}
