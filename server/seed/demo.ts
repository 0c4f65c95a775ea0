import type { Insertable } from 'kysely';
import type { Db, DbHandle } from '../db';
import { atStore, withRotationLock } from '../db';
import type { Database } from '../db/schema';
import { FIRST_STORE_ID, insertUser, join, type UserRow } from '../users/repo';
import { addStore, allStores, storeById } from '../stores/service';
import { saleColumns } from '../sales/service';
import { loadRules } from '../rules/service';
import { DEFAULT_PAY_PLAN } from '../../domain/payplan';
import type { Store } from '../../domain/stores';
import { HOUR, MIN, storeClock } from './clock';
import { play, type EventRow, type LeadRow, type SaleRow, type Who } from './play';
import { clockIns, DAYS, salesWithoutLeads, storeYear, type Arrival } from './story';
import { insertRows } from './rows';

/** One store of the demo group: who works there and how busy its floor is. */
interface StorePlan {
  /** A store to add; none for the first store, which keeps its own row (named from DEALERSHIP_NAME). */
  store?: Omit<Store, 'id'>;
  manager: string;
  /** On the floor here, in this order from place 1. */
  salesmen: string[];
  /** Salesmen of an earlier store who sell here too: in this line after the others, off duty (a person is on the floor in one store at a time). */
  also?: string[];
  /** The group manager works this store's desk beside its manager: he assigns and closes leads here too. */
  groupDesk?: boolean;
  /** New web leads a day: the first number, plus up to the second less one. */
  leadsPerDay: [number, number];
  /** Walk-ins a day on the desk log's last days, the same way. */
  walkInsPerDay: [number, number];
  /** What its customers ask about. */
  vehicles: string[];
}

const GROUP_MANAGER = 'Diane Foster';
const PLANS: StorePlan[] = [
  {
    manager: 'Rob Castillo',
    groupDesk: true,
    salesmen: [
      'Marcus Reed',
      'Tanya Brooks',
      'Luis Ortega',
      'Jenna Walsh',
      'Derek Chan',
      'Priya Patel',
      'Sam Whitfield',
      'Alicia Gomez',
      'Trevor Banks',
      'Nina Kowalski',
      'Omar Haddad',
      'Kelly Nguyen',
    ],
    leadsPerDay: [6, 10],
    walkInsPerDay: [2, 4],
    vehicles: [
      '2025 Ford F-150 XLT',
      '2025 Ford Explorer',
      '2024 Chevrolet Equinox LT',
      '2025 Jeep Grand Cherokee',
      '2025 Ram 1500 Big Horn',
      '2022 Nissan Rogue SV (used)',
      '2021 Ford Escape SE (used)',
    ],
  },
  {
    store: { code: 'NSH', name: 'Northside Honda', timezone: 'America/Chicago' },
    manager: 'Grace Holloway',
    salesmen: ['Andre Mitchell', 'Beth Sorensen', 'Carlos Mendez', 'Dana Kim', 'Eli Novak', 'Fatima Said', 'Greg Lindqvist', 'Hannah Price'],
    also: ['Kelly Nguyen'],
    leadsPerDay: [3, 6],
    walkInsPerDay: [1, 3],
    vehicles: [
      '2025 Honda CR-V EX-L',
      '2025 Honda Civic Sport',
      '2025 Honda Accord Hybrid',
      '2025 Honda Pilot TrailSport',
      '2025 Honda HR-V LX',
      '2021 Honda Odyssey EX-L (used)',
    ],
  },
  {
    store: { code: 'BVT', name: 'Bayview Toyota', timezone: 'America/Los_Angeles' },
    manager: 'Hector Alvarez',
    salesmen: ['Ivy Tran', 'Jon Park', 'Keisha Howard', 'Leo Russo', 'Mei Lin', 'Noah Fischer', 'Olivia Grant', 'Paul Dubois'],
    also: ['Andre Mitchell'],
    leadsPerDay: [3, 5],
    walkInsPerDay: [1, 3],
    vehicles: [
      '2025 Toyota RAV4 XLE',
      '2025 Toyota Camry SE',
      '2025 Toyota Tacoma TRD',
      '2025 Toyota Highlander',
      '2025 Toyota Corolla LE',
      '2020 Toyota 4Runner SR5 (used)',
    ],
  },
];

