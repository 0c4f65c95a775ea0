import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { addStore, STORE_NOT_FOUND } from '../stores/service';
import { addAddress } from '../mailin/service';
import { NOT_JSON, routes, type Route, type RouteContract } from '../../domain/contract/routes';
import { methodAndPath } from '../../domain/contract/method';
import { DEFAULT_ROUTING } from '../../domain/routing';
import type { Store } from '../../domain/stores';
import { teamStaff } from '../rotation/queries';

/**
 * The route matrix: every route of the contract, as the manager, a salesman and the API key of
 * one store (North), on the other store's (Bay's) ids in North, and in Bay's store; the group
 * manager's routes as North's manager. Each must be refused (403 or 404: never done, never a
 * server error), name none of Bay's people or customers, and leave every row as it was. The
 * routes are read from the contract, so a new one is tried the day it is added; one whose ids or
 * body this file cannot fill fails, saying what to add. Then every store route in North, and in
 * Bay for the group manager, must open (on ids that name nothing) without a word of Bay's.
 */

/** Bay's things a route can name, and North's own store and line. */
interface Ids {
  own: string;
  ownLine: string[];
  code: string;
  manager: string;
  salesman: string;
  lead: number;
  walkIn: number;
  up: number;
  storeless: number;
  sale: number;
  team: number;
  timeOff: number;
  key: number;
  groupKey: number;
  tvLink: number;
  dealer: number;
  address: number;
  mail: number;
  device: number;
  passkey: string;
  session: string;
}

/**
 * Bay's objects of each kind, by the message a route's params schema gives for an id that names
 * nothing (its 404's): a route with a new kind of id fails until its line is added here.
 */
const KINDS: Record<string, (b: Ids) => (string | number)[]> = {
  'Lead not found': (b) => [b.lead],
  'Sale not found': (b) => [b.sale],
  'API key not found': (b) => [b.key, b.groupKey],
  'Dealer mapping not found': (b) => [b.dealer],
  'This lead is not waiting for a store.': (b) => [b.storeless],
  // A walk-in's desk row (its lead) and an up of the line (its log row).
  'Up not found': (b) => [b.walkIn, b.up],
  'Lead address not found': (b) => [b.address],
  'Mail not found': (b) => [b.mail],
  'Device not found': (b) => [b.device],
  'Team not found': (b) => [b.team],
  'Not on this team': (b) => [b.salesman],
  'User not found': (b) => [b.salesman, b.manager],
  'Time off not found': (b) => [b.timeOff],
  'Passkey not found': (b) => [b.passkey],
  'Session not found': (b) => [b.session],
  'Store not found': (b) => [b.code],
  'TV link not found': (b) => [b.tvLink],
};

const PAST_DAY = '2024-06-03';
const LATER_DAY = '2030-01-07';
/** An appointment's time a week from now (one must be within a year). */
const SOON = `${new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10)}T10:00`;

/**
 * A body each tried route takes, so that its refusal comes from who is asking, not from a bad
 * body (checked against the route's schema first). Where a body names a person, it is Bay's.
 */
