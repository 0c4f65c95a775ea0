import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { withRotationLock } from '../db';
import { addStore } from '../stores/service';
import { assignBeBack, assignNext, handOutLead } from '../rotation/assign';
import { setStatus, skip } from '../rotation/team';
import { periodsOf } from '../../domain/ledger';
import type { PersonLedger, TeamLedger } from '../../domain/ledger';

describe.each(DIALECTS)('the fairness ledger on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let by: { id: string; name: string };
  const rep: Record<string, { id: string; cookie: string }> = {};
  let started: number;

  beforeAll(async () => {
    t = await testApp(dialect);
    boss = await t.signIn(MANAGER);
    const m = await t.db.selectFrom('users').select(['id', 'name']).where('email', '=', MANAGER).executeTakeFirstOrThrow();
    by = { id: m.id, name: m.name };
    started = Date.now();
    for (const name of ['Amy', 'Bob', 'Cy']) {
      const email = `${name.toLowerCase()}.ledger@dealer.test`;
      const u = await withRotationLock(t.dbh, (trx) => insertUser(trx, { email, name: `${name} Ledger`, onDuty: false }));
      // Clocked in as the app records it (the audit log's 'on duty'): the ledger's hours on the floor.
      await setStatus(t.dbh, u.id, { onDuty: true }, by);
      rep[name] = { id: u.id, cookie: await t.signIn(email) };
    }
  });
  afterAll(() => t.close());

  const get = (url: string, cookie = boss) => t.app.inject({ method: 'GET', url: `/api/${url}`, headers: { cookie } });

  it('counts what the rotation log holds: ups, hand-outs, be-backs and "No customer" apart, passes with the skip behind them', async () => {
    // A known history through the real rotation: ups, a skip, ups while he is snoozed.
    const ups: string[] = [];
    for (let i = 0; i < 3; i++) ups.push((await assignNext(t.dbh, `Walk-in ${i}`, by)).assignedTo!.id);
    const nextUp = (await t.db.selectFrom('rotation_log').select('target_id').where('type', '=', 'assign').orderBy('id', 'desc').executeTakeFirstOrThrow())
      .target_id;
    // Whoever is Next Up now gets skipped.
    const line = await get('rotation');
    const skipped = line.json().nextUp.id as string;
    expect(skipped).toBeTruthy();
    expect(nextUp).not.toBe(skipped);
    await skip(t.dbh, skipped, 'At lunch', 60, by);
    // Up to a full turn of the others: the line comes round to him while he is snoozed.
    for (let i = 0; i < 3; i++) ups.push((await assignNext(t.dbh, `Later ${i}`, by)).assignedTo!.id);
    expect(ups.slice(3)).not.toContain(skipped);
    // A manager hands a waiting lead to a named salesman; a be-back; an up marked "No customer".
    const waiting = await assignNext(t.dbh, 'Waiting Walt', by, { keep: true, wait: true });
    await handOutLead(t.dbh, waiting.leadId, by, { to: rep.Amy.id, reason: 'Asked for her on the phone' });
    await assignBeBack(t.dbh, { customer: 'Back Betty' }, rep.Bob.id, by);
    const fake = await assignNext(t.dbh, 'Fake Fred', by);
    await t.db.updateTable('rotation_log').set({ no_customer_at: Date.now(), no_customer_by: by.id }).where('lead_id', '=', fake.leadId).execute();

    const team = (await get('ledger')).json<TeamLedger>();
    const today = periodsOf(new Date(), t.config.APP_TIMEZONE).today.from;
    const log = await t.db.selectFrom('rotation_log').selectAll().where('store_id', '=', t.dbh.store).where('created_at', '>=', today).execute();
    const passes = await t.db.selectFrom('passed_over').selectAll().where('store_id', '=', t.dbh.store).where('created_at', '>=', today).execute();
    expect(passes.some((p) => p.user_id === skipped && p.kind === 'snooze')).toBe(true);
    let rotationUps = 0;
    for (const r of Object.values(rep)) {
      const mine = log.filter((l) => l.target_id === r.id);
      const want = {
        ups: mine.filter((l) => l.type === 'assign' && l.reason === null && l.no_customer_at === null).length,
        overrides: mine.filter((l) => l.type === 'assign' && l.reason !== null && l.no_customer_at === null).length,
        beBacks: mine.filter((l) => l.type === 'beback' && l.no_customer_at === null).length,
        noCustomer: mine.filter((l) => l.no_customer_at !== null).length,
        skips: mine.filter((l) => l.type === 'skip').length,
        passes: passes.filter((p) => p.user_id === r.id).length,
      };
      rotationUps += want.ups;
      const row = team.people.find((p) => p.id === r.id)!;
      for (const period of ['today', 'week', 'month'] as const) expect(row.periods[period]).toMatchObject(want);
      const own = (await get(`ledger/${r.id}`, r.cookie)).json<PersonLedger>();
      expect(own.periods.today).toMatchObject(want);
      expect(own.events.filter((e) => e.kind === 'pass')).toHaveLength(want.passes);
      // On the floor since he clocked in; all three were there for every up, so each one's share is a third.
      expect(own.periods.today.floorMs).toBeGreaterThan(0);
      expect(own.periods.today.floorMs).toBeLessThanOrEqual(Date.now() - started + 1000);
    }
    expect(rotationUps).toBe(6);
    for (const p of team.people.filter((x) => Object.values(rep).some((r) => r.id === x.id)))
      expect(p.periods.today.teamAverage).toBe(Math.round((rotationUps / 3) * 10) / 10);
    expect(team.people.find((p) => p.id === rep.Amy.id)!.periods.today.overrides).toBe(1);
    expect(team.people.find((p) => p.id === rep.Bob.id)!.periods.today.beBacks).toBe(1);

    // He sees why in one screen: the skip with its reason and by whom, and the pass it caused.
    const who = Object.values(rep).find((r) => r.id === skipped)!;
    const mine = (await get(`ledger/${skipped}`, who.cookie)).json<PersonLedger>();
    expect(mine.events.find((e) => e.kind === 'skip')).toMatchObject({ text: 'At lunch', by: `Skipped by ${by.name}` });
    expect(mine.events.find((e) => e.kind === 'pass')!.text).toBe(`Snoozed: skipped by ${by.name} (At lunch)`);
    expect(mine.events.find((e) => e.kind === 'pass')!.by).toMatch(/^Up went to .+ Ledger$/);
  });

  it('shows a salesman his own ledger only, and a manager only his store’s people', async () => {
    expect((await get(`ledger/${rep.Amy.id}`, rep.Amy.cookie)).statusCode).toBe(200);
    const other = await get(`ledger/${rep.Bob.id}`, rep.Amy.cookie);
    expect(other.statusCode).toBe(403);
    expect(other.json().error).toBe('You can see only your own fairness ledger.');
    expect((await get('ledger', rep.Amy.cookie)).statusCode).toBe(403);
    expect((await get(`ledger/${rep.Bob.id}`)).statusCode).toBe(200);
    expect((await get('ledger/no-such-person')).statusCode).toBe(404);
    const store = await addStore(t.dbh, { name: `Ledger ${dialect}`, code: dialect === 'sqlite' ? 'LGS' : 'LGP', timezone: t.config.APP_TIMEZONE });
    const elsewhere = await insertUser(t.db, { email: `far.${dialect}@dealer.test`, name: 'Far Away', role: 'staff', stores: [store.id] });
    expect((await get(`ledger/${elsewhere.id}`)).statusCode).toBe(404);
    expect((await get('ledger')).json().people.map((p: { id: string }) => p.id)).not.toContain(elsewhere.id);
  });
});
