import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../http/errors';
import { FIXTURES } from './fixtures/expected';
import { createIntakeParser, IntakeBusy, readsByThread, type IntakeParser } from './parser';
import { readDocument } from './read';

const dir = path.join(import.meta.dirname, 'fixtures');
const ADF = (name: string) => `<adf><prospect><customer><contact><name part="full">${name}</name></contact></customer></prospect></adf>`;
const bytes = (s: string) => Buffer.from(s);

/** What the route would answer: the document read, or the refusal's status, message and code. */
async function outcome(read: () => unknown) {
  try {
    return { ok: await read() };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { status: err.status, message: err.message, code: err.code };
  }
}

/**
 * A worker that crashes or hangs on command and reads everything else with the real worker:
 * "CRASH" in a document ends its thread (as a fault in the parser or the platform would), "SPIN"
 * keeps it busy for a minute. `startMs`: how long each of its threads takes to start.
 */
function unrulyWorker(startMs = 0) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-worker-'));
  const file = path.join(folder, 'unruly.ts');
  const real = pathToFileURL(path.join(import.meta.dirname, 'worker.ts')).href;
  fs.writeFileSync(
    file,
    `import read from '${real}';
for (const started = Date.now() + ${startMs}; Date.now() < started; );
export default function unruly(task: { kind: string; bytes: Uint8Array; contentType: string }) {
  if (task.kind === 'ready') return read(task);
  const text = Buffer.from(task.bytes).toString('latin1');
  if (text.includes('CRASH')) process.exit(7);
  if (text.includes('SPIN')) for (const end = Date.now() + 60_000; Date.now() < end; );
  return read(task);
}
`,
  );
  return { url: pathToFileURL(file), remove: () => fs.rmSync(folder, { recursive: true, force: true }) };
}

describe('intake documents are read on a worker thread', () => {
  let parser: IntakeParser;
  beforeAll(() => {
    parser = createIntakeParser();
  });
  afterAll(() => parser.close());

  it('reads every fixture on a worker exactly as the reader does on its own, refusals included', async () => {
    const before = new Map(readsByThread);
    const cases: [string, Buffer, string][] = Object.entries(FIXTURES).map(([f, want]) => [f, fs.readFileSync(path.join(dir, f)), want.contentType]);
    cases.push(
      ['not XML as text/plain', bytes('Jane Doe, 555-0100'), 'text/plain'],
      ['a DOCTYPE', bytes(`<!DOCTYPE adf>${ADF('A')}`), 'application/xml'],
      ['broken UTF-8', Buffer.concat([bytes(ADF('A')), Buffer.from([0xff])]), 'application/xml'],
      ['an encoding we do not read', bytes(ADF('A')), 'application/xml; charset=koi8-r'],
      ['not well-formed', bytes('<adf>\n<prospect></adf>'), 'application/xml'],
      ['too deep', bytes(`<adf><prospect>${'<x>'.repeat(5000)}${'</x>'.repeat(5000)}</prospect></adf>`), 'application/xml'],
      ['too many bare ampersands', bytes(`<adf><prospect>${`<c>${'& '.repeat(15_000)}</c>`.repeat(30)}</prospect></adf>`), 'application/xml'],
    );
    for (const [label, body, type] of cases) {
      // A copy: the parser hands the bytes it is given over to the worker.
      expect(await outcome(() => parser.read(Buffer.from(body), type)), label).toEqual(await outcome(() => readDocument(body, type)));
    }
    const added = [...readsByThread].map(([thread, n]) => [thread, n - (before.get(thread) ?? 0)]).filter(([, n]) => n > 0);
    expect(added.map(([, n]) => n).reduce((a, b) => a + b, 0)).toBe(cases.length);
    // Never the main thread (0), and not the thread this test runs on.
    expect(added.map(([thread]) => thread)).not.toContain(0);
  });

  it('hands a large body over to the worker rather than copying it, and copies a small one that shares memory', async () => {
    const large = bytes(ADF('x'.repeat(10_000)));
    await parser.read(large, 'application/xml');
    expect(large.byteLength).toBe(0);
    const pool = Buffer.from(ADF('Pooled')); // small: a slice of Node's shared pool
    expect(pool.buffer.byteLength).toBeGreaterThan(pool.byteLength);
    await parser.read(pool, 'application/xml');
    expect(pool.toString()).toBe(ADF('Pooled'));
  });

  it('refuses a document that would grow past 1 MB once its bare "&" are escaped, with a 413 that says so', async () => {
    const r = await outcome(() => parser.read(bytes(`<adf><prospect>${`<c>${'& '.repeat(15_000)}</c>`.repeat(30)}</prospect></adf>`), 'application/xml'));
    expect(r).toMatchObject({ status: 413, code: 'too_large', message: expect.stringMatching(/bare "&".*max 1,048,576 characters/) });
  });
});

