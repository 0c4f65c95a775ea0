import { expect, test } from '@playwright/test';
import { personPage, unique, uniqueEmail } from './support/people';
import { uniqueCode } from './support/store';

const MANAGER = 'manager@e2e.test';

const adf = (customer: string, dealer: string) => `<?xml version="1.0"?>
<adf><prospect>
  <vehicle interest="buy"><year>2025</year><make>Kia</make><model>Telluride</model></vehicle>
  <customer><contact><name part="full">${customer}</name><phone>555-0142</phone></contact></customer>
  <vendor><vendorname>${dealer}</vendorname></vendor>
  <provider><name part="full">CarMarket</name></provider>
</prospect></adf>`;

test('a group key: a mapped dealer’s lead lands in its store; an unmapped one waits on the group screen, dealer named, until the group manager sends it to a store', async ({
  browser,
}) => {
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const home: string = (await (await boss.request.get('/api/auth/me')).json()).user.store;
  const stores = [
    { name: unique('Lakeside Kia'), code: uniqueCode('L'), timezone: 'America/Chicago' },
    { name: unique('Hillside Kia'), code: uniqueCode('H'), timezone: 'America/Denver' },
  ];
  const reps: string[] = [];
  const pages = [boss];
  for (const s of stores) {
    expect((await boss.request.post('/api/stores', { data: s })).status()).toBe(201);
    const name = unique(s.name.split(' ')[0] + ' Rep');
    const email = uniqueEmail('rep');
    const res = await boss.request.post('/api/users', { data: { email, name, role: 'staff', stores: [s.code] }, headers: { 'x-store': s.code } });
    expect(res.ok(), await res.text()).toBe(true);
    pages.push(await personPage(browser, email, name));
    reps.push(name);
  }
  const [lake, hill] = stores;
  try {
    // Manager → Integrations: a key for the whole group, and a dealer mapped to the lake store.
    await boss.goto(`/s/${home}/dashboard/management`);
    const intake = boss.getByRole('region', { name: 'Group intake' });
    await intake.getByLabel('Name of the group key').fill(unique('CarMarket group'));
    await intake.getByRole('button', { name: 'Create group key' }).click();
    const key = (await intake.getByTestId('new-api-key').textContent())!;
    expect(key).toMatch(/^bdc_/);
    const mapped = unique('Lakeside Kia Motors');
    await intake.getByLabel('Dealer (name or id)').fill(mapped);
    await intake.getByRole('combobox', { name: 'Store' }).click();
    await boss.getByRole('option', { name: `${lake.name} (${lake.code})` }).click();
    await intake.getByRole('button', { name: 'Map dealer' }).click();
    await expect(intake.getByTestId('dealer-row').filter({ hasText: mapped })).toContainText(lake.code);

    const send = (customer: string, dealer: string) =>
      boss.request.post('/api/v1/leads', { headers: { 'x-api-key': key, 'content-type': 'application/x-adf+xml' }, data: adf(customer, dealer) });
    const first = unique('Mapped Buyer');
    const r = await send(first, mapped.toUpperCase());
    expect(r.status()).toBe(201);
    expect((await r.json()).leads[0]).toMatchObject({ status: 'assigned', assignedTo: reps[0] });

    // The group screen, open before the unmapped lead comes in, shows it live with its dealer.
    await boss.goto('/group');
    await expect(boss.getByTestId('group-stores')).toBeVisible();
    const unmapped = unique('Hillside Kia Motors');
    const waiting = unique('Waiting Buyer');
    expect((await (await send(waiting, unmapped)).json()).leads[0].status).toBe('unassigned');
    const card = boss.getByTestId('waiting-lead').filter({ hasText: waiting });
    await expect(card.getByTestId('waiting-dealer')).toHaveText(unmapped);
    await expect(card).toContainText('2025 Kia Telluride');

    // Sent to the hill store, and the dealer with it: the card goes, the lead is the hill salesman's.
    await card.getByRole('combobox', { name: `Store for ${waiting}` }).click();
    await boss.getByRole('option', { name: `${hill.name} (${hill.code})` }).click();
    await card.getByLabel(`Send every lead of ${unmapped} to this store from now on`).check();
    await card.getByRole('button', { name: 'Send to store' }).click();
    await expect(boss.getByText(`${unmapped} now goes to ${hill.code}. One lead that was waiting went there.`)).toBeVisible();
    await expect(card).toHaveCount(0);
    await boss.goto(`/s/${hill.code}/dashboard/leads`);
    await expect(boss.getByTestId('lead-row').filter({ hasText: waiting })).toContainText(reps[1]);
    // The next lead of that dealer goes straight there.
    expect((await (await send(unique('Next Buyer'), unmapped)).json()).leads[0]).toMatchObject({ status: 'assigned', assignedTo: reps[1] });
  } finally {
    await boss.request.put('/api/profile/store', { data: { code: home } });
    for (const p of pages) await p.context().close();
  }
});