const BODIES: Record<string, (b: Ids) => unknown> = {
  'PUT /auth/settings': () => ({ link: true }),
  'PATCH /auth/passkeys/:id': () => ({ name: 'Mine now' }),
  'POST /stores': () => ({ name: 'Matrix Motors', code: 'MTX', timezone: 'UTC' }),
  'PATCH /stores/:code': () => ({ name: 'Renamed Motors' }),
  'POST /group/keys': () => ({ name: 'Matrix key' }),
  'PUT /group/dealers': (b) => ({ dealer: 'Matrix Dealer', store: b.own }),
  'POST /group/waiting/:id/store': (b) => ({ code: b.own }),
  'PUT /profile/store': (b) => ({ code: b.code }),
  'PUT /profile/notify': () => ({ choices: null }),
  'POST /rotation/assign': (b) => ({ customer: 'Matrix Customer', askedFor: b.salesman }),
  'POST /rotation/skip': (b) => ({ targetUid: b.salesman, reason: 'At lunch' }),
  // North's line as its screen shows it, with Bay's salesman named as the one moved.
  'POST /rotation/reorder': (b) => ({ uid: b.salesman, shown: b.ownLine, order: b.ownLine }),
  'POST /rotation/status': (b) => ({ uid: b.salesman, onDuty: false }),
  'POST /rotation/duty': () => ({ onDuty: true }),
  'POST /leads/:id/lost': () => ({ reason: 'Bought elsewhere' }),
  'POST /leads/:id/sold': () => ({ date: PAST_DAY, frontGross: 1500, actionId: 'matrix-sold-1' }),
  'POST /leads/:id/appointment': () => ({ at: SOON }),
  'POST /leads/:id/shown': () => ({ shown: true }),
  'POST /leads/:id/name': () => ({ customer: 'Renamed Customer' }),
  'POST /leads/:id/contact': () => ({ channel: 'Call' }),
  'POST /leads/:id/handout': (b) => ({ to: b.salesman, reason: 'He asked for him' }),
  'PATCH /rules': () => ({ followUpHours: 48 }),
  'POST /routing/teams': () => ({ name: 'Matrix team' }),
  'PATCH /routing/teams/:id': () => ({ name: 'Renamed team' }),
  'POST /routing/teams/:id/members': (b) => ({ uid: b.salesman }),
  'PATCH /routing/people/:id': () => ({ weight: 2 }),
  'PUT /routing/rules': () => DEFAULT_ROUTING,
  'POST /routing/test': () => ({ source: 'Matrix' }),
  'POST /payplans': () => ({ effectiveFrom: LATER_DAY, tiers: [{ fromCents: 0, type: 'percent', percent: 25 }], splitPercent: 50 }),
  'POST /desk/ups': (b) => ({ customer: 'Matrix Walk-in', tradeIn: false, askedFor: b.salesman }),
  'PATCH /desk/ups/:id': () => ({ worksheet: true }),
  'POST /floor/report/send': () => ({ day: PAST_DAY }),
  'PUT /availability/:id/hours': () => ({ hours: null }),
  'POST /availability/:id/time-off': () => ({ fromDay: LATER_DAY, toDay: LATER_DAY }),
  'POST /users': (b) => ({ email: 'matrix.new@dealer.test', name: 'Matrix New', stores: [b.code] }),
  // The takeover of issue 66: another store's salesman made a manager, his address made one's own.
  'PATCH /users/:id': () => ({ email: 'taken.over@dealer.test', role: 'manager' }),
  'POST /sales': () => ({ date: PAST_DAY, frontGross: 1500 }),
  'PATCH /sales/:id': () => ({ frontGross: 9999 }),
  'POST /integrations/keys': () => ({ name: 'Matrix key' }),
  'POST /tv/links': () => ({ name: 'Matrix TV' }),
  'POST /mail/addresses': () => ({ address: 'matrix-leads@dealer.test' }),
  'POST /mail/:id/lead': () => ({ customer: 'Matrix Mail Customer' }),
  'POST /mail/:id/dismiss': () => ({ reason: 'Spam' }),
};

/** A query a tried route takes, where it names one of Bay's or its schema wants one. */
const QUERIES: Record<string, (b: Ids) => Record<string, string>> = {
  'GET /sales': (b) => ({ user: b.salesman }),
};

/**
 * Routes with no id in their path whose body or query names Bay's people or store: tried in the
 * caller's own store too, where the refusal may also be a 400 or 409 that says what is wrong.
 */
const ACROSS: Route[] = [
  'POST /rotation/assign',
  'POST /rotation/skip',
  'POST /rotation/reorder',
  'POST /rotation/status',
  'POST /desk/ups',
  'POST /users',
  'PUT /profile/store',
  'GET /sales',
];

/**
 * Routes on the caller's own things (his profile, sessions, passkeys, devices, sales), the public
 * ones and the sign-in settings a store manager may read: they name nothing of another store.
 * Every other route names ids, acts in a store or is the group manager's, and is tried.
 */
