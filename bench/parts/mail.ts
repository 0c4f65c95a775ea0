/** Lead mail: provider mail through the SMTP receiver to assigned leads, and other users' latency while one client sends hostile mail. */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import nodemailer from 'nodemailer';
import { openDb } from '../../server/db';
import { MAX_MAIL } from '../../server/mailin/receiver';
import { freshDb } from '../../server/test/harness';
import { freePort } from '../../server/test/process';
import { openLoopReaders, pct, round, say, SECONDS } from '../load';
import { seed, startServer } from '../server';
import type { Results } from '../table';

/** Lead mails sent in the intake measure, the warm-up's, and the connections nodemailer's pool sends them over. */
export const MAIL_LEADS = 600;
const WARM_UP = 20;
const WARM_FROM = 100_000;
export const MAIL_POOL = 5;
/** How many connections the hostile client holds: the receiver's limit per client. */
export const MAIL_ATTACKERS = 10;
const TO = 'leads@x.test';

const CRLF = '\r\n';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Text as 76-character lines (what a mailer sends; SMTP lines end at 1,000). */
const wrap = (s: string) => s.match(/.{1,76}/gs)?.join(CRLF) ?? '';

/** The ADF document of lead `i`: its own prospect id, customer, e-mail and phone. */
function adfOf(i: number) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<?adf version="1.0"?>
<adf>
  <prospect status="new">
    <id sequence="1" source="Cars.com">BM-${i}</id>
    <requestdate>2025-06-03T09:14:00-04:00</requestdate>
    <vehicle interest="buy" status="used">
      <year>2022</year>
      <make>Honda</make>
      <model>CR-V</model>
      <trim>EX-L</trim>
      <vin>7FARW2H8XNE0${String(10000 + i).slice(-5)}</vin>
      <stock>U${4000 + i}</stock>
      <price type="asking" currency="USD">28995</price>
      <odometer status="original" units="mi">31250</odometer>
    </vehicle>
    <customer>
      <contact>
        <name part="first">Pat</name>
        <name part="last">Mailbench${i}</name>
        <email>pat.mailbench${i}@example.com</email>
        <phone type="voice">843-555-${String(i % 10000).padStart(4, '0')}</phone>
        <address><street line="1">${100 + i} Harbor View Rd</street><city>Charleston</city><regioncode>SC</regioncode><postalcode>29412</postalcode></address>
      </contact>
      <comments>Is the silver one still available? I could come Saturday morning; trading in a 2015 Civic.</comments>
    </customer>
    <vendor><vendorname>Coastal Honda</vendorname><contact><name part="full">Internet Sales</name></contact></vendor>
    <provider><name part="full">Cars.com</name><service>Cars.com Lead Delivery</service><url>https://www.cars.com</url></provider>
  </prospect>
</adf>
`;
}

/** A provider's lead mail, ~4 kB: a text part and an HTML part; the ADF in the text part (even `i`) or attached as lead.xml (odd). */
function providerMail(i: number): nodemailer.SendMailOptions {
  const intro = `New lead from Cars.com for Coastal Honda\n\nCustomer: Pat Mailbench${i}\nVehicle: 2022 Honda CR-V EX-L (stock U${4000 + i})\nRequested: 2025-06-03 09:14 EDT\n\nRespond within 15 minutes for the best chance to close this lead.\n`;
  const footer = `\n--\nCars.com Lead Delivery | 300 S Riverside Plaza, Chicago, IL 60606\nYou receive this because Coastal Honda subscribes to Cars.com leads. Manage lead routing in Dealer Center.\n`;
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#222">
<table width="100%" cellpadding="0" cellspacing="0" style="max-width:640px;margin:auto;border:1px solid #ddd">
<tr><td style="background:#4b1e78;color:#fff;padding:16px;font-size:20px">New lead from Cars.com</td></tr>
<tr><td style="padding:16px"><p>A shopper asked about a vehicle at <b>Coastal Honda</b>.</p>
<table cellpadding="4" style="border-collapse:collapse;font-size:14px">
<tr><td style="color:#666">Customer</td><td>Pat Mailbench${i}</td></tr>
<tr><td style="color:#666">E-mail</td><td>pat.mailbench${i}@example.com</td></tr>
<tr><td style="color:#666">Vehicle</td><td>2022 Honda CR-V EX-L, stock U${4000 + i}</td></tr>
<tr><td style="color:#666">Comments</td><td>Is the silver one still available? I could come Saturday morning.</td></tr>
</table><p style="font-size:12px;color:#888">Respond within 15 minutes for the best chance to close this lead.</p></td></tr>
<tr><td style="padding:16px;font-size:11px;color:#999;border-top:1px solid #eee">Cars.com Lead Delivery | 300 S Riverside Plaza, Chicago, IL 60606</td></tr>
</table></body></html>`;
  const adf = adfOf(i);
  return {
    from: 'Cars.com Leads <leads@cars.example>',
    to: TO,
    subject: `New lead: 2022 Honda CR-V EX-L – Pat Mailbench${i}`,
    messageId: `<bench.${i}.${Date.now()}@cars.example>`,
    headers: { 'X-Mailer': 'LeadDelivery 4.2', 'List-Unsubscribe': '<https://www.cars.example/unsubscribe>' },
    text: i % 2 ? `${intro}The lead is attached in ADF.\n${footer}` : `${intro}\n${adf}${footer}`,
    html,
    attachments: i % 2 ? [{ filename: 'lead.xml', contentType: 'application/xml', content: adf }] : [],
  };
}

