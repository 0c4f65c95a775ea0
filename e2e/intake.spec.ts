import { expect, test, type Page } from '@playwright/test';
import { personPage, unique } from './support/people';
import { mailsTo } from './support/mail';

const MANAGER = 'manager@e2e.test';

/** Manager walk-ins until `name` is Next Up, so the next lead is theirs whoever else is on the floor. */
async function makeNextUp(boss: Page, name: string) {
  for (let i = 0; i < 200; i++) {
    const view = await (await boss.request.get('/api/rotation')).json();
    if (view.nextUp?.name === name) return;
    const res = await boss.request.post('/api/rotation/assign', { data: { customer: unique('Filler') } });
    if (!res.ok()) throw new Error(`assign failed: ${res.status()} ${await res.text()}`);
  }
  throw new Error(`${name} never came up`);
}

test('a manager creates an API key; an ADF lead sent with it appears live for the manager and the salesman, who gets mail', async ({ browser, request }) => {
  const repName = unique('Ivy');
  const repEmail = `ivy.${Date.now()}@e2e.test`;
  const rep = await personPage(browser, repEmail, repName);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const keyName = unique('Website');

  await boss.goto('/dashboard/management');
  await expect(boss.getByRole('heading', { name: 'Integrations' })).toBeVisible();
  await boss.getByLabel('Key name').fill(keyName);
  await boss.getByRole('button', { name: 'Create key' }).click();
  const shown = boss.getByTestId('new-api-key');
  await expect(shown).toHaveText(/^bdc_/);
  const key = (await shown.textContent())!;
  const keyRow = boss.getByTestId('api-key-row').filter({ hasText: keyName });
  await expect(keyRow).toContainText('Active');
  await expect(keyRow.getByTestId('key-last-used')).toHaveText('Never');
  await expect(keyRow).not.toContainText(key);
  await boss.getByRole('button', { name: 'Done, I saved the key' }).click();
  await expect(shown).toHaveCount(0);

  await makeNextUp(boss, repName);
  await boss.goto('/dashboard/leads');
  await expect(boss.getByTestId('lead-row').or(boss.getByText('No leads found.')).first()).toBeVisible();
  await rep.goto('/dashboard/overview');
  await expect(rep.getByTestId('your-position')).toHaveText('#1');

  const customer = unique('Grace Hopper');
  const adf = `\uFEFF<?xml version="1.0" encoding="UTF-8"?>
<?adf version="1.0"?>
<adf><prospect>
  <id source="e2e-site">${customer}</id>
  <vehicle interest="buy"><year>2024</year><make>Subaru</make><model>Outback</model></vehicle>
  <customer><contact><name part="full">${customer}</name><email>grace@example.com</email><phone type="voice">843-555-0177</phone></contact>
  <comments><![CDATA[Needs a roof rack & tow hitch]]></comments></customer>
  <provider><name part="full">Subaru of America</name></provider>
</prospect></adf>`;
  const res = await request.post('/api/v1/leads', { headers: { 'x-api-key': key, 'content-type': 'application/x-adf+xml' }, data: adf });
  expect(res.status()).toBe(201);
  expect((await res.json()).leads[0]).toMatchObject({ customer, status: 'assigned', assignedTo: repName });

  // Live, with no reload: the manager's leads page shows the lead with its details.
  const row = boss.getByTestId('lead-row').filter({ hasText: customer });
  await expect(row).toContainText(repName);
  await expect(row.getByTestId('lead-contact')).toContainText('843-555-0177');
  await expect(row.getByTestId('lead-contact')).toContainText('grace@example.com');
  await expect(row.getByTestId('lead-vehicle')).toHaveText('2024 Subaru Outback');
  await expect(row.getByTestId('lead-comments')).toHaveText('Needs a roof rack & tow hitch');
  await expect(row).toContainText('via Subaru of America');
  // ...and the salesman's overview logs it.
  await expect(rep.getByTestId('log-entry').filter({ hasText: customer })).toContainText(repName);

  // The salesman's mail arrived at the SMTP server.
  await expect.poll(() => mailsTo(repEmail).filter((m) => m.text.includes(customer)).length).toBe(1);
  const mail = mailsTo(repEmail).find((m) => m.text.includes(customer))!;
  for (const s of [`New lead: ${customer}`, '843-555-0177', 'grace@example.com', '2024 Subaru Outback', 'Follow up by:']) expect(mail.text).toContain(s);

  // The same prospect again is the same lead.
  const again = await request.post('/api/v1/leads', { headers: { 'x-api-key': key, 'content-type': 'text/xml' }, data: adf });
  expect(again.status()).toBe(200);
  expect((await again.json()).leads[0].status).toBe('duplicate');

  // The key shows when it was used; once revoked it is refused.
  await boss.goto('/dashboard/management');
  await expect(keyRow.getByTestId('key-last-used')).not.toHaveText('Never');
  await keyRow.getByRole('button', { name: `Revoke ${keyName}` }).click();
  await boss.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(keyRow).toContainText('Revoked');
  const refused = await request.post('/api/v1/leads', { headers: { 'x-api-key': key }, data: { customer: 'After revoke' } });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error).toBe('This API key was revoked.');
  for (const p of [rep, boss]) await p.context().close();
});

