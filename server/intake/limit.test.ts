import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';

const T0 = 1_800_000_000_000;
const ADF = (name: string) => `<adf><prospect><customer><contact><name part="full">${name}</name></contact></customer></prospect></adf>`;

/** The per-key intake limit as the API applies it: a burst of 10, then one a second, on a clock the test moves. */
describe.each(DIALECTS)('the intake API lets each key send a burst of 10, then one a second, on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let now = T0;
  beforeAll(async () => {
    t = await testApp(dialect, {}, { intakeClock: () => now });
    boss = await t.signIn(MANAGER);
    await insertUser(t.db, { email: 'limit.rep@dealer.test', name: 'Limit Rep', onDuty: true });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    now += 3_600_000;
    await t.db.deleteFrom('leads').execute();
  });

  const newKey = async (name: string): Promise<string> =>
    (await t.app.inject({ method: 'POST', url: '/api/integrations/keys', headers: { cookie: boss }, payload: { name } })).json().key;
  const send = (key: string, body: string | object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/leads',
      headers: { 'x-api-key': key, ...(typeof body === 'string' ? { 'content-type': 'application/x-adf+xml' } : {}) },
      payload: body,
    });
  const customers = async () => (await t.db.selectFrom('leads').select('customer').orderBy('id').execute()).map((l) => l.customer);

  it('takes 10 at once, refuses the 11th with 429 and a Retry-After, and takes one again once its token comes', async () => {
    const key = await newKey('Burst feed');
    const burst = [];
    for (let i = 1; i <= 10; i++) burst.push(await send(key, i % 2 ? ADF(`Burst ${i}`) : { customer: `Burst ${i}` }));
    expect(burst.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(burst.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);

    const over = await send(key, ADF('Eleventh'));
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBe('1');
    expect(over.json()).toEqual({
      error: 'Too many requests with this API key: it may send 10 at once, then 60 a minute. The next one is let through in 1 s.',
      code: 'rate_limited',
    });
    // Not a moment early...
    now += 999;
    expect((await send(key, { customer: 'Too Soon' })).statusCode).toBe(429);
    // ...and then one, and only one, a second.
    now += 1;
    expect((await send(key, ADF('Refilled'))).statusCode).toBe(201);
    expect((await send(key, { customer: 'Not Yet' })).statusCode).toBe(429);
    now += 1000;
    expect((await send(key, { customer: 'Next Second' })).statusCode).toBe(201);
    expect(await customers()).toEqual([...Array.from({ length: 10 }, (_, i) => `Burst ${i + 1}`), 'Refilled', 'Next Second']);

    // Quiet for ten seconds: the whole burst again.
    now += 10_000;
    const again = [];
    for (let i = 0; i < 11; i++) again.push((await send(key, { customer: `Again ${i}` })).statusCode);
    expect(again).toEqual([...Array<number>(10).fill(201), 429]);
  });

  it('counts refused documents too, and one key past its allowance does not slow another', async () => {
    const busy = await newKey('Busy feed');
    const calm = await newKey('Calm feed');
    for (let i = 0; i < 10; i++) expect((await send(busy, '<adf><prospect></adf>')).statusCode).toBe(400);
    expect((await send(busy, ADF('One Too Many'))).statusCode).toBe(429);
    expect((await send(calm, ADF('Calm'))).statusCode).toBe(201);
    expect(await customers()).toEqual(['Calm']);
  });

  it('asks for the key before it counts: a request without a valid key is 401 and takes no token', async () => {
    const key = await newKey('Keyed feed');
    for (let i = 0; i < 20; i++) expect((await send('bdc_not_a_key', { customer: 'Nobody' })).statusCode).toBe(401);
    expect((await send(key, { customer: 'First Of Ten' })).headers['x-ratelimit-remaining']).toBe('9');
  });
});
