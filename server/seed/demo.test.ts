import { sql, type Selectable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atStore } from '../db';
import { DIALECTS, freshDb } from '../test/harness';
import { allStores, openStore, storesOf } from '../stores/service';
import { FIRST_STORE_ID, findUserByEmail, type UserRow } from '../users/repo';
import { rotationView } from '../rotation/present';
import { funnelOf, periodOf } from '../leads/funnel';
import { storeBoard } from '../sales/board';
import { teamLedger } from '../ledger/service';
import { loadRules } from '../rules/service';
import { pctOf } from '../../domain/funnel';
import { addDays } from '../../domain/hours';
import { WALK_IN } from '../../domain/desk';
import { dayKey, dayOfYear, startOfMonth } from '../../domain/time';
import type { Store } from '../../domain/stores';
import type { LeadsTable } from '../db/schema';
import { seedDemo } from './demo';

/** The demo dealer group, seeded as `npm run seed:demo` does, read back on each dialect. */
describe.each(DIALECTS)('the demo group on %s', (dialect) => {
  let h: Awaited<ReturnType<typeof freshDb>>;
  let stores: Store[];
  const said: string[] = [];
  // The demo's present and every check of it read the same instant.
  const now = new Date();
  const user = async (email: string): Promise<UserRow> => {
    const u = await findUserByEmail(h.db, `${email}@demo-dealer.com`);
    if (!u) throw new Error(`no ${email}`);
    return u;
  };
  const membershipsOf = async (id: string) =>
    h.db.selectFrom('memberships').select(['store_id', 'on_duty']).where('user_id', '=', id).orderBy('store_id').execute();

  beforeAll(async () => {
    h = await freshDb(dialect);
    await seedDemo(h, 'America/New_York', (line) => said.push(line), now);
    stores = await allStores(h.db, true);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('makes three stores: the first keeps its own row, the two added have their codes and clocks', async () => {
    expect(stores.map((s) => [s.id, s.code, s.timezone])).toEqual([
      [FIRST_STORE_ID, 'MAIN', 'America/New_York'],
      [expect.any(Number), 'NSH', 'America/Chicago'],
      [expect.any(Number), 'BVT', 'America/Los_Angeles'],
    ]);
    expect(stores.map((s) => s.name)).toEqual(['Main store', 'Northside Honda', 'Bayview Toyota']);
    expect(said.at(-1)).toMatch(/in 3 stores/);
  });

  it('gives each store its own line (places 1..n, each once), its own leads, log and sales, and a Next Up among its salesmen', async () => {
    for (const s of stores) {
      const line = await h.db
        .selectFrom('memberships')
        .innerJoin('users', 'users.id', 'memberships.user_id')
        .select(['memberships.position', 'memberships.on_duty', 'users.role', 'users.id'])
        .where('memberships.store_id', '=', s.id)
        .orderBy('memberships.position')
        .execute();
      expect(line.map((m) => Number(m.position))).toEqual(line.map((_, i) => i + 1));
      expect(line.filter((m) => m.role === 'manager')).toHaveLength(1);
      const onFloor = line.filter((m) => m.role === 'staff' && m.on_duty).map((m) => m.id);
      expect(onFloor.length).toBeGreaterThanOrEqual(8);

      const count = async (table: 'leads' | 'sales' | 'rotation_log') =>
        Number(
          (
            await h.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .where('store_id', '=', s.id)
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await count('leads')).toBeGreaterThan(300);
      expect(await count('sales')).toBeGreaterThan(200);
      expect(await count('rotation_log')).toBeGreaterThan(10);
      // Every lead of the store went to one of its salesmen; none of another store's.
      const strangers = await h.db
        .selectFrom('leads')
        .select('leads.id')
        .where('leads.store_id', '=', s.id)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('memberships')
                .select('memberships.user_id')
                .whereRef('memberships.user_id', '=', 'leads.assigned_to')
                .where('memberships.store_id', '=', s.id),
            ),
          ),
        )
        .execute();
      expect(strangers).toEqual([]);

      const view = await rotationView(atStore(h, s.id), 20);
      expect(onFloor).toContain(view.nextUp?.id);
    }
  });

  it('fills the first store with a year: 12 salesmen, 3,939 leads, 1,508 sales', async () => {
    const n = async (table: 'leads' | 'sales') =>
      Number(
        (
          await h.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('store_id', '=', FIRST_STORE_ID)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await n('leads')).toBe(3939);
    expect(await n('sales')).toBe(1508);
    const marcus = await user('marcus.reed');
    expect(await membershipsOf(marcus.id)).toEqual([{ store_id: FIRST_STORE_ID, on_duty: 1 }]);
  });

  it('has salesmen in two stores, on the floor in one of them only, with sales in both', async () => {
    const [main, nsh, bvt] = stores;
    for (const [email, home, other] of [
      ['kelly.nguyen', main, nsh],
      ['andre.mitchell', nsh, bvt],
    ] as const) {
      const rep = await user(email);
      expect(await membershipsOf(rep.id)).toEqual([
        { store_id: home.id, on_duty: 1 },
        { store_id: other.id, on_duty: 0 },
      ]);
      const sold = await h.db.selectFrom('sales').select('store_id').distinct().where('user_id', '=', rep.id).orderBy('store_id').execute();
      expect(sold.map((r) => Number(r.store_id))).toEqual([home.id, other.id]);
    }
    // Nobody is on the floor of two stores at once.
    const onTwice = await h.db
      .selectFrom('memberships')
      .select('user_id')
      .where('on_duty', '=', 1)
      .groupBy('user_id')
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute();
    expect(onTwice).toEqual([]);
  });

  it('has one group manager with every store, and a store manager in his store only', async () => {
    const managers = await h.db.selectFrom('users').select(['email', 'all_stores']).where('role', '=', 'manager').orderBy('email').execute();
    expect(managers.filter((m) => m.all_stores).map((m) => m.email)).toEqual(['diane.foster@demo-dealer.com']);
    expect(managers).toHaveLength(4);

    const diane = await user('diane.foster');
    expect(await membershipsOf(diane.id)).toEqual([]);
    expect((await storesOf(h.db, diane)).map((s) => s.code)).toEqual(['MAIN', 'NSH', 'BVT']);

    const [main, nsh, bvt] = stores;
    for (const [email, own] of [
      ['rob.castillo', main],
      ['grace.holloway', nsh],
      ['hector.alvarez', bvt],
    ] as const) {
      const m = await user(email);
      expect(m.all_stores).toBe(0);
      expect(await storesOf(h.db, m)).toEqual([own]);
      for (const s of stores) expect(await openStore(h.db, m, s.code)).toEqual(s.id === own.id ? own : null);
      // His store's leads are assigned and closed by its own desk: never by another store's manager.
      const elsewhere = await h.db.selectFrom('leads').select('id').where('assigned_by', '=', m.id).where('store_id', '<>', own.id).execute();
      expect(elsewhere).toEqual([]);
    }
  });

  /** A store's leads (read once, what the checks below read of them) and the salesmen on its floor. */
  const leadColumns = [
    'id',
    'customer',
    'source',
    'assigned_to',
    'assigned_to_name',
    'assigned_at',
    'offered_at',
    'accepted_at',
    'first_contact_at',
    'appointment_set_at',
    'shown_at',
    'appointment_at',
    'follow_up_due',
    'be_back',
    'stage',
    'status',
    'closed',
    'closed_at',
    'closed_by_id',
    'lost_reason',
  ] as const;
  const leadsRead = new Map<number, Promise<Pick<Selectable<LeadsTable>, (typeof leadColumns)[number]>[]>>();
  const leadsOf = (store: number) => {
    if (!leadsRead.has(store)) leadsRead.set(store, h.db.selectFrom('leads').select(leadColumns).where('store_id', '=', store).execute());
    return leadsRead.get(store)!;
  };
  const floorOf = (store: number) =>
    h.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.id', 'users.name'])
      .where('memberships.store_id', '=', store)
      .where('memberships.on_duty', '=', 1)
      .where('users.role', '=', 'staff')
      .execute();

  it("closes every lead with an outcome: Sold with its one sale (its salesman, customer and day), or Lost for one of the store's reasons", async () => {
    for (const s of stores) {
      const [leads, sales, { lostReasons }] = await Promise.all([
        leadsOf(s.id),
        h.db.selectFrom('sales').selectAll().where('store_id', '=', s.id).execute(),
        loadRules(h.db, s.id),
      ]);
      const closed = leads.filter((l) => l.closed);
      const sold = closed.filter((l) => l.stage === 'sold');
      const saleOf = new Map<number, typeof sales>();
      for (const x of sales) if (x.lead_id !== null) saleOf.set(Number(x.lead_id), [...(saleOf.get(Number(x.lead_id)) ?? []), x]);
      const wrong = [
        ...closed.filter((l) => l.stage !== 'sold' && l.stage !== 'lost').map((l) => `closed as ${l.stage}: ${l.id}`),
        ...leads.filter((l) => !l.closed && (l.stage === 'sold' || l.stage === 'lost' || l.status === 'closed')).map((l) => `open as ${l.stage}: ${l.id}`),
        ...closed.filter((l) => l.status !== 'closed' || l.closed_at === null || !l.closed_by_id).map((l) => `closed by no one: ${l.id}`),
        ...closed.filter((l) => l.stage === 'lost' && !lostReasons.includes(l.lost_reason ?? '')).map((l) => `lost for ${l.lost_reason}: ${l.id}`),
        ...sold
          .filter((l) => {
            const x = saleOf.get(Number(l.id)) ?? [];
            const day = dayKey(new Date(l.closed_at!), s.timezone);
            return (
              x.length !== 1 || x[0].user_id !== l.assigned_to || x[0].rep_name !== l.assigned_to_name || x[0].customer !== l.customer || x[0].date !== day
            );
          })
          .map((l) => `sold without its one sale: ${l.id}`),
      ];
      expect(wrong.slice(0, 5)).toEqual([]);
      expect(sold.length).toBeGreaterThan(100);
      // No sale names a lead that is not sold; walk-ins sold without a lead are fewer than the sales of leads, over the leads' year.
      expect(saleOf.size).toBe(sold.length);
      const since = dayKey(new Date(Math.min(...leads.map((l) => l.assigned_at))), s.timezone);
      const thatYear = sales.filter((x) => x.date >= since);
      const unlinked = thatYear.filter((x) => x.lead_id === null).length;
      expect(unlinked).toBeGreaterThan(0);
      expect(unlinked).toBeLessThan(thatYear.length - unlinked);
    }
  });

  it("writes each lead's timeline as the portal does: an assign in the rotation log, then its steps in order, agreeing with the lead", async () => {
    // Per lead: when each step first came, its first and last step, and the close (its time, by whom, why).
    const first = (type: string) => sql<number | null>`min(case when type = ${type} then created_at end)`;
    const [timelines, assigns] = await Promise.all([
      h.db
        .selectFrom('lead_events')
        .select([
          'lead_id',
          first('accepted').as('accepted'),
          first('contacted').as('contacted'),
          first('appointment_set').as('appointment_set'),
          first('shown').as('shown'),
          (eb) => eb.fn.min('created_at').as('first'),
          (eb) => eb.fn.max('created_at').as('last'),
          sql<number>`sum(case when type in ('sold', 'lost') then 1 else 0 end)`.as('closes'),
          sql<number | null>`max(case when type in ('sold', 'lost') then created_at end)`.as('closed_at'),
          sql<string | null>`max(case when type in ('sold', 'lost') then type end)`.as('outcome'),
          sql<string | null>`max(case when type = 'sold' then actor_id end)`.as('seller'),
          sql<string | null>`max(case when type = 'lost' then reason end)`.as('reason'),
          // Each appointment set is later than the one before: the last is the latest.
          sql<number | null>`max(case when type = 'appointment_set' then appointment_at end)`.as('appointment'),
        ])
        .groupBy('lead_id')
        .execute(),
      h.db.selectFrom('rotation_log').select(['lead_id', 'created_at', 'target_id']).where('type', 'in', ['assign', 'beback']).execute(),
    ]);
    const assigned = new Map(assigns.map((a) => [Number(a.lead_id), a]));
    const timeline = new Map(timelines.map((e) => [Number(e.lead_id), e]));
    const num = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));
    const t = now.getTime();
    for (const s of stores) {
      const wrong: string[] = [];
      for (const l of await leadsOf(s.id)) {
        const id = Number(l.id);
        const a = assigned.get(id);
        if (num(a?.created_at) !== l.assigned_at || a?.target_id !== l.assigned_to) wrong.push(`no assign: ${id}`);
        const e = timeline.get(id);
        if (!e) {
          if (l.accepted_at !== null || l.stage !== null) wrong.push(`no timeline: ${id}`);
          continue;
        }
        if (num(e.first)! < l.assigned_at || num(e.last)! > t) wrong.push(`out of its time: ${id}`);
        const firsts = [num(e.accepted), num(e.contacted), num(e.appointment_set), num(e.shown)];
        if (firsts.join() !== [l.accepted_at, l.first_contact_at, l.appointment_set_at, l.shown_at].join()) wrong.push(`firsts ${firsts.join()}: ${id}`);
        const closing = l.closed ? [1, l.closed_at, l.stage, l.closed_at] : [0, null, null, num(e.last)];
        if ([Number(e.closes), num(e.closed_at), e.outcome, num(e.last)].join() !== closing.join()) wrong.push(`closed ${e.outcome}: ${id}`);
        if (l.stage === 'sold' && e.seller !== l.assigned_to) wrong.push(`sold by another: ${id}`);
        if (l.stage === 'lost' && e.reason !== l.lost_reason) wrong.push(`lost for another reason: ${id}`);
        if (l.stage === 'appointment' && num(e.appointment) !== l.appointment_at) wrong.push(`appointment: ${id}`);
      }
      expect(wrong.slice(0, 5)).toEqual([]);
    }
  });

  it('has a believable present: each salesman a few follow-ups due today, at most 3 overdue, fresh leads waiting for an Accept', async () => {
    const t = now.getTime();
    for (const s of stores) {
      const today = dayKey(now, s.timezone);
      const leads = await leadsOf(s.id);
      const open = leads.filter((l) => !l.closed);
      const day = (rep: { id: string; name: string }) => {
        const mine = open.filter((l) => l.assigned_to === rep.id);
        return {
          rep: rep.name,
          overdue: mine.filter((l) => l.follow_up_due < t).length <= 3,
          dueToday: mine.some((l) => l.follow_up_due >= t && dayKey(new Date(l.follow_up_due), s.timezone) === today),
          // An appointment still to come is in the future: none is left unmarked in the past.
          appointmentsAhead: mine.every((l) => l.stage !== 'appointment' || l.appointment_at! >= t),
        };
      };
      const floor = await floorOf(s.id);
      expect(floor.map(day)).toEqual(floor.map((rep) => ({ rep: rep.name, overdue: true, dueToday: true, appointmentsAhead: true })));
      expect(open.filter((l) => l.accepted_at === null && l.offered_at !== null && l.offered_at > t - 15 * 60_000).length).toBeGreaterThanOrEqual(1);
      // The last days' leads are mostly still being worked; walk-ins fill the desk log's last days, each met in person.
      const lastDays = leads.filter((l) => l.assigned_at >= t - 3 * 86_400_000);
      expect(lastDays.filter((l) => !l.closed).length).toBeGreaterThan(lastDays.length / 2);
      const walkIns = leads.filter((l) => l.source === WALK_IN);
      expect(new Set(walkIns.map((l) => dayKey(new Date(l.assigned_at), s.timezone))).size).toBeGreaterThanOrEqual(5);
      expect(walkIns.every((l) => l.first_contact_at !== null)).toBe(true);
    }
  });

  it("agrees with itself: the funnel's rates are a real store's, its sold are the sales of leads, the board and the fairness ledger count the same", async () => {
    for (const s of stores) {
      const today = dayKey(now, s.timezone);
      const period = periodOf(s.id, s.timezone, { from: addDays(today, -364), to: today });
      const { total, rows } = await funnelOf(h.db, dialect, { periods: [period], by: 'salesman', only: null });
      expect(total.leads).toBeGreaterThan(1000);
      const within = (pct: number, lo: number, hi: number) => pct >= lo && pct <= hi;
      expect({
        contacted: within(total.contactedPct, 75, 92),
        appointment: within(total.appointmentPct, 35, 55),
        shownOfAppointments: within(pctOf(total.shown, total.appointment), 60, 80),
        soldOfShown: within(pctOf(total.sold, total.shown), 35, 55),
        closing: within(total.soldPct, 8, 20),
      }).toEqual({ contacted: true, appointment: true, shownOfAppointments: true, soldOfShown: true, closing: true });

      // The funnel's sold, salesman by salesman, are the sales linked to the period's leads.
      const linked = await h.db
        .selectFrom('sales')
        .innerJoin('leads', 'leads.id', 'sales.lead_id')
        .select(['sales.user_id', (eb) => eb.fn.countAll().as('n')])
        .where('leads.store_id', '=', s.id)
        .where('leads.assigned_at', '>=', period.since)
        .where('leads.assigned_at', '<', period.until)
        .groupBy('sales.user_id')
        .execute();
      expect(Object.fromEntries(linked.map((r) => [r.user_id, Number(r.n)]))).toEqual(
        Object.fromEntries(rows.filter((r) => r.sold).map((r) => [r.key, r.sold])),
      );
      expect(linked.reduce((n, r) => n + Number(r.n), 0)).toBe(total.sold);

      // The board's closing ratio this year is the funnel's, its units include those sales; last year reads like this one.
      const [board, year, ledger] = await Promise.all([
        storeBoard(h.db, s.id, s.timezone, now),
        funnelOf(h.db, dialect, { periods: [periodOf(s.id, s.timezone, { from: `${today.slice(0, 4)}-01-01`, to: today })], by: 'salesman', only: null }),
        teamLedger(h.db, s.id, s.timezone, now),
      ]);
      expect(board.team.closing.ytd).toMatchObject({ sold: year.total.sold, received: year.total.leads });
      expect(board.team.ytd.units).toBeGreaterThanOrEqual(board.team.closing.ytd.sold);
      if (dayOfYear(today) >= 30) {
        const { units } = board.before.lastYear;
        expect(units).toBeGreaterThan(0);
        expect(within(board.team.ytd.units / units, 0.7, 1.5)).toBe(true);
      }

      // The fairness ledger's ups this month are the month's leads the rotation gave each one, all while he was on the floor.
      const month = startOfMonth(now, s.timezone).getTime();
      const ups = (await leadsOf(s.id)).filter((l) => l.assigned_at >= month && !l.be_back);
      const floor = await floorOf(s.id);
      const mine = (id: string) => ledger.people.find((p) => p.id === id)!.periods.month;
      expect(floor.map((rep) => ({ ups: mine(rep.id).ups, onFloor: mine(rep.id).floorMs > 0 }))).toEqual(
        floor.map((rep) => ({ ups: ups.filter((l) => l.assigned_to === rep.id).length, onFloor: true })),
      );
    }
  });

  it('fills only an empty database', async () => {
    const before = await h.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const again: string[] = [];
    await seedDemo(h, 'America/New_York', (line) => again.push(line));
    expect(again[0]).toMatch(/already has users/);
    expect(
      await h.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
    ).toEqual(before);
  });
});
