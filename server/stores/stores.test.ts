import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { addStore } from './service';
import { ensureAddresses } from '../mailin/service';
import type { Store } from '../../domain/stores';
import { atStore } from '../db';
import { teamStaff } from '../rotation/queries';
import { leadFacts } from '../rotation/sql';
import { holds } from '../../domain/conditions';
import { PENDING_ACCEPT } from '../../domain/rotation';
import { openEvents } from '../test/sse';
import type { AddressInfo } from 'node:net';

/**
 * Two stores of one group (every route in the other store: server/http/matrix.test.ts);
 * lines that never wait on or serve each other; a salesman of both stores.
 */
describe.each(DIALECTS)('a group of two stores on %s', (dialect) => {
  let t: TestApp;
  let north: Store;
  let south: Store;
  const who: Record<'group' | 'northManager', string> = { group: '', northManager: '' };
  const ids: Record<string, string> = {};
  let northLead = 0;

  const call = (method: string, url: string, cookie: string, store?: string, payload?: object) =>
    t.app.inject({ method: method as 'GET', url: `/api${url}`, headers: { cookie, ...(store ? { 'x-store': store } : {}) }, payload });

  beforeAll(async () => {
    t = await testApp(dialect, { SIGNIN_LINKS_PER_MINUTE: '1000', SIGNIN_LINKS_PER_ADDRESS: '1000' });
    north = await addStore(t.dbh, { name: 'Northside Honda', code: 'NSH', timezone: 'America/Chicago' });
    south = await addStore(t.dbh, { name: 'Southside Toyota', code: 'SST', timezone: 'America/Denver' });
    const add = async (email: string, role: string, stores: number[]) =>
      (await insertUser(t.db, { email, name: email.split('@')[0], role, stores, onDuty: true })).id;
    ids.northManager = await add('north.boss@dealer.test', 'manager', [north.id]);
    ids.northRep = await add('north.rep@dealer.test', 'staff', [north.id]);
    ids.southRep = await add('south.rep@dealer.test', 'staff', [south.id]);
    who.group = await t.signIn(MANAGER);
    who.northManager = await t.signIn('north.boss@dealer.test');
    const s = await call('POST', '/rotation/assign', who.group, 'SST', { customer: 'South Customer' });
    expect(s.statusCode).toBe(200);
    const n = await call('POST', '/rotation/assign', who.group, 'NSH', { customer: 'North Customer' });
    expect(n.json().assignedTo.name).toBe('north.rep');
    northLead = n.json().leadId;
  });
  afterAll(async () => {
    t.dbh.pool?.on('error', () => undefined);
    await t.close();
  });

  // Another store's ids and routes, for every role: server/http/matrix.test.ts.
  it("a store manager's lists, reads and CSV hold his own store's only", async () => {
    const people = (await call('GET', '/users', who.northManager, 'NSH')).json().users.map((u: { email: string }) => u.email);
    expect(people).toContain('north.rep@dealer.test');
    expect(people).not.toContain('south.rep@dealer.test');
    const leads = (await call('GET', '/leads', who.northManager, 'NSH')).json().leads.map((l: { id: number }) => l.id);
    expect(leads).toEqual([northLead]);
    // A read may name its store in the address, as the web app's reads do (the route's own query is strict).
    const named = await t.app.inject({ method: 'GET', url: '/api/leads?open=1&store=NSH', headers: { cookie: who.northManager } });
    expect(named.json().leads.map((l: { id: number }) => l.id)).toEqual([northLead]);
    expect((await t.app.inject({ method: 'GET', url: '/api/leads?open=1&store=SST', headers: { cookie: who.northManager } })).json()).toEqual({
      error: 'Store not found',
    });
    const csv = await t.app.inject({ method: 'GET', url: '/api/leads/export.csv?store=NSH', headers: { cookie: who.northManager } });
    expect(csv.body).toContain('North Customer');
    expect(csv.body).not.toContain('South Customer');
    expect((await call('GET', '/stores', who.northManager)).json().stores.map((s: Store) => s.code)).toEqual(['NSH']);
  });

  it("each store's line is its own: concurrent assigns in both stores go round their own salesmen only", async () => {
    const reps: Record<string, string[]> = { NSH: [ids.northRep], SST: [ids.southRep] };
    for (const store of [north, south])
      for (let i = 0; i < 3; i++)
        reps[store.code].push(
          (await insertUser(t.db, { email: `${store.code}.${i}@dealer.test`, name: `${store.code} ${i}`, stores: [store.id], onDuty: true })).id,
        );
    const per = 12;
    const answers = await Promise.all(
      [north, south].flatMap((s) =>
        Array.from({ length: per }, (_, i) =>
          call('POST', '/rotation/assign', who.group, s.code, { customer: `${s.code} burst ${i}` }).then((r) => ({ store: s.code, r })),
        ),
      ),
    );
    for (const { store, r } of answers) {
      expect(r.statusCode).toBe(200);
      expect(reps[store]).toContain(r.json().assignedTo.id);
    }
    for (const store of [north, south]) {
      const got = answers.filter((a) => a.store === store.code).map((a) => a.r.json().assignedTo.id);
      // Four salesmen, twelve leads: three each, whatever order the requests ran in.
      for (const id of reps[store.code]) expect(got.filter((g) => g === id).length, store.code).toBe(3);
      const log = await t.db.selectFrom('rotation_log').select('target_id').where('store_id', '=', store.id).where('customer', 'like', '% burst %').execute();
      expect(log).toHaveLength(per);
    }
  });

  it('a salesman of both stores is in both lines, and on one floor at a time', async () => {
    const both = await insertUser(t.db, { email: 'both@dealer.test', name: 'Both Stores', stores: [north.id, south.id] });
    for (const s of [north, south]) expect((await teamStaff(t.db, s.id)).map((m) => m.id)).toContain(both.id);
    const cookie = await t.signIn('both@dealer.test');
    expect((await call('POST', '/rotation/duty', cookie, 'NSH', { onDuty: true })).statusCode).toBe(200);
    expect((await call('POST', '/rotation/duty', cookie, 'SST', { onDuty: true })).statusCode).toBe(200);
    const duty = async (s: Store) => (await teamStaff(atStore(t.dbh, s.id).db, s.id)).find((m) => m.id === both.id)?.onDuty;
    expect(await duty(south)).toBe(true);
    expect(await duty(north)).toBe(false);
    // Both stores assign at once, many times: he is served by the one he is on the floor of.
    const answers = await Promise.all(
      [north, south].flatMap((s) =>
        Array.from({ length: 8 }, (_, i) => call('POST', '/rotation/assign', who.group, s.code, { customer: `${s.code} both ${i}` }).then((r) => ({ s, r }))),
      ),
    );
    const his = answers.filter((a) => a.r.json().assignedTo?.id === both.id);
    expect(his.length).toBeGreaterThan(0);
    expect(his.every((a) => a.s.code === 'SST')).toBe(true);
  });

  it("a screen hears only its own store's news; a group screen hears every store's", async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const northScreen = await openEvents(`${base}/api/events?store=NSH`, who.northManager);
    const groupScreen = await openEvents(`${base}/api/events?store=*`, who.group);
    await northScreen.next('hello');
    await groupScreen.next('hello');
    expect((await call('POST', '/rotation/assign', who.group, 'SST', { customer: 'South Live' })).statusCode).toBe(200);
    expect((await groupScreen.next('rotation')).storeId).toBe(south.id);
    // The north screen's next news is the north assign made after the south one: it never heard the south's.
    expect((await call('POST', '/rotation/assign', who.group, 'NSH', { customer: 'North Live' })).statusCode).toBe(200);
    expect((await northScreen.next('rotation')).storeId).toBe(north.id);
    expect(northScreen.events.filter((e) => e.topic !== 'hello').every((e) => e.storeId === north.id)).toBe(true);
    northScreen.close();
    groupScreen.close();
  });

  it('a group manager adds someone to another store than the one he is in, and the answer shows him there', async () => {
    const r = await call('POST', '/users', who.group, 'NSH', { email: 'elsewhere@dealer.test', name: 'Elsewhere', role: 'staff', stores: ['SST'] });
    expect(r.statusCode).toBe(200);
    expect(r.json().user).toMatchObject({ email: 'elsewhere@dealer.test', stores: ['SST'], onDuty: false });
    const south = (await call('GET', '/users', who.group, 'SST')).json().users.map((u: { email: string }) => u.email);
    expect(south).toContain('elsewhere@dealer.test');
    // A store manager names only stores he may open.
    const refused = await call('POST', '/users', who.northManager, 'NSH', { email: 'sneak@dealer.test', name: 'Sneak', stores: ['SST'] });
    expect(refused.json()).toMatchObject({ error: 'No store has the code SST.', field: 'stores' });
  });

  it('the session names his stores; a group manager sees the group at a glance', async () => {
    const me = (await call('GET', '/auth/me', who.northManager)).json().user;
    expect(me.stores.map((s: Store) => s.code)).toEqual(['NSH']);
    expect(me.store).toBe('NSH');
    expect(me.groupManager).toBe(false);
    const group = (await call('GET', '/group', who.group)).json();
    expect(group.stores.map((s: { store: Store }) => s.store.code)).toEqual(['MAIN', 'NSH', 'SST']);
    const sst = group.stores.find((s: { store: Store }) => s.store.code === 'SST');
    const sstLeads = await t.db.selectFrom('leads').selectAll().where('store_id', '=', south.id).execute();
    expect(sst.upsToday).toBe(sstLeads.length);
    const pending = sstLeads.filter((l) => holds(PENDING_ACCEPT, leadFacts(l), new Date())).length;
    expect(pending).toBeGreaterThan(0);
    expect(sst.pending).toBe(pending);
    expect(sst.nextUp).not.toBeNull();
    expect((await call('PUT', '/profile/store', who.northManager, undefined, { code: 'SST' })).statusCode).toBe(404);
    expect((await call('PUT', '/profile/store', who.group, undefined, { code: 'SST' })).statusCode).toBe(200);
    expect((await call('GET', '/auth/me', who.group)).json().user.store).toBe('SST');
  });

  // Last: it leaves a store coded GROUP behind.
  it('refuses a store code the portal reads as something else; a store an older release gave one keeps its code and is not taken for it', async () => {
    for (const code of ['group', 'API', 'Admin', 'ALL', 'NEW']) {
      const r = await call('POST', '/stores', who.group, undefined, { name: 'Odd Motors', code, timezone: 'UTC' });
      expect([r.statusCode, r.json().error], code).toEqual([400, `${code.toUpperCase()} means something else in the portal: pick another store code.`]);
    }
    expect(await t.db.selectFrom('stores').select('code').where('name', '=', 'Odd Motors').execute()).toEqual([]);
    // INBOUND_ADDRESSES' "=GROUP" is the group's, even with a store of that code.
    await addStore(t.dbh, { name: 'Group Motors', code: 'GROUP', timezone: 'UTC' });
    await ensureAddresses(t.app.ctx, [{ address: 'group-doors@dealer.test', store: 'GROUP' }]);
    const row = await t.db.selectFrom('lead_addresses').select('store_id').where('address', '=', 'group-doors@dealer.test').executeTakeFirstOrThrow();
    expect(row.store_id).toBeNull();
    expect((await call('GET', '/rotation', who.group, 'GROUP')).statusCode).toBe(200);
  });
});
