import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { dayKey } from '../../domain/time';

/**
 * A sale's and the rules' `can` are the server's policy: the owner, another salesman and a
 * manager reading the owner's tracker each try what `can` offers and withholds.
 */
describe.each(DIALECTS)('what sale and rules answers say their reader can do, on %s', (dialect) => {
  let t: TestApp;
  const cookie: Record<'boss' | 'ann' | 'bob', string> = { boss: '', ann: '', bob: '' };
  let annId = '';
  beforeAll(async () => {
    t = await testApp(dialect, { SIGNIN_LINKS_PER_MINUTE: '100000' });
    cookie.boss = await t.signIn(MANAGER);
    cookie.ann = await t.signIn('ann.sales@dealer.test');
    cookie.bob = await t.signIn('bob.sales@dealer.test');
    annId = (await t.db.selectFrom('users').select('id').where('email', '=', 'ann.sales@dealer.test').executeTakeFirstOrThrow()).id;
  });
  afterAll(() => t.close());

  const hit = (as: keyof typeof cookie, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api${url}`, headers: { cookie: cookie[as] }, payload });

  it('offers a sale’s change and deletion to its owner only, as the server allows', async () => {
    const differ: string[] = [];
    for (const as of ['ann', 'bob', 'boss'] as const)
      for (const action of ['edit', 'delete'] as const) {
        const made = await hit('ann', 'POST', '/sales', { date: dayKey(new Date(), t.config.APP_TIMEZONE), frontGross: '1500' });
        expect(made.statusCode).toBe(201);
        const id: number = made.json().id;
        const tracker = (await hit(as, 'GET', as === 'ann' ? '/sales' : `/sales?user=${annId}`)).json();
        const can: boolean | undefined = tracker.sales?.find((s: { id: number }) => s.id === id)?.can[action];
        const r = action === 'edit' ? await hit(as, 'PATCH', `/sales/${id}`, { frontGross: '1600' }) : await hit(as, 'DELETE', `/sales/${id}`);
        const did = r.statusCode < 300;
        // Another salesman cannot open Ann's tracker at all: nothing is offered to him.
        if ((can ?? false) !== did) differ.push(`${as} / ${action}: can says ${can}, the server ${did ? 'allowed' : 'refused'} it`);
      }
    expect(differ).toEqual([]);
  });

  it('offers the rules’ change to a manager only, as the server allows', async () => {
    for (const as of ['ann', 'boss'] as const) {
      const { can } = (await hit(as, 'GET', '/rules')).json();
      const r = await hit(as, 'PATCH', '/rules', { skipSnoozeMinutes: 25 });
      expect([as, can.change]).toEqual([as, r.statusCode === 200]);
    }
  });
});
