import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { withRotationLock, type StoreDb } from '../db';
import { setPlaces } from '../test/places';
import { DEFAULT_RULES, type Rules } from '../../domain/rules';
import type { Routing } from '../../domain/routing';
import { assignNext } from './assign';
import { readState } from './queries';

const BOSS = { id: null, name: 'Boss' };

describe.each(DIALECTS)('routing rules, team lines, weights and the passed-over record, on %s', (dialect) => {
  let t: TestApp;
  let h: StoreDb;
  const id: Record<string, string> = {};
  const team: Record<string, number> = {};

  beforeAll(async () => {
    t = await testApp(dialect);
    h = t.store.dbh;
    // Pat, Quin, Ray and Sol stand in no team: the one-call assign on PostgreSQL serves them.
    for (const name of ['Ana', 'Bea', 'Cruz', 'Ned', 'Nia', 'Noe', 'Uma', 'Ugo', 'Uri', 'Pat', 'Quin', 'Ray', 'Sol'])
      id[name] = (await withRotationLock(h, (trx) => insertUser(trx, { email: `${name.toLowerCase()}.route@dealer.test`, name, onDuty: true }))).id;
    const now = Date.now();
    for (const [name, people] of Object.entries({ Spanish: ['Ana', 'Bea', 'Cruz'], New: ['Ned', 'Nia', 'Noe'], Used: ['Uma', 'Ugo', 'Uri'] })) {
      const row = await t.db.insertInto('teams').values({ store_id: h.store, name, created_at: now }).returning('id').executeTakeFirstOrThrow();
      team[name] = Number(row.id);
      await t.db
        .insertInto('team_members')
        .values(people.map((p, i) => ({ team_id: team[name], user_id: id[p], position: i + 1, created_at: now })))
        .execute();
    }
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    await setPlaces(t.db, { snooze_until: null, on_duty: 0, active: 1, weight: 1, owed: 0, daily_cap: null, open_cap: null, away: null });
    await setPlaces(t.db, { on_duty: 1 }, (u) => u.where('id', 'in', Object.values(id)));
  });

  const rulesWith = (routing: Partial<Routing>): Rules => ({ ...DEFAULT_RULES, responseWindowMinutes: 0, routing: { ...DEFAULT_RULES.routing, ...routing } });
  const spanishFirst = () =>
    rulesWith({
      rules: [
        { name: 'Spanish', when: { language: 'es' }, to: { team: team.Spanish }, grab: null },
        { name: 'Used cars', when: { condition: 'used' }, to: { team: team.Used }, grab: null },
      ],
      fallback: { team: team.New },
    });
  const log = (leadId: number) => t.db.selectFrom('rotation_log').selectAll().where('lead_id', '=', leadId).executeTakeFirstOrThrow();

  it('sends a lead to the team of the first rule it meets, else to the store default, each team line by its own pointer', async () => {
    const rules = spanishFirst();
    const es = await assignNext(h, { customer: 'Rosa', comments: 'Cliente habla español', traits: { condition: 'used' } }, BOSS, { rules });
    const used = await assignNext(h, { customer: 'Hal', traits: { condition: 'used' } }, BOSS, { rules });
    const other = await assignNext(h, { customer: 'Ivy' }, BOSS, { rules });
    const lines = await t.db.selectFrom('teams').select(['id', 'pointer_pos']).execute();
    expect(['Ana', 'Bea', 'Cruz']).toContain(es.assignedTo?.name);
    expect(['Uma', 'Ugo', 'Uri']).toContain(used.assignedTo?.name);
    expect(['Ned', 'Nia', 'Noe']).toContain(other.assignedTo?.name);
    expect(await log(es.leadId)).toMatchObject({ team_id: team.Spanish, rule: 'Spanish' });
    expect(await log(other.leadId)).toMatchObject({ team_id: team.New, rule: null });
    const lead = await t.db.selectFrom('leads').select('team_id').where('id', '=', es.leadId).executeTakeFirstOrThrow();
    expect(Number(lead.team_id)).toBe(team.Spanish);
    // Each team's pointer now stands at the place of whoever it served.
    const placeIn = async (teamId: number, user: string) =>
      (await t.db.selectFrom('team_members').select('position').where('team_id', '=', teamId).where('user_id', '=', user).executeTakeFirstOrThrow()).position;
    expect(lines.find((l) => Number(l.id) === team.Spanish)?.pointer_pos).toBe(await placeIn(team.Spanish, es.assignedTo!.id));
  });

  it('records who the rule passed over on the whole floor, with the rule’s words', async () => {
    const rules = spanishFirst();
    // Ned is the whole floor's Next Up: the pointer just before his place.
    const ned = await t.db.selectFrom('memberships').select('position').where('store_id', '=', h.store).where('user_id', '=', id.Ned).executeTakeFirstOrThrow();
    await t.db
      .updateTable('rotation_state')
      .set({ pointer_pos: ned.position - 1 })
      .where('id', '=', h.store)
      .execute();
    const a = await assignNext(h, { customer: 'Lupe', comments: 'habla espanol' }, BOSS, { rules });
    expect(['Ana', 'Bea', 'Cruz']).toContain(a.assignedTo?.name);
    const passes = await t.db.selectFrom('passed_over').selectAll().where('lead_id', '=', a.leadId).where('kind', '=', 'rule').execute();
    expect(passes.map((p) => [p.user_id, p.why])).toEqual([[id.Ned, 'Rule "Spanish" sent it to the Spanish team']]);
  });

  it('skips a salesman at his daily cap and says so in the record', async () => {
    const rules = rulesWith({ rules: [], fallback: { team: team.Used } });
    await setPlaces(t.db, { daily_cap: 1 }, (u) => u.where('id', '=', id.Uma));
    // Uma takes an up today (whatever the line says), so she is at her cap.
    const today = await t.db
      .selectFrom('rotation_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('target_id', '=', id.Uma)
      .where('type', '=', 'assign')
      .where('created_at', '>=', Date.now() - 3_600_000)
      .executeTakeFirstOrThrow();
    if (Number(today.n) === 0) {
      await t.db.updateTable('teams').set({ pointer_pos: 0 }).where('id', '=', team.Used).execute();
      const first = await assignNext(h, { customer: 'Cap one' }, BOSS, { rules });
      expect(first.assignedTo?.name).toBe('Uma');
    }
    await t.db.updateTable('teams').set({ pointer_pos: 0 }).where('id', '=', team.Used).execute();
    const next = await assignNext(h, { customer: 'Cap two' }, BOSS, { rules });
    expect(next.assignedTo?.name).toBe('Ugo');
    const passes = await t.db.selectFrom('passed_over').selectAll().where('lead_id', '=', next.leadId).execute();
    expect(passes.map((p) => [p.user_id, p.kind])).toEqual([[id.Uma, 'cap']]);
  });

  it('gives a weight-2 salesman two ups to the others’ one, never two in a row', async () => {
    const rules = rulesWith({ rules: [], fallback: { team: team.New } });
    await setPlaces(t.db, { weight: 2 }, (u) => u.where('id', '=', id.Ned));
    const got: string[] = [];
    for (let i = 0; i < 12; i++) got.push((await assignNext(h, { customer: `W${i}` }, BOSS, { rules })).assignedTo!.name);
    expect(got.filter((n) => n === 'Ned')).toHaveLength(6);
    expect(got.filter((n) => n === 'Nia')).toHaveLength(3);
    expect(got.filter((n) => n === 'Noe')).toHaveLength(3);
    for (let i = 1; i < got.length; i++) expect(got[i], got.join(' ')).not.toBe(got[i - 1]);
  });

  it('puts whoever a team served at the back of the whole floor’s line too', async () => {
    const rules = rulesWith({ rules: [], fallback: { team: team.Used } });
    const a = await assignNext(h, { customer: 'Back' }, BOSS, { rules });
    const state = await readState(t.db, h.store);
    const floor = await t.db.selectFrom('memberships').select(['user_id', 'position']).where('store_id', '=', h.store).execute();
    // Served last on the floor: the highest place at or below the pointer, else the highest of all.
    const sorted = floor.sort((x, y) => x.position - y.position);
    const upTo = sorted.filter((m) => m.position <= state.pointer_pos);
    expect((upTo.at(-1) ?? sorted.at(-1))?.user_id).toBe(a.assignedTo!.id);
  });

  it('writes the same passed-over record on every path (the one-call assign on PostgreSQL and the stepwise one)', async () => {
    const rules = { ...DEFAULT_RULES, responseWindowMinutes: 0 };
    const arrange = async () => {
      // Pat, Quin, Ray, Sol in that order after everyone else; the pointer at Pat.
      const top = (
        await t.db
          .selectFrom('memberships')
          .select((eb) => eb.fn.max('position').as('top'))
          .executeTakeFirstOrThrow()
      ).top;
      for (const [i, name] of ['Pat', 'Quin', 'Ray', 'Sol'].entries())
        await setPlaces(t.db, { position: Number(top) + 1 + i }, (u) => u.where('id', '=', id[name]));
      await setPlaces(t.db, { on_duty: 0 });
      await setPlaces(t.db, { on_duty: 1 }, (u) => u.where('id', 'in', [id.Pat, id.Quin, id.Ray, id.Sol]));
      await setPlaces(t.db, { snooze_until: Date.now() + 3_600_000 }, (u) => u.where('id', '=', id.Quin));
      await setPlaces(t.db, { away: 'Off Nov 28–30' }, (u) => u.where('id', '=', id.Ray));
      await t.db
        .updateTable('rotation_state')
        .set({ pointer_pos: Number(top) + 1 })
        .where('id', '=', h.store)
        .execute();
    };
    const record = async (leadId: number) =>
      (await t.db.selectFrom('passed_over').select(['user_id', 'kind', 'why']).where('lead_id', '=', leadId).orderBy('user_id').execute()).map((r) => ({
        ...r,
      }));
    await arrange();
    const plain = await assignNext(h, { customer: 'One call' }, BOSS, { rules });
    await arrange();
    const stepwise = await assignNext(h, { customer: 'Step by step' }, BOSS, { rules, stepwise: true });
    expect(plain.assignedTo?.name).toBe('Sol');
    expect(stepwise.assignedTo?.name).toBe('Sol');
    const a = await record(plain.leadId);
    expect(a).toEqual(await record(stepwise.leadId));
    expect(a.find((r) => r.user_id === id.Quin)).toEqual({ user_id: id.Quin, kind: 'snooze', why: '' });
    expect(a.find((r) => r.user_id === id.Ray)).toEqual({ user_id: id.Ray, kind: 'away', why: 'Off Nov 28–30' });
  });

  it.runIf(dialect === 'postgres')('keeps each team fair when assigns into two teams arrive at once', async () => {
    const rules = rulesWith({
      rules: [{ name: 'Used', when: { condition: 'used' }, to: { team: team.Used }, grab: null }],
      fallback: { team: team.New },
    });
    const before = async () =>
      new Map(
        (
          await t.db
            .selectFrom('rotation_log')
            .select(['target_id'])
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('type', '=', 'assign')
            .groupBy('target_id')
            .execute()
        ).map((r) => [r.target_id, Number(r.n)]),
      );
    const had = await before();
    await Promise.all(
      Array.from({ length: 60 }, (_, i) => assignNext(h, { customer: `Rush ${i}`, traits: { condition: i % 2 ? 'used' : 'new' } }, BOSS, { rules })),
    );
    const got = await before();
    const gained = (name: string) => (got.get(id[name]) ?? 0) - (had.get(id[name]) ?? 0);
    for (const name of ['Ned', 'Nia', 'Noe', 'Uma', 'Ugo', 'Uri']) expect(gained(name), name).toBe(10);
  });
});