test('a salesman clocks out and back in from the overview, and the manager sees it live', async ({ browser }) => {
  const repName = unique('Otto');
  const rep = await personPage(browser, `otto.${Date.now()}@e2e.test`, repName);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  await boss.goto('/dashboard/overview');
  const inQueue = boss.getByTestId('queue-row').filter({ hasText: repName });
  await expect(inQueue).toHaveCount(1);

  const position = rep.getByTestId('your-position');
  await expect(position).toHaveText(/^#\d+$/);
  await expect(rep.getByRole('radio', { name: "I'm on the floor" })).toBeChecked();
  await rep.locator('label', { hasText: 'Off duty' }).click();
  await expect(position).toHaveText('Not in rotation');
  await expect(rep.getByRole('radio', { name: 'Off duty' })).toBeChecked();
  await expect(inQueue).toHaveCount(0);

  await rep.reload();
  await expect(rep.getByRole('radio', { name: 'Off duty' })).toBeChecked();
  await rep.locator('label', { hasText: "I'm on the floor" }).click();
  await expect(position).toHaveText(/^#\d+$/);
  await expect(inQueue).toHaveCount(1);
  for (const p of [rep, boss]) await p.context().close();
});

test('a lead that arrives when no one is on the floor waits in Unassigned and goes to the first salesman who clocks in', async ({ browser, request }) => {
  const repName = unique('Nia');
  const repEmail = `nia.${Date.now()}@e2e.test`;
  const rep = await personPage(browser, repEmail, repName);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const key = (await (await boss.request.post('/api/integrations/keys', { data: { name: unique('Night feed') } })).json()).key;
  // Everyone off the floor for this test; those who were on go back on at the end.
  const team: { id: string; onDuty: boolean }[] = (await (await boss.request.get('/api/rotation')).json()).team;
  const wereOn = team.filter((m) => m.onDuty).map((m) => m.id);
  try {
    for (const id of wereOn) expect((await boss.request.post('/api/rotation/status', { data: { uid: id, onDuty: false } })).ok()).toBe(true);
    await rep.goto('/dashboard/overview');
    await expect(rep.getByRole('radio', { name: 'Off duty' })).toBeChecked();

    const customer = unique('Late Night');
    const res = await request.post('/api/v1/leads', { headers: { 'x-api-key': key }, data: { customer, phone: '843-555-0111' } });
    expect(res.status()).toBe(201);
    expect((await res.json()).leads[0]).toMatchObject({ status: 'unassigned', assignedTo: null });

    await boss.goto('/dashboard/routing');
    await expect(boss.getByTestId('waiting-leads')).toContainText('unassigned');
    await boss.goto('/dashboard/leads');
    await boss.locator('label', { hasText: 'Unassigned' }).click();
    const row = boss.getByTestId('lead-row').filter({ hasText: customer });
    await expect(row).toContainText('Unassigned');
    await expect(row).toContainText('843-555-0111');

    await rep.locator('label', { hasText: "I'm on the floor" }).click();
    // Handed out at once: it leaves the Unassigned view live and the salesman gets mail.
    await expect(row).toHaveCount(0);
    await expect(rep.getByTestId('log-entry').filter({ hasText: customer })).toContainText(repName);
    await expect.poll(() => mailsTo(repEmail).filter((m) => m.text.includes(customer)).length).toBe(1);
    await boss.locator('label', { hasText: 'All leads' }).click();
    await expect(boss.getByTestId('lead-row').filter({ hasText: customer })).toContainText(repName);
  } finally {
    for (const id of wereOn) await boss.request.post('/api/rotation/status', { data: { uid: id, onDuty: true } });
  }
  for (const p of [rep, boss]) await p.context().close();
});

test("a manager sees an ADF lead's vehicle, trade-in, comments and provider, names a nameless one, and reads the raw document as text", async ({
  browser,
  request,
}) => {
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const key = (await (await boss.request.post('/api/integrations/keys', { data: { name: unique('Trade feed') } })).json()).key;
  const customer = unique('Nora Blake');
  const caller = `843-555-${String(Math.floor(Math.random() * 9000) + 1000)}`;
  // Latin-1, as a European-built system sends it; the trade-in listed first; comments in three places.
  const adf = Buffer.from(
    `<?xml version="1.0" encoding="ISO-8859-1"?>
<ADF><prospect>
  <vehicle interest="trade-in"><year>2015</year><make>Honda</make><model>Civic</model><odometer units="mi">82000</odometer></vehicle>
  <vehicle interest="buy"><year>2026</year><make>Honda</make><model>CR-V</model><trim>EX-L</trim><vin>7FARS4H71TE000001</vin>
    <comments>Wants the two-tone interior.</comments></vehicle>
  <customer><contact><name part="full">${customer}</name><phone>843-555-0165</phone></contact>
    <comments><![CDATA[<script>alert("x")</script> Café visit & test drive]]></comments></customer>
  <vendor><provider><name part="full">TradeValue</name></provider></vendor>
</prospect>
<prospect><customer><contact><phone>${caller}</phone></contact></customer></prospect></ADF>`,
    'latin1',
  );
  const res = await request.post('/api/v1/leads', { headers: { 'x-api-key': key, 'content-type': 'application/xml' }, data: adf });
  expect(res.status()).toBe(201);
  const [ours, nameless] = (await res.json()).leads;
  expect(ours).toMatchObject({ customer });
  expect(nameless).toMatchObject({ customer: `Customer ${caller}` });

  await boss.goto('/dashboard/leads');
  const row = boss.getByTestId('lead-row').filter({ hasText: customer });
  await expect(row.getByTestId('lead-vehicle')).toHaveText('2026 Honda CR-V EX-L · VIN 7FARS4H71TE000001');
  await expect(row.getByTestId('lead-trade-in')).toHaveText('Trade-in: 2015 Honda Civic · 82000 mi');
  await expect(row.getByTestId('lead-comments')).toHaveText('Wants the two-tone interior.\n<script>alert("x")</script> Café visit & test drive');
  await expect(row.getByTestId('lead-provider')).toHaveText('via TradeValue');
  await expect(row.getByTestId('lead-contact').getByRole('link', { name: /^Call / })).toHaveText('843-555-0165');

  // The raw document, as text: its tags and the script in it are shown, not run.
  await row.getByRole('button', { name: 'ADF document' }).click();
  const doc = boss.getByRole('dialog').getByTestId('lead-document');
  await expect(doc).toContainText('<vehicle interest="trade-in"><year>2015</year>');
  await expect(doc).toContainText('<![CDATA[<script>alert("x")</script> Café visit & test drive]]>');
  await boss.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(boss.getByRole('dialog')).toHaveCount(0);

  // The prospect without a name came in under its phone number, flagged; the manager names it.
  const unnamed = boss.getByTestId('lead-row').filter({ hasText: `Customer ${caller}` });
  await expect(unnamed.getByTestId('lead-name-missing')).toHaveText('Name needed');
  await unnamed.getByRole('button', { name: 'Set name' }).click();
  const named = unique('Pat Quinn');
  await boss.getByRole('dialog').getByLabel('Customer name').fill(named);
  await boss.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  const renamed = boss.getByTestId('lead-row').filter({ hasText: named });
  await expect(renamed).toContainText(caller);
  await expect(renamed.getByTestId('lead-name-missing')).toHaveCount(0);
  await boss.context().close();
});
