import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '../test/harness';
import { take, takeToken, tokenInterval, type Bucket } from './limits';

const INTAKE: Bucket = { burst: 10, perMinute: 60 };
const T0 = 1_800_000_000_000;

/** Takes a token at each time in turn, from a bucket never used. */
function run(b: Bucket, times: number[]) {
  let fullAt: number | null = null;
  return times.map((now) => {
    const r = takeToken(fullAt, now, b);
    fullAt = r.fullAt;
    return r;
  });
}

describe('the token bucket (burst, then the rate)', () => {
  it('lets a burst of 10 through at once, refuses the 11th and says the next token comes in a second', () => {
    const r = run(INTAKE, Array<number>(11).fill(T0));
    expect(r.map((x) => x.allowed)).toEqual([...Array<boolean>(10).fill(true), false]);
    expect(r.map((x) => x.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0]);
    expect(r[10].retryAfterMs).toBe(1000);
    expect(r[9].fullAt).toBe(T0 + 10_000);
  });

  it('gives back one token a second after the burst, and never more than the burst', () => {
    const b = INTAKE;
    let fullAt: number | null = null;
    for (let i = 0; i < 10; i++) fullAt = takeToken(fullAt, T0, b).fullAt;
    // 999 ms later there is still no whole token; at 1,000 ms there is one, and only one.
    expect(takeToken(fullAt, T0 + 999, b)).toMatchObject({ allowed: false, retryAfterMs: 1 });
    const one = takeToken(fullAt, T0 + 1000, b);
    expect(one).toMatchObject({ allowed: true, remaining: 0 });
    expect(takeToken(one.fullAt, T0 + 1000, b)).toMatchObject({ allowed: false, retryAfterMs: 1000 });
    // Quiet for an hour: the bucket is full again, with 10, not 3,600.
    const later = run(b, Array<number>(11).fill(T0 + 3_600_000));
    expect(later.filter((x) => x.allowed)).toHaveLength(10);
  });

  it('at a steady one a second is never refused; at two a second is let through one a second after the burst', () => {
    const steady = run(
      INTAKE,
      Array.from({ length: 600 }, (_, i) => T0 + i * 1000),
    );
    expect(steady.every((x) => x.allowed)).toBe(true);
    const twice = run(
      INTAKE,
      Array.from({ length: 600 }, (_, i) => T0 + i * 500),
    );
    // 300 s at two a second: the burst of 10 plus one a second after the first.
    expect(twice.filter((x) => x.allowed)).toHaveLength(10 + 299);
  });

  it('never lets more through in any span than the burst plus the rate over the span', () => {
    fc.assert(
      fc.property(
        fc.record({ burst: fc.integer({ min: 1, max: 20 }), perMinute: fc.integer({ min: 1, max: 600 }) }),
        fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 200 }),
        (b, gaps) => {
          const times = gaps.reduce<number[]>((acc, g) => [...acc, (acc.at(-1) ?? T0) + g], []);
          const r = run(b, times);
          const t = tokenInterval(b);
          const allowed = times.filter((_, i) => r[i].allowed);
          for (let i = 0; i < allowed.length; i++) {
            for (let j = i; j < allowed.length; j++) expect(j - i + 1).toBeLessThanOrEqual(b.burst + Math.floor((allowed[j] - allowed[i]) / t));
          }
          // A refusal says truly when the next token comes: not a moment sooner, and then it is there.
          for (const [i, x] of r.entries()) {
            if (x.allowed) continue;
            expect(x.retryAfterMs).toBeGreaterThan(0);
            expect(takeToken(x.fullAt, times[i] + x.retryAfterMs - 1, b).allowed).toBe(false);
            expect(takeToken(x.fullAt, times[i] + x.retryAfterMs, b).allowed).toBe(true);
          }
        },
      ),
    );
  });
});

describe.each(DIALECTS)('the token bucket in one statement on %s', (dialect) => {
  let dbh: Awaited<ReturnType<typeof freshDb>>;
  beforeAll(async () => {
    dbh = await freshDb(dialect);
  });
  afterAll(() => dbh.close());

  it('answers as the arithmetic does, request for request', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({ burst: fc.integer({ min: 1, max: 12 }), perMinute: fc.integer({ min: 1, max: 600 }) }),
        fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 40 }),
        async (b, gaps) => {
          const key = `bucket-test:${n++}`;
          let now = T0;
          let fullAt: number | null = null;
          for (const g of gaps) {
            now += g;
            const want = takeToken(fullAt, now, b);
            expect(await take(dbh.db, key, now, b)).toEqual(want);
            fullAt = want.fullAt;
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps a bucket per key', async () => {
    const a = await Promise.all(Array.from({ length: 11 }, () => take(dbh.db, 'bucket-test:a', T0, INTAKE)));
    expect(a.filter((x) => x.allowed)).toHaveLength(10);
    expect((await take(dbh.db, 'bucket-test:b', T0, INTAKE)).allowed).toBe(true);
  });
});
