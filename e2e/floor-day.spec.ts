import { expect, test } from '@playwright/test';
import { mailsTo } from './support/mail';
import { personPage, unique, uniqueEmail } from './support/people';
import { formatClock, formatDay } from '../domain/format';
import { addDays, atClock, WEEKDAYS } from '../domain/hours';
import { dayKey, wall, weekdayOf, zonedStartOfDay } from '../domain/time';
import { E2E_TZ, moveServerClock, resetServerClock, today as todayThere } from './support/clock';
import { ownStore } from './support/store';

const MANAGER = 'manager@e2e.test';

/** Waits for a mail to `to` whose text matches, and returns its text. */
async function mailMatching(to: string, pattern: RegExp) {
  await expect.poll(() => mailsTo(to).some((m) => pattern.test(m.text)), { timeout: 20_000 }).toBe(true);
  return mailsTo(to).find((m) => pattern.test(m.text))!.text;
}

test('a manager sets business hours; they are kept, and at closing everyone goes off duty, the salesman sees it live and the managers get the floor report', async ({
  browser,
}) => {
  // A closing two minutes from now on the dealership's clock (turning hours on never runs a
  // closing that fell before them), reached by moving the portal's clock and the salesman's
  // browser's past it, not by waiting. In a store of its own: put back, the portal's clock leaves
  // the closing in that store's future, where no other test looks.
  test.setTimeout(120_000);
  let closesAt = new Date(Date.now() + 120_000);
  if (dayKey(closesAt, E2E_TZ) !== todayThere()) {
    // So close to midnight that the closing would be tomorrow's: start after midnight instead.
    await new Promise((r) => setTimeout(r, closesAt.getTime() - zonedStartOfDay(dayKey(closesAt, E2E_TZ), E2E_TZ).getTime() + 1000));
    closesAt = new Date(Date.now() + 120_000);
  }
  const today = todayThere();
  const { hour, minute } = wall(closesAt, E2E_TZ);
  const close = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
  const todayName = WEEKDAYS[weekdayOf(today)];
  const other = WEEKDAYS[(weekdayOf(today) + 1) % 7];

  const shop = await ownStore(browser, 'Closing Motors');
  const repName = unique('Clara');
  const rep = await shop.person('clara', repName);
  const bossName = unique('Mona');
  const { email: bossEmail } = await shop.add('mona', bossName, 'manager');
  const boss = await personPage(browser, bossEmail, bossName);
  try {
    // The salesman's browser runs on a clock the test moves with the portal's.
    await rep.clock.install();
    await rep.goto('/dashboard/overview');
    await expect(rep.getByRole('radio', { name: "I'm on the floor" })).toBeChecked();

    await boss.goto('/dashboard/management');
    const form = boss.getByRole('form', { name: 'Dealership rules' });
    await form.getByLabel('Business hours').check();
    for (const day of WEEKDAYS) {
      await form.getByLabel(`Open on ${day}`).check();
      await form.getByLabel(`${day} opens`).fill('00:00');
      await form.getByLabel(`${day} closes`).fill(day === todayName ? close : '23:59');
    }
    // A day that closes before it opens is refused under its field, and nothing is saved.
    await form.getByLabel(`${other} closes`).fill('00:00');
    await form.getByRole('button', { name: 'Save rules' }).click();
    await expect(form.getByText(`${other} must close after it opens`)).toBeVisible();
    await form.getByLabel(`${other} closes`).fill('23:59');
    await form.getByRole('button', { name: 'Save rules' }).click();
    await expect(boss.getByText('Dealership rules saved.')).toBeVisible();
    await boss.reload();
    const kept = boss.getByRole('form', { name: 'Dealership rules' });
    await expect(kept.getByLabel(`${todayName} closes`)).toHaveValue(close);
    await expect(boss.getByRole('form', { name: 'Dealership rules' }).getByLabel('Business hours')).toBeChecked();

    // The salesman's screen, live: open until the closing, and he stays on the floor (yesterday's
    // closing fell before the hours were set and is passed over).
    await expect(rep.getByTestId('floor-hours')).toHaveText(`Open until ${formatClock(atClock(today, close, E2E_TZ), E2E_TZ)}`);
    await expect(rep.getByRole('radio', { name: "I'm on the floor" })).toBeChecked();

    // At closing: off duty and why, without a reload. Both clocks pass it; the portal's next sweep
    // (every 15 s) runs the closing.
    const past = closesAt.getTime() + 5_000 - Date.now();
    await moveServerClock(past);
    await rep.clock.fastForward(past);
    await expect(rep.getByRole('radio', { name: 'Off duty' })).toBeChecked({ timeout: 30_000 });
    await expect(rep.getByTestId('floor-hours')).toHaveText('Closed · opens tomorrow at 12:00 AM');
    await expect(rep.getByTestId('log-entry').first()).toContainText('Closed for the day');

    // Today's report goes to the managers; yesterday's, passed over, never did (it would have been queued first).
    const mail = await mailMatching(bossEmail, new RegExp(`floor report for ${formatDay(today)}`));
    expect(mail).toMatch(new RegExp(`${repName}\\r?\\n  Ups: 0 `));
    expect(mailsTo(bossEmail).filter((m) => m.text.includes(`floor report for ${formatDay(addDays(today, -1))}`) && m.text.includes(repName))).toEqual([]);
  } finally {
    await resetServerClock();
    for (const p of [rep, boss, shop.boss]) await p.context().close();
  }
});

