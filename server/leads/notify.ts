import { mailedManagers } from '../users/repo';
import type { StoreCtx } from '../context';
import { storePath } from '../../domain/stores';
import type { NewLead } from '../rotation/service';
import { customerFields } from '../../domain/leads';
import { formatDateTime } from '../../domain/format';
import { leadLink } from '../notices/service';
import { noticeAppointments } from '../notices/triggers';

const line = (label: string, v: string | null) => (v ? [`${label}: ${v}`] : []);

/** A salesman hears of a new lead for a day; after that the mail is given up. */
const LEAD_MAIL_TTL_MS = 24 * 60 * 60 * 1000;

/** What a salesman's mail about his new lead says: the lead as stored, his address and name. */
export interface LeadMail {
  id: number;
  customer: string;
  phone: string | null;
  email: string | null;
  vehicle: string | null;
  vin: string | null;
  comments: string | null;
  source: string;
  follow_up_due: number;
  accept_due: number | null;
  to: string;
  rep: string;
}

/** The mail about a lead just stored for a salesman, from what the assign stored. */
export const newLeadMail = (id: number, l: NewLead, to: { name: string; email: string }, followUpDue: number, acceptDue: number | null): LeadMail => ({
  id,
  ...customerFields(l),
  follow_up_due: followUpDue,
  accept_due: acceptDue,
  to: to.email,
  rep: to.name,
});

/**
 * Tells each salesman about the lead they just got, through the outbox: a lead id is read, a
 * lead the assign already described is not. Runs after the assign committed; a mail that cannot
 * be queued is logged and never undoes or fails the assign.
 */
async function mailAssigned(ctx: StoreCtx, leads: (number | LeadMail)[]) {
  const ids = leads.filter((l) => typeof l === 'number');
  const known = leads.filter((l) => typeof l !== 'number');
  if (!leads.length) return;
  const read = ids.length
    ? await ctx.dbh.db
        .selectFrom('leads')
        .innerJoin('users', 'users.id', 'leads.assigned_to')
        .select(['leads.id', 'leads.customer', 'leads.phone', 'leads.email', 'leads.vehicle', 'leads.vin', 'leads.comments', 'leads.source'])
        .select(['leads.follow_up_due', 'leads.accept_due', 'users.email as to', 'users.name as rep'])
        .where('leads.id', 'in', ids)
        .execute()
    : [];
  const due = (t: number) => formatDateTime(new Date(Number(t)), ctx.config.APP_TIMEZONE);
  const expiresAt = Date.now() + LEAD_MAIL_TTL_MS;
  const mails = [...known, ...read].map((l) => {
    const text = [
      `Hi ${l.rep},`,
      '',
      `A new lead is yours: ${l.customer}`,
      '',
      ...line('Phone', l.phone),
      ...line('E-mail', l.email),
      ...line('Vehicle', [l.vehicle, l.vin && `VIN ${l.vin}`].filter(Boolean).join(', ')),
      ...line('Source', l.source),
      ...line('Comments', l.comments),
      ...line('Accept by', l.accept_due ? due(l.accept_due) : null),
      `Follow up by: ${due(l.follow_up_due)}`,
      '',
      `Open and accept it: ${leadLink(ctx, Number(l.id))}`,
    ].join('\n');
    return {
      kind: 'lead' as const,
      mail: { to: l.to, subject: `New lead: ${l.customer}`, text },
      logLine: `lead ${l.id} (${l.customer}) assigned to ${l.to}`,
      expiresAt,
    };
  });
  await ctx.outbox.queue(mails);
}

/** Fire and forget: the answer to the request does not wait for the mail. */
export const notifyAssigned = (ctx: StoreCtx, leads: (number | LeadMail)[]) => {
  mailAssigned(ctx, leads).catch((err) => ctx.log.error({ err }, 'could not queue mail about new leads'));
};

