import type { FastifyBaseLogger } from 'fastify';
import { ImapFlow, type ImapFlowError } from 'imapflow';

export interface ImapSource {
  mailbox: string;
  uidValidity: string;
  uid: number;
}

export interface ImapIntake {
  /** Resolves once the reader has finished one full pass over the mailbox after this call (tests wait on it). */
  passed(): Promise<void>;
  stop(): Promise<void>;
}

interface Options {
  /** imaps://user:password@host:993/INBOX or imap://... (no TLS); user and password URL-encoded */
  url: string;
  log: FastifyBaseLogger;
  /** Stores the message durably; resolves when stored (or already stored). Throws when it could not. */
  keep: (raw: Buffer, from: ImapSource) => Promise<void>;
  /** Poll fallback, default 60_000 */
  pollMs?: number;
  /** default "Processed" */
  processedFolder?: string;
}

const MAX_SIZE = 10 * 1024 * 1024;
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 60_000;

function parse(url: string) {
  const u = new URL(url);
  if (u.protocol !== 'imap:' && u.protocol !== 'imaps:') throw new Error(`The mail intake address must start with imap:// or imaps://, not ${u.protocol}//`);
  const secure = u.protocol === 'imaps:';
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 993 : 143,
    secure,
    user: decodeURIComponent(u.username),
    pass: decodeURIComponent(u.password),
    mailbox: decodeURIComponent(u.pathname.replace(/^\/+/, '')) || 'INBOX',
  };
}

/** Why a connection failed, in words a manager can act on (never the password). */
function explain(err: ImapFlowError, where: string, user: string, mailbox: string): string {
  if (err.authenticationFailed) return `Mail intake: login to ${where} as ${user} failed; check the mailbox user name and password`;
  if (err.mailboxMissing) return `Mail intake: the mailbox ${mailbox} does not exist on ${where}`;
  if (err.tlsFailed) return `Mail intake: the secure connection to ${where} failed (${err.message})`;
  if (err.code === 'EConnectionClosed' || err.code === 'NoConnection') return `Mail intake: lost the connection to the mail server ${where}`;
  if (err.code === 'ECONNREFUSED' || err.code === 'ENOTFOUND' || err.code === 'CONNECT_TIMEOUT' || err.code === 'EHOSTUNREACH')
    return `Mail intake: cannot reach the mail server ${where} (${err.code})`;
  return `Mail intake: the connection to ${where} failed (${err.responseText ?? err.message})`;
}

/**
 * Reads a mailbox over IMAP: each message is handed to keep and, once kept, moved to the
 * processed folder. Watches with IDLE, polls as a fallback and reconnects with backoff.
 */
export function startImap(opts: Options): ImapIntake {
  const { log, keep } = opts;
  const target = parse(opts.url);
  const where = `${target.host}:${target.port}`;
  const processed = opts.processedFolder ?? 'Processed';
  const pollMs = opts.pollMs ?? 60_000;

  let stopped = false;
  let wanted = true;
  let client: ImapFlow | undefined;
  let connecting = false;
  /** Passes waiting for a pass to start; moved to `running` when one does. */
  let waiting: (() => void)[] = [];
  /** Wakes the session from its wait (a pass is wanted, the connection closed, or stop). */
  let wake = () => {};
  /** Cuts the wait before a reconnect short (stop only: a wanted pass must not shorten the backoff). */
  let retryNow = () => {};
  const skipped = new Set<string>();
  let retryMs = FIRST_RETRY_MS;

  const request = () => {
    wanted = true;
    wake();
  };
  const nap = () => new Promise<void>((resolve) => (wake = resolve));
  const backoff = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      retryNow = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  /** One pass over the mailbox; passed() callers waiting before it resolve only if it gets to the end. */
  async function pass(c: ImapFlow) {
    const running = waiting;
    waiting = [];
    try {
      if (await takeAll(c)) running.forEach((r) => r());
      else waiting.unshift(...running);
    } catch (err) {
      waiting.unshift(...running);
      throw err;
    }
  }

  async function takeAll(c: ImapFlow): Promise<boolean> {
    const box = c.mailbox;
    if (!box) throw new Error('no mailbox selected');
    const uidValidity = String(box.uidValidity);
    const found: { uid: number; size: number }[] = [];
    if (box.exists > 0) for await (const m of c.fetch('1:*', { uid: true, size: true })) found.push({ uid: m.uid, size: m.size ?? 0 });
    found.sort((a, b) => a.uid - b.uid);
    for (const { uid, size } of found) {
      if (stopped) return false;
      if (size > MAX_SIZE) {
        const key = `${uidValidity}:${uid}`;
        if (!skipped.has(key))
          log.warn(
            { mailbox: target.mailbox, uid, size },
            `Mail intake: a message of ${Math.round(size / 1048576)} MB is over 10 MB; left in ${target.mailbox}`,
          );
        skipped.add(key);
        continue;
      }
      const msg = await c.fetchOne(String(uid), { uid: true, source: true }, { uid: true });
      // gone meanwhile (another reader took it)
      if (!msg || !msg.source) continue;
      try {
        await keep(msg.source, { mailbox: target.mailbox, uidValidity, uid });
      } catch (err) {
        log.warn({ mailbox: target.mailbox, uid, err }, 'Mail intake: could not store a message; it stays in the mailbox and is tried again on the next pass');
        continue;
      }
      await c.messageMove(String(uid), processed, { uid: true });
    }
    return true;
  }

  async function session() {
    const c = new ImapFlow({
      host: target.host,
      port: target.port,
      secure: target.secure,
      auth: { user: target.user, pass: target.pass },
      logger: false,
    });
    client = c;
    // the close that follows is what the loop acts on
    c.on('error', (err: Error) => log.debug({ err: err.message }, 'Mail intake: IMAP connection error'));
    c.on('exists', request);
    c.on('close', () => wake());
    try {
      connecting = true;
      await c.connect();
      connecting = false;
      if (stopped) return;
      await c.mailboxOpen(target.mailbox);
      const made = await c.mailboxCreate(processed);
      if (made.created) log.info(`Mail intake: created the folder ${processed}`);
      log.info(`Mail intake: reading ${target.mailbox} on ${where}`);
      wanted = true;
      while (!stopped && c.usable) {
        if (wanted) {
          wanted = false;
          await pass(c);
          retryMs = FIRST_RETRY_MS;
          // an IDLE started while a pass is wanted would only be broken at once
          if (!wanted && !stopped) c.idle().catch(() => {});
        } else {
          await nap();
        }
      }
      if (!stopped) throw Object.assign(new Error('the server closed the connection'), { code: 'EConnectionClosed' });
    } finally {
      connecting = false;
      client = undefined;
      if (c.usable) await c.logout().catch(() => {});
      c.close();
    }
  }

  const poll = setInterval(request, pollMs);
  const loop = (async () => {
    while (!stopped) {
      try {
        await session();
      } catch (err) {
        if (stopped) break;
        const e: ImapFlowError = err instanceof Error ? err : new Error(String(err));
        const text = `${explain(e, where, target.user, target.mailbox)}; trying again in ${Math.round(retryMs / 1000)} s`;
        if (e.authenticationFailed || e.mailboxMissing) log.error({ code: e.code }, text);
        else log.warn({ code: e.code }, text);
        await backoff(retryMs);
        retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
      }
    }
  })();

  return {
    passed() {
      // asks for a pass too, so a caller never waits for the poll
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        request();
      });
    },
    async stop() {
      stopped = true;
      clearInterval(poll);
      wake();
      retryNow();
      if (connecting) client?.close();
      await loop;
    },
  };
}