test('the floor report shows each salesman’s ups for the day picked, and Send floor report mails it to the managers', async ({ browser }) => {
  const names = [unique('Finn'), unique('Gail')];
  const reps = await Promise.all(names.map((n, i) => personPage(browser, uniqueEmail(`rep${i}`), n)));
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  try {
    // Hand leads out until Finn has two ups and Gail one, counting every one they got.
    const ups = new Map<string, number>(names.map((n) => [n, 0]));
    for (let i = 0; i < 500 && (ups.get(names[0])! < 2 || ups.get(names[1])! < 1); i++) {
      const r = await boss.request.post('/api/rotation/assign', { data: { customer: unique('Up') } });
      expect(r.ok()).toBe(true);
      const to = (await r.json()).assignedTo.name as string;
      if (ups.has(to)) ups.set(to, ups.get(to)! + 1);
    }

    await boss.goto('/dashboard/stats/leads');
    const report = boss.getByRole('region', { name: /Floor report/ });
    const today = todayThere();
    await expect(report.getByRole('heading', { name: `Floor report · ${formatDay(today)}` })).toBeVisible();
    for (const n of names) {
      const row = report.getByTestId('floor-row').filter({ hasText: n });
      await expect(row.getByRole('cell').nth(1)).toHaveText(String(ups.get(n)));
    }

    await report.getByRole('button', { name: 'Send floor report' }).click();
    await expect(boss.getByText(new RegExp(`Floor report for ${formatDay(today)} sent to \\d+ managers?\\.`))).toBeVisible();
    const mail = await mailMatching(MANAGER, new RegExp(`${names[1]}\\r?\\n  Ups: ${ups.get(names[1])} `));
    expect(mail).toMatch(new RegExp(`${names[0]}\\r?\\n  Ups: ${ups.get(names[0])} `));

    // Yesterday: they were on the team, with no ups.
    const yesterday = addDays(today, -1);
    await report.getByLabel('Day').fill(yesterday);
    await expect(report.getByRole('heading', { name: `Floor report · ${formatDay(yesterday)}` })).toBeVisible();
    await expect(report.getByTestId('floor-row').filter({ hasText: names[0] }).getByRole('cell').nth(1)).toHaveText('0');
    expect(new URL(boss.url()).searchParams.get('day')).toBe(yesterday);
  } finally {
    for (const p of [...reps, boss]) await p.context().close();
  }
});