/** Every manager hears of a lead no salesman accepted, which now waits for them in Unassigned. */
async function mailParked(ctx: StoreCtx, leadIds: number[]) {
  if (!leadIds.length) return;
  const [leads, managers] = await Promise.all([
    ctx.dbh.db.selectFrom('leads').select(['id', 'customer', 'handoffs']).where('id', 'in', leadIds).execute(),
    mailedManagers(ctx.dbh.db, ctx.store.id),
  ]);
  const expiresAt = Date.now() + LEAD_MAIL_TTL_MS;
  const mails = leads.flatMap((l) =>
    managers.map((m) => ({
      kind: 'lead' as const,
      mail: {
        to: m.email,
        subject: `No one accepted: ${l.customer}`,
        text: [
          `Hi ${m.name},`,
          '',
          `${l.customer} was handed on ${l.handoffs} times without an Accept and now waits in Unassigned for you.`,
          '',
          `Hand it out: ${ctx.config.PUBLIC_URL}${storePath(ctx.store.code, '/dashboard/leads?view=unassigned')}`,
        ].join('\n'),
      },
      logLine: `lead ${l.id} (${l.customer}) parked; told ${m.email}`,
      expiresAt,
    })),
  );
  if (!mails.length) return;
  await ctx.outbox.queue(mails);
}

export const notifyParked = (ctx: StoreCtx, leadIds: number[]) => {
  mailParked(ctx, leadIds).catch((err) => ctx.log.error({ err }, 'could not queue mail about leads no one accepted'));
};

const REMIND_BEFORE_MS = 60 * 60 * 1000;

/**
 * An hour before an appointment its salesman gets a reminder, once: the sweep claims each one
 * (appointment_reminded_at) before mailing, so two app servers never both send it; a moved
 * appointment is reminded again.
 */
export async function remindAppointments(ctx: StoreCtx, now = new Date()) {
  const { db } = ctx.dbh;
  const at = now.getTime();
  const due = await db
    .selectFrom('leads')
    .innerJoin('users', 'users.id', 'leads.assigned_to')
    .select([
      'leads.id',
      'leads.customer',
      'leads.phone',
      'leads.vehicle',
      'leads.appointment_at',
      'users.id as user_id',
      'users.email as to',
      'users.name as rep',
    ])
    .where('leads.store_id', '=', ctx.store.id)
    .where('leads.stage', '=', 'appointment')
    .where('leads.appointment_at', '>', at)
    .where('leads.appointment_at', '<=', at + REMIND_BEFORE_MS)
    .where('leads.appointment_reminded_at', 'is', null)
    .execute();
  const claimed: typeof due = [];
  for (const l of due) {
    const won = await db
      .updateTable('leads')
      .set({ appointment_reminded_at: at })
      .where('id', '=', l.id)
      .where('appointment_reminded_at', 'is', null)
      .where('appointment_at', '=', Number(l.appointment_at))
      .executeTakeFirst();
    if (Number(won.numUpdatedRows) === 1) claimed.push(l);
  }
  // Each as he chose (server/notices); mail, as before, to those who chose it or have no device.
  const mailed = await noticeAppointments(
    ctx,
    claimed.map((l) => ({ leadId: Number(l.id), userId: l.user_id, at: Number(l.appointment_at) })),
    now,
  );
  const mails = [];
  for (const l of claimed) {
    if (!mailed.some((m) => m.leadId === Number(l.id))) continue;
    const when = formatDateTime(new Date(Number(l.appointment_at)), ctx.config.APP_TIMEZONE);
    mails.push({
      kind: 'lead' as const,
      mail: {
        to: l.to,
        subject: `Appointment at ${when}: ${l.customer}`,
        text: [
          `Hi ${l.rep},`,
          '',
          `${l.customer} is coming in at ${when}.`,
          '',
          ...line('Phone', l.phone),
          ...line('Vehicle', l.vehicle),
          '',
          `After it, mark Shown or No-show: ${leadLink(ctx, Number(l.id))}`,
        ].join('\n'),
      },
      logLine: `lead ${l.id} (${l.customer}) appointment reminder to ${l.to}`,
      expiresAt: Number(l.appointment_at),
    });
  }
  if (mails.length) await ctx.outbox.queue(mails);
}
