import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  to: string[];
  raw: string;
  /** The body with quoted-printable soft breaks and escapes undone. */
  text: string;
  subject: string;
}

const decodeQp = (s: string) => s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));

/** One RFC 2047 encoded word's text (=?UTF-8?Q?...?= or =?UTF-8?B?...?=). */
function decodeWord(charset: string, encoding: string, text: string): string {
  const bytes =
    encoding.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        );
  return new TextDecoder(charset).decode(bytes);
}

/** A header's value as the reader sees it: folded lines joined, encoded words (a subject with a non-ASCII letter) decoded. */
function headerValue(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/, 1)[0].replace(/\r?\n[ \t]+/g, ' ');
  const value = new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1] ?? '';
  return value
    .replace(/(\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BQbq])\?([^?]*)\?=/g, (_, charset: string, encoding: string, text: string) => decodeWord(charset, encoding, text));
}

/**
 * A real SMTP server on a free local port (or the given one, to stand in again after a stop)
 * that keeps what it receives (and hands each mail to onMail).
 */
export async function startSmtp(onMail?: (mail: ReceivedMail) => void, port = 0) {
  const inbox: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        const subject = headerValue(raw, 'Subject');
        const mail = { to: session.envelope.rcptTo.map((r) => r.address), raw, text: decodeQp(raw), subject };
        inbox.push(mail);
        onMail?.(mail);
        waiters.splice(0).forEach((w) => w());
        done();
      });
    },
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const bound = (server.server.address() as AddressInfo).port;
  const to = (address: string) => inbox.filter((m) => m.to.includes(address));
  return {
    url: `smtp://127.0.0.1:${bound}`,
    port: bound,
    inbox,
    /** How many mails this address has received. */
    count: (address: string) => to(address).length,
    /**
     * The newest mail to this address after its first `seen` (and, given `wanted`, one it wants),
     * waiting up to timeoutMs (mail goes out from the outbox shortly after the request that queued it).
     */
    async mailTo(address: string, timeoutMs = 5000, seen = 0, wanted: (mail: ReceivedMail) => boolean = () => true): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mails = to(address).slice(seen).filter(wanted);
        if (mails.length) return mails[mails.length - 1];
        if (Date.now() > deadline) throw new Error(`no mail to ${address}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 100);
        });
      }
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const LINK = /(https?:\/\/\S+\/finish-login\?e=[^\s"<>]+&t=[A-Za-z0-9_-]+)/;

/** Whether a mail holds a sign-in link. */
export const holdsLink = (mail: ReceivedMail) => LINK.test(mail.text);

export const linkIn = (mail: ReceivedMail) => {
  const m = LINK.exec(mail.text);
  if (!m) throw new Error('no sign-in link in mail');
  return new URL(m[1]);
};