/** A zip whose entries each inflate to 64 MB of zeros (never checked: archives are not opened), about `bytes` in all. */
function zipBomb(bytes: number) {
  const zeros = zlib.deflateRawSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (let n = 0; offset + zeros.length + 100 < bytes; n++) {
    const name = Buffer.from(`leads-${n}.xml`);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(zeros.length, 18);
    local.writeUInt32LE(64 * 1024 * 1024, 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(zeros.length, 20);
    dir.writeUInt32LE(64 * 1024 * 1024, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    parts.push(local, name, zeros);
    central.push(dir, name);
    offset += local.length + name.length + zeros.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length / 2, 8);
  end.writeUInt16LE(central.length / 2, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cd, end]);
}

const head = (kind: string, type: string) =>
  [
    'From: attacker <x@evil.example>',
    `To: ${TO}`,
    `Subject: lead ${kind}`,
    'Date: Tue, 03 Jun 2025 14:00:00 -0400',
    'MIME-Version: 1.0',
    `Content-Type: ${type}`,
  ].join(CRLF);

/**
 * The hostile client's mail, each a body under a header block that gets its own Message-ID at
 * every send: 10 MB + 1 byte (refused 552), a 9 MB zip bomb (64 MB of zeros per entry) as
 * base64, a billion-laughs ADF in the body, a 9 MB HTML part full of `&lt;adf&gt;` fragments, and
 * small mails with no lead (four of every eight sends).
 */
function hostileMails() {
  const laughs = [
    '<?xml version="1.0"?>',
    '<!DOCTYPE adf [',
    '  <!ENTITY lol "lol">',
    ...Array.from({ length: 9 }, (_, k) => `  <!ENTITY lol${k + 1} "${`&lol${k || ''};`.repeat(10)}">`),
    ']>',
    '<adf><prospect><customer><contact><name part="full">&lol9;</name></contact></customer></prospect></adf>',
  ].join(CRLF);
  const fragment = '&lt;adf&gt;&lt;prospect&gt;&lt;customer&gt;&lt;contact&gt;&lt;name part="full"&gt;x&lt;/name&gt;<br>&lt;?xml ';
  const zip = wrap(zipBomb(6_900_000).toString('base64'));
  const mails: [string, string, string][] = [
    ['over', 'text/plain; charset=us-ascii', ''],
    [
      'zip',
      'multipart/mixed; boundary="b1"',
      [
        '--b1',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Leads attached.',
        '--b1',
        'Content-Type: application/zip; name="leads.zip"',
        'Content-Disposition: attachment; filename="leads.zip"',
        'Content-Transfer-Encoding: base64',
        '',
        zip,
        '--b1--',
      ].join(CRLF),
    ],
    ['laughs', 'text/plain; charset=us-ascii', laughs],
    [
      'html',
      'text/html; charset=us-ascii',
      wrap(fragment.repeat(Math.ceil(9_000_000 / fragment.length)))
        .slice(0, 9_000_000)
        .trimEnd(),
    ],
    ...Array.from({ length: 4 }, (): [string, string, string] => ['small', 'text/plain; charset=us-ascii', 'Call me about the blue one. Thanks!']),
  ];
  return mails.map(([kind, type, body]) => {
    const top = Buffer.from(`${head(kind, type)}${CRLF}`, 'latin1');
    // The message one byte too big: MAX_MAIL + 1 bytes with its Message-ID line and the final CRLF.
    const size = kind === 'over' ? MAX_MAIL + 1 - top.length - ID_LEN - 2 * CRLF.length : 0;
    const text = kind === 'over' ? wrap('x'.repeat(size)).slice(0, size).replace(/\r$/, 'x') : body;
    return { kind, top, rest: Buffer.from(`${CRLF}${text}${CRLF}`, 'latin1') };
  });
}

/** A Message-ID line of the hostile client's, ID_LEN bytes with its CRLF: each send its own. */
const ID_LEN = 53;
const messageId = (n: number) => `Message-ID: <h${String(n).padStart(8, '0')}.${String(Date.now()).padStart(14, '0')}@evil.example>${CRLF}`;
/** A hostile mail's parts as sent, its built body never copied: the client's own work must not weigh on the two cores it shares with the server. */
const hostileRaw = (m: ReturnType<typeof hostileMails>[number], n: number) => [m.top, Buffer.from(messageId(n), 'latin1'), m.rest];

/**
 * A bare SMTP client on one connection: it sends DATA however big (no SIZE= that would let the
 * server refuse up front), and each message's answer code.
 */
async function smtpClient(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let buf = '';
  let waiting: ((code: number) => void) | null = null;
  let closed = false;
  socket.setEncoding('latin1');
  socket.on('data', (d: string) => {
    buf += d;
    for (;;) {
      const m = /^(\d{3}) .*\r?\n/m.exec(buf);
      if (!m) break;
      buf = buf.slice(m.index + m[0].length);
      const w = waiting;
      waiting = null;
      w?.(Number(m[1]));
    }
  });
  const gone = () => {
    closed = true;
    waiting?.(0);
    waiting = null;
  };
  socket.on('close', gone);
  socket.on('error', gone);
  const answer = () => new Promise<number>((r) => (closed ? r(0) : (waiting = r)));
  const cmd = (line: string | Buffer) => {
    const a = answer();
    if (!closed) socket.write(line);
    return a;
  };
  const greeting = await answer();
  if (greeting === 220) await cmd(`EHLO evil.example${CRLF}`);
  return {
    greeting,
    closed: () => closed,
    /** One message; the first refusal's code, else the answer to its DATA. */
    async send(raw: Buffer[]) {
      const from = await cmd(`MAIL FROM:<x@evil.example>${CRLF}`);
      if (from !== 250) return from;
      const to = await cmd(`RCPT TO:<${TO}>${CRLF}`);
      if (to !== 250) {
        await cmd(`RSET${CRLF}`);
        return to;
      }
      const data = await cmd(`DATA${CRLF}`);
      if (data !== 354) return data;
      const a = answer();
      socket.cork();
      for (const b of [...raw, Buffer.from(`.${CRLF}`)]) if (!closed) socket.write(b);
      socket.uncork();
      return a;
    },
    end: () => socket.destroy(),
  };
}

/** A server with the receiver on, its database seeded; `perMinute` unset: the receiver's default rate. */
async function mailServer(perMinute?: number) {
  const dbh = await freshDb('sqlite');
  const { cookie } = await seed(dbh);
  await dbh.release();
  const smtpPort = await freePort();
  const server = await startServer({
    DATA_DIR: dbh.dir,
    INBOUND_SMTP_PORT: String(smtpPort),
    INBOUND_SMTP_HOST: '127.0.0.1',
    INBOUND_ADDRESSES: TO,
    ...(perMinute ? { INBOUND_SMTP_PER_MINUTE: String(perMinute) } : {}),
  });
  // The server's database, read alongside it (SQLite in WAL mode): the leads and the mail.
  const db = await openDb({ dataDir: dbh.dir });
  return {
    ...server,
    smtpPort,
    cookie,
    db: db.db,
    async close() {
      await db.close();
      await server.stop();
      await dbh.drop();
    },
  };
}

type Server = Awaited<ReturnType<typeof mailServer>>;

/** The bench leads made so far: by number, when each was assigned (ms since the epoch). */
async function benchLeads(s: Server) {
  const rows = await s.db.selectFrom('leads').select(['customer', 'assigned_at', 'assigned_to']).where('customer', 'like', 'Pat Mailbench%').execute();
  return new Map(rows.map((r) => [Number(/Mailbench(\d+)/.exec(r.customer)?.[1]), { at: Number(r.assigned_at), to: r.assigned_to }]));
}

/** Waits until leads `from`..`to`-1 are all made (at most `ms`); the leads. */
async function leadsMade(s: Server, from: number, to: number, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    const made = await benchLeads(s);
    let n = 0;
    for (let i = from; i < to; i++) if (made.has(i)) n++;
    if (n === to - from || Date.now() > deadline) return { made, missing: to - from - n };
    await sleep(100);
  }
}