/** A small deterministic random source, so every demo looks the same. */
function rng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return seed / 4294967296;
  };
}

/** One store's people as seeded: its clock, who is on its floor, who sells there, who assigns. */
interface Floor {
  plan: StorePlan;
  store: Store;
  /** Its sales days' clock. */
  tz: string;
  /** On the floor here: the leads go round them. */
  onFloor: UserRow[];
  /** Everyone who sells here (the floor and those of another store who sell here too). */
  sellers: UserRow[];
  manager: UserRow;
  /** Who assigns and closes its leads; the first also skips. */
  desk: UserRow[];
}

/**
 * Fills an empty database with a believable dealer group of three stores: the first store (12
 * salesmen, its manager and the group manager at the desk, as the one-store demo had) and two
 * smaller ones (8 salesmen and a manager each), two salesmen working two stores, and a year of
 * each store's leads that went through their stages as real ones do (contacted, appointments,
 * shown and no-show, sold with the sale linked, lost with the store's reasons), a present that
 * reads true (a few follow-ups due today, a few overdue, appointments today, fresh leads waiting
 * for an Accept), walk-ins on the desk log's last days, a month of clocking in and out, the
 * rotation log, and sales back to the year before. The same figures every time: one seeded
 * source of draws, times counted from `now`. `tz`: the first store's clock (the dealership's).
 */
export async function seedDemo(dbh: DbHandle, tz: string, say: (line: string) => void, now = new Date()) {
  const { db } = dbh;
  const existing = await db.selectFrom('users').select('id').limit(1).execute();
  if (existing.length) {
    say('The database already has users; the demo fills only an empty one. Point DATA_DIR at a new folder to try it.');
    return;
  }
  const random = rng(42);
  const slug = (n: string) => n.toLowerCase().replace(/[^a-z]+/g, '.');
  const people = new Map<string, UserRow>();
  const named = (name: string) => {
    const row = people.get(name);
    if (!row) throw new Error(`The demo has nobody named ${name} before this store.`);
    return row;
  };
  const person = async (trx: Db, name: string, v: { role: string; stores?: number[]; onDuty?: boolean; allStores?: boolean }) => {
    const row = await insertUser(trx, { email: `${slug(name)}@demo-dealer.com`, name, ...v });
    people.set(name, row);
    return row;
  };

  // The group manager has every store and stands in no line.
  const boss = await person(db, GROUP_MANAGER, { role: 'manager', allStores: true });
  const floors: Floor[] = [];
  for (const plan of PLANS) {
    const store = plan.store ? await storeByCodeOrNew(dbh, plan.store) : await storeById(db, FIRST_STORE_ID);
    // Each store's line is made under its lock, as the portal does. Its salesmen are on the floor
    // already, so the queue is full from the start; those of an earlier store join off duty.
    const floor = await withRotationLock(atStore(dbh, store.id), async (trx): Promise<Floor> => {
      const onFloor: UserRow[] = [];
      for (const name of plan.salesmen) onFloor.push(await person(trx, name, { role: 'staff', stores: [store.id], onDuty: true }));
      const also = (plan.also ?? []).map(named);
      for (const rep of also) await join(trx, rep.id, store.id);
      const manager = await person(trx, plan.manager, { role: 'manager', stores: [store.id] });
      const desk = plan.groupDesk ? [boss, manager] : [manager];
      return { plan, store, tz: plan.store ? store.timezone : tz, onFloor, sellers: [...onFloor, ...also], manager, desk };
    });
    floors.push(floor);
    const also = plan.also?.length ? `, and ${plan.also.join(', ')} of another store` : '';
    say(`${store.name} (${store.code}): ${plan.manager} and ${plan.salesmen.length} salesmen on the floor${also}.`);
  }

  let leads = 0;
  let sales = 0;
  for (const floor of floors) {
    const done = await seedFloor(dbh, floor, now.getTime(), random);
    leads += done.leads;
    sales += done.sales;
    say(
      `${floor.store.code}: ${done.leads} leads (${done.sold} sold, ${done.lost} lost, ${done.open} open; ${done.walkIns} walk-ins on the desk log), ` +
        `${done.sales} sales (${done.sold} of leads), ${done.clockIns} clock-ins and -outs.`,
    );
  }
  const [first] = floors;
  say(
    `Added ${leads} leads and ${sales} sales in ${floors.length} stores (e-mails @demo-dealer.com). Sign in as ${boss.email} (the group manager), ` +
      `${first.manager.email} (a store manager) or ${first.onFloor[0].email}.`,
  );
}