describe('the worker pool survives what a document does to it', () => {
  let unruly: ReturnType<typeof unrulyWorker>;
  beforeAll(() => {
    unruly = unrulyWorker();
  });
  afterAll(() => unruly.remove());

  it('answers a document whose worker crashed with a 400, and reads the next one on a new worker', async () => {
    const parser = createIntakeParser({ file: unruly.url });
    try {
      expect((await parser.read(bytes(ADF('Before Crash')), 'application/xml')).prospects[0].customer).toBe('Before Crash');
      expect(await outcome(() => parser.read(bytes(ADF('CRASH')), 'application/xml'))).toEqual({
        status: 400,
        message: expect.stringMatching(/^The XML could not be read: the reader stopped on this document \(.*exited with code: 7/),
        code: undefined,
      });
      for (const name of ['After One', 'After Two']) expect((await parser.read(bytes(ADF(name)), 'application/xml')).prospects[0].customer).toBe(name);
      // And again: each crash costs its own document only.
      expect(await outcome(() => parser.read(bytes(ADF('CRASH')), 'application/xml'))).toMatchObject({ status: 400 });
      expect((await parser.read(bytes(ADF('After Three')), 'application/xml')).prospects[0].customer).toBe('After Three');
    } finally {
      await parser.close();
    }
  });

  it('ends a worker that overruns its budget, answers 400, and reads on', async () => {
    const parser = createIntakeParser({ file: unruly.url, budgetMs: 3000 });
    try {
      await parser.read(bytes(ADF('Warm')), 'application/xml');
      expect(await outcome(() => parser.read(bytes(ADF('SPIN')), 'application/xml'))).toEqual({
        status: 400,
        message: 'The document took too long to read (over 3 s). Send a smaller or simpler document.',
        code: undefined,
      });
      expect((await parser.read(bytes(ADF('After Spin')), 'application/xml')).prospects[0].customer).toBe('After Spin');
    } finally {
      await parser.close();
    }
  });

  it("does not count a worker's start in a document's budget: after a start and after a replacement", async () => {
    const slow = unrulyWorker(2500);
    const parser = createIntakeParser({ file: slow.url, budgetMs: 1500 });
    try {
      expect((await parser.read(bytes(ADF('First')), 'application/xml')).prospects[0].customer).toBe('First');
      expect(await outcome(() => parser.read(bytes(ADF('SPIN')), 'application/xml'))).toMatchObject({
        status: 400,
        message: expect.stringMatching(/took too long/),
      });
      // Its successor takes 2.5 s to start, longer than a document's budget.
      expect((await parser.read(bytes(ADF('After Spin')), 'application/xml')).prospects[0].customer).toBe('After Spin');
    } finally {
      await parser.close();
      slow.remove();
    }
  });

  it('lets a bounded number of documents wait; past it, 503 with a time to come back', async () => {
    const parser = createIntakeParser({ file: unruly.url, threads: 1, queuePerThread: 2, budgetMs: 3000 });
    try {
      // One is read (and spins), two wait, the fourth and fifth are turned away at once.
      const sent = [ADF('SPIN'), ADF('Waits One'), ADF('Waits Two'), ADF('Turned Away'), ADF('Turned Away Too')].map((doc) =>
        outcome(() => parser.read(bytes(doc), 'application/xml')),
      );
      const [spun, one, two, away, tooAway] = await Promise.all(sent);
      expect(spun).toMatchObject({ status: 400 });
      expect([one, two].map((r) => (r as { ok: { prospects: { customer: string }[] } }).ok.prospects[0].customer)).toEqual(['Waits One', 'Waits Two']);
      for (const r of [away, tooAway]) expect(r).toEqual({ status: 503, code: 'intake_busy', message: new IntakeBusy().message });
      expect(new IntakeBusy().retryAfter).toBeGreaterThan(0);
      // Nothing is left waiting or counted: the pool takes documents as before.
      expect((await parser.read(bytes(ADF('Later')), 'application/xml')).prospects[0].customer).toBe('Later');
    } finally {
      await parser.close();
    }
  });

  it('refuses to start without its worker (a build that left it out)', () => {
    expect(() => createIntakeParser({ file: pathToFileURL(path.join(os.tmpdir(), 'no-such-worker.js')) })).toThrow(/worker is missing/);
  });
});