/** Waits until the server has read every stored mail (at most `ms`). */
async function drained(s: Server, ms: number) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && (await s.db.selectFrom('mail_messages').select('id').where('state', '=', 'received').executeTakeFirst())) await sleep(100);
}

/** MAIL_LEADS provider mails over nodemailer's pool as fast as it sends: SMTP answer and lead assigned, per mail. */
async function intakeBench(): Promise<Results> {
  const s = await mailServer(600_000);
  const smtp = nodemailer.createTransport({
    host: '127.0.0.1',
    port: s.smtpPort,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: MAIL_POOL,
    maxMessages: Infinity,
  });
  const sizes: number[] = [];
  const sendRange = async (from: number, to: number) => {
    const sentAt = new Map<number, number>();
    const smtpMs: number[] = [];
    let next = from;
    let failed = 0;
    // Composed before the clock starts: the sender's own MIME building shares the two cores with the server.
    const raws = new Map<number, Buffer>();
    for (let i = from; i < to; i++) raws.set(i, (await compose.sendMail(providerMail(i))).message as Buffer);
    await Promise.all(
      Array.from({ length: MAIL_POOL }, async () => {
        while (next < to) {
          const i = next++;
          const mail = { envelope: { from: 'leads@cars.example', to: [TO] }, raw: raws.get(i) };
          const t0 = performance.now();
          sentAt.set(i, Date.now());
          try {
            await smtp.sendMail(mail);
            smtpMs.push(performance.now() - t0);
          } catch (err) {
            failed++;
            say(`[mail] mail ${i} refused: ${(err as Error).message}`);
          }
        }
      }),
    );
    return { sentAt, smtpMs, failed };
  };
  // A mail as sent (nodemailer's own composition), and its size.
  const compose = nodemailer.createTransport({ streamTransport: true, buffer: true });
  for (let i = 0; i < 10; i++) sizes.push(((await compose.sendMail(providerMail(i))).message as Buffer).length);
  say(`[mail] warming up: ${WARM_UP} lead mails…`);
  await sendRange(WARM_FROM, WARM_FROM + WARM_UP);
  await leadsMade(s, WARM_FROM, WARM_FROM + WARM_UP, 30_000);
  say(`[mail] ${MAIL_LEADS} lead mails (~${round(pct(sizes, 50) / 1024)} kB each), ${MAIL_POOL} connections, as fast as they go…`);
  const { sentAt, smtpMs, failed } = await sendRange(0, MAIL_LEADS);
  const sendEnd = Date.now();
  const { made, missing } = await leadsMade(s, 0, MAIL_LEADS, 120_000);
  smtp.close();
  const lat: number[] = [];
  let unassigned = 0;
  let last = 0;
  for (const [i, sent] of sentAt) {
    const lead = made.get(i);
    if (!lead) continue;
    if (!lead.to) unassigned++;
    lat.push(lead.at - sent);
    last = Math.max(last, lead.at);
  }
  const first = Math.min(...sentAt.values());
  const states = await s.db
    .selectFrom('mail_messages')
    .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('state')
    .execute();
  say(
    `[mail] sent in ${round((sendEnd - first) / 1000, 2)} s (${round(MAIL_LEADS / ((sendEnd - first) / 1000))}/s by SMTP), last lead ${round((last - first) / 1000, 2)} s after the first send; ${missing} leads missing, ${failed} refused, ${unassigned} unassigned; mail ${JSON.stringify(Object.fromEntries(states.map((r) => [r.state, Number(r.n)])))}`,
  );
  await s.close();
  return {
    mail_intake_rps: round(lat.length / ((last - first) / 1000)),
    mail_intake_p50_ms: round(pct(lat, 50)),
    mail_intake_p95_ms: round(pct(lat, 95)),
    mail_smtp_p95_ms: round(pct(smtpMs, 95), 2),
  };
}