const OWN: Route[] = [
  'POST /auth/link',
  'POST /auth/complete',
  'GET /auth/me',
  'POST /auth/logout',
  'GET /auth/methods',
  'GET /auth/settings',
  'GET /auth/sessions',
  'POST /auth/sessions/end-all',
  'GET /auth/passkeys',
  'POST /auth/passkeys/add/options',
  'POST /auth/passkeys',
  'POST /auth/passkeys/signin/options',
  'POST /auth/passkeys/signin',
  'PATCH /profile',
  'GET /profile/notes',
  'PUT /profile/notes',
  'GET /weather',
  'GET /profile/mobile',
  'PUT /profile/mobile',
  'POST /profile/mobile/confirm',
  'DELETE /profile/mobile',
  'GET /stores',
  'POST /users/confirm-email',
  'GET /sales/all',
  'GET /push/key',
  'GET /push/subscriptions',
  'POST /push/subscriptions',
  'POST /push/accept',
  // Opened by a TV link's secret, not by a session: its store is the link's (server/tv's tests).
  'GET /tv/board',
];

/** The routes outside the contract: those that act in a store or are the group's are tried as one of its store's. */
const OTHERS: Record<(typeof NOT_JSON)[number], 'store' | 'group' | 'own'> = {
  'GET /events': 'store',
  'GET /sales/export.csv': 'store',
  'GET /sales/board.csv': 'store',
  'GET /leads/export.csv': 'store',
  'GET /leads/funnel.csv': 'store',
  'GET /floor/report.csv': 'store',
  'GET /group/report.csv': 'group',
  'GET /docs': 'own',
  // A TV link's own store, by its secret (server/tv's tests).
  'GET /tv/events': 'own',
  // An API key's own store: the last test below.
  'POST /v1/leads': 'own',
  // The SMS provider's, signed with its secret (server/notices' tests).
  'POST /sms/inbound': 'own',
  'POST /sms/status': 'own',
};

type Caller = 'manager' | 'salesman' | 'key';
const CALLERS: Caller[] = ['manager', 'salesman', 'key'];

interface Try {
  route: string;
  /** own: in the caller's own store; other: in Bay's (X-Store). */
  where: 'own' | 'other';
  params: Record<string, string | number>;
  body?: unknown;
  query?: Record<string, string>;
}

const contract = routes as Record<string, RouteContract>;
const pathKeys = (route: string) => [...route.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
const fill = (path: string, params: Record<string, string | number>) => path.replace(/:([A-Za-z_]+)/g, (_, k: string) => encodeURIComponent(String(params[k])));

/** Runs `each` on every item, a few at a time (the database answers one while the app reads another). */
async function inTurns<T>(items: T[], each: (item: T) => Promise<void>, at = 6) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await each(items[next++]);
  };
  await Promise.all(Array.from({ length: at }, worker));
}

/** Every combination of one value per key. */
function combinations(options: [string, (string | number)[]][]): Record<string, string | number>[] {
  return options.reduce<Record<string, string | number>[]>((acc, [k, vs]) => acc.flatMap((a) => vs.map((v) => ({ ...a, [k]: v }))), [{}]);
}

/** The kind of each path parameter of a route: the message its schema gives an empty one. */
function paramKinds(route: string, def: RouteContract): Record<string, string | null> {
  const keys = pathKeys(route);
  const r = def.params?.safeParse(Object.fromEntries(keys.map((k) => [k, ''])));
  const issues = r && !r.success ? r.error.issues : [];
  return Object.fromEntries(keys.map((k) => [k, issues.find((i) => i.path[0] === k)?.message ?? null]));
}

