import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDovecot, type Dovecot } from '../test/dovecot';
import { startImap, type ImapIntake, type ImapSource } from './imap';

const mail = (subject: string, body = 'Interested in the 2024 Civic, call me back.') =>
  [`From: Pat Buyer <pat@example.com>`, `To: leads@dealer.example`, `Subject: ${subject}`, `Message-ID: <${subject}@example.com>`, '', body, ''].join('\r\n');

const subjectOf = (raw: Buffer) => /^Subject: (.*)$/m.exec(raw.toString())?.[1].trim() ?? '';

interface Line {
  level: string;
  msg: string;
}

/** A logger that keeps what it is told; `when` resolves on the first line that matches. */
function fakeLog() {
  const lines: Line[] = [];
  const watches: { test: (l: Line) => boolean; resolve: (l: Line) => void }[] = [];
  const at =
    (level: string) =>
    (...args: unknown[]) => {
      const line = { level, msg: String(args.find((a) => typeof a === 'string') ?? '') };
      lines.push(line);
      for (const w of watches.filter((w) => w.test(line))) {
        watches.splice(watches.indexOf(w), 1);
        w.resolve(line);
      }
    };
  const log = {
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    fatal: at('fatal'),
    level: 'debug',
    silent: () => {},
  };
  const self = { ...log, child: () => self } as unknown as FastifyBaseLogger;
  return {
    log: self,
    lines,
    when: (test: (l: Line) => boolean) =>
      new Promise<Line>((resolve) => {
        const seen = lines.find(test);
        if (seen) resolve(seen);
        else watches.push({ test, resolve });
      }),
  };
}

/** A keep that records what it stored; `fail` makes it throw for a message instead. */
function keeper(fail: (subject: string) => boolean = () => false) {
  const kept: { subject: string; from: ImapSource }[] = [];
  const waits: { subject: string; resolve: () => void }[] = [];
  const keep = async (raw: Buffer, from: ImapSource) => {
    const subject = subjectOf(raw);
    if (fail(subject)) throw new Error('database is down');
    kept.push({ subject, from });
    waits.filter((w) => w.subject === subject).forEach((w) => w.resolve());
  };
  return {
    keep,
    kept,
    subjects: () => kept.map((k) => k.subject),
    /** Resolves once a message with this subject has been kept. */
    keptOne: (subject: string) => new Promise<void>((resolve) => (kept.some((k) => k.subject === subject) ? resolve() : waits.push({ subject, resolve }))),
  };
}

