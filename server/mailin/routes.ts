import type { FastifyInstance } from 'fastify';
import nodemailer from 'nodemailer';
import type { Selectable } from 'kysely';
import type { StoreCtx } from '../context';
import type { MailMessagesTable } from '../db/schema';
import { ApiError, notFound } from '../http/errors';
import { implement } from '../http/implement';
import { handOut } from '../rotation/handout';
import { customerKey } from '../intake/lead';
import type { UserRow } from '../users/repo';
import type { MailIn } from './mailin';
import type { MadeLead, MailDetail } from './job';
import { addAddress, dropRaw, KEPT_MS, listAddresses, mailSealer, removeAddress, TEST_HEADER, testMark } from './service';
import { zonedStartOfDay, dayKey } from '../../domain/time';
import { senderDomain } from '../../domain/mailin';

type MailRow = Selectable<MailMessagesTable> & { address: string };

const present = (r: MailRow) => {
  const outcome: unknown = r.outcome ? JSON.parse(r.outcome) : null;
  return {
    id: Number(r.id),
    address: r.address,
    from: r.sender,
    subject: r.subject,
    receivedAt: new Date(Number(r.received_at)).toISOString(),
    state: r.state,
    leads: Array.isArray(outcome) ? (outcome as MadeLead[]) : [],
    reason: outcome && !Array.isArray(outcome) && typeof outcome === 'object' && 'reason' in outcome ? String(outcome.reason) : null,
    handledBy: r.handled_by,
  };
};

/** A sample ADF lead for "Send a test lead": read like any other, never handed out. */
const sampleAdf = (store: string) => `<?xml version="1.0" encoding="UTF-8"?>
<?adf version="1.0"?>
<adf>
  <prospect>
    <requestdate>${new Date().toISOString()}</requestdate>
    <vehicle interest="buy" status="used"><year>2022</year><make>Honda</make><model>CR-V</model></vehicle>
    <customer><contact><name part="full">Terry Test</name><email>terry.test@example.com</email><phone>555-0100</phone></contact>
      <comments>A test lead from ${store}: it proves lead mail reaches the portal and is read.</comments></customer>
    <vendor><vendorname>${store}</vendorname></vendor>
    <provider><name>Portal test</name></provider>
  </prospect>
</adf>`;

/**
 * Lead mail under Manager → Integrations (the addresses, how they fare, a test lead) and Leads →
 * Mail to review (what made no lead: make one by hand or dismiss it). A store's manager sees his
 * store's mail; a group manager also the mail of the group's addresses.
 */
