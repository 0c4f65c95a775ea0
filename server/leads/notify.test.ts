import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { notifyAssigned } from './notify';

/**
 * The salesman's mail about a new lead reads its times on the dealership's clock (APP_TIMEZONE),
 * whatever zone the server's machine runs in. Honolulu is nobody's machine zone here and keeps no
 * daylight time, so a time on any other clock shows.
 */
describe.each(DIALECTS)('the new-lead mail on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testApp(dialect, { APP_TIMEZONE: 'Pacific/Honolulu' });
  });
  afterAll(() => t.close());

  it('says when to accept and follow up on the dealership’s clock, naming its zone', async () => {
    const rep = await insertUser(t.db, { email: 'rep.kai@dealer.test', name: 'Kai', onDuty: true });
    // Wednesday Nov 25, 2026, 8:10 PM UTC is 10:10 AM in Honolulu; the follow-up is the next day,
    // 7:45 AM UTC, which is still Wednesday there (9:45 PM).
    const offered = Date.UTC(2026, 10, 25, 20, 0);
    const { id } = await t.db
      .insertInto('leads')
      .values({
        customer: 'Lani Akana',
        assigned_to: rep.id,
        assigned_to_name: 'Kai',
        assigned_by: null,
        assigned_by_name: 'Rotation',
        assigned_at: offered,
        offered_at: offered,
        accept_due: Date.UTC(2026, 10, 25, 20, 10),
        status: 'new',
        follow_up_due: Date.UTC(2026, 10, 26, 7, 45),
        closed: 0,
        source: 'Website',
        closed_at: null,
        closed_by_id: null,
        closed_by_name: null,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();

    notifyAssigned(t.store, [Number(id)]);
    const mail = await t.smtp.mailTo('rep.kai@dealer.test');
    expect(mail.subject).toBe('New lead: Lani Akana');
    expect(mail.text).toMatch(/^Accept by: Wed, Nov 25, 10:10 AM HST\r?$/m);
    expect(mail.text).toMatch(/^Follow up by: Wed, Nov 25, 9:45 PM HST\r?$/m);
  });
});