/** How the hostile client's sends were answered: SMTP codes by kind of mail. */
export type Codes = Record<string, Record<number, number>>;

/** One client sending hostile mail on MAIL_ATTACKERS connections as fast as the receiver lets it, until `stopped`; `ready` once its mail is built. */
export async function attack(port: number, stopped: () => boolean, ready: () => void): Promise<Codes> {
  const mails = hostileMails();
  ready();
  const codes: Codes = {};
  const count = (kind: string, code: number) => {
    codes[kind] ??= {};
    codes[kind][code] = (codes[kind][code] ?? 0) + 1;
  };
  let n = 0;
  const attacker = async (a: number) => {
    let c = await smtpClient(port);
    let k = a;
    while (!stopped()) {
      if (c.closed() || c.greeting !== 220) {
        count('connect', c.greeting);
        c.end();
        await sleep(200);
        c = await smtpClient(port);
        continue;
      }
      const m = mails[k++ % mails.length];
      const raw = hostileRaw(m, n++);
      const size = raw.reduce((t, b) => t + b.length, 0);
      if (m.kind === 'over' && size !== MAX_MAIL + 1) throw new Error(`the mail one byte too big is ${size} bytes`);
      const code = await c.send(raw);
      count(m.kind, code);
      // 450: over the rate; it says when to try again: wait that, at most a second, as a sender would.
      if (code === 450) await sleep(1000);
    }
    c.end();
  };
  await Promise.all(Array.from({ length: MAIL_ATTACKERS }, (_, a) => attacker(a)));
  return codes;
}