export async function mailRoutes(app: FastifyInstance, { mailIn }: { mailIn: MailIn }) {
  const withGroup = (me: UserRow) => me.all_stores === 1;

  /** The mail `me` may see here, with its address: this store's, and for a group manager the group's too. */
  const visibleMail = (ctx: StoreCtx, me: UserRow) =>
    ctx.dbh.db
      .selectFrom('mail_messages as m')
      .innerJoin('lead_addresses as a', 'a.id', 'm.address_id')
      .selectAll('m')
      .select('a.address')
      .where((eb) => (withGroup(me) ? eb.or([eb('m.store_id', '=', ctx.store.id), eb('m.store_id', 'is', null)]) : eb('m.store_id', '=', ctx.store.id)));

  /** One mail `me` may see here, else 404. */
  async function mailOf(ctx: StoreCtx, me: UserRow, id: number): Promise<MailRow> {
    const row = await visibleMail(ctx, me).where('m.id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Mail not found');
    return row;
  }

  const alreadyHandled = (row: MailRow) => new ApiError(409, `This mail was already handled${row.handled_by ? ` by ${row.handled_by}` : ''}.`, 'handled');

  /** Marks a mail waiting for review handled; one that is not (any more) says what became of it. */
  async function handled(ctx: StoreCtx, me: UserRow, id: number, state: 'taken' | 'dismissed', outcome: unknown) {
    const done = await ctx.dbh.db
      .updateTable('mail_messages')
      .set({ state, outcome: JSON.stringify(outcome), handled_by: me.name, done_at: Date.now() })
      .where('id', '=', id)
      .where('state', '=', 'review')
      .executeTakeFirst();
    const row = await mailOf(ctx, me, id);
    if (!Number(done.numUpdatedRows) && !(state === 'taken' && row.state === 'taken')) throw alreadyHandled(row);
    await dropRaw(ctx.dbh.db, row.raw_key);
    ctx.bus.publish({ topic: 'leads' });
    return { message: present(row) };
  }

  implement(app, 'GET /mail/addresses', async ({ me, ctx }) => {
    const start = zonedStartOfDay(dayKey(new Date(), ctx.store.timezone), ctx.store.timezone).getTime();
    const configured = ctx.config.INBOUND_ADDRESSES.map((a) => a.address);
    const addresses = await listAddresses(ctx.dbh.db, ctx.store.id, withGroup(me), start);
    const port = mailIn.receiverPort();
    return {
      addresses: addresses.map(({ storeId, ...a }) => ({ ...a, group: storeId === null, configured: configured.includes(a.address) })),
      receiver: port === null ? null : { port },
      imap: mailIn.imapStatus(),
    };
  });

  implement(app, 'POST /mail/addresses', async ({ me, ctx, body }) => {
    const a = await addAddress(ctx.dbh.db, ctx.store.id, body.address, me.id);
    return { address: { id: a.id, address: a.address, group: false, configured: false, lastMessageAt: null, today: 0, errors: 0 } };
  });

  implement(app, 'DELETE /mail/addresses/:id', async ({ ctx, params }) => {
    await removeAddress(
      ctx.dbh.db,
      ctx.store.id,
      params.id,
      ctx.config.INBOUND_ADDRESSES.map((a) => a.address),
    );
    return { ok: true as const };
  });

  /** Mails a sample ADF to the receiver, for this address: it is read like any lead mail and listed as a test, never handed out. */
  implement(app, 'POST /mail/addresses/:id/test', async ({ ctx, params }) => {
    const port = mailIn.receiverPort();
    if (port === null) throw new ApiError(409, 'The SMTP receiver is off: set INBOUND_SMTP_PORT and restart the portal to take lead mail.', 'receiver_off');
    const a = await ctx.dbh.db
      .selectFrom('lead_addresses')
      .select('address')
      .where('id', '=', params.id)
      .where('store_id', '=', ctx.store.id)
      .executeTakeFirst();
    if (!a) throw notFound('Lead address not found');
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, tls: { rejectUnauthorized: false } });
    try {
      await transport.sendMail({
        from: `Portal test <test@${senderDomain(a.address) || 'localhost'}>`,
        to: a.address,
        subject: `Test lead for ${ctx.store.name}`,
        headers: { [TEST_HEADER]: testMark(ctx.secret) },
        text: 'A test lead from Manager → Integrations.',
        attachments: [{ filename: 'lead.xml', contentType: 'application/xml', content: sampleAdf(ctx.store.name) }],
      });
    } catch (err) {
      throw new ApiError(502, `The receiver did not take the test mail: ${err instanceof Error ? err.message : String(err)}`, 'receiver_refused');
    } finally {
      transport.close();
    }
    return { ok: true as const };
  });

  implement(app, 'GET /mail', async ({ me, ctx, query }) => {
    let q = visibleMail(ctx, me).where('m.received_at', '>=', Date.now() - KEPT_MS);
    const toReview = await q
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('m.state', '=', 'review')
      .executeTakeFirstOrThrow();
    if (query.show === 'review') q = q.where('m.state', '=', 'review');
    const rows = await q.orderBy('m.received_at', 'desc').orderBy('m.id', 'desc').limit(500).execute();
    return { messages: rows.map(present), toReview: Number(toReview.n) };
  });

  implement(app, 'GET /mail/:id', async ({ me, ctx, params }) => {
    const row = await mailOf(ctx, me, params.id);
    const detail: MailDetail | null = row.detail ? mailSealer(ctx.secret).openJson<MailDetail>(row.detail) : null;
    const empty = { customer: '', phone: '', email: '', vehicle: '', comments: '' };
    return {
      message: {
        ...present(row),
        fromName: detail?.fromName ?? '',
        text: detail?.text ?? '',
        problems: detail?.problems ?? [],
        prefill: detail?.prefill ?? empty,
      },
    };
  });

  /** "Make a lead": handed out as a manager's Assign is; the mail's id keeps a double click to one lead. */
  implement(app, 'POST /mail/:id/lead', async ({ me, ctx, params, body }) => {
    const row = await mailOf(ctx, me, params.id);
    if (row.state !== 'review') throw alreadyHandled(row);
    const [made] = await handOut(
      ctx,
      [
        {
          customer: body.customer,
          phone: body.phone,
          email: body.email,
          vehicle: body.vehicle,
          comments: body.comments,
          source: senderDomain(row.sender) || 'E-mail',
          customerKey: customerKey(body.customer),
          externalSource: `mail-${row.address_id}#made`,
          externalId: String(row.id),
        },
      ],
      { id: me.id, name: me.name },
      { keep: true },
    );
    const lead: MadeLead = {
      id: made.leadId,
      customer: made.customer,
      status: made.assignedTo ? 'assigned' : 'unassigned',
      assignedTo: made.assignedTo?.name ?? null,
    };
    return handled(ctx, me, params.id, 'taken', [lead]);
  });

  implement(app, 'POST /mail/:id/dismiss', async ({ me, ctx, params, body }) => {
    await mailOf(ctx, me, params.id);
    return handled(ctx, me, params.id, 'dismissed', { reason: body.reason });
  });
}
