import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { startSmtp } from '../test/smtp';
import { insertUser } from '../users/repo';
import { OIDC_CLIENT, startOidcProvider } from '../test/oidc-provider';

const ROUNDS = 60;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};

/**
 * A link request must not tell whether an address may sign in: same status, same body and,
 * measured over many requests, the same time for an allowed, an unknown and a disabled address.
 */
describe.each(DIALECTS)('a sign-in link answer gives nothing away on %s', (dialect) => {
  const addresses = { allowed: MANAGER, unknown: 'nobody@elsewhere.test', disabled: 'gone@dealer.test' } as const;
  type Kind = keyof typeof addresses;

  async function measure(t: TestApp, tag: number) {
    const times: Record<Kind, number[]> = { allowed: [], unknown: [], disabled: [] };
    const answers = new Set<string>();
    let n = 0;
    // Each request from a client of its own, so no limit is reached; kinds interleaved in a
    // shuffled order so background work (the mail sender) weighs on all of them alike.
    for (let round = -5; round < ROUNDS; round++) {
      const kinds = (Object.keys(addresses) as Kind[]).sort(() => Math.random() - 0.5);
      for (const kind of kinds) {
        n++;
        const start = process.hrtime.bigint();
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/link',
          payload: { email: addresses[kind] },
          remoteAddress: `10.${tag}.${n >> 8}.${n & 255}`,
        });
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        answers.add(JSON.stringify([res.statusCode, res.headers['content-type'], res.body]));
        if (round >= 0) times[kind].push(ms);
      }
    }
    const m = { allowed: median(times.allowed), unknown: median(times.unknown), disabled: median(times.disabled) };
    console.log(
      `link answer medians on ${dialect} (${tag === 1 ? 'SMTP up' : 'SMTP down'}), ms: ${JSON.stringify(m, (_k, v: unknown) => (typeof v === 'number' ? +v.toFixed(2) : v))}`,
    );
    return { m, answers: [...answers] };
  }

  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(dialect);
    const gone = await insertUser(t.db, { email: addresses.disabled });
    await t.db.updateTable('users').set({ disabled: 1 }).where('id', '=', gone.id).execute();
  });
  afterAll(() => t.close());

  it(`with SMTP up: ${ROUNDS} requests each, equal answers, medians within 5 ms; the allowed address gets its links`, async () => {
    const { m, answers } = await measure(t, 1);
    expect(answers).toEqual([JSON.stringify([200, 'application/json; charset=utf-8', '{"ok":true}'])]);
    expect(Math.abs(m.allowed - m.unknown)).toBeLessThan(5);
    expect(Math.abs(m.allowed - m.disabled)).toBeLessThan(5);
    await t.drained(30_000);
    expect(t.smtp.count(addresses.allowed)).toBe(ROUNDS + 5);
    expect(t.smtp.count(addresses.unknown) + t.smtp.count(addresses.disabled)).toBe(0);
  });

  it(`with SMTP down: equal answers, medians within 5 ms`, async () => {
    const down = await startSmtp();
    await down.close();
    const off = await testApp(dialect, { SMTP_URL: down.url });
    try {
      const gone = await insertUser(off.db, { email: addresses.disabled });
      await off.db.updateTable('users').set({ disabled: 1 }).where('id', '=', gone.id).execute();
      const { m, answers } = await measure(off, 2);
      expect(answers).toEqual([JSON.stringify([200, 'application/json; charset=utf-8', '{"ok":true}'])]);
      expect(Math.abs(m.allowed - m.unknown)).toBeLessThan(5);
      expect(Math.abs(m.allowed - m.disabled)).toBeLessThan(5);
      expect((await off.app.ctx.outbox.backlog()).waiting).toBe(ROUNDS + 5);
    } finally {
      await off.close();
    }
  });

  it(`single sign-on: an unknown, a disabled and an unverified address get the same refusal, ${2 * ROUNDS} each, medians within 5 ms`, async () => {
    const idp = await startOidcProvider(['http://localhost:3000/auth/oidc/callback']);
    const sso = await testApp(dialect, { OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: OIDC_CLIENT.id, OIDC_CLIENT_SECRET: OIDC_CLIENT.secret });
    // Two of them are people here: one disabled, one whose address the provider has not verified.
    const people = { unknown: 'nobody@elsewhere.test', disabled: 'gone@dealer.test', unverified: 'unchecked@dealer.test' } as const;
    type Who = keyof typeof people;
    try {
      const gone = await insertUser(sso.db, { email: people.disabled });
      await sso.db.updateTable('users').set({ disabled: 1 }).where('id', '=', gone.id).execute();
      await insertUser(sso.db, { email: people.unverified });
      idp.account(people.unverified, { verified: false });
      const times: Record<Who, number[]> = { unknown: [], disabled: [], unverified: [] };
      const answers = new Set<string>();
      let n = 0;
      // As above: kinds interleaved in a shuffled order; only the portal's callback is timed (the
      // provider's login before it is the browser's affair).
      // Twice the link's rounds: each answer includes two calls to the provider, whose time varies.
      for (let round = -5; round < 2 * ROUNDS; round++) {
        for (const who of (Object.keys(people) as Who[]).sort(() => Math.random() - 0.5)) {
          n++;
          const start = await sso.app.inject({ method: 'GET', url: '/auth/oidc/start', remoteAddress: `10.3.${n >> 8}.${n & 255}` });
          const flow = start.cookies.find((c) => c.name === 'bdc_oidc')!;
          const back = await idp.login(start.headers.location as string, people[who]);
          const t0 = process.hrtime.bigint();
          const res = await sso.app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie: `bdc_oidc=${flow.value}` } });
          const ms = Number(process.hrtime.bigint() - t0) / 1e6;
          answers.add(JSON.stringify([res.statusCode, res.headers.location, res.headers['set-cookie'], res.body]));
          if (round >= 0) times[who].push(ms);
        }
      }
      const m = { unknown: median(times.unknown), disabled: median(times.disabled), unverified: median(times.unverified) };
      console.log(`SSO refusal medians on ${dialect}, ms: ${JSON.stringify(m, (_k, v: unknown) => (typeof v === 'number' ? +v.toFixed(2) : v))}`);
      expect(answers.size).toBe(1);
      expect(JSON.parse([...answers][0])).toEqual([
        302,
        '/?signin=refused',
        'bdc_oidc=; Max-Age=0; Path=/auth/oidc; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
        '',
      ]);
      expect(Math.abs(m.unknown - m.disabled)).toBeLessThan(5);
      expect(Math.abs(m.unknown - m.unverified)).toBeLessThan(5);
      expect(await sso.db.selectFrom('sessions').select('id_hash').execute()).toEqual([]);
    } finally {
      await sso.close();
      await idp.close();
    }
  });
});
