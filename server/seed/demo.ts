import type { DbHandle } from '../db';
import { atStore, withRotationLock } from '../db';
import { FIRST_STORE_ID, insertUser, type UserRow } from '../users/repo';
import { saleColumns } from '../sales/service';
import { logRotation } from '../rotation/log';
import { dayKey } from '../../domain/time';
import { FOLLOW_UP_HOURS, LEAD_SOURCE } from '../../domain/leads';

const SALESMEN = [
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
];
const MANAGERS = ['Diane Foster', 'Rob Castillo'];
const FIRST = ['James', 'Maria', 'Robert', 'Linda', 'Michael', 'Sarah', 'David', 'Karen', 'Chris', 'Angela', 'Kevin', 'Ashley', 'Brian', 'Megan', 'Jason'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Wilson', 'Moore', 'Taylor', 'Thomas', 'Jackson', 'White'];
const DAY = 24 * 60 * 60 * 1000;

/** A small deterministic random source, so every demo looks the same. */
function rng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return seed / 4294967296;
  };
}

/** Fills an empty database with a believable dealership: 12 salesmen, 2 managers, months of leads and sales. */
export async function seedDemo(dbh: DbHandle, tz: string, say: (line: string) => void) {
  const { db } = dbh;
  const existing = await db.selectFrom('users').select('id').limit(1).execute();
  if (existing.length) {
    say('The database already has users; the demo fills only an empty one. Point DATA_DIR at a new folder to try it.');
    return;
  }
  const random = rng(42);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const slug = (n: string) => n.toLowerCase().replace(/[^a-z]+/g, '.');

  // The demo's salesmen are on the floor already, so the queue is full from the start.
  const store = FIRST_STORE_ID;
  const [managers, staff] = await withRotationLock(atStore(dbh, store), async (trx): Promise<UserRow[][]> => {
    const add = async (names: string[], role: string, onDuty: boolean) => {
      const out: UserRow[] = [];
      for (const name of names) out.push(await insertUser(trx, { email: `${slug(name)}@demo-dealer.com`, name, role, onDuty }));
      return out;
    };
    return [await add(MANAGERS, 'manager', false), await add(SALESMEN, 'staff', true)];
  });
  // A new salesman's place is the end of the line: the demo's are 1 to 12 in the order added.
  const placeOf = (rep: UserRow) => staff.indexOf(rep) + 1;
  say(`Added ${managers.length} managers and ${staff.length} salesmen (e-mails @demo-dealer.com).`);

  const now = Date.now();
  const days = 120;
  let leadCount = 0;
  let turn = 0;
  for (let d = days; d >= 0; d--) {
    const perDay = 6 + Math.floor(random() * 10);
    const rows = [];
    for (let i = 0; i < perDay; i++) {
      const at = now - d * DAY - Math.floor(random() * 10 * 60 * 60 * 1000);
      if (at > now) continue;
      const rep = staff[turn++ % staff.length];
      const mgr = pick(managers);
      const closed = d > 2 && random() < 0.7;
      // Most salesmen accept within a few minutes and call soon after; the newest leads still wait.
      const fresh = now - at < 20 * 60 * 1000;
      const accepted = fresh ? null : at + Math.floor((20 + random() * 600) * 1000);
      const contacted = accepted && random() < 0.85 ? accepted + Math.floor((60 + random() * 1800) * 1000) : null;
      rows.push({
        store_id: store,
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
    leadCount += rows.length;
    if (d % 30 === 0) say(`Leads… ${leadCount}`);
  }
  // The latest assignments and a couple of skips, as Recent actions shows them.
  const recent = await db.selectFrom('leads').selectAll().orderBy('assigned_at', 'desc').limit(12).execute();
  for (const l of recent.reverse()) {
    const rep = staff.find((s) => s.id === l.assigned_to);
    if (!rep) continue;
    const by = { id: l.assigned_by, name: l.assigned_by_name };
    await logRotation(db, { store, type: 'assign', customer: l.customer, target: rep, by, pointer: placeOf(rep), leadId: Number(l.id), at: l.assigned_at });
  }
  for (const [rep, reason] of [
    [staff[3], 'With a customer'],
    [staff[7], 'Lunch'],
  ] as const) {
    await logRotation(db, { store, type: 'skip', target: rep, reason, by: managers[0], pointer: placeOf(rep), at: now - 90 * 60 * 1000 });
  }
  await db
    .updateTable('rotation_state')
    .set({ pointer_pos: placeOf(staff[(turn - 1) % staff.length]) })
    .where('id', '=', store)
    .execute();

  const sales = [];
  for (const rep of staff) {
    for (let d = days; d >= 0; d -= 1 + Math.floor(random() * 6)) {
      const gross = Math.round((300 + random() * 4200) * 100);
      sales.push({
        ...saleColumns({
          date: dayKey(new Date(now - d * DAY), tz),
          vehicleType: random() < 0.55 ? 'new' : 'used',
          frontGrossCents: gross,
          split: random() < 0.2 ? 'half' : 'full',
        }),
        store_id: store,
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
  say(`Added ${leadCount} leads and ${sales.length} sales. Sign in as ${managers[0].email} (a manager) or ${staff[0].email}.`);
}
