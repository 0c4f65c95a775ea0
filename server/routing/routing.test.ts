import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { addStore } from '../stores/service';
import type { Store } from '../../domain/stores';
import { MAX_TEAMS } from '../../domain/routing-terms';
import type { PortalEvent } from '../events/bus';
import type { RoutingAdmin } from '../../domain/contract/answers';

/**
 * Manager → Routing rules through the API: a store's teams and their lines, each salesman's
 * weight and caps, the routing rules saved with the rule book, and trying a sample lead on them
 * without assigning anything.
 */
describe.each(DIALECTS)('teams and routing rules on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let rep: string;
  let north: Store;
  let northBoss: string;
  const ids: Record<string, string> = {};

  const call = (cookie: string, method: string, url: string, payload?: object, store?: string) =>
    t.app.inject({ method: method as 'GET', url: `/api${url}`, headers: { cookie, ...(store ? { 'x-store': store } : {}) }, ...(payload ? { payload } : {}) });
  const ok = async (method: string, url: string, payload?: object, status = 200) => {
    const r = await call(boss, method, url, payload);
    expect(r.statusCode, r.body).toBe(status);
    return r.json<RoutingAdmin>();
  };
  const refused = async (method: string, url: string, payload: object | undefined, status: number, error: string | RegExp, cookie = boss) => {
    const r = await call(cookie, method, url, payload);
    expect(r.statusCode, r.body).toBe(status);
    expect(r.json().error).toMatch(error);
  };
  const team = async (name: string) => (await ok('POST', '/routing/teams', { name }, 201)).teams.find((x) => x.name === name.trim())!;

  beforeAll(async () => {
    t = await testApp(dialect);
    boss = await t.signIn(MANAGER);
    for (const [k, name] of [
      ['ann', 'Ann Route'],
      ['ben', 'Ben Route'],
      ['cal', 'Cal Route'],
    ] as const)
      ids[k] = (await insertUser(t.db, { email: `${k}.route@dealer.test`, name, onDuty: true })).id;
    rep = await t.signIn('ann.route@dealer.test');
    north = await addStore(t.dbh, { name: 'Route North', code: `RN${dialect === 'sqlite' ? 'S' : 'P'}`, timezone: 'America/Chicago' });
    ids.nina = (await insertUser(t.db, { email: 'nina.route@dealer.test', name: 'Nina North', stores: [north.id], onDuty: true })).id;
    await insertUser(t.db, { email: 'north.route@dealer.test', name: 'North Boss', role: 'manager', stores: [north.id] });
    northBoss = await t.signIn('north.route@dealer.test');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await ok('PUT', '/routing/rules', { rules: [], fallback: { floor: true }, backOfEveryLine: true });
    await t.db.deleteFrom('team_members').execute();
    await t.db.deleteFrom('teams').execute();
    await t.db.updateTable('memberships').set({ weight: 1, daily_cap: null, open_cap: null, on_duty: 1, active: 1 }).execute();
  });

  it('creates, renames and deletes teams; members join at the back of the line and leave; open screens hear of it', async () => {
    const seen: PortalEvent[] = [];
    const stop = t.app.ctx.bus.subscribe((e) => seen.push(e));
    const spanish = await team(' Spanish ');
    expect(spanish).toEqual({ id: expect.any(Number), name: 'Spanish', members: [] });
    // On PostgreSQL the bus delivers through LISTEN/NOTIFY, a moment after the answer.
    await expect.poll(() => seen.some((e) => e.topic === 'rotation')).toBe(true);
    stop();

    await ok('POST', `/routing/teams/${spanish.id}/members`, { uid: ids.ben });
    let view = await ok('POST', `/routing/teams/${spanish.id}/members`, { uid: ids.ann });
    expect(view.teams[0].members).toEqual([
      { id: ids.ben, name: 'Ben Route' },
      { id: ids.ann, name: 'Ann Route' },
    ]);
    const places = await t.db.selectFrom('team_members').select(['user_id', 'position']).where('team_id', '=', spanish.id).orderBy('position').execute();
    expect(places).toEqual([
      { user_id: ids.ben, position: 1 },
      { user_id: ids.ann, position: 2 },
    ]);

    view = await ok('PATCH', `/routing/teams/${spanish.id}`, { name: 'Español' });
    expect(view.teams.map((x) => x.name)).toEqual(['Español']);
    view = await ok('DELETE', `/routing/teams/${spanish.id}/members/${ids.ben}`);
    expect(view.teams[0].members.map((m) => m.id)).toEqual([ids.ann]);
    // Everyone in the store reads them (the routing screen); the answer says who may change them.
    const asRep = await call(rep, 'GET', '/routing');
    expect(asRep.statusCode).toBe(200);
    expect(asRep.json()).toMatchObject({ teams: [{ name: 'Español' }], can: { change: false } });

    view = await ok('DELETE', `/routing/teams/${spanish.id}`);
    expect(view.teams).toEqual([]);
    expect(await t.db.selectFrom('team_members').selectAll().execute()).toEqual([]);
  });

  it('refuses bad team changes with a clear message', async () => {
    const used = await team('Used');
    await refused('POST', '/routing/teams', { name: 'used' }, 409, 'There is already a team named "Used" in this store.');
    await refused('POST', '/routing/teams', { name: '  ' }, 400, 'A team name must be 1 to 40 characters');
    await refused('POST', '/routing/teams', { name: 'x'.repeat(41) }, 400, 'A team name must be 1 to 40 characters');
    await refused('POST', '/routing/teams', { name: 'A', color: 'red' }, 400, 'Unknown field: color');
    // The text rule of every short text: no tab, line break, control character, bidi override or byte-order mark.
    for (const name of ['New\tcars', 'New\ncars', '\u202Esrac weN', 'New\u2066cars', 'New\uFEFFcars', 'New\u0007cars'])
      await refused('POST', '/routing/teams', { name }, 400, 'A team name may not hold tabs, line breaks or hidden characters');
    const bdc = await team('BDC');
    await refused('PATCH', `/routing/teams/${bdc.id}`, { name: 'USED' }, 409, /already a team named "Used"/);
    await refused('PATCH', '/routing/teams/999999', { name: 'Other' }, 404, 'Team not found');
    await refused('DELETE', '/routing/teams/abc', undefined, 404, 'Team not found');
    await refused('POST', `/routing/teams/${used.id}/members`, { uid: ids.nina }, 400, 'Only a salesman of this store can join one of its teams.');
    await refused('POST', `/routing/teams/${used.id}/members`, { uid: 'nobody' }, 400, 'Only a salesman of this store can join one of its teams.');
    await refused('POST', `/routing/teams/${used.id}/members`, {}, 400, 'Say which salesman to add');
    await ok('POST', `/routing/teams/${used.id}/members`, { uid: ids.cal });
    await refused('POST', `/routing/teams/${used.id}/members`, { uid: ids.cal }, 409, 'Cal Route is already on the Used team.');
    await refused('DELETE', `/routing/teams/${used.id}/members/${ids.ann}`, undefined, 404, 'Not on this team');
    for (let i = 2; i < MAX_TEAMS; i++) await team(`Team ${i}`);
    await refused('POST', '/routing/teams', { name: 'One too many' }, 409, `A store keeps at most ${MAX_TEAMS} teams.`);
  });

  it('lets only managers change them (403), and only in a store they have (404)', async () => {
    const used = await team('Used');
    const changes: [string, string, object?][] = [
      ['POST', '/routing/teams', { name: 'Sneaky' }],
      ['PATCH', `/routing/teams/${used.id}`, { name: 'Sneaky' }],
      ['DELETE', `/routing/teams/${used.id}`],
      ['POST', `/routing/teams/${used.id}/members`, { uid: ids.ann }],
      ['DELETE', `/routing/teams/${used.id}/members/${ids.ann}`],
      ['PATCH', `/routing/people/${ids.ann}`, { weight: 3 }],
      ['PUT', '/routing/rules', { rules: [], fallback: { floor: true }, backOfEveryLine: false }],
      ['POST', '/routing/test', { comments: 'hi' }],
    ];
    for (const [method, url, body] of changes) expect((await call(rep, method, url, body)).statusCode, `${method} ${url}`).toBe(403);
    // A manager of another store: this store is not his to open.
    for (const [method, url, body] of changes) expect((await call(northBoss, method, url, body, t.store.store.code)).statusCode, `${method} ${url}`).toBe(404);
    // A team of this store is no team of another.
    expect((await call(boss, 'PATCH', `/routing/teams/${used.id}`, { name: 'Moved' }, north.code)).statusCode).toBe(404);
    const mine = await ok('GET', '/routing');
    expect(mine.teams).toEqual([{ id: used.id, name: 'Used', members: [] }]);
    expect(mine.people.find((p) => p.id === ids.ann)?.weight).toBe(1);
  });

  it('sets weight and caps, audit-logged, shown on the routing screen; refuses what is out of range', async () => {
    let view = await ok('PATCH', `/routing/people/${ids.ben}`, { weight: 3, dailyCap: 5 });
    expect(view.people.find((p) => p.id === ids.ben)).toEqual({ id: ids.ben, name: 'Ben Route', weight: 3, dailyCap: 5, openCap: null });
    view = await ok('PATCH', `/routing/people/${ids.ben}`, { dailyCap: null, openCap: 40 });
    expect(view.people.find((p) => p.id === ids.ben)).toMatchObject({ weight: 3, dailyCap: null, openCap: 40 });
    const audit = (await call(boss, 'GET', `/users/${ids.ben}/audit`)).json<{ entries: { action: string; changes: object }[] }>().entries;
    expect(audit.map((e) => e.action)).toEqual(expect.arrayContaining(['weight changed', 'daily cap changed', 'open-leads cap changed']));
    expect(audit.find((e) => e.action === 'weight changed')?.changes).toEqual({ weight: { from: 1, to: 3 } });
    const rotation = (await call(boss, 'GET', '/rotation')).json<{ team: { id: string; weight: number; dailyCap: number | null; openCap: number | null }[] }>();
    expect(rotation.team.find((m) => m.id === ids.ben)).toMatchObject({ weight: 3, dailyCap: null, openCap: 40 });

    await refused('PATCH', `/routing/people/${ids.ben}`, { weight: 6 }, 400, 'Weight must be a whole number from 1 to 5');
    await refused('PATCH', `/routing/people/${ids.ben}`, { weight: 0 }, 400, 'Weight must be a whole number from 1 to 5');
    await refused('PATCH', `/routing/people/${ids.ben}`, { dailyCap: 201 }, 400, 'Daily cap must be a whole number from 1 to 200; leave it empty for no cap');
    await refused('PATCH', `/routing/people/${ids.ben}`, { openCap: 0 }, 400, 'Open-leads cap must be a whole number from 1 to 500; leave it empty for no cap');
    await refused('PATCH', `/routing/people/${ids.ben}`, {}, 400, 'Say what to change: weight, daily cap or open-leads cap');
    await refused('PATCH', `/routing/people/${ids.nina}`, { weight: 2 }, 404, 'User not found');
  });

  it('saves the routing with the rule book (history), refusing a team that is not this store’s', async () => {
    const es = await team('Spanish');
    const northTeam = (await call(boss, 'POST', '/routing/teams', { name: 'North only' }, north.code)).json<RoutingAdmin>().teams[0];
    const rule = { name: 'Spanish', when: { language: 'es' }, to: { team: es.id } };
    const view = await ok('PUT', '/routing/rules', { rules: [rule], fallback: { floor: true }, backOfEveryLine: false });
    expect(view.routing).toEqual({ rules: [{ ...rule, grab: null }], fallback: { floor: true }, backOfEveryLine: false });
    const rules = (await call(boss, 'GET', '/rules')).json();
    expect(rules.rules.routing.rules[0].name).toBe('Spanish');
    expect(Object.keys(rules.history[0].changes)).toEqual(['routing']);

    const base = { rules: [rule], fallback: { floor: true }, backOfEveryLine: true };
    await refused('PUT', '/routing/rules', { ...base, fallback: { team: northTeam.id } }, 400, `No such team: ${northTeam.id}`);
    await refused('PUT', '/routing/rules', { ...base, rules: [{ ...rule, to: { team: 987654 } }] }, 400, 'No such team: 987654');
    // The dealership rules' own save is no second door.
    await refused('PATCH', '/rules', { routing: { ...base, fallback: { team: 987654 } } }, 400, 'No such team: 987654');
    await refused(
      'PUT',
      '/routing/rules',
      { ...base, rules: [{ ...rule, grab: { after: 0, minutes: 10, then: { team: 55555 } } }] },
      400,
      'No such team: 55555',
    );
    await refused('PUT', '/routing/rules', { ...base, rules: [{ ...rule, when: { language: 'spanish' } }] }, 400, 'Language must be a two-letter code like es');
    await refused('PUT', '/routing/rules', { ...base, rules: [{ ...rule, when: { from: '25:00' } }] }, 400, 'From must be a time like 09:00');
    await refused('PUT', '/routing/rules', { ...base, rules: [{ ...rule, when: { colour: 'red' } }] }, 400, 'Unknown field: colour');
    await refused('PUT', '/routing/rules', { ...base, rules: [{ ...rule, name: '' }] }, 400, 'A rule name must be 1 to 60 characters');
    // Nothing refused was saved.
    expect((await ok('GET', '/routing')).routing.backOfEveryLine).toBe(false);
  });

  it('tries a lead on the rules: the rule it meets, its line and who would get it, assigning nothing', async () => {
    const es = await team('Spanish');
    await ok('POST', `/routing/teams/${es.id}/members`, { uid: ids.cal });
    await ok('PUT', '/routing/rules', {
      rules: [
        { name: 'Used Hondas', when: { condition: 'used', make: 'Honda' }, to: { floor: true } },
        { name: 'Spanish', when: { language: 'es' }, to: { team: es.id } },
      ],
      fallback: { floor: true },
      backOfEveryLine: true,
    });
    const tryIt = async (body: object) => {
      const r = await call(boss, 'POST', '/routing/test', body);
      expect(r.statusCode, r.body).toBe(200);
      return r.json();
    };
    const logBefore = await t.db.selectFrom('rotation_log').select('id').execute();

    expect(await tryIt({ comments: 'Hola, ¿habla español?' })).toEqual({
      rule: { index: 1, name: 'Spanish' },
      line: { team: { id: es.id, name: 'Spanish' } },
      wouldGet: { id: ids.cal, name: 'Cal Route' },
      why: 'Rule 2 "Spanish" → Spanish team',
    });
    const floor = await tryIt({ condition: 'pre-owned', make: 'honda' });
    expect(floor).toMatchObject({ rule: { index: 0, name: 'Used Hondas' }, line: 'floor', why: 'Rule 1 "Used Hondas" → whole floor' });
    expect(floor.wouldGet).not.toBeNull();
    expect(await tryIt({})).toMatchObject({ rule: null, line: 'floor', why: 'No rule matched → the store default (whole floor)' });

    // No one in the team can take a lead now: no one would get it.
    await t.db.updateTable('memberships').set({ on_duty: 0 }).where('user_id', '=', ids.cal).execute();
    expect(await tryIt({ language: 'es' })).toMatchObject({ rule: { name: 'Spanish' }, wouldGet: null });

    // Its team deleted, the rule sends its leads to the whole floor.
    await ok('DELETE', `/routing/teams/${es.id}`);
    expect(await tryIt({ language: 'es' })).toMatchObject({ rule: { name: 'Spanish' }, line: 'floor', why: 'Rule 2 "Spanish" → whole floor' });

    await refused('POST', '/routing/test', { comments: 'x'.repeat(2001) }, 400, 'Comments must be at most 2000 characters');
    await refused('POST', '/routing/test', { make: 7 }, 400, 'Make must be text');
    await refused('POST', '/routing/test', { lang: 'es' }, 400, 'Unknown field: lang');
    expect(await t.db.selectFrom('rotation_log').select('id').execute()).toEqual(logBefore);
    expect(await t.db.selectFrom('leads').select('id').execute()).toEqual([]);
  });
});