/** Other users' latency alone, then while one client sends hostile mail on MAIL_ATTACKERS connections as fast as the receiver lets it. */
async function attackBench(): Promise<Results> {
  const s = await mailServer();
  const mails = hostileMails();
  // Warm: the routes, the receiver, the reader's thread (one small mail and the laughs).
  const warmClient = await smtpClient(s.smtpPort);
  for (const [i, m] of mails.slice(2, 5).entries()) await warmClient.send(hostileRaw(m, 90_000_000 + i));
  warmClient.end();
  // The rotation route warm (a server just started answers its first seconds slowly): one round of readers, not counted.
  await openLoopReaders(s.port, s.cookie);
  // The warm-up's mail read (the 9 MB HTML takes a while): the baseline is a quiet server.
  await drained(s, 60_000);
  await sleep(500);
  say(`[mail] other users alone, ${SECONDS} s…`);
  const alone = await openLoopReaders(s.port, s.cookie);
  say(`[mail] other users while one client sends hostile mail on ${MAIL_ATTACKERS} connections (default rate), ${SECONDS} s…`);
  // The hostile client in a process of its own: building and sending 10 MB messages must not hold
  // up the event loop that times the other users.
  const attackStart = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./mail-attack.ts', import.meta.url)), String(s.smtpPort)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  // Its first line: ready (its mail built); its last: the answers.
  await lines.next();
  const attacked = await openLoopReaders(s.port, s.cookie);
  child.stdin.end('stop\n');
  const codes = JSON.parse(String((await lines.next()).value)) as Codes;
  say(`[mail] answers to the hostile client by mail: ${JSON.stringify(codes)}`);
  // What the reader made of it, and how long the stored hostile mail took to read.
  const drainStart = Date.now();
  await drained(s, 120_000);
  const rows = await s.db
    .selectFrom('mail_messages')
    .select(['state', 'size', 'received_at', 'done_at', 'subject'])
    .where('received_at', '>=', attackStart)
    .execute();
  const byState: Record<string, number> = {};
  for (const r of rows) byState[r.state] = (byState[r.state] ?? 0) + 1;
  const big = rows.filter((r) => Number(r.size) > 1_000_000 && r.done_at);
  say(
    `[mail] stored ${rows.length} hostile mails (${round(rows.reduce((t, r) => t + Number(r.size), 0) / 2 ** 20)} MB), read to ${JSON.stringify(byState)}; backlog read ${round((Date.now() - drainStart) / 1000, 1)} s after the attack; big mails stored→read p50 ${round(
      pct(
        big.map((r) => Number(r.done_at) - Number(r.received_at)),
        50,
      ) / 1000,
      1,
    )} s`,
  );
  await s.close();
  return {
    mail_others_alone_p99_ms: round(alone.p99, 2),
    mail_others_attacked_p99_ms: round(attacked.p99, 2),
    mail_others_attacked_max_ms: round(attacked.max, 2),
  };
}

export async function mailBench(): Promise<Results> {
  return { ...(await intakeBench()), ...(await attackBench()) };
}
