import fs from 'node:fs';
import { slotEnv } from './slot';
import path from 'node:path';

/** Quoted-printable only when the mail says so: a plain mail's "?lead=12" is not an escape. */
const decodeQp = (s: string) =>
  /content-transfer-encoding:\s*quoted-printable/i.test(s)
    ? s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    : s;

/** A long header is folded onto the next line (RFC 5322): one line again, as a mail reader shows it. */
const unfoldHeaders = (raw: string) => {
  const end = raw.search(/\r?\n\r?\n/);
  return end < 0 ? raw : raw.slice(0, end).replace(/\r?\n[ \t]+/g, ' ') + raw.slice(end);
};

/** Mails the real SMTP server received for this address, oldest first. */
export function mailsTo(address: string): { to: string[]; text: string }[] {
  const dir = slotEnv('MAIL_DIR');
  return fs
    .readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')))
    .filter((m) => m.to.includes(address))
    .map((m) => ({ to: m.to, text: decodeQp(unfoldHeaders(m.raw)) }));
}

/**
 * Waits for a sign-in mail beyond the first `seen` ones and returns its link (the newest). Other
 * mail to the same person (a new lead's notice) may come in between: it is passed over.
 */
export async function nextLink(address: string, seen: number, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const links = mailsTo(address)
      .slice(seen)
      .map((mail) => /(https?:\/\/\S+\/finish-login\?e=[^\s"<>]+&t=[A-Za-z0-9_-]+)/.exec(mail.text)?.[1])
      .filter((link) => link !== undefined);
    if (links.length) return links[links.length - 1];
    if (Date.now() > deadline) throw new Error(`no sign-in mail for ${address} among ${mailsTo(address).length - seen} new mails`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