/** What to call for every route, or what this file lacks to call one (each a line of `missing`). */
function plan(b: Ids): { tries: Try[]; missing: string[] } {
  const tries: Try[] = [];
  const missing: string[] = [];
  for (const [route, def] of Object.entries(contract)) {
    const ids = pathKeys(route).length > 0;
    // A manager's route of no store is the group manager's (GET /auth/settings, which any manager reads, is in OWN).
    const group = def.access === 'manager' && !def.store && !OWN.includes(route as Route);
    const across = ACROSS.includes(route as Route);
    const where = [...(ids || group || across ? (['own'] as const) : []), ...(def.store ? (['other'] as const) : [])];
    if (!where.length) {
      if (!OWN.includes(route as Route)) missing.push(`say how to try ${route}: list it in OWN if it names nothing of another store`);
      continue;
    }
    if (OWN.includes(route as Route)) missing.push(`${route} is in OWN, but it names ids or acts in a store: take it out`);
    const options: [string, (string | number)[]][] = [];
    for (const [k, kind] of Object.entries(paramKinds(route, def))) {
      const values = kind === null ? undefined : KINDS[kind]?.(b);
      if (!values) missing.push(`add an id for ${route}: its :${k} (${kind ?? 'takes anything'}) names no kind in KINDS`);
      else options.push([k, values]);
    }
    if (options.length < pathKeys(route).length) continue;
    if (def.body && !BODIES[route]) {
      missing.push(`add a body for ${route} to BODIES`);
      continue;
    }
    const body = BODIES[route]?.(b);
    if (def.body && !def.body.safeParse(body).success) {
      missing.push(`the body for ${route} in BODIES is refused by its schema: ${JSON.stringify(def.body.safeParse(body).error?.issues[0])}`);
      continue;
    }
    const query = QUERIES[route]?.(b);
    if (def.query && !def.query.safeParse(query ?? {}).success) {
      missing.push(`add a query for ${route} to QUERIES`);
      continue;
    }
    for (const params of combinations(options)) {
      if (def.params && !def.params.safeParse(params).success) missing.push(`${route}: Bay's ${JSON.stringify(params)} is not an id its schema takes`);
      for (const w of where) tries.push({ route, where: w, params, body, query });
    }
  }
  for (const route of [...Object.keys(BODIES), ...Object.keys(QUERIES), ...ACROSS, ...OWN])
    if (!contract[route]) missing.push(`${route} is no route of the contract: take it out of this file`);
  for (const route of NOT_JSON) if (!(route in OTHERS)) missing.push(`say how to try ${route} in OTHERS`);
  return { tries, missing };
}

