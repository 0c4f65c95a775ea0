import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../test/harness';

const LEADS = 'leads@dealer.test';

type Reply = { code: number; text: string };
/** Every socket a test opened, ended after it whatever became of it. */
const opened: net.Socket[] = [];

/**
 * An SMTP client on a socket of its own, as an attacker writes one: `send` writes what it is given,
 * `reply` waits for the server's next whole reply (null once the connection has closed).
 */
function dial(port: number, localAddress = '127.0.0.1') {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress });
  opened.push(socket);
  const replies: (Reply | null)[] = [];
  const waiting: ((r: Reply | null) => void)[] = [];
  const give = (r: Reply | null) => (waiting.length ? waiting.shift()!(r) : replies.push(r));
  let buffer = '';
  let lines: string[] = [];
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    let at: number;
    while ((at = buffer.indexOf('\r\n')) >= 0) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 2);
      lines.push(line.slice(4));
      if (line[3] !== '-') {
        give({ code: Number(line.slice(0, 3)), text: lines.join(' ') });
        lines = [];
      }
    }
  });
  // The server may end the connection while the client still writes: that is what is tried.
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  void closed.then(() => give(null));
  return {
    send: (s: string) => socket.writable && socket.write(s),
    reply: () => {
      if (replies.length) return Promise.resolve(replies.shift()!);
      return new Promise<Reply | null>((resolve, reject) => {
        // A guard, not a measure: without a deadline today's receiver answers nothing for a minute.
        const timer = setTimeout(() => reject(new Error('the receiver answered nothing within 5 s')), 5000);
        waiting.push((r) => {
          clearTimeout(timer);
          resolve(r);
        });
      });
    },
    closed,
    end: () => socket.destroy(),
  };
}
type Client = ReturnType<typeof dial>;

/** Says a line and reads the answer. */
const say = async (c: Client, line: string) => {
  c.send(`${line}\r\n`);
  return c.reply();
};

/** Greeted, then up to DATA for a lead address. */
async function toData(c: Client) {
  expect((await c.reply())?.code).toBe(220);
  for (const [line, code] of [
    ['EHLO attacker.example', 250],
    ['MAIL FROM:<a@attacker.example>', 250],
    [`RCPT TO:<${LEADS}>`, 250],
    ['DATA', 354],
  ] as const)
    expect(await say(c, line)).toMatchObject({ code });
}

/** Sends `what` every 50 ms until the server answers: the answer. */
async function trickle(c: Client, what: string) {
  c.send(what);
  const timer = setInterval(() => c.send(what), 50);
  try {
    return await c.reply();
  } finally {
    clearInterval(timer);
  }
}

/**
 * The receiver's deadlines, tried over real sockets with limits of a second or less: a session
 * of 1.2 s, a DATA phase of 0.6 s, at least 1000 bytes a second after a grace of 0.2 s. On SQLite
 * only: nothing here touches the database but to show that nothing was stored.
 */
describe('the lead mail receiver cannot be held', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await testApp('sqlite', {
      INBOUND_SMTP_PORT: '0',
      INBOUND_SMTP_HOST: '127.0.0.1',
      INBOUND_ADDRESSES: LEADS,
      INBOUND_SMTP_SESSION_MINUTES: '0.02',
      INBOUND_SMTP_DATA_MINUTES: '0.01',
      INBOUND_SMTP_MIN_BYTES_PER_SECOND: '1000',
      INBOUND_SMTP_RATE_GRACE_SECONDS: '0.2',
    });
    port = t.app.mailIn.receiverPort()!;
  });
  afterEach(() => {
    for (const s of opened.splice(0)) s.destroy();
  });
  afterAll(() => t?.close());

  /** The Message-IDs of what was stored, after a good mail on a connection of its own (its 250 comes once it is stored). */
  async function storedAfterAGoodMail() {
    const c = dial(port);
    await toData(c);
    expect(await say(c, 'Message-ID: <after@provider.example>\r\nSubject: After\r\n\r\nHello\r\n.')).toMatchObject({ code: 250 });
    c.end();
    return (await t.db.selectFrom('mail_messages').select('message_key').orderBy('id').execute()).map((m) => m.message_key);
  }

  it('cuts off a message that trickles in a byte at a time (421) and stores nothing of it', async () => {
    await t.db.deleteFrom('mail_messages').execute();
    const c = dial(port);
    await toData(c);
    c.send('Message-ID: <slow@attacker.example>\r\nSubject: Slow\r\n\r\n');
    expect(await trickle(c, 'x')).toEqual({ code: 421, text: expect.stringMatching(/slower than 1000 bytes a second; it was not taken/) });
    await c.closed;
    expect(await storedAfterAGoodMail()).toEqual(['id:after@provider.example']);
  });

  it('cuts off a message that comes fast enough but for longer than the DATA phase may last (421), and stores nothing of it', async () => {
    await t.db.deleteFrom('mail_messages').execute();
    const c = dial(port);
    await toData(c);
    c.send('Message-ID: <long@attacker.example>\r\nSubject: Long\r\n\r\n');
    expect(await trickle(c, `${'x'.repeat(998)}\r\n`)).toEqual({ code: 421, text: expect.stringMatching(/longer than 0\.6 s to send; it was not taken/) });
    await c.closed;
    expect(await storedAfterAGoodMail()).toEqual(['id:after@provider.example']);
  });

  it('closes a connection open longer than a session may last (421), however busy it keeps', async () => {
    const c = dial(port);
    expect((await c.reply())?.code).toBe(220);
    expect(await say(c, 'EHLO attacker.example')).toMatchObject({ code: 250 });
    // A guard, not a measure: today's receiver would answer NOOPs without end.
    const guard = Date.now() + 5000;
    let r: Reply | null;
    do r = await trickle(c, 'NOOP\r\n');
    while (r?.code === 250 && Date.now() < guard);
    expect(r).toEqual({ code: 421, text: expect.stringMatching(/open for 1\.2 s, the longest a connection may; connect again to send more/) });
    await c.closed;
  });

  it('counts connections per client: the 11th and every later one is refused while ten are open; another client is not', async () => {
    const held = Array.from({ length: 10 }, () => dial(port));
    for (const c of held) expect((await c.reply())?.code).toBe(220);
    for (let i = 0; i < 2; i++) {
      const over = dial(port);
      expect(await over.reply()).toEqual({ code: 421, text: expect.stringMatching(/^Too many connections from 127\.0\.0\.1;/) });
      await over.closed;
    }
    expect((await dial(port, '127.0.0.2').reply())?.code).toBe(220);
  });
});
