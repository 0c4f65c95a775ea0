import { expect, test } from '@playwright/test';
import { personPage, unique, uniqueEmail } from './support/people';
import { layoutProblems } from './support/layout';
import { axe } from './support/axe';
import { animationsDone } from './support/settle';

const MANAGER = 'manager@e2e.test';

/**
 * Manager → Routing rules on a phone: a manager makes a team, puts a salesman on it, adds a rule
 * sending Spanish-speaking customers to it, and "Test a lead" says which rule a lead writing
 * "habla español" meets and that the salesman would get it. On the Routing screen he sets the
 * salesman's weight. Everything he made is taken away again, so other specs see the floor as it was.
 */
test('a manager makes a Spanish team and a rule for it, and a test lead in Spanish goes to its salesman', async ({ browser }) => {
  const repName = unique('Sofia');
  const rep = await personPage(browser, uniqueEmail('sofia'), repName);
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  await boss.setViewportSize({ width: 375, height: 800 });
  // Routing links to its rules: Manager's section of its own address, brought into view.
  await boss.goto('/dashboard/routing');
  await boss.getByRole('link', { name: 'Manager → Routing rules' }).click();
  await expect(boss).toHaveURL(/\/dashboard\/management#routing-rules$/);
  const section = boss.getByRole('region', { name: 'Routing rules' });
  await expect(section.getByRole('heading', { name: 'Routing rules' })).toBeInViewport();
  await expect(boss.getByRole('navigation', { name: 'Manager sections' }).getByRole('link')).toHaveText([
    'Users',
    'Stores',
    'Dealership rules',
    'Routing rules',
    'Pay plan',
    'Integrations',
    'Sign-in',
  ]);

  const teamName = unique('Spanish');
  await section.getByRole('textbox', { name: 'New team' }).fill(teamName);
  await section.getByRole('button', { name: 'Add team' }).click();
  const team = section.getByRole('listitem', { name: `${teamName} team` });
  await expect(team).toContainText('No one yet.');
  await team.getByRole('combobox', { name: `Add a salesman to ${teamName}` }).fill(repName);
  await boss.getByRole('option', { name: repName }).click();
  await expect(team).toContainText(`1. ${repName}`);

  await section.getByRole('button', { name: 'Add rule' }).click();
  const dialog = boss.getByRole('dialog', { name: 'Add rule' });
  await dialog.getByLabel('Rule name').fill('Spanish');
  await dialog.getByRole('combobox', { name: 'Language' }).click();
  await boss.getByRole('option', { name: 'Spanish' }).click();
  await dialog.getByRole('combobox', { name: 'Send to' }).click();
  await boss.getByRole('option', { name: `${teamName} team` }).click();
  await dialog.getByRole('button', { name: 'Save rule' }).click();
  await expect(dialog).toBeHidden();
  const rule = section.getByRole('listitem', { name: /^Rule \d+: Spanish$/ });
  await expect(rule).toContainText(`language Spanish → ${teamName} team`);

  const tryIt = section.getByRole('form', { name: 'Test a lead' });
  await tryIt.getByLabel('Comments').fill('Hola, habla español?');
  await tryIt.getByRole('button', { name: 'Test' }).click();
  const result = section.getByTestId('test-result');
  await expect(result).toContainText(`"Spanish" → ${teamName} team`);
  await expect(result).toContainText(`${repName} would get it`);
  expect(await layoutProblems(boss)).toEqual([]);
  // The section with a team, a rule and a result passes axe (no serious or critical violation).
  await animationsDone(boss);
  const scanned = await axe(boss).include('section[aria-labelledby="routing-rules-title"]').analyze();
  expect(
    scanned.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);

  // A real ADF lead in Spanish, through the intake API, goes to the Spanish team's salesman, and shows on his screen.
  const key = (await (await boss.request.post('/api/integrations/keys', { data: { name: unique('Spanish feed') } })).json()).key;
  const customer = unique('Rosa Español');
  const adf = `<?xml version="1.0"?><?adf version="1.0"?><adf><prospect lang="es"><customer><contact><name part="full">${customer}</name><phone>843-555-0199</phone></contact><comments>Hola, habla español?</comments></customer><vehicle interest="buy" status="used"><make>Honda</make></vehicle></prospect></adf>`;
  const sent = await boss.request.post('/api/v1/leads', { headers: { 'x-api-key': key, 'content-type': 'application/xml' }, data: adf });
  expect(sent.status()).toBe(201);
  expect((await sent.json()).leads[0]).toMatchObject({ customer, status: 'assigned', assignedTo: repName });
  await rep.goto('/dashboard/overview');
  await expect(rep.getByText(customer).first()).toBeVisible();

  // On the Routing screen, his row has his weight and caps.
  await boss.goto('/dashboard/routing');
  const row = boss.getByTestId('team-row').filter({ hasText: repName });
  await row.getByRole('button', { name: `Weight and caps of ${repName}: Weight 1` }).click();
  const limits = boss.getByRole('dialog', { name: `${repName}: weight and caps` });
  // Out of range is said under the field, never clamped behind the manager's back.
  await limits.getByRole('textbox', { name: 'Weight' }).fill('9');
  await limits.getByRole('textbox', { name: 'Daily cap' }).fill('0');
  await limits.getByRole('button', { name: 'Save' }).click();
  await expect(limits.getByRole('textbox', { name: 'Weight' })).toHaveAccessibleDescription(/Weight must be a whole number from 1 to 5/);
  await expect(limits.getByRole('textbox', { name: 'Daily cap' })).toHaveAccessibleDescription(/leave it empty for no cap/);
  await expect(limits.getByRole('textbox', { name: 'Weight' })).toHaveValue('9');
  await limits.getByRole('textbox', { name: 'Weight' }).fill('2');
  await limits.getByRole('textbox', { name: 'Daily cap' }).fill('8');
  await limits.getByRole('button', { name: 'Save' }).click();
  await expect(limits).toBeHidden();
  await expect(row.getByRole('button', { name: `Weight and caps of ${repName}: Weight 2 · 8 a day` })).toBeVisible();
  expect(await layoutProblems(boss)).toEqual([]);

  // Taken away again: the rule, then the team.
  await boss.goto('/dashboard/management');
  await rule.getByRole('button', { name: 'Delete Spanish' }).click();
  await expect(rule).toBeHidden();
  await team.getByRole('button', { name: `Delete ${teamName}` }).click();
  await boss.getByRole('dialog', { name: 'Delete team' }).getByRole('button', { name: 'Delete' }).click();
  await expect(team).toBeHidden();
  await rep.context().close();
  await boss.context().close();
});