/** A store of the group by its code: the one there, else a new one. */
async function storeByCodeOrNew(dbh: DbHandle, v: Omit<Store, 'id'>): Promise<Store> {
  return (await allStores(dbh.db, true)).find((s) => s.code === v.code) ?? addStore(dbh, v);
}

const who = (u: UserRow): Who => ({ id: u.id, name: u.name, role: u.role === 'manager' ? 'manager' : 'staff' });

/**
 * One store's year in one transaction: its ups round the floor (story.ts), each lead's row and
 * timeline as the portal writes them (play.ts) with the sale of each sold one, every up in the
 * rotation log (the timeline's "assigned", the fairness ledger's ups) with a couple of skips and
 * the pointer after the last, a month of clocking in and out, and sales no lead led to.
 */
async function seedFloor(dbh: DbHandle, floor: Floor, now: number, random: () => number) {
  const { store } = floor;
  const rules = await loadRules(dbh.db, store.id);
  const clock = storeClock(now, floor.tz, DAYS + 1, 16);
  const onFloor = floor.onFloor.map(who);
  const desk = floor.desk.map(who);
  const year = {
    clock,
    onFloor,
    desk,
    lostReasons: rules.lostReasons,
    nextFollowUpHours: rules.nextFollowUpHours,
    leadsPerDay: floor.plan.leadsPerDay,
    walkInsPerDay: floor.plan.walkInsPerDay,
    vehicles: floor.plan.vehicles,
  };
  const ups = storeYear(year, random);

  const lives = ups.map((a) => {
    const lead = leadRow(a, store.id, rules, now);
    return { lead, ...play(lead, a.steps, rules.nextFollowUpHours, clock.dayOf, now) };
  });
  const sold = lives.filter((l) => l.sale).length;
  // The year before the leads sold at the pace of the year since; a third as many again bought on the spot.
  const perDay = sold / (onFloor.length * DAYS);
  const others = salesWithoutLeads(
    year,
    floor.sellers.map((u) => ({ rep: who(u), share: floor.onFloor.includes(u) ? 1 : 0.3 })),
    { now: perDay * 0.35, before: perDay * 1.35 * 0.9 },
    random,
  );
  const duty = clockIns(year, random);

  return dbh.db.transaction().execute(async (trx) => {
    const insertAll = <T extends keyof Database>(table: T, rows: Insertable<Database[T]>[]) => insertRows(trx, dbh.dialect, table, rows);
    const ids = await insertRows(
      trx,
      dbh.dialect,
      'leads',
      lives.map((l) => l.lead),
      true,
    );
    const events: (EventRow & { lead_id: number })[] = [];
    const linked: (SaleRow & { lead_id: number })[] = [];
    lives.forEach((l, i) => {
      for (const e of l.events) events.push({ ...e, lead_id: ids[i] });
      if (l.sale) linked.push({ ...l.sale, lead_id: ids[i] });
    });
    await insertAll('lead_events', events);
    await insertAll('sales', [
      ...linked,
      ...others.map((o) => ({
        ...saleColumns({ date: o.date, customer: o.customer, ...o.sale }, DEFAULT_PAY_PLAN),
        store_id: store.id,
        user_id: o.rep.id,
        rep_name: o.rep.name,
        created_at: o.at,
        created_by: o.rep.id,
        lead_id: null,
      })),
    ]);

    // Every up in the rotation log, where the pointer stood after it; a couple of skips a while ago.
    const places = new Map(
      (await trx.selectFrom('memberships').select(['user_id', 'position']).where('store_id', '=', store.id).execute()).map((m) => [
        m.user_id,
        Number(m.position),
      ]),
    );
    const placeOf = (rep: Who) => places.get(rep.id) ?? 0;
    let pointer = 0;
    const log: Insertable<Database['rotation_log']>[] = ups.map((a, i) => {
      // A be-back costs no one a turn: the pointer stays.
      if (!a.beBack) pointer = placeOf(a.rep);
      return {
        store_id: store.id,
        type: a.beBack ? 'beback' : 'assign',
        customer: a.customer,
        target_id: a.rep.id,
        target_name: a.rep.name,
        reason: null,
        manager_id: a.by.id,
        manager_name: a.by.name,
        pointer_pos_after: pointer,
        lead_id: ids[i],
        created_at: a.at,
      };
    });
    for (const [rep, reason] of [
      [onFloor[3], 'With a customer'],
      [onFloor[7], 'Lunch'],
    ] as const) {
      log.push({
        store_id: store.id,
        type: 'skip',
        customer: null,
        target_id: rep.id,
        target_name: rep.name,
        reason,
        manager_id: desk[0].id,
        manager_name: desk[0].name,
        pointer_pos_after: placeOf(rep),
        lead_id: null,
        created_at: now - 90 * MIN,
      });
    }
    await insertAll('rotation_log', log);
    const last = ups.findLast((a) => !a.beBack);
    await trx
      .updateTable('rotation_state')
      .set({ pointer_pos: pointer, last_assigned_to: last?.rep.id ?? null, last_assigned_at: last?.at ?? null, updated_by: last?.by.id ?? null })
      .where('id', '=', store.id)
      .execute();

    await insertAll(
      'audit_log',
      duty.map((c) => ({
        user_id: c.user.id,
        actor_id: c.by.id,
        actor_name: c.by.name,
        action: c.on ? 'on duty' : 'off duty',
        changes: JSON.stringify({ onDuty: { from: !c.on, to: c.on } }),
        at: c.at,
      })),
    );
    // They have worked here longer than the sales go back: the fairness ledger counts their hours from then.
    await trx
      .updateTable('memberships')
      .set({ created_at: clock.instant(clock.start(2 * DAYS + 30)) })
      .where('store_id', '=', store.id)
      .execute();

    const lost = lives.filter((l) => l.lead.stage === 'lost').length;
    return {
      leads: lives.length,
      sold,
      lost,
      open: lives.length - sold - lost,
      walkIns: ups.filter((a) => a.kind === 'walkIn').length,
      sales: linked.length + others.length,
      clockIns: duty.length,
    };
  });
}

