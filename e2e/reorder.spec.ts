import { expect, test, type Browser, type Page } from '@playwright/test';
import { makeNextUp, personPage, unique, uniqueEmail } from './support/people';
import { takenOver } from './support/settle';

const MANAGER = 'manager@e2e.test';

/**
 * A line of exactly four of this spec's own salesmen: everyone else on the floor of the shared
 * database is taken off for the test (and put back after), then the four clock in. `done` puts
 * the others back and takes the four off.
 */
async function lineOfFour(browser: Browser) {
  const boss = await personPage(browser, MANAGER, 'Manny Manager');
  const team: { id: string; onDuty: boolean }[] = (await (await boss.request.get('/api/rotation')).json()).team;
  const wereOn = team.filter((m) => m.onDuty).map((m) => m.id);
  for (const id of wereOn) expect((await boss.request.post('/api/rotation/status', { data: { uid: id, onDuty: false } })).ok()).toBe(true);
  const names: string[] = [];
  const reps: Page[] = [];
  for (const first of ['Luis', 'Marcus', 'Nina', 'Omar']) {
    const name = unique(first);
    reps.push(await personPage(browser, uniqueEmail(first.toLowerCase()), name));
    names.push(name);
  }
  const done = async () => {
    const now: { id: string; name: string }[] = (await (await boss.request.get('/api/rotation')).json()).team;
    for (const m of now.filter((m) => names.includes(m.name))) await boss.request.post('/api/rotation/status', { data: { uid: m.id, onDuty: false } });
    for (const id of wereOn) await boss.request.post('/api/rotation/status', { data: { uid: id, onDuty: true } });
    for (const p of [...reps, boss]) await p.context().close();
  };
  return { boss, names, done };
}

