import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { addStore } from '../stores/service';
import type { Store } from '../../domain/stores';
import { openEvents } from '../test/sse';
import { GROUP_ONLY } from '../events/bus';
import type { AddressInfo } from 'node:net';

const ADF = 'application/x-adf+xml';

/** An ADF lead for a dealer: <vendor> with its name and, when given, its id. */
const adf = (customer: string, vendor: { name?: string; id?: string }, prospectId?: string) => `<?xml version="1.0"?>
<adf><prospect>
  ${prospectId ? `<id sequence="1" source="Marketplace">${prospectId}</id>` : ''}
  <vehicle interest="buy"><year>2025</year><make>Honda</make><model>Civic</model></vehicle>
  <customer><contact><name part="full">${customer}</name><phone>555-0100</phone></contact></customer>
  <vendor>${vendor.id ? `<id source="Marketplace">${vendor.id}</id>` : ''}${vendor.name ? `<vendorname>${vendor.name}</vendorname>` : ''}</vendor>
  <provider><name part="full">Marketplace</name></provider>
</prospect></adf>`;

/**
 * A key for the whole group: each lead goes to the store its dealer is mapped to, or waits in the
 * group's Unassigned, dealer named, until a group manager maps the dealer or sends the lead.
 */
describe.each(DIALECTS)('group intake by dealer on %s', (dialect) => {
  let t: TestApp;
  let north: Store;
  let south: Store;
  let group: string;
  let northBoss: string;
  let northRep: string;
  let groupKey: string;
  const rep: Record<string, string> = {};

  const call = (method: string, url: string, cookie: string, payload?: object, store?: string) =>
    t.app.inject({ method: method as 'GET', url: `/api${url}`, headers: { cookie, ...(store ? { 'x-store': store } : {}) }, payload });
  const send = (body: string | object, key = groupKey) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/leads',
      headers: { 'x-api-key': key, ...(typeof body === 'string' ? { 'content-type': ADF } : {}) },
      payload: body,
    });
  const lead = (id: number) => t.db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await testApp(dialect, { INTAKE_BURST: '1000' });
    north = await addStore(t.dbh, { name: 'Northside Honda', code: 'NSH', timezone: 'America/Chicago' });
    south = await addStore(t.dbh, { name: 'Southside Toyota', code: 'SST', timezone: 'America/Denver' });
    await insertUser(t.db, { email: 'north.boss@dealer.test', name: 'North Boss', role: 'manager', stores: [north.id] });
    rep.north = (await insertUser(t.db, { email: 'nina@dealer.test', name: 'Nina North', stores: [north.id], onDuty: true })).id;
    rep.south = (await insertUser(t.db, { email: 'sam@dealer.test', name: 'Sam South', stores: [south.id], onDuty: true })).id;
    group = await t.signIn(MANAGER);
    northBoss = await t.signIn('north.boss@dealer.test');
    northRep = await t.signIn('nina@dealer.test');
    const k = await call('POST', '/group/keys', group, { name: 'Marketplace (group)' });
    expect(k.statusCode).toBe(201);
    groupKey = k.json().key;
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.deleteFrom('dealer_stores').execute();
    await t.db.deleteFrom('leads').execute();
  });

  it('is for group managers only: a store manager and a salesman are refused every group intake route', async () => {
    const routes: [string, string, object?][] = [
      ['GET', '/group/keys'],
      ['POST', '/group/keys', { name: 'Sneaky' }],
      ['POST', '/group/keys/1/revoke'],
      ['GET', '/group/dealers'],
      ['PUT', '/group/dealers', { dealer: 'Northside Honda', store: 'NSH' }],
      ['DELETE', '/group/dealers/1'],
      ['GET', '/group/waiting'],
      ['POST', '/group/waiting/1/store', { code: 'NSH' }],
    ];
    for (const [method, url, body] of routes) {
      for (const cookie of [northBoss, northRep]) {
        const r = await call(method, url, cookie, body);
        expect(r.statusCode, `${method} ${url}`).toBe(403);
      }
    }
    expect((await t.db.selectFrom('api_keys').select('name').where('name', '=', 'Sneaky').execute()).length).toBe(0);
    // A store's own key list does not show the group's keys.
    const own = await call('GET', '/integrations/keys', group, undefined, 'NSH');
    expect(own.json().keys.map((k: { name: string }) => k.name)).not.toContain('Marketplace (group)');
    expect((await call('GET', '/group/keys', group)).json().keys.map((k: { name: string }) => k.name)).toEqual(['Marketplace (group)']);
  });

  it('hands a mapped dealer’s lead out in its store, by id before name', async () => {
    expect((await call('PUT', '/group/dealers', group, { dealer: 'Northside Honda', store: 'NSH' })).json()).toEqual({ moved: 0 });
    expect((await call('PUT', '/group/dealers', group, { dealer: 'D-2002', store: 'SST' })).statusCode).toBe(200);
    const byName = await send(adf('Ada North', { name: '  northside   HONDA' }));
    expect(byName.statusCode).toBe(201);
    expect(byName.json().leads[0]).toMatchObject({ status: 'assigned', assignedTo: 'Nina North' });
    expect(await lead(byName.json().leads[0].id)).toMatchObject({ store_id: north.id, assigned_to: rep.north, dealer: 'northside HONDA' });
    // The id is mapped to the south store: it wins over the north store's name.
    const byId = await send(adf('Bo South', { name: 'Northside Honda', id: 'D-2002' }));
    expect(byId.json().leads[0]).toMatchObject({ status: 'assigned', assignedTo: 'Sam South' });
    expect((await lead(byId.json().leads[0].id)).store_id).toBe(south.id);
    // A JSON lead names its dealer in "dealer".
    const json = await send({ customer: 'Cy Json', dealer: 'd-2002' });
    expect(json.json().leads[0].assignedTo).toBe('Sam South');
    const list = (await call('GET', '/group/dealers', group)).json().dealers;
    expect(list.map((d: { dealer: string; store: { code: string } }) => [d.dealer, d.store.code])).toEqual([
      ['D-2002', 'SST'],
      ['Northside Honda', 'NSH'],
    ]);
  });

  it('keeps an unmapped dealer’s lead in the group’s Unassigned with its dealer named, and a mapping sends it to its store', async () => {
    const r = await send(adf('Una Mapped', { name: 'Eastside Kia', id: 'K-77' }, 'P-1'));
    expect(r.statusCode).toBe(201);
    const id = r.json().leads[0].id;
    expect(r.json().leads[0]).toMatchObject({ status: 'unassigned', assignedTo: null });
    expect(await lead(id)).toMatchObject({ store_id: null, assigned_to: '', dealer: 'Eastside Kia', dealer_ref: 'K-77' });
    const waiting = (await call('GET', '/group/waiting', group)).json().leads;
    expect(waiting).toMatchObject([
      { id, customer: 'Una Mapped', dealer: 'Eastside Kia (K-77)', mapAs: 'K-77', vehicle: '2025 Honda Civic', source: 'Marketplace' },
    ]);
    expect((await call('GET', '/group', group)).json().unassigned).toBe(1);
    // No store sees it: not in a store's leads, not in a salesman's.
    const storeLeads = await call('GET', '/leads', group, undefined, 'NSH');
    expect(storeLeads.json().leads.map((l: { id: number }) => l.id)).not.toContain(id);

    // The same prospect again is a repeat, not a second lead.
    const again = await send(adf('Una Mapped', { name: 'Eastside Kia', id: 'K-77' }, 'P-1'));
    expect(again.json().leads[0]).toMatchObject({ id, status: 'duplicate' });

    const mapped = await call('PUT', '/group/dealers', group, { dealer: 'k-77', store: 'NSH' });
    expect(mapped.json()).toEqual({ moved: 1 });
    expect(await lead(id)).toMatchObject({ store_id: north.id, assigned_to: rep.north });
    expect((await call('GET', '/group/waiting', group)).json().leads).toEqual([]);
    expect((await call('GET', '/group', group)).json().unassigned).toBe(0);
    // From now on the dealer's leads go straight there.
    const next = await send(adf('Next Kia', { name: 'Eastside Kia', id: 'K-77' }));
    expect((await lead(next.json().leads[0].id)).store_id).toBe(north.id);
  });

  it('lets a group manager send a waiting lead to a store once; a second try says someone did', async () => {
    const r = await send(adf('Wanda Waits', { name: 'Unknown Motors' }));
    const id = r.json().leads[0].id;
    const sent = await call('POST', `/group/waiting/${id}/store`, group, { code: 'SST' });
    expect(sent.statusCode).toBe(200);
    expect(await lead(id)).toMatchObject({ store_id: south.id, assigned_to: rep.south });
    const twice = await call('POST', `/group/waiting/${id}/store`, group, { code: 'NSH' });
    expect(twice.statusCode).toBe(404);
    expect(twice.json().error).toMatch(/not waiting for a store/);
    expect((await lead(id)).store_id).toBe(south.id);
  });

  it('a store’s own key ignores the dealer a document names', async () => {
    const k = await call('POST', '/integrations/keys', group, { name: 'North website' }, 'NSH');
    await call('PUT', '/group/dealers', group, { dealer: 'Southside Toyota', store: 'SST' });
    const r = await send(adf('Own Key', { name: 'Southside Toyota' }), k.json().key);
    expect((await lead(r.json().leads[0].id)).store_id).toBe(north.id);
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const bad: [object, number, RegExp][] = [
      [{ dealer: '', store: 'NSH' }, 400, /Dealer is required/],
      [{ dealer: 'x'.repeat(10_000), store: 'NSH' }, 400, /at most 200|too long/i],
      [{ dealer: 'Bad\u0000Dealer', store: 'NSH' }, 400, /without NUL/],
      [{ dealer: 'Fine Dealer', store: 'nope!' }, 400, /Store code/],
      [{ dealer: 'Fine Dealer', store: 'ZZZ' }, 404, /Store not found/],
      [{ dealer: 'Fine Dealer' }, 400, /Store code/],
      [{ dealer: { deep: [[[{}]]] }, store: 'NSH' }, 400, /text/],
    ];
    for (const [body, status, error] of bad) {
      const r = await call('PUT', '/group/dealers', group, body);
      expect(r.statusCode, JSON.stringify(body).slice(0, 60)).toBe(status);
      expect(r.json().error).toMatch(error);
    }
    expect(await t.db.selectFrom('dealer_stores').selectAll().execute()).toEqual([]);
    expect((await call('POST', '/group/waiting/abc/store', group, { code: 'NSH' })).statusCode).toBe(404);
    expect((await call('DELETE', '/group/dealers/99999', group)).json().error).toBe('Dealer mapping not found');
    // A vendor name past 200 characters refuses that prospect with its reason.
    const long = await send(adf('Long Vendor', { name: 'V'.repeat(201) }));
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toMatch(/<vendor> is too long/);
  });

  it('moves a mapping to another store and removes one', async () => {
    await call('PUT', '/group/dealers', group, { dealer: 'Westside VW', store: 'NSH' });
    await call('PUT', '/group/dealers', group, { dealer: 'WESTSIDE vw', store: 'SST' });
    const [m] = (await call('GET', '/group/dealers', group)).json().dealers;
    expect(m).toMatchObject({ dealer: 'WESTSIDE vw', store: { code: 'SST' } });
    expect((await send(adf('West One', { name: 'Westside VW' }))).json().leads[0].assignedTo).toBe('Sam South');
    expect((await call('DELETE', `/group/dealers/${m.id}`, group)).statusCode).toBe(200);
    expect((await send(adf('West Two', { name: 'Westside VW' }))).json().leads[0].status).toBe('unassigned');
  });

  it('a waiting lead is news for the group screen only; sending it to a store is that store’s', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const northScreen = await openEvents(`${base}/api/events?store=NSH`, northBoss);
    const groupScreen = await openEvents(`${base}/api/events?store=*`, group);
    await northScreen.next('hello');
    await groupScreen.next('hello');
    const id = (await send(adf('Live Wait', { name: 'Faraway Mazda' }))).json().leads[0].id;
    expect((await groupScreen.next('leads')).storeId).toBe(GROUP_ONLY);
    await call('POST', `/group/waiting/${id}/store`, group, { code: 'NSH' });
    expect((await groupScreen.next('leads')).storeId).toBe(north.id);
    // The north screen's first news is the lead's arrival in its store: it never heard it wait.
    expect((await northScreen.next('leads')).storeId).toBe(north.id);
    expect(northScreen.events.filter((e) => e.topic !== 'hello').every((e) => e.storeId === north.id)).toBe(true);
    // A store manager cannot listen in on the group's news.
    const sneaky = await openEvents(`${base}/api/events?store=*`, northBoss);
    await sneaky.next('hello');
    await send(adf('Second Wait', { name: 'Faraway Mazda' }));
    await groupScreen.next('leads');
    await call('POST', '/rotation/assign', group, { customer: 'North After' }, 'NSH');
    await sneaky.next('rotation');
    expect(sneaky.events.some((e) => e.storeId === GROUP_ONLY)).toBe(false);
    for (const s of [northScreen, groupScreen, sneaky]) s.close();
  });

  it('under a burst of the same unmapped prospect and of sends to two stores, one lead and one store', async () => {
    const same = await Promise.all(Array.from({ length: 6 }, () => send(adf('Rush Twin', { name: 'Nowhere Ford' }, 'P-RUSH'))));
    const ids = new Set(same.map((r) => r.json().leads[0].id));
    expect(ids.size).toBe(1);
    expect(same.filter((r) => r.json().leads[0].status === 'unassigned')).toHaveLength(1);
    const [id] = [...ids];
    const race = await Promise.all(['NSH', 'SST', 'NSH', 'SST'].map((code) => call('POST', `/group/waiting/${id}/store`, group, { code })));
    expect(race.map((r) => r.statusCode).sort()).toEqual([200, 404, 404, 404]);
    const row = await lead(id);
    expect(row.assigned_to).toBe(row.store_id === north.id ? rep.north : rep.south);
    expect((await t.db.selectFrom('rotation_log').select('id').where('lead_id', '=', id).execute()).length).toBe(1);
  });
});
