import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { Ctx } from '../context';
import { take } from '../http/limits';
import { keepMail, leadAddress, type LeadAddress } from './service';
import { clientKey } from '../../domain/net';
import { slowFrom, tooSlow, type RateRule } from '../../domain/mailin';

/** The largest message taken: far above a lead mail with its attachments. */
export const MAX_MAIL = 10 * 1024 * 1024;
/** Connections one client may hold open at once, and recipients one message may name. */
const CONNECTIONS_PER_CLIENT = 10;
const MAX_RECIPIENTS = 20;
/**
 * Bytes one client may send: a burst of 12 MB (a 10 MB message and change), then 1 MB a second. Far above a relay's lead mail
 * (a few kB each); what keeps one sender of 10 MB messages from filling the database and the
 * event loop that answers everyone else. Per app server: each one guards its own loop.
 */
const BYTES_BURST = 12 * 1024 * 1024;
const BYTES_PER_SECOND = 1024 * 1024;

/** What hangUp reaches of smtp-server's connection. */
interface Connection {
  session: SMTPServerSession;
  send(code: number, text: string): void;
  _socket: { destroySoon(): void };
}

/** An SMTP refusal: its code and the text the sending server reports to its user. */
const refuse = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

/** A span as a sender's user reads it: "10 minutes", "0.6 s". */
const span = (ms: number) => (ms >= 60_000 ? `${+(ms / 60_000).toFixed(1)} minutes` : `${+(ms / 1000).toFixed(1)} s`);

/** What the receiver holds of one open connection it took. */
interface Held {
  /** Who it counts as (clientKey). */
  client: string;
  /** Answered 421 and closing: nothing more of it is read or stored. */
  cut: boolean;
  /** Its session's deadline. */
  timer: NodeJS.Timeout;
}

/**
 * The built-in SMTP receiver for lead mail (INBOUND_SMTP_PORT): takes mail only for lead
 * addresses (anything else is refused at RCPT TO, so it never relays), up to 10 MB, a burst then
 * a rate of messages per client (across app servers), of bytes per client, and a few connections per client, with
 * STARTTLS when a certificate is set. A client is an IPv4 address or an IPv6 /64 (clientKey). No
 * one holds a connection without end: a session, and each message's DATA, have a deadline, and a
 * message must come in at a least rate on average; over any of them the connection is answered
 * 421 and closed, and nothing of the message is stored. A message is stored, sealed, before the 250 that says it
 * arrived; `stored` then wakes the reader.
 */