/** The line as the routing table shows it: the names of the rows with a place, in order. */
async function shownLine(page: Page, names: string[]) {
  const rows = await page.getByTestId('team-row').allTextContents();
  return rows.filter((t) => /#\d+/.test(t)).map((t) => names.find((n) => t.includes(n)) ?? t);
}

const nextUp = (page: Page) => page.locator('[aria-current="true"]');

test('in a line of four with the pointer in the middle, each arrow moves exactly the person clicked by one place', async ({ browser }) => {
  const { boss, names, done } = await lineOfFour(browser);
  try {
    const [luis, marcus, nina, omar] = names;
    // The first two were served: the pointer is in the middle, Nina is Next Up.
    await makeNextUp(boss, nina);
    await boss.goto('/dashboard/routing');
    const line = () => shownLine(boss, names);
    await expect.poll(line).toEqual([nina, omar, luis, marcus]);
    await expect(nextUp(boss)).toContainText(nina);

    const click = async (name: string, dir: 'up' | 'down', place: number, after: string[]) => {
      await boss.getByRole('button', { name: `Move ${name} ${dir}` }).click();
      await expect(boss.getByText(`${name} is now #${place}`)).toBeVisible();
      await expect.poll(line).toEqual(after);
    };
    await click(luis, 'up', 2, [nina, luis, omar, marcus]);
    await expect(nextUp(boss)).toContainText(nina);
    await click(omar, 'down', 4, [nina, luis, marcus, omar]);
    await expect(nextUp(boss)).toContainText(nina);
    await click(marcus, 'up', 2, [nina, marcus, luis, omar]);
    await expect(nextUp(boss)).toContainText(nina);
    // Only a swap of the first two changes Next Up.
    await click(marcus, 'up', 1, [marcus, nina, luis, omar]);
    await expect(nextUp(boss)).toContainText(marcus);
    await click(nina, 'up', 1, [nina, marcus, luis, omar]);
    await expect(nextUp(boss)).toContainText(nina);
    await expect(boss.getByRole('button', { name: `Move ${nina} up` })).toBeDisabled();
    await expect(boss.getByRole('button', { name: `Move ${omar} down` })).toBeDisabled();

    // Each move is in Recent actions, and the line is served as shown.
    await expect(boss.getByTestId('log-entry').first()).toContainText(`reorder${nina} moved from #2 to #1`);
    const served = [];
    for (let i = 0; i < 4; i++)
      served.push((await (await boss.request.post('/api/rotation/assign', { data: { customer: unique('Served') } })).json()).assignedTo.name);
    expect(served).toEqual([nina, marcus, luis, omar]);
  } finally {
    await done();
  }
});

test('a row dragged on a desktop takes the place it is dropped on; on a phone the arrows move it', async ({ browser }) => {
  const { boss, names, done } = await lineOfFour(browser);
  try {
    const [luis, marcus, nina, omar] = names;
    await makeNextUp(boss, luis);
    await boss.goto('/dashboard/routing');
    const line = () => shownLine(boss, names);
    await expect.poll(line).toEqual([luis, marcus, nina, omar]);
    // A drag is the mouse's alone: it waits for the app to have taken the drawn page over.
    await takenOver(boss);
    const row = (name: string) => boss.getByTestId('team-row').filter({ hasText: name });
    await row(omar).dragTo(row(marcus));
    await expect(boss.getByText(`${omar} is now #2`)).toBeVisible();
    await expect.poll(line).toEqual([luis, omar, marcus, nina]);

    await boss.setViewportSize({ width: 375, height: 740 });
    await expect(boss.getByRole('table')).toHaveCount(0);
    const up = boss.getByRole('button', { name: `Move ${nina} up` });
    await up.scrollIntoViewIfNeeded();
    await expect(up).toBeInViewport();
    await up.click();
    await expect(boss.getByText(`${nina} is now #3`)).toBeVisible();
    await expect.poll(line).toEqual([luis, omar, nina, marcus]);
    expect(await boss.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  } finally {
    await done();
  }
});

test('a move on a screen drawn before the line changed is refused, and the line is drawn again', async ({ browser }) => {
  const { boss, names, done } = await lineOfFour(browser);
  try {
    const [luis, marcus, nina, omar] = names;
    await makeNextUp(boss, luis);
    // This screen hears no live updates, so it stays as drawn while another manager moves someone.
    await boss.route(/\/api\/events(\?|$)/, (r) => r.abort());
    await boss.goto('/dashboard/routing');
    const line = () => shownLine(boss, names);
    await expect.poll(line).toEqual([luis, marcus, nina, omar]);
    const view = await (await boss.request.get('/api/rotation')).json();
    const shown: string[] = view.queue.map((m: { id: string }) => m.id);
    const omarId = view.queue.find((m: { name: string }) => m.name === omar).id;
    const moved = await boss.request.post('/api/rotation/reorder', { data: { uid: omarId, shown, order: [shown[0], shown[1], omarId, shown[2]] } });
    expect(moved.ok()).toBe(true);
    await boss.getByRole('button', { name: `Move ${marcus} up` }).click();
    await expect(boss.getByText('The line changed since your screen was drawn', { exact: false })).toBeVisible();
    await expect.poll(line).toEqual([luis, marcus, omar, nina]);
  } finally {
    await done();
  }
});

test('a lead waiting for its Accept shows its salesman and the time left, live; Hand out names another salesman and says why', async ({ browser }) => {
  const { boss, names, done } = await lineOfFour(browser);
  const window = (minutes: number) => boss.request.patch('/api/rules', { data: { responseWindowMinutes: minutes } });
  try {
    const [luis, marcus] = names;
    expect((await window(10)).ok()).toBe(true);
    await makeNextUp(boss, luis);
    const customer = unique('Waiting Walter');
    expect((await boss.request.post('/api/rotation/assign', { data: { customer } })).ok()).toBe(true);
    await boss.goto('/dashboard/routing');
    const row = boss.getByTestId('pending-row').filter({ hasText: customer });
    await expect(row.getByTestId('pending-salesman')).toHaveText(luis);
    const left = row.getByTestId('time-left');
    await expect(left).toHaveText(/^(10:00|9:[0-5]\d) left$/);
    // It counts down by itself.
    const first = await left.textContent();
    await expect(left).not.toHaveText(first!);

    await row.getByRole('button', { name: 'Hand out' }).click();
    const form = boss.getByRole('form', { name: `Hand out ${customer}` });
    await form.getByRole('combobox', { name: 'Salesman', exact: true }).fill(marcus);
    await boss.getByRole('option', { name: new RegExp(marcus) }).click();
    await form.getByRole('button', { name: `Hand out to ${marcus}` }).click();
    await expect(form.getByText('Say why you hand it to this salesman')).toBeVisible();
    await form.getByLabel('Why this salesman').fill('Luis is on a test drive');
    await form.getByRole('button', { name: `Hand out to ${marcus}` }).click();
    await expect(boss.getByText(`${customer} handed to ${marcus}.`)).toBeVisible();
    await expect(row.getByTestId('pending-salesman')).toHaveText(marcus);
    await expect(boss.getByTestId('log-entry').first()).toContainText(`override${marcus} → ${customer} (Luis is on a test drive)`);
  } finally {
    await window(0);
    await done();
  }
});
