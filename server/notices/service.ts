import type { StoreCtx } from '../context';
import type { Db } from '../db';
import { rememberedRules } from '../rules/service';
import { storePath } from '../../domain/stores';
import { isQuiet, noticeWords, readChoices, routeFor } from '../../domain/notices';
import type { NoticeKind, Route } from '../../domain/notice-kinds';
import type { NoticeBody } from './channels';
import { noticeBox } from './sender';
import { makeAcceptToken } from './push';
import { smsEnabled } from './sms';

/** One thing to tell one person: `key` makes it once (the same key again, from any app server, is the same notice). */
export interface NoticeEvent {
  kind: NoticeKind;
  userId: string;
  leadId: number | null;
  key: string;
}

/** How long a notice is worth sending when it has no deadline of its own. */
const WORTH_MS: Record<NoticeKind, number> = {
  lead: 60 * 60_000,
  up_next: 10 * 60_000,
  time_left: 2 * 60_000,
  escalation: 10 * 60_000,
  handed_on: 30 * 60_000,
  appointment: 60 * 60_000,
  grab: 30 * 60_000,
};

/** The push's Accept: on what asks him to accept a lead. */
const ACCEPTS: ReadonlySet<NoticeKind> = new Set(['lead', 'time_left', 'escalation']);

export const leadLink = (ctx: StoreCtx, id: number) => `${ctx.config.PUBLIC_URL}${storePath(ctx.store.code, `/dashboard/associates?lead=${id}`)}`;
/** The overview, where the floor's "Up for grabs" card has Claim. */
const poolLink = (ctx: StoreCtx) => `${ctx.config.PUBLIC_URL}${storePath(ctx.store.code, '/dashboard/overview')}`;
const homeLink = (ctx: StoreCtx) => `${ctx.config.PUBLIC_URL}${storePath(ctx.store.code, '/dashboard/associates')}`;

/**
 * Stores the notices for these events, one row per target (each of his push subscriptions, his
 * confirmed mobile, or his address), as each person chose and his hours allow, and wakes the
 * sender. Answers the events that go by mail the portal already sends (a new lead, an
 * appointment): the caller mails those as before, so nothing is mailed twice.
 */
export async function notify(ctx: StoreCtx, events: NoticeEvent[], now = new Date()): Promise<NoticeEvent[]> {
  if (!events.length) return [];
  const { db } = ctx.dbh;
  const userIds = [...new Set(events.map((e) => e.userId))];
  const leadIds = [...new Set(events.flatMap((e) => (e.leadId === null ? [] : [e.leadId])))];
  const [rules, users, subs, leads] = await Promise.all([
    rememberedRules(ctx.dbh).then((k) => k.rules),
    db
      .selectFrom('users')
      .select(['id', 'email', 'notify', 'mobile', 'mobile_confirmed_at', 'sms_stopped_at'])
      .where('id', 'in', userIds)
      .where('disabled', '=', 0)
      .where('deleted_at', 'is', null)
      .execute(),
    db.selectFrom('push_subscriptions').select(['id', 'user_id']).where('user_id', 'in', userIds).orderBy('id').execute(),
    leadIds.length
      ? db
          .selectFrom('leads')
          .select(['id', 'customer', 'vehicle', 'accept_due', 'appointment_at', 'grab_until', 'assigned_to'])
          .where('id', 'in', leadIds)
          .execute()
      : [],
  ]);
  const tz = ctx.config.APP_TIMEZONE;
  const quiet = isQuiet(rules.businessHours, now, tz);
  const texts = smsEnabled(ctx.config);
  const box = noticeBox(ctx.secret);
  const at = now.getTime();
  const mailed: NoticeEvent[] = [];
  const rows = [];
  for (const e of events) {
    const u = users.find((x) => x.id === e.userId);
    if (!u) continue;
    const mine = subs.filter((s) => s.user_id === u.id);
    const mobile = texts && u.mobile && u.mobile_confirmed_at !== null && u.sms_stopped_at === null ? u.mobile : null;
    const route = routeFor(e.kind, readChoices(u.notify, rules.notify), { push: mine.length > 0, sms: !!mobile }, quiet);
    if (!route) continue;
    if (route === 'email' && (e.kind === 'lead' || e.kind === 'appointment')) {
      mailed.push(e);
      continue;
    }
    const lead = e.leadId === null ? undefined : leads.find((l) => Number(l.id) === e.leadId);
    if (e.leadId !== null && !lead) continue;
    const due = e.kind === 'appointment' ? lead?.appointment_at : e.kind === 'grab' ? lead?.grab_until : lead?.accept_due;
    const deadline = ACCEPTS.has(e.kind) || e.kind === 'appointment' || e.kind === 'grab' ? (due == null ? null : Number(due)) : null;
    const expiresAt = deadline ?? at + WORTH_MS[e.kind];
    if (expiresAt <= at) continue;
    const link = e.kind === 'grab' ? poolLink(ctx) : lead ? leadLink(ctx, Number(lead.id)) : homeLink(ctx);
    const words = noticeWords(e.kind, { customer: lead?.customer, vehicle: lead?.vehicle, at: due == null ? null : Number(due), link }, now, tz);
    const body: NoticeBody = { title: words.title, text: route === 'sms' ? words.sms : words.text, url: link };
    const targets: string[] = route === 'push' ? mine.map((s) => String(s.id)) : route === 'sms' ? [mobile ?? ''] : [u.email];
    if (route === 'push' && lead && ACCEPTS.has(e.kind) && lead.assigned_to === u.id && lead.accept_due !== null)
      body.accept = await makeAcceptToken(db, ctx.secret, Number(lead.id), u.id, Number(lead.accept_due));
    for (const target of targets)
      rows.push({
        user_id: u.id,
        store_id: ctx.store.id,
        lead_id: e.leadId,
        kind: e.kind,
        channel: route satisfies Route,
        target,
        once_key: `${e.key}:${route}:${target}`,
        body: box.sealJson(body),
        state: 'queued' as const,
        attempts: 0,
        // Due at once on the real clock (a sweep may be given its own moment).
        next_at: Math.min(at, Date.now()),
        lease_until: null,
        expires_at: expiresAt,
        created_at: at,
      });
  }
  if (rows.length) {
    await db
      .insertInto('notices')
      .values(rows)
      .onConflict((oc) => oc.column('once_key').doNothing())
      .execute();
    ctx.notices?.wake();
  }
  return mailed;
}

/**
 * Of these events about leads, the ones not stored yet: a sweep asks about the same leads again
 * and again, and what is stored is not asked twice (notify would store it once anyway).
 */
export async function untold(db: Db, events: NoticeEvent[], kinds: NoticeKind[]): Promise<NoticeEvent[]> {
  const leadIds = [...new Set(events.flatMap((e) => (e.leadId === null ? [] : [e.leadId])))];
  if (!leadIds.length) return events;
  const told = await db.selectFrom('notices').select('once_key').where('lead_id', 'in', leadIds).where('kind', 'in', kinds).execute();
  return events.filter((e) => !told.some((t) => t.once_key.startsWith(`${e.key}:`)));
}

/**
 * Fire and forget, for the triggers: a notice that cannot be stored is logged and never fails what
 * caused it; `mail` then gets every event, so the mail the portal always sent still goes.
 */
export const tell = (ctx: StoreCtx, events: NoticeEvent[], mail?: (events: NoticeEvent[]) => void) => {
  notify(ctx, events).then(
    (mailed) => mail?.(mailed),
    (err) => {
      ctx.log.error({ err }, 'could not queue notices');
      mail?.(events);
    },
  );
};
