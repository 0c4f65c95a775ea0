import type { Db, DbHandle } from '../db';
import { atStore, withRotationLock } from '../db';
import { FIRST_STORE_ID, insertUser, join, type UserRow } from '../users/repo';
import { addStore, allStores, storeById } from '../stores/service';
import { saleColumns } from '../sales/service';
import { DEFAULT_PAY_PLAN } from '../../domain/payplan';
import { logRotation } from '../rotation/log';
import { dayKey } from '../../domain/time';
import { FOLLOW_UP_HOURS, LEAD_SOURCE } from '../../domain/leads';
import type { Store } from '../../domain/stores';

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
  /** New leads a day: the first number, plus up to the second less one. */
  leadsPerDay: [number, number];
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
  },
  {
    store: { code: 'NSH', name: 'Northside Honda', timezone: 'America/Chicago' },
    manager: 'Grace Holloway',
    salesmen: ['Andre Mitchell', 'Beth Sorensen', 'Carlos Mendez', 'Dana Kim', 'Eli Novak', 'Fatima Said', 'Greg Lindqvist', 'Hannah Price'],
    also: ['Kelly Nguyen'],
    leadsPerDay: [3, 6],
  },
  {
    store: { code: 'BVT', name: 'Bayview Toyota', timezone: 'America/Los_Angeles' },
    manager: 'Hector Alvarez',
    salesmen: ['Ivy Tran', 'Jon Park', 'Keisha Howard', 'Leo Russo', 'Mei Lin', 'Noah Fischer', 'Olivia Grant', 'Paul Dubois'],
    also: ['Andre Mitchell'],
    leadsPerDay: [3, 5],
  },
];
const FIRST = ['James', 'Maria', 'Robert', 'Linda', 'Michael', 'Sarah', 'David', 'Karen', 'Chris', 'Angela', 'Kevin', 'Ashley', 'Brian', 'Megan', 'Jason'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Wilson', 'Moore', 'Taylor', 'Thomas', 'Jackson', 'White'];
const DAY = 24 * 60 * 60 * 1000;
const DAYS = 365;

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
 * smaller ones (8 salesmen and a manager each), two salesmen working two stores, and a year
 * of each store's leads, rotation log and sales. `tz`: the first store's clock (the dealership's).
 */
export async function seedDemo(dbh: DbHandle, tz: string, say: (line: string) => void) {
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

  const now = Date.now();
  let leads = 0;
  let sales = 0;
  for (const floor of floors) {
    const done = await seedFloor(dbh, floor, now, random);
    leads += done.leads;
    sales += done.sales;
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

/** One store's year: leads round its floor, the latest in its rotation log with a couple of skips, its pointer, and its sales. */
async function seedFloor(dbh: DbHandle, floor: Floor, now: number, random: () => number) {
  const { db } = dbh;
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const { store, onFloor, desk } = floor;
  const [base, spread] = floor.plan.leadsPerDay;
  let leads = 0;
  let turn = 0;
  for (let d = DAYS; d >= 0; d--) {
    const perDay = base + Math.floor(random() * spread);
    const rows = [];
    for (let i = 0; i < perDay; i++) {
      const at = now - d * DAY - Math.floor(random() * 10 * 60 * 60 * 1000);
      if (at > now) continue;
      const rep = onFloor[turn++ % onFloor.length];
      const mgr = pick(desk);
      const closed = d > 2 && random() < 0.7;
      // Most salesmen accept within a few minutes and call soon after; the newest leads still wait.
      const fresh = now - at < 20 * 60 * 1000;
      const accepted = fresh ? null : at + Math.floor((20 + random() * 600) * 1000);
      const contacted = accepted && random() < 0.85 ? accepted + Math.floor((60 + random() * 1800) * 1000) : null;
      rows.push({
        store_id: store.id,
        customer: `${pick(FIRST)} ${pick(LAST)}`,
        assigned_to: rep.id,
        assigned_to_name: rep.name,
        assigned_by: mgr.id,
        assigned_by_name: mgr.name,
        assigned_at: at,
        status: closed ? ('closed' as const) : ('handed' as const),
        follow_up_due: at + FOLLOW_UP_HOURS * 60 * 60 * 1000,
        closed: closed ? 1 : 0,
        source: LEAD_SOURCE,
        closed_at: closed ? at + DAY : null,
        closed_by_id: closed ? mgr.id : null,
        closed_by_name: closed ? mgr.name : null,
        offered_at: at,
        accepted_at: accepted,
        first_contact_at: contacted,
      });
    }
    if (rows.length) await db.insertInto('leads').values(rows).execute();
    leads += rows.length;
  }

  // The latest assignments and a couple of skips, as Recent actions shows them.
  const places = new Map(
    (await db.selectFrom('memberships').select(['user_id', 'position']).where('store_id', '=', store.id).execute()).map((m) => [m.user_id, Number(m.position)]),
  );
  const placeOf = (rep: UserRow) => places.get(rep.id) ?? 0;
  const recent = await db.selectFrom('leads').selectAll().where('store_id', '=', store.id).orderBy('assigned_at', 'desc').limit(12).execute();
  for (const l of recent.reverse()) {
    const rep = onFloor.find((s) => s.id === l.assigned_to);
    if (!rep) continue;
    const by = { id: l.assigned_by, name: l.assigned_by_name };
    await logRotation(db, {
      store: store.id,
      type: 'assign',
      customer: l.customer,
      target: rep,
      by,
      pointer: placeOf(rep),
      leadId: Number(l.id),
      at: l.assigned_at,
    });
  }
  for (const [rep, reason] of [
    [onFloor[3], 'With a customer'],
    [onFloor[7], 'Lunch'],
  ] as const) {
    await logRotation(db, { store: store.id, type: 'skip', target: rep, reason, by: desk[0], pointer: placeOf(rep), at: now - 90 * 60 * 1000 });
  }
  await db
    .updateTable('rotation_state')
    .set({ pointer_pos: placeOf(onFloor[(turn - 1) % onFloor.length]) })
    .where('id', '=', store.id)
    .execute();

  const sales = [];
  for (const rep of floor.sellers) {
    for (let d = DAYS; d >= 0; d -= 1 + Math.floor(random() * 6)) {
      const gross = Math.round((300 + random() * 4200) * 100);
      sales.push({
        ...saleColumns(
          {
            date: dayKey(new Date(now - d * DAY), floor.tz),
            vehicleType: random() < 0.55 ? 'new' : 'used',
            frontGrossCents: gross,
            split: random() < 0.2 ? 'half' : 'full',
          },
          DEFAULT_PAY_PLAN,
        ),
        store_id: store.id,
        user_id: rep.id,
        rep_name: rep.name,
        created_at: now,
        created_by: rep.id,
      });
    }
  }
  for (let i = 0; i < sales.length; i += 200)
    await db
      .insertInto('sales')
      .values(sales.slice(i, i + 200))
      .execute();
  return { leads, sales: sales.length };
}