describe.each(DIALECTS)('every route as another store’s people, on %s', (dialect) => {
  let t: TestApp;
  let north: Store;
  let bay: Store;
  let b: Ids;
  const headers: Record<Caller | 'group', Record<string, string>> = { manager: {}, salesman: {}, key: {}, group: {} };
  /** What no answer may hold: Bay's people and customers. */
  const bayNames: string[] = [];

  const call = async (route: string, path: string, h: Record<string, string>, o: { store?: string; body?: unknown; query?: Record<string, string> } = {}) => {
    const [method] = methodAndPath(route);
    const qs = o.query ? `?${new URLSearchParams(o.query).toString()}` : '';
    const r = await t.app.inject({ method, url: `/api${path}${qs}`, headers: { ...h, ...(o.store ? { 'x-store': o.store } : {}) }, payload: o.body as object });
    return { status: r.statusCode, body: r.body };
  };
  const ok = async (route: string, path: string, o: { store?: string; body?: unknown } = {}, as = headers.group) => {
    const r = await call(route, path, as, o);
    if (r.status >= 300) throw new Error(`${route}: ${r.status} ${r.body}`);
    return JSON.parse(r.body) as Record<string, unknown>;
  };

  /** Says so where an answer names one of Bay's people or customers. */
  const naming = (label: string, text: string) => {
    const named = bayNames.filter((n) => text.toLowerCase().includes(n.toLowerCase()));
    return named.length ? [`${label}: names ${named.join(', ')}`] : [];
  };

  /** Every row of every table, less the bookkeeping a refused request may touch. */
  async function snapshot() {
    const tables = await t.db.introspection.getTables();
    const out: Record<string, string[]> = {};
    for (const table of tables) {
      if (['rate_limits'].includes(table.name)) continue;
      const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(t.db)).rows;
      out[table.name] = rows.map((r) => JSON.stringify(r)).sort();
    }
    return out;
  }

  /** What changed between two snapshots, a line per table. */
  function changes(before: Record<string, string[]>, after: Record<string, string[]>) {
    return Object.keys({ ...before, ...after }).flatMap((table) => {
      const [was, is] = [before[table] ?? [], after[table] ?? []];
      const gone = was.filter((r) => !is.includes(r));
      const came = is.filter((r) => !was.includes(r));
      return gone.length || came.length ? [`${table} changed: ${[...gone.map((r) => `- ${r}`), ...came.map((r) => `+ ${r}`)].join(' ').slice(0, 400)}`] : [];
    });
  }

  beforeAll(async () => {
    // The mail receiver on, so that testing a lead address asks whose it is.
    t = await testApp(dialect, { SIGNIN_LINKS_PER_MINUTE: '1000', SIGNIN_LINKS_PER_ADDRESS: '1000', INBOUND_SMTP_PORT: '0', INBOUND_SMTP_HOST: '127.0.0.1' });
    north = await addStore(t.dbh, { name: 'Northside Honda', code: 'NTH', timezone: 'America/Chicago' });
    bay = await addStore(t.dbh, { name: 'Bayview Toyota', code: 'BAY', timezone: 'America/Denver' });
    const person = (email: string, name: string, role: string, store: Store) => insertUser(t.db, { email, name, role, stores: [store.id], onDuty: true });
    await person('nina.north@dealer.test', 'Nina Northside', 'manager', north);
    await person('ned.north@dealer.test', 'Ned Northside', 'staff', north);
    const bayManager = await person('bianca.bay@dealer.test', 'Bianca Bayview', 'manager', bay);
    const baySalesman = await person('boris.bay@dealer.test', 'Boris Bayview', 'staff', bay);
    const cookies = await Promise.all([MANAGER, 'nina.north@dealer.test', 'ned.north@dealer.test', 'boris.bay@dealer.test'].map((e) => t.signIn(e)));
    [headers.group, headers.manager, headers.salesman] = cookies.map((cookie) => ({ cookie }));
    const borisCookie = { cookie: cookies[3] };
    // North's key, made by its manager in her own store.
    headers.key = {
      'x-api-key': ((await ok('POST /integrations/keys', '/integrations/keys', { body: { name: 'North CRM' } }, headers.manager)) as { key: string }).key,
    };

    // Bay's things, made by the group manager (and Boris) the way they are made every day.
    const inBay = { store: bay.code };
    const lead = (await ok('POST /rotation/assign', '/rotation/assign', { ...inBay, body: { customer: 'Bella Customer' } })) as { leadId: number };
    const walkIn = (await ok('POST /desk/ups', '/desk/ups', { ...inBay, body: { customer: 'Bert Walkin', tradeIn: true } })) as { id: number };
    // Boris hears of both by mail a moment later: before he has a device (else by push), and before anything is compared.
    for (const customer of ['Bella Customer', 'Bert Walkin']) await t.smtp.mailTo(baySalesman.email, 10_000, 0, (m) => m.subject === `New lead: ${customer}`);
    const key = (await ok('POST /integrations/keys', '/integrations/keys', { ...inBay, body: { name: 'Bay CRM' } })) as { apiKey: { id: number } };
    const tvLink = (await ok('POST /tv/links', '/tv/links', { ...inBay, body: { name: 'Bay showroom' } })) as { link: { id: number } };
    const groupKey = (await ok('POST /group/keys', '/group/keys', { body: { name: 'Group CRM' } })) as { key: string; apiKey: { id: number } };
    await ok('PUT /group/dealers', '/group/dealers', { body: { dealer: 'Bayview Motors', store: bay.code } });
    const waiting = await t.app.inject({
      method: 'POST',
      url: '/api/v1/leads',
      headers: { 'x-api-key': groupKey.key },
      payload: { customer: 'Stella Storeless', dealer: 'Nobody Motors' },
    });
    expect(waiting.statusCode, waiting.body).toBe(201);
    await ok('POST /sales', '/sales', { ...inBay, body: { date: PAST_DAY, frontGross: 2500, customer: 'Sam Buyer' } }, borisCookie);
    await ok('POST /routing/teams', '/routing/teams', { ...inBay, body: { name: 'Bay Used' } });
    const team = await t.db.selectFrom('teams').select('id').where('store_id', '=', bay.id).executeTakeFirstOrThrow();
    await ok('POST /routing/teams/:id/members', `/routing/teams/${team.id}/members`, { ...inBay, body: { uid: baySalesman.id } });
    await ok('POST /availability/:id/time-off', `/availability/${baySalesman.id}/time-off`, { ...inBay, body: { fromDay: LATER_DAY, toDay: LATER_DAY } });
    const address = await addAddress(t.db, bay.id, 'bay-leads@dealer.test', bayManager.id);
    const now = Date.now();
    const mail = await t.db
      .insertInto('mail_messages')
      .values({
        address_id: address.id,
        store_id: bay.id,
        message_key: 'matrix-1',
        via: 'smtp',
        sender: 'leads@cars.example',
        subject: 'A lead for Bay',
        raw_key: 'matrix-raw-1',
        size: 10,
        state: 'review',
        attempts: 1,
        next_at: now,
        lease_until: null,
        outcome: '',
        detail: '',
        handled_by: null,
        received_at: now,
        done_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const device = await t.db
      .insertInto('push_subscriptions')
      .values({
        user_id: baySalesman.id,
        endpoint: 'https://fcm.googleapis.com/fcm/send/boris',
        p256dh: 'k',
        auth: 'a',
        label: 'Phone',
        created_at: now,
        last_used_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('passkeys')
      .values({
        id: 'boris-passkey',
        user_id: baySalesman.id,
        name: 'Phone',
        public_key: 'AAAA',
        counter: 0,
        transports: null,
        created_at: now,
        last_used_at: null,
      })
      .execute();
    const of = <T>(q: { executeTakeFirstOrThrow: () => Promise<T> }) => q.executeTakeFirstOrThrow();
    b = {
      own: north.code,
      ownLine: (await teamStaff(t.db, north.id)).map((m) => m.id),
      code: bay.code,
      manager: bayManager.id,
      salesman: baySalesman.id,
      lead: lead.leadId,
      walkIn: walkIn.id,
      up: (await of(t.db.selectFrom('rotation_log').select('id').where('lead_id', '=', lead.leadId))).id,
      storeless: (await of(t.db.selectFrom('leads').select('id').where('store_id', 'is', null))).id,
      sale: (await of(t.db.selectFrom('sales').select('id').where('store_id', '=', bay.id))).id,
      team: team.id,
      timeOff: (await of(t.db.selectFrom('time_off').select('id').where('user_id', '=', baySalesman.id))).id,
      key: key.apiKey.id,
      groupKey: groupKey.apiKey.id,
      tvLink: tvLink.link.id,
      dealer: (await of(t.db.selectFrom('dealer_stores').select('id').where('store_id', '=', bay.id))).id,
      address: address.id,
      mail: mail.id,
      device: device.id,
      passkey: 'boris-passkey',
      session: (await of(t.db.selectFrom('sessions').select('sid').where('user_id', '=', baySalesman.id))).sid,
    };
    bayNames.push('Bianca Bayview', 'bianca.bay@', 'Boris Bayview', 'boris.bay@', 'Bella Customer', 'Bert Walkin', 'Stella Storeless', 'Sam Buyer');
    await t.drained();
  });
  afterAll(async () => {
    t.dbh.pool?.on('error', () => undefined);
    await t.close();
  });

  it('refuses every route to one store’s manager, salesman and key on the other store’s ids, and changes nothing', async () => {
    const { tries, missing } = plan(b);
    expect(missing, 'what this file lacks to try every route').toEqual([]);
    const before = await snapshot();
    const wrong: string[] = [];
    // A key opens no route of the contract: once a route is enough for it.
    const keyed = new Set<string>();
    const calls = tries.flatMap((x) => CALLERS.filter((who) => who !== 'key' || (!keyed.has(x.route) && !!keyed.add(x.route))).map((who) => ({ x, who })));
    await inTurns(calls, async ({ x, who }) => {
      const [, path] = methodAndPath(x.route);
      const across = x.where === 'own' && !pathKeys(x.route).length && ACROSS.includes(x.route as Route);
      const label = `${x.route} as North's ${who} ${x.where === 'own' ? 'in North' : 'in Bay'} ${JSON.stringify(x.params)}`;
      const r = await call(x.route, fill(path, x.params), headers[who], { store: x.where === 'other' ? bay.code : north.code, body: x.body, query: x.query });
      wrong.push(...naming(label, r.body));
      const said = `${label}: ${r.status} ${r.body.slice(0, 160)}`;
      if (who === 'key') {
        if (r.status !== 401) wrong.push(said);
      } else if (x.where === 'other') {
        // Bay is not his to open, whatever he names there; a salesman is refused a manager's route by his role first.
        const role = who === 'salesman' && contract[x.route].access === 'manager';
        if (role ? r.status !== 403 : r.status !== 404 || !r.body.includes(`"${STORE_NOT_FOUND}"`)) wrong.push(said);
      } else if (!(across ? [400, 403, 404, 409] : [403, 404]).includes(r.status)) wrong.push(said);
      // In his own store the refusal is the id's, not the store's: the store was his to open.
      else if (contract[x.route].store && r.body.includes(STORE_NOT_FOUND)) wrong.push(`${said} (his own store)`);
    });
    // Outside the contract: the streams and CSV of a store, the group's report.
    const others = Object.entries(OTHERS).filter(([, kind]) => kind !== 'own');
    await inTurns(
      others.flatMap(([route, kind]) => CALLERS.map((who) => ({ route, kind, who }))),
      async ({ route, kind, who }) => {
        const label = `${route} as North's ${who}`;
        const r = await call(route, methodAndPath(route)[1], headers[who], { query: kind === 'store' ? { store: bay.code } : undefined });
        wrong.push(...naming(label, r.body));
        if (!(who === 'key' ? [401] : [403, 404]).includes(r.status)) wrong.push(`${label}: ${r.status} ${r.body.slice(0, 160)}`);
      },
    );
    expect([...wrong.sort(), ...changes(before, await snapshot())]).toEqual([]);
  });

  it('opens every store route to its own store’s people without a word of the other’s, and to a group manager in any store (on ids that name nothing)', async () => {
    const wrong: string[] = [];
    const nothing = (route: string) => {
      const def = contract[route];
      const params = Object.fromEntries(pathKeys(route).map((k) => [k, '999999999']));
      // A person's id is text: a row id's digits name no one either.
      return def.params && !def.params.safeParse(params).success ? Object.fromEntries(pathKeys(route).map((k) => [k, 'nobody'])) : params;
    };
    // His own things and his store's files, nothing of Bay's either (first: the push key is made on first asking; the weather is not ours).
    const reads = [
      ...OWN.filter((r) => r.startsWith('GET ') && r !== 'GET /weather'),
      ...Object.keys(OTHERS).filter((r) => OTHERS[r as keyof typeof OTHERS] === 'store' && r !== 'GET /events'),
    ];
    await inTurns(
      reads.flatMap((route) => (['manager', 'salesman'] as const).map((who) => ({ route, who }))),
      async ({ route, who }) => {
        const r = await call(route, methodAndPath(route)[1], headers[who], { query: { store: north.code } });
        if (r.status >= 500) wrong.push(`${route} as North's ${who}: ${r.status} ${r.body.slice(0, 160)}`);
        wrong.push(...naming(`${route} as North's ${who}`, r.body));
      },
    );
    const before = await snapshot();
    const stores = [
      ['group', bay.code],
      ['manager', north.code],
      ['salesman', north.code],
    ] as const;
    await inTurns(
      Object.keys(contract)
        .filter((route) => contract[route].store)
        .flatMap((route) => stores.map(([who, store]) => ({ route, who, store }))),
      async ({ route, who, store }) => {
        const r = await call(route, fill(methodAndPath(route)[1], nothing(route)), headers[who], { store, body: contract[route].body ? {} : undefined });
        if (r.status >= 500 || r.body.includes(STORE_NOT_FOUND)) wrong.push(`${route} as ${who}: ${r.status} ${r.body.slice(0, 160)}`);
        if (who !== 'group') wrong.push(...naming(`${route} as North's ${who}`, r.body));
      },
    );
    expect([...wrong.sort(), ...changes(before, await snapshot())]).toEqual([]);
  });

  it('puts a store key’s lead in its own store, whatever store or dealer the request names', async () => {
    const bayLeads = () => t.db.selectFrom('leads').select(['id', 'customer']).where('store_id', '=', bay.id).orderBy('id').execute();
    const was = await bayLeads();
    const r = await t.app.inject({
      method: 'POST',
      url: `/api/v1/leads?store=${bay.code}`,
      headers: { ...headers.key, 'x-store': bay.code },
      payload: { customer: 'Kim Keyed', dealer: 'Bayview Motors' },
    });
    expect(r.statusCode, r.body).toBe(201);
    for (const n of bayNames) expect(r.body).not.toContain(n);
    expect(await bayLeads()).toEqual(was);
    const kim = await t.db.selectFrom('leads').select('store_id').where('customer', '=', 'Kim Keyed').executeTakeFirstOrThrow();
    expect(kim.store_id).toBe(north.id);
  });
});