/** A lead's row as the rotation hands it out (server/rotation/assign.ts insertLead), the desk's facts on a walk-in. */
function leadRow(a: Arrival, store: number, rules: { followUpHours: number; responseWindowMinutes: number }, now: number): LeadRow {
  const out = a.desk?.timeOut ?? null;
  return {
    store_id: store,
    customer: a.customer,
    phone: null,
    email: null,
    vehicle: a.vehicle,
    vin: null,
    comments: null,
    source: a.source,
    assigned_to: a.rep.id,
    assigned_to_name: a.rep.name,
    assigned_by: a.by.id,
    assigned_by_name: a.by.name,
    assigned_at: a.at,
    status: 'handed',
    follow_up_due: a.at + rules.followUpHours * HOUR,
    closed: 0,
    closed_at: null,
    closed_by_id: null,
    closed_by_name: null,
    offered_at: a.at,
    accept_due: a.beBack || rules.responseWindowMinutes === 0 ? null : a.at + rules.responseWindowMinutes * MIN,
    accepted_at: null,
    first_contact_at: null,
    be_back: a.beBack ? 1 : 0,
    stage: null,
    lost_reason: null,
    appointment_at: null,
    appointment_reminded_at: null,
    appointment_set_at: null,
    shown_at: null,
    trade_in_flag: a.desk?.tradeIn ? 1 : 0,
    worksheet: a.desk?.worksheet ? 1 : 0,
    to_manager_id: a.desk?.toManager?.id ?? null,
    to_manager_name: a.desk?.toManager?.name ?? null,
    time_out: out !== null && out < now ? Math.round(out) : null,
  };
}