describe('IMAP mail intake against Dovecot', () => {
  let dovecot: Dovecot;
  const readers: ImapIntake[] = [];
  const start = (opts: Omit<Parameters<typeof startImap>[0], 'url' | 'log'> & { url?: string; log?: FastifyBaseLogger }) => {
    const reader = startImap({ url: dovecot.url, log: fakeLog().log, ...opts });
    readers.push(reader);
    return reader;
  };

  beforeEach(async () => {
    dovecot = await startDovecot();
  });
  afterEach(async () => {
    await Promise.all(readers.splice(0).map((r) => r.stop()));
    await dovecot.stop();
  });

  it('keeps every message once, in UID order, then moves it to Processed', async () => {
    for (const s of ['lead-1', 'lead-2', 'lead-3']) await dovecot.append(mail(s));
    const k = keeper();
    await start({ keep: k.keep }).passed();

    expect(k.subjects()).toEqual(['lead-1', 'lead-2', 'lead-3']);
    expect(k.kept.map((x) => x.from.uid)).toEqual([1, 2, 3]);
    const [first] = k.kept;
    expect(first.from.mailbox).toBe('INBOX');
    expect(first.from.uidValidity).toMatch(/^\d+$/);
    expect(new Set(k.kept.map((x) => x.from.uidValidity)).size).toBe(1);
    expect(await dovecot.list('INBOX')).toEqual([]);
    expect((await dovecot.list('Processed')).map(subjectOf)).toEqual(['lead-1', 'lead-2', 'lead-3']);
  });

  it('leaves a message it could not keep in the mailbox and takes it on the next pass', async () => {
    for (const s of ['lead-1', 'lead-2', 'lead-3']) await dovecot.append(mail(s));
    let down = true;
    const k = keeper((s) => down && s === 'lead-2');
    const { log, lines } = fakeLog();
    const reader = start({ keep: k.keep, log, pollMs: 600_000 });
    await reader.passed();

    expect(k.subjects()).toEqual(['lead-1', 'lead-3']);
    expect((await dovecot.list('INBOX')).map(subjectOf)).toEqual(['lead-2']);
    expect(lines.some((l) => l.level === 'warn' && /could not store/.test(l.msg))).toBe(true);

    down = false;
    await dovecot.append(mail('lead-4'));
    // lead-2 has the lower UID, so the pass that took lead-4 went by it first
    await k.keptOne('lead-4');
    await reader.passed();
    expect(k.subjects()).toEqual(['lead-1', 'lead-3', 'lead-2', 'lead-4']);
    expect(await dovecot.list('INBOX')).toEqual([]);
    expect((await dovecot.list('Processed')).map(subjectOf).sort()).toEqual(['lead-1', 'lead-2', 'lead-3', 'lead-4']);
  });

  it('a new reader after a stop keeps nothing twice and takes what came in meanwhile', async () => {
    await dovecot.append(mail('lead-1'));
    const k = keeper();
    const first = start({ keep: k.keep });
    await first.passed();
    await first.stop();

    await dovecot.append(mail('lead-2'));
    await start({ keep: k.keep }).passed();

    expect(k.subjects()).toEqual(['lead-1', 'lead-2']);
    expect((await dovecot.list('Processed')).map(subjectOf)).toEqual(['lead-1', 'lead-2']);
  });

  it('takes a message that arrives while it idles, without waiting for the poll', async () => {
    const k = keeper();
    await start({ keep: k.keep, pollMs: 600_000 }).passed();

    await dovecot.append(mail('lead-idle'));
    await k.keptOne('lead-idle');
    expect(k.subjects()).toEqual(['lead-idle']);
  });

  it('leaves a message over 10 MB in place and says so', async () => {
    await dovecot.append(mail('lead-huge', 'x'.repeat(76).concat('\r\n').repeat(140_000)));
    await dovecot.append(mail('lead-small'));
    const k = keeper();
    const { log, lines } = fakeLog();
    await start({ keep: k.keep, log }).passed();

    expect(k.subjects()).toEqual(['lead-small']);
    expect((await dovecot.list('INBOX')).map(subjectOf)).toEqual(['lead-huge']);
    expect(lines.filter((l) => l.level === 'warn' && /over 10 MB/.test(l.msg))).toHaveLength(1);
  });

  it('logs a failed login without the password, keeps trying and stops cleanly', async () => {
    await dovecot.append(mail('lead-1'));
    const k = keeper();
    const { log, when, lines } = fakeLog();
    const wrong = dovecot.url.replace(encodeURIComponent(dovecot.password), 'not-the-password');
    const reader = startImap({ url: wrong, log, keep: k.keep });
    let passed = false;
    void reader.passed().then(() => (passed = true));

    const line = await when((l) => l.level === 'error');
    expect(line.msg).toMatch(/login .* failed/);
    expect(line.msg).toContain(dovecot.user);
    await reader.stop();

    expect(lines.map((l) => l.msg).join('\n')).not.toContain('not-the-password');
    expect(passed).toBe(false);
    expect(k.kept).toEqual([]);
  });

  it('reconnects when the server drops the connection', async () => {
    const k = keeper();
    const { log, when } = fakeLog();
    await start({ keep: k.keep, log, pollMs: 600_000 }).passed();

    await dovecot.kick();
    await when((l) => l.level === 'warn' && /connection/.test(l.msg));
    await dovecot.append(mail('lead-after'));
    await k.keptOne('lead-after');
    expect(k.subjects()).toEqual(['lead-after']);
  });
});
