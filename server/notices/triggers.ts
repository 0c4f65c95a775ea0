import type { StoreCtx } from '../context';
import type { Rules } from '../../domain/rules';
import { escalationAt, timeLeftAt } from '../../domain/notices';
import type { NoticeKind } from '../../domain/notice-kinds';
import { notifyAssigned, type LeadMail } from '../leads/notify';
import { nextUp, sqlEnv } from '../rotation/queries';
import { rememberedRules } from '../rules/service';
import { batched, type Batched } from '../db/batch';
import { notify, tell, untold, type NoticeEvent } from './service';

/** A lead just his: who has it, and what its mail says when it goes by mail. */
export interface Given {
  leadId: number;
  userId: string;
  mail: number | LeadMail;
}

const same = (a: { leadId: number | null; userId: string }, b: { leadId: number | null; userId: string }) => a.leadId === b.leadId && a.userId === b.userId;

/** Leads handed out together: notices are gathered this long, so under load one look-up serves many assigns. */
const GATHER_MS = 50;

interface Handed {
  ctx: StoreCtx;
  given: Given[];
  upNext?: { rules?: Rules; now: Date };
}

/** Each app server's (its sender's) gatherer per store. */
const gatherers = new WeakMap<object, Map<number, Batched<Handed>>>();

/** Tells a gathered batch: each holder his lead as he chose, then whoever is Next Up after the last. */
async function tellHanded(batch: Handed[]) {
  const { ctx } = batch[batch.length - 1];
  const given = batch.flatMap((b) => b.given);
  let mailed: NoticeEvent[];
  try {
    mailed = await notify(
      ctx,
      given.map((g) => ({ kind: 'lead', userId: g.userId, leadId: g.leadId, key: `lead:${g.leadId}:${g.userId}` })),
    );
  } catch (err) {
    ctx.log.error({ err }, 'could not queue notices');
    mailed = given.map((g) => ({ kind: 'lead', userId: g.userId, leadId: g.leadId, key: '' }));
  }
  notifyAssigned(
    ctx,
    given.filter((g) => mailed.some((m) => same(m, g))).map((g) => g.mail),
  );
  const last = batch.findLast((b) => b.upNext);
  if (last?.upNext)
    await noticeUpNext(ctx, last.given[last.given.length - 1], last.upNext.rules, last.upNext.now).catch((err: unknown) =>
      ctx.log.error({ err }, 'could not tell Next Up'),
    );
}

/**
 * After leads were handed out: each new holder hears of his lead as he chose (by mail, as before,
 * when that is his choice or he has no device), and whoever is Next Up now hears he is. Fire and
 * forget: nothing here fails or waits for the hand-out.
 */
export function noticeAssigned(ctx: StoreCtx, given: Given[], upNext?: { rules?: Rules; now: Date }) {
  if (!given.length) return;
  const handed = { ctx, given, upNext };
  if (!ctx.notices) return void tellHanded([handed]);
  let byStore = gatherers.get(ctx.notices);
  if (!byStore) gatherers.set(ctx.notices, (byStore = new Map<number, Batched<Handed>>()));
  let gather = byStore.get(ctx.store.id);
  if (!gather) byStore.set(ctx.store.id, (gather = batched(tellHanded, GATHER_MS)));
  void gather([handed]);
}

/** Whoever is Next Up after this lead went out (not the one who just got it: alone on the floor, he knows). */
async function noticeUpNext(ctx: StoreCtx, { leadId, userId }: Given, known: Rules | undefined, now: Date) {
  const rules = known ?? (await rememberedRules(ctx.dbh)).rules;
  const { next } = await nextUp(ctx.dbh.db, ctx.store.id, sqlEnv(now, rules), ctx.dbh.dialect);
  if (next && next.id !== userId) await notify(ctx, [{ kind: 'up_next', userId: next.id, leadId: null, key: `up_next:${leadId}:${next.id}` }], now);
}

/** The salesman who let a lead pass hears it went on. */
export const noticeHandedOn = (ctx: StoreCtx, missed: { leadId: number; userId: string }[]) =>
  tell(
    ctx,
    missed.map((m) => ({ kind: 'handed_on', userId: m.userId, leadId: m.leadId, key: `handed_on:${m.leadId}:${m.userId}` })),
  );

/**
 * The sweep's look at leads waiting for an Accept: at half the window the escalation (a text), two
 * minutes before it ends "2 minutes left". Each once per lead, holder and deadline: what is stored
 * is not asked again.
 */
export async function noticeWaiting(ctx: StoreCtx, now = new Date()) {
  const { db } = ctx.dbh;
  const at = now.getTime();
  const pending = await db
    .selectFrom('leads')
    .select(['id', 'assigned_to', 'offered_at', 'assigned_at', 'accept_due'])
    .where('store_id', '=', ctx.store.id)
    .where('assigned_to', '!=', '')
    .where('closed', '=', 0)
    .where('accepted_at', 'is', null)
    .where('accept_due', '>', at)
    .execute();
  const events: NoticeEvent[] = [];
  for (const l of pending) {
    const offered = Number(l.offered_at ?? l.assigned_at);
    const due = Number(l.accept_due);
    const when: [NoticeKind, number | null][] = [
      ['escalation', escalationAt(offered, due)],
      ['time_left', timeLeftAt(offered, due)],
    ];
    for (const [kind, t] of when)
      if (t !== null && t <= at) events.push({ kind, userId: l.assigned_to, leadId: Number(l.id), key: `${kind}:${l.id}:${l.assigned_to}:${due}` });
  }
  const fresh = await untold(db, events, ['escalation', 'time_left']);
  if (fresh.length) await notify(ctx, fresh, now);
}

/** An appointment in the hour: notices as he chose; answers the ones to mail as before. */
export async function noticeAppointments(ctx: StoreCtx, due: { leadId: number; userId: string; at: number }[], now: Date) {
  const events: NoticeEvent[] = due.map((d) => ({ kind: 'appointment', userId: d.userId, leadId: d.leadId, key: `appointment:${d.leadId}:${d.at}` }));
  try {
    const mailed = await notify(ctx, events, now);
    return due.filter((d) => mailed.some((m) => same(m, d)));
  } catch (err) {
    ctx.log.error({ err }, 'could not queue appointment notices');
    return due;
  }
}
