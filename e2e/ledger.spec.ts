import { expect, test } from '@playwright/test';
import { makeNextUp, personPage, unique, uniqueEmail } from './support/people';
import { layoutProblems } from './support/layout';

const MANAGER = 'manager@e2e.test';

test('a salesman skipped by a manager sees the skip, its reason and the up he was passed over for on his own page', async ({ browser }) => {
  const name = unique('Lex');
  const rep = await personPage(browser, uniqueEmail('lex'), name);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  // Someone else on the floor to take the ups while he is snoozed.
  const other = await personPage(browser, uniqueEmail('lex-other'), unique('Ola'));
  const repId = (await (await rep.request.get('/api/auth/me')).json()).user.uid as string;

  // He is Next Up; the manager skips him with a reason.
  await makeNextUp(boss, name);
  const skipped = await boss.request.post('/api/rotation/skip', { data: { targetUid: repId, reason: 'Long lunch again', minutes: 60 } });
  expect(skipped.ok()).toBe(true);
  // Ups go out until the line comes round to him while he is snoozed: he is passed over.
  let passed = false;
  for (let i = 0; i < 200 && !passed; i++) {
    const res = await boss.request.post('/api/rotation/assign', { data: { customer: unique('Walk-in') } });
    expect(res.ok(), await res.text()).toBe(true);
    expect((await res.json()).assignedTo.id).not.toBe(repId);
    const own = await (await rep.request.get(`/api/ledger/${repId}`)).json();
    passed = own.events.some((e: { kind: string }) => e.kind === 'pass');
  }
  expect(passed).toBe(true);

  await rep.setViewportSize({ width: 375, height: 800 });
  await rep.goto('/dashboard/associates');
  const fairness = rep.getByTestId('fairness');
  await expect(fairness.getByRole('heading', { name: 'Fairness' })).toBeVisible();
  const events = fairness.getByTestId('fairness-event');
  await expect(events.filter({ hasText: /^Skipped/ }).filter({ hasText: 'Long lunch again' })).toContainText('Skipped by Manny Manager');
  await expect(events.filter({ hasText: /^Passed over/ }).first()).toContainText('Snoozed: skipped by Manny Manager (Long lunch again)');
  await expect(events.filter({ hasText: /^Passed over/ }).first()).toContainText('Up went to');
  await expect(fairness.getByTestId('fairness-ups')).toContainText('0');
  await expect(fairness.getByTestId('fairness-hours')).toContainText('min');
  expect(await layoutProblems(rep)).toEqual([]);

  // Another salesman's ledger is not his to read.
  const bossId = (await (await boss.request.get('/api/auth/me')).json()).user.uid as string;
  expect((await rep.request.get(`/api/ledger/${bossId}`)).status()).toBe(403);

  // The manager sees the whole team side by side, and his passes when he picks him.
  await boss.setViewportSize({ width: 375, height: 800 });
  await boss.goto('/dashboard/associates');
  const row = boss.getByTestId('fairness-person').filter({ hasText: name });
  await expect(row).toContainText('On the floor');
  await expect(row).toContainText('Skipped 1');
  await boss.getByRole('combobox', { name: "See one salesman's passes" }).fill(name);
  await boss.getByRole('option', { name }).click();
  await expect(boss.getByTestId('fairness-event').filter({ hasText: 'Long lunch again' }).first()).toBeVisible();
  expect(await layoutProblems(boss)).toEqual([]);
  await rep.context().close();
  await other.context().close();
  await boss.context().close();
});
