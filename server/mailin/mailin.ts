import type { Ctx } from '../context';
import { createMailJob, MAIL_TIMING, type MailTiming } from './job';
import { startReceiver, type Receiver } from './receiver';
import { startImap, type ImapIntake } from './imap';
import { ensureAddresses, keepMail, leadAddress } from './service';
import { messageOf } from '../../domain/errors';

/** The lead address an IMAP mailbox stands for: its user when that is an address, else user@host. */
function mailboxAddress(url: string) {
  const u = new URL(url);
  const user = decodeURIComponent(u.username).toLowerCase();
  return user.includes('@') ? user : `${user}@${u.hostname.toLowerCase()}`;
}

/**
 * Lead mail in: the SMTP receiver (INBOUND_SMTP_PORT), the IMAP mailbox (IMAP_URL) and the job
 * that reads what either stored. Started when the app is ready, stopped when it closes.
 */
export function createMailIn(ctx: Ctx, timing: Partial<MailTiming> = {}) {
  const c = ctx.config;
  const job = createMailJob(ctx, { ...MAIL_TIMING, ...timing });
  let receiver: Receiver | null = null;
  let imap: ImapIntake | null = null;
  let imapError: string | null = null;

  async function startMailbox(url: string) {
    const address = await leadAddress(ctx.dbh.db, mailboxAddress(url));
    if (!address) return;
    imap = startImap({
      url,
      log: ctx.log,
      pollMs: c.IMAP_POLL_SECONDS * 1000,
      keep: async (raw) => {
        try {
          await keepMail(ctx, { raw, address, via: 'imap', sender: '' });
          imapError = null;
        } catch (err) {
          imapError = messageOf(err);
          throw err;
        }
        job.wake();
      },
    });
  }

  return {
    job,
    receiverPort: () => receiver?.port ?? null,
    imapStatus: () => (c.IMAP_URL ? { mailbox: mailboxAddress(c.IMAP_URL), error: imapError } : null),
    async start() {
      await ensureAddresses(ctx, [...c.INBOUND_ADDRESSES, ...(c.IMAP_URL ? [{ address: mailboxAddress(c.IMAP_URL), store: '' }] : [])]);
      job.start();
      if (c.INBOUND_SMTP_PORT !== undefined) receiver = await startReceiver(ctx, job.wake);
      if (c.IMAP_URL) await startMailbox(c.IMAP_URL);
    },
    async stop() {
      await receiver?.close();
      await imap?.stop();
      await job.stop();
    },
  };
}
export type MailIn = ReturnType<typeof createMailIn>;
