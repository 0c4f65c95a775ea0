import { threadId } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { readsByThread } from './parser';

const T0 = 1_800_000_000_000;
const HEAD = '<adf><prospect><customer><contact><name part="full">Worst Case</name></contact></customer>';
const attrs = (n: number) => Array.from({ length: n }, (_, i) => `a${i}="x"`).join(' ');

/** The worst documents one key can send, each near 1 MB, and what each must be answered. */
const WORST: { name: string; body: string; status: number; error?: RegExp }[] = [
  {
    // ~900 kB of bare "& " in elements under the text limit: read as "&amp;" it would be 2.8 MB.
    name: 'ampersands',
    body: `${HEAD}${`<c>${'& '.repeat(15_000)}</c>`.repeat(30)}</prospect></adf>`,
    status: 413,
    error: /bare "&" characters are read as "&amp;"/,
  },
  {
    name: 'deep nesting',
    body: `<adf><prospect>${'<x>'.repeat(140_000)}${'</x>'.repeat(140_000)}</prospect></adf>`,
    status: 400,
    error: /nested too deeply/,
  },
  {
    // Just inside every limit: 2,994 elements, 1,991 attributes, 1 MB less a little.
    name: 'largest accepted',
    body: `${HEAD}${`<x ${attrs(10)}>${'q'.repeat(150)}</x>`.repeat(199)}${`<y>${'q'.repeat(340)}</y>`.repeat(2790)}</prospect></adf>`,
    status: 201,
  },
  { name: '90,000 attributes', body: `<adf><prospect><id ${attrs(90_000)}>1</id></prospect></adf>`, status: 400, error: /too many attributes/ },
];

/**
 * One API key sends its worst documents at its full allowance (the burst of 10 and two more at
 * once, then each second one more than it may) while a manager keeps reading the rotation. No
 * time is measured: what must hold is where the documents are read and what everyone is answered.
 */
describe.each(DIALECTS)('one key sending its worst documents does not stall anyone on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let key: string;
  let base: string;
  let now = T0;
  beforeAll(async () => {
    t = await testApp(dialect, {}, { intakeClock: () => now });
    // Over real sockets, as senders and managers reach it.
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    boss = await t.signIn(MANAGER);
    await insertUser(t.db, { email: 'hostile.load.rep@dealer.test', name: 'Load Rep', onDuty: true });
    key = (await t.app.inject({ method: 'POST', url: '/api/integrations/keys', headers: { cookie: boss }, payload: { name: 'Hostile feed' } })).json().key;
  });
  afterAll(() => t.close());

  it('reads every document on a worker thread; the manager is answered throughout; the key gets 429 past its burst; nothing is a 5xx', async () => {
    for (const d of WORST) expect(Buffer.byteLength(d.body), d.name).toBeLessThan(1024 * 1024);
    const before = new Map(readsByThread);
    const answers: { doc: (typeof WORST)[number]; status: number; error: string }[] = [];
    const manager: { status: number; beforeLastIntakeAnswer: boolean }[] = [];
    let sent = 0;
    // Three rounds: at T0 twelve at once (the burst is 10), then each second two at once (one token came back).
    for (const [round, count] of [12, 2, 2].entries()) {
      now = T0 + round * 1000;
      let pending = count;
      const posts = Array.from({ length: count }, () => {
        const doc = WORST[sent++ % WORST.length];
        return fetch(`${base}/api/v1/leads`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/x-adf+xml' }, body: doc.body })
          .then(async (r) => answers.push({ doc, status: r.status, error: ((await r.json()) as { error?: string }).error ?? '' }))
          .finally(() => pending--);
      });
      // The manager keeps asking, one after another, for as long as any document of this round is unanswered.
      const asking = (async () => {
        while (pending > 0) {
          const r = await fetch(`${base}/api/rotation`, { headers: { cookie: boss } });
          await r.arrayBuffer();
          manager.push({ status: r.status, beforeLastIntakeAnswer: pending > 0 });
        }
      })();
      await Promise.all([...posts, asking]);
    }

    // The attacker: 10 + 1 + 1 documents let through, the rest 429; each let through answered as that document must be.
    expect(answers).toHaveLength(16);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(4);
    const read = answers.filter((a) => a.status !== 429);
    expect(read).toHaveLength(12);
    for (const a of read) {
      expect(a.status, `${a.doc.name}: ${a.error}`).toBe(a.doc.status);
      if (a.doc.error) expect(a.error, a.doc.name).toMatch(a.doc.error);
    }
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    const accepted = read.filter((a) => a.status === 201).length;
    expect(await t.db.selectFrom('leads').select('id').execute()).toHaveLength(accepted);

    // Every document let through was read on a worker thread: none on the main thread (0), none on this one.
    const readHere = [...readsByThread].map(([thread, n]) => [thread, n - (before.get(thread) ?? 0)] as const).filter(([, n]) => n > 0);
    expect(readHere.reduce((sum, [, n]) => sum + n, 0)).toBe(12);
    for (const [thread] of readHere) expect([0, threadId]).not.toContain(thread);

    // The manager was answered all along, 200 each time, and again and again while documents were still unanswered.
    expect(manager.filter((m) => m.status !== 200)).toEqual([]);
    expect(manager.filter((m) => m.beforeLastIntakeAnswer).length).toBeGreaterThanOrEqual(3);
  }, 60_000);
});