export async function startReceiver(ctx: Ctx, stored: () => void) {
  const c = ctx.config;
  const tls = c.INBOUND_SMTP_CERT && c.INBOUND_SMTP_KEY ? { cert: fs.readFileSync(c.INBOUND_SMTP_CERT), key: fs.readFileSync(c.INBOUND_SMTP_KEY) } : null;
  const open = new Map<string, number>();
  const wanted = new Map<string, LeadAddress[]>();
  const bucket = { burst: Math.min(100, c.INBOUND_SMTP_PER_MINUTE), perMinute: c.INBOUND_SMTP_PER_MINUTE };
  const client = (s: SMTPServerSession) => clientKey(s.remoteAddress);
  const held = new Map<string, Held>();
  const sessionMs = c.INBOUND_SMTP_SESSION_MINUTES * 60_000;
  const dataMs = c.INBOUND_SMTP_DATA_MINUTES * 60_000;
  const rate: RateRule = { bytesPerSecond: c.INBOUND_SMTP_MIN_BYTES_PER_SECOND, graceMs: c.INBOUND_SMTP_RATE_GRACE_SECONDS * 1000 };
  // Per client: the bytes it may still send, as of when (a token bucket of bytes).
  const budget = new Map<string, { bytes: number; at: number }>();
  const allowance = (who: string, now = Date.now()) => {
    const b = budget.get(who) ?? { bytes: BYTES_BURST, at: now };
    const bytes = Math.min(BYTES_BURST, b.bytes + ((now - b.at) / 1000) * BYTES_PER_SECOND);
    if (bytes >= BYTES_BURST) budget.delete(who);
    else budget.set(who, { bytes, at: now });
    return bytes;
  };
  const spend = (who: string, n: number) => budget.set(who, { bytes: allowance(who) - n, at: Date.now() });

  const server = new SMTPServer({
    name: new URL(c.PUBLIC_URL).hostname,
    banner: `${c.APP_NAME} lead mail`,
    size: MAX_MAIL,
    authOptional: true,
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(tls ?? {}),
    maxClients: 200,
    socketTimeout: 60_000,
    logger: false,
    onConnect(session, done) {
      const who = client(session);
      const n = (open.get(who) ?? 0) + 1;
      if (n > CONNECTIONS_PER_CLIENT) return done(refuse(421, `Too many connections from ${who}; close some and try again.`));
      // A client that left while its name was being looked up is gone already: it holds nothing.
      if (!connectionOf(session)) return done();
      open.set(who, n);
      const timer = setTimeout(() => {
        hangUp(session, `This connection has been open for ${span(sessionMs)}, the longest a connection may; connect again to send more.`);
        if (!connectionOf(session)) release(session);
      }, sessionMs).unref();
      held.set(session.id, { client: who, cut: false, timer });
      done();
    },
    onClose(session) {
      wanted.delete(session.id);
      release(session);
    },
    onMailFrom(_from, session, done) {
      wanted.delete(session.id);
      const left = allowance(client(session));
      if (left < 0) return done(refuse(450, `Too much mail from ${client(session)}; try again in ${Math.ceil(-left / BYTES_PER_SECOND)} s.`));
      take(ctx.dbh.db, `smtp:${client(session)}`, Date.now(), bucket).then(
        (t) => done(t.allowed ? null : refuse(450, `Too many messages from ${client(session)}; try again in ${Math.ceil(t.retryAfterMs / 1000)} s.`)),
        (err: unknown) => {
          ctx.log.warn({ err }, 'lead mail: could not check the sender against its limit');
          done(refuse(451, 'The portal cannot take mail right now; try again later.'));
        },
      );
    },
    onRcptTo(to, session, done) {
      const list = wanted.get(session.id) ?? [];
      if (list.length >= MAX_RECIPIENTS) return done(refuse(452, `Too many recipients (at most ${MAX_RECIPIENTS}).`));
      leadAddress(ctx.dbh.db, to.address).then(
        (a) => {
          if (!a) return done(refuse(550, `${to.address} is not a lead address here; this server takes lead mail only and relays nothing.`));
          if (!list.some((x) => x.id === a.id)) wanted.set(session.id, [...list, a]);
          done();
        },
        (err: unknown) => {
          ctx.log.warn({ err }, 'lead mail: could not look up a recipient');
          done(refuse(451, 'The portal cannot take mail right now; try again later.'));
        },
      );
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      // Hashed as it comes, in small steps: a mail without a Message-ID is known by its SHA-256.
      const hash = crypto.createHash('sha256');
      // Each chunk is charged as it comes: connections sending at once share one budget. The
      // message that overdraws it is not stored and its connection is closed at once (421), so
      // nothing more of it is read: reading a fast sender's stream to its end is what held up
      // everyone else. Its next MAIL FROM is refused (450) until its budget has come back.
      let over = false;
      // The DATA phase's deadline, and the least rate it must keep on average (checked when it may
      // first fall short, then again as what came in moves that moment on).
      const began = Date.now();
      let bytes = 0;
      const cut = (text: string) => {
        over = true;
        chunks.length = 0;
        hangUp(session, text);
      };
      const deadline = setTimeout(() => cut(`The message took longer than ${span(dataMs)} to send; it was not taken. Try again.`), dataMs).unref();
      let pace: NodeJS.Timeout | undefined;
      const watch = () => {
        const at = slowFrom(began, bytes, rate);
        if (at === Infinity) return;
        pace = setTimeout(
          () => {
            if (over) return;
            if (!tooSlow(began, bytes, Date.now(), rate)) return watch();
            cut(`The message came in slower than ${rate.bytesPerSecond} bytes a second; it was not taken. Try again.`);
          },
          Math.max(1, at - Date.now()),
        ).unref();
      };
      watch();
      const stop = () => {
        clearTimeout(deadline);
        clearTimeout(pace);
      };
      stream.on('data', (b: Buffer) => {
        if (over || held.get(session.id)?.cut) return;
        bytes += b.length;
        spend(client(session), b.length);
        if (allowance(client(session)) < 0)
          return cut(`Too much mail from ${client(session)}; try this message again in ${Math.ceil(-allowance(client(session)) / BYTES_PER_SECOND)} s.`);
        if (!stream.sizeExceeded) {
          chunks.push(b);
          hash.update(b);
        }
      });
      stream.on('error', (err) => {
        stop();
        done(err);
      });
      stream.on('end', () => {
        stop();
        // Already answered and closing (hangUp): the connection takes no second answer, and nothing of the message is kept.
        if (over || held.get(session.id)?.cut) return done(refuse(421, 'The connection was closed.'));
        if (stream.sizeExceeded) return done(refuse(552, `The message is larger than ${MAX_MAIL / 1024 / 1024} MB; it was not taken.`));
        const raw = Buffer.concat(chunks);
        const sender = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const digest = hash.digest('hex');
        Promise.all((wanted.get(session.id) ?? []).map((address) => keepMail(ctx, { raw, address, via: 'smtp', sender, digest }))).then(
          () => {
            stored();
            done();
          },
          (err: unknown) => {
            ctx.log.error({ err }, 'lead mail: could not store a message; the sender was told to try again');
            done(refuse(451, 'The portal could not store the message; try again later.'));
          },
        );
      });
    },
  });
  /**
   * Answers 421 in the middle of a message and stops reading its connection: smtp-server offers
   * no way but its connection's own (an SMTP server may close with 421 at any time; the sender
   * tries again later).
   */
  const hangUp = (session: SMTPServerSession, text: string) => {
    const h = held.get(session.id);
    if (h?.cut) return;
    if (h) h.cut = true;
    const conn = connectionOf(session);
    if (!conn) return;
    conn.send(421, text);
    conn._socket.destroySoon();
  };
  const connectionOf = (session: SMTPServerSession) =>
    [...(server as unknown as { connections: Set<Connection> }).connections].find((c) => c.session === session);
  /** Lets a connection's hold go: only one it took counts (one refused at connect never did). */
  const release = (session: SMTPServerSession) => {
    const h = held.get(session.id);
    if (!h) return;
    held.delete(session.id);
    clearTimeout(h.timer);
    const n = (open.get(h.client) ?? 1) - 1;
    if (n > 0) open.set(h.client, n);
    else open.delete(h.client);
  };
  server.on('error', (err) => ctx.log.warn({ err }, 'lead mail receiver: a connection failed'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(c.INBOUND_SMTP_PORT, c.INBOUND_SMTP_HOST, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  ctx.log.info(`lead mail receiver on port ${port}${tls ? ' (STARTTLS)' : ''}`);
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
