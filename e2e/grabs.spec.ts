import path from 'node:path';
import SQLite from 'better-sqlite3';
import { slotEnv } from './support/slot';
import { expect, test } from '@playwright/test';
import { personPage, unique, uniqueEmail } from './support/people';
import { animationsDone, noSidewaysScroll } from './support/settle';

const MANAGER = 'manager@e2e.test';
const database = () => new SQLite(path.join(slotEnv('DATA_DIR'), 'portal.sqlite'));

/** A new lead of the store put in the whole floor's claim pool for ten minutes (what server/grabs putInPool stores). */
function pooledLead(storeCode: string, customer: string) {
  const db = database();
  try {
    const store = db.prepare('select id from stores where code = ?').get(storeCode) as { id: number };
    const now = Date.now();
    db.prepare(
      `insert into leads (store_id, customer, assigned_to, assigned_to_name, assigned_by, assigned_by_name, assigned_at, status, follow_up_due, closed, source, vehicle, grab_until, grab_team, grab_stage)
       values (?, ?, '', '', null, 'Rotation', ?, 'new', ?, 0, 'Internet', '2026 Civic', ?, null, 0)`,
    ).run(store.id, customer, now, now + 86_400_000, now + 10 * 60_000);
  } finally {
    db.close();
  }
}

test('a lead up for grabs shows on the floor; the salesman presses Claim (twice) and it is his, once; a manager marks the up No customer', async ({
  browser,
}) => {
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const home: string = (await (await boss.request.get('/api/auth/me')).json()).user.store;
  const rep = { email: uniqueEmail('grab.rep'), name: unique('Gail Grab'), role: 'staff' };
  const made = await boss.request.post('/api/users', { data: { ...rep, stores: [home] }, headers: { 'x-store': home } });
  expect(made.ok(), await made.text()).toBe(true);
  const repPage = await personPage(browser, rep.email, rep.name);
  try {
    const customer = unique('Pia Pool');
    pooledLead(home, customer);
    const overview = `/s/${home}/dashboard/overview`;
    await boss.goto(overview);
    await repPage.goto(overview);

    const bossCard = boss.getByRole('region', { name: 'Up for grabs' });
    await expect(bossCard.getByTestId('grab-lead').filter({ hasText: customer })).toContainText('Waiting for a claim');
    const card = repPage.getByRole('region', { name: 'Up for grabs' });
    const row = card.getByTestId('grab-lead').filter({ hasText: customer });
    await expect(row).toContainText('2026 Civic');
    await expect(row).toContainText('left to claim');
    // The manager's Routing screen shows it up for grabs with its time, not waiting for the next Assign.
    await boss.goto(`/s/${home}/dashboard/routing`);
    await expect(boss.getByTestId('grab-leads').getByTestId('unassigned-row').filter({ hasText: customer })).toContainText(/\d left to claim/);
    await expect(boss.getByTestId('waiting-leads').filter({ hasText: customer })).toHaveCount(0);
    await boss.goto(overview);

    await repPage.setViewportSize({ width: 375, height: 800 });
    await animationsDone(repPage);
    await noSidewaysScroll(repPage);
    await repPage.setViewportSize({ width: 1280, height: 720 });

    await row.getByRole('button', { name: 'Claim' }).dblclick();
    await expect(repPage.getByText(`${customer} is yours.`)).toBeVisible();
    // It left the pool on every open screen, live.
    await expect(row).toHaveCount(0);
    await expect(bossCard.getByTestId('grab-lead').filter({ hasText: customer })).toHaveCount(0);
    const mine = await (await repPage.request.get('/api/leads/mine', { headers: { 'x-store': home } })).json();
    expect(mine.leads.map((l: { customer: string }) => l.customer)).toContain(customer);
    const db = database();
    try {
      const rows = db.prepare("select target_name from rotation_log where customer = ? and type = 'assign' and reason = 'Claimed'").all(customer);
      expect(rows).toEqual([{ target_name: rep.name }]);
    } finally {
      db.close();
    }

    // Credit-back: the manager marks that up No customer from the Routing screen, after a confirm.
    await boss.goto(`/s/${home}/dashboard/routing`);
    const entry = boss.getByTestId('log-entry').filter({ hasText: customer });
    await entry.getByRole('button', { name: 'No customer' }).click();
    await boss.getByRole('dialog').getByRole('button', { name: 'No customer' }).click();
    await expect(entry.getByRole('button', { name: 'No customer' })).toHaveCount(0);
    await expect(entry).toContainText('No customer');
  } finally {
    await repPage.context().close();
    await boss.context().close();
  }
});
