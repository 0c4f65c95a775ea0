import type { Db, StoreDb } from '../db';
import { withRotationLock } from '../db';
import { inStore, type StoreCtx } from '../context';
import { storeById } from '../stores/service';
import { forbidden, notFound } from '../http/errors';
import { handOutWaitingLeads } from '../rotation/handout';
import {
  awayReason,
  holdsEverywhereText,
  mayRemoveTimeOff,
  offText,
  readHours,
  timeOffStore,
  type TimeOff,
  type TimeOffSetter,
} from '../../domain/availability';
import type { BusinessHours } from '../../domain/hours';
import type { Availability } from '../../domain/contract/answers';
import { dayKey } from '../../domain/time';

const NOT_HERE = 'User not found';
const OFF_NOT_FOUND = 'Time off not found';

/** Time off of these people that holds in the store (everywhere, or there alone) and is not over by `today`, first first. */
async function timeOffOf(db: Db, store: number, users: string[], today: string) {
  if (!users.length) return [];
  return db
    .selectFrom('time_off')
    .select(['id', 'user_id', 'from_day', 'to_day', 'note', 'store_id'])
    .where('user_id', 'in', users)
    .where('to_day', '>=', today)
    .where((eb) => eb.or([eb('store_id', 'is', null), eb('store_id', '=', store)]))
    .orderBy('from_day')
    .orderBy('id')
    .execute();
}

/**
 * Sets memberships.away of everyone in the store to what his own hours and time off say now
 * (domain/availability.ts awayReason), under the store's rotation lock, writing only the rows
 * whose value changes. Returns who changed and whether anyone became available (then leads
 * waiting may go out).
 */
export async function refreshAway(h: StoreDb, now = new Date(), tz = h.tz ?? 'UTC') {
  // The sweep asks every few seconds and nearly always nothing changes: look without the lock first.
  if (!(await awayChanges(h.db, h.store, now, tz)).length) return { changed: [], available: false };
  return withRotationLock(h, async (trx) => {
    const changed = await awayChanges(trx, h.store, now, tz);
    for (const c of changed)
      await trx.updateTable('memberships').set({ away: c.away }).where('store_id', '=', h.store).where('user_id', '=', c.userId).execute();
    return { changed, available: changed.some((c) => c.away === null) };
  });
}

/** Whose away mark differs from what his hours and time off say now. */
async function awayChanges(db: Db, store: number, now: Date, tz: string) {
  const members = await db.selectFrom('memberships').select(['user_id', 'hours', 'away']).where('store_id', '=', store).execute();
  const offs = await timeOffOf(
    db,
    store,
    members.map((m) => m.user_id),
    dayKey(now, tz),
  );
  const byUser = new Map<string, TimeOff[]>();
  for (const o of offs) byUser.set(o.user_id, [...(byUser.get(o.user_id) ?? []), { fromDay: o.from_day, toDay: o.to_day }]);
  const changed: { userId: string; away: string | null }[] = [];
  for (const m of members) {
    const away = awayReason(readHours(m.hours), byUser.get(m.user_id) ?? [], now, tz);
    if (away !== m.away) changed.push({ userId: m.user_id, away });
  }
  return changed;
}

/** One store's away marks now, its line told, and waiting leads out when someone there became available. */
async function refreshStore(ctx: StoreCtx, now: Date) {
  const { changed, available } = await refreshAway(ctx.dbh, now, ctx.config.APP_TIMEZONE);
  if (available) await handOutWaitingLeads(ctx, now);
  if (changed.length) ctx.bus.publish({ topic: 'rotation' });
}

/**
 * After a change to someone's hours or time off: this store at once, and (time off is his, not
 * the store's) every other store he works in.
 */
export async function afterChange(ctx: StoreCtx, userId: string, now = new Date()) {
  await refreshStore(ctx, now);
  const others = await ctx.dbh.db.selectFrom('memberships').select('store_id').where('user_id', '=', userId).where('store_id', '!=', ctx.store.id).execute();
  for (const { store_id } of others) await refreshStore(inStore(ctx, await storeById(ctx.dbh.db, Number(store_id))), now);
}

/** The person's membership in the store (404 when he has none there). */
async function memberOf(db: Db, store: number, id: string) {
  const row = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id', 'users.name', 'memberships.hours', 'memberships.away'])
    .where('memberships.store_id', '=', store)
    .where('users.id', '=', id)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound(NOT_HERE);
  return row;
}

/** What the Availability card shows of a person in the store. */
export async function availabilityOf(ctx: StoreCtx, id: string, now = new Date()): Promise<Availability> {
  const tz = ctx.config.APP_TIMEZONE;
  const today = dayKey(now, tz);
  const m = await memberOf(ctx.dbh.db, ctx.store.id, id);
  const offs = await timeOffOf(ctx.dbh.db, ctx.store.id, [id], today);
  return {
    person: { id: m.id, name: m.name },
    hours: readHours(m.hours) as Availability['hours'],
    timeOff: offs.map((o) => ({
      id: Number(o.id),
      fromDay: o.from_day,
      toDay: o.to_day,
      note: o.note,
      text: offText({ fromDay: o.from_day, toDay: o.to_day }),
      everywhere: o.store_id === null,
    })),
    away: m.away,
    today,
  };
}

/** Checks that the person is in the store (404 otherwise). */
export const checkMember = (ctx: StoreCtx, id: string) => memberOf(ctx.dbh.db, ctx.store.id, id);

export async function setHours(ctx: StoreCtx, id: string, hours: BusinessHours) {
  await memberOf(ctx.dbh.db, ctx.store.id, id);
  await ctx.dbh.db
    .updateTable('memberships')
    .set({ hours: hours ? JSON.stringify(hours) : null })
    .where('store_id', '=', ctx.store.id)
    .where('user_id', '=', id)
    .execute();
}

/** Time off for him, holding where the setter's say reaches (domain/availability.ts timeOffStore). */
export async function addTimeOff(ctx: StoreCtx, id: string, t: TimeOff & { note?: string | null }, by: TimeOffSetter, now = new Date()) {
  await memberOf(ctx.dbh.db, ctx.store.id, id);
  await ctx.dbh.db
    .insertInto('time_off')
    .values({
      user_id: id,
      from_day: t.fromDay,
      to_day: t.toDay,
      note: t.note?.trim() || null,
      created_by: by.id,
      created_at: now.getTime(),
      store_id: timeOffStore(by, ctx.store.id),
    })
    .execute();
}

/** Removes time off of his that holds in this store; one that holds everywhere only he or a group manager removes. */
export async function removeTimeOff(ctx: StoreCtx, id: string, offId: number, by: TimeOffSetter) {
  const m = await memberOf(ctx.dbh.db, ctx.store.id, id);
  const off = await ctx.dbh.db
    .selectFrom('time_off')
    .select('store_id')
    .where('id', '=', offId)
    .where('user_id', '=', id)
    .where((eb) => eb.or([eb('store_id', 'is', null), eb('store_id', '=', ctx.store.id)]))
    .executeTakeFirst();
  if (!off) throw notFound(OFF_NOT_FOUND);
  if (!mayRemoveTimeOff(by, off.store_id === null ? null : Number(off.store_id))) throw forbidden(holdsEverywhereText(m.name));
  const gone = await ctx.dbh.db.deleteFrom('time_off').where('id', '=', offId).where('user_id', '=', id).executeTakeFirst();
  if (!Number(gone.numDeletedRows)) throw notFound(OFF_NOT_FOUND);
}
