import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';

const DAY = 86_400_000;

describe.each(DIALECTS)('expired rows are pruned on a schedule on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(dialect, {}, { pruneMs: 100 });
  });
  afterAll(() => t.close());

  it('deletes expired link tokens and sessions, day-old idempotency claims and finished mail, ended limit windows; keeps the rest', async () => {
    const now = Date.now();
    const user = await insertUser(t.db, { email: 'pruned@dealer.test' });
    // All in one transaction, so a pruning pass sees all of them or none.
    await t.db.transaction().execute(async (db) => {
      for (const [tag, at] of [
        ['old', now - 2 * DAY],
        ['new', now],
      ] as const) {
        const expires = tag === 'old' ? now - 1000 : now + DAY;
        await db
          .insertInto('login_tokens')
          .values({ token_hash: `t-${tag}`, email: user.email, expires_at: expires, used_at: null, created_at: at })
          .execute();
        await db
          .insertInto('sessions')
          .values({ id_hash: `s-${tag}`, sid: `s-${tag}`, user_id: user.id, created_at: at, expires_at: expires })
          .execute();
        await db
          .insertInto('idempotency_keys')
          .values({ api_key_id: 1, key: `k-${tag}`, created_at: at, status: 201, body: '{}' })
          .execute();
        await db
          .insertInto('rate_limits')
          .values({ key: `r-${tag}`, hits: 1, reset_at: expires })
          .execute();
        for (const state of ['sent', 'failed', 'dropped'] as const) {
          await db
            .insertInto('outbox')
            .values({
              kind: 'signin',
              recipient: `${state}-${tag}@dealer.test`,
              body: '',
              state,
              attempts: 1,
              next_at: at,
              lease_until: null,
              expires_at: at,
              last_error: null,
              created_at: at,
              done_at: at,
            })
            .execute();
        }
      }
      // Mail still waiting is never pruned, however old.
      await db
        .insertInto('outbox')
        .values({
          kind: 'lead',
          recipient: 'waiting-old@dealer.test',
          body: 'x',
          state: 'waiting',
          attempts: 3,
          next_at: now + DAY,
          lease_until: null,
          expires_at: now + DAY,
          last_error: 'down',
          created_at: now - 2 * DAY,
          done_at: null,
        })
        .execute();
      for (const [tag, at, lead] of [
        ['old', now - 31 * DAY, null],
        ['new', now - DAY, null],
        ['lead', now - 31 * DAY, 1],
      ] as const) {
        await db
          .insertInto('notices')
          .values({
            user_id: user.id,
            store_id: 1,
            lead_id: lead,
            kind: 'up_next',
            channel: 'push',
            target: '1',
            once_key: `n-${tag}`,
            body: '',
            state: 'sent',
            attempts: 1,
            next_at: at,
            lease_until: null,
            expires_at: at,
            created_at: at,
          })
          .execute();
        await db
          .insertInto('accept_tokens')
          .values({ token_hash: `a-${tag}`, lead_id: 1, user_id: user.id, expires_at: tag === 'old' ? now - 2 * DAY : now + DAY, used_at: null })
          .execute();
      }
    });

    const deadline = Date.now() + 10_000;
    while ((await t.db.selectFrom('login_tokens').select('token_hash').where('token_hash', '=', 't-old').execute()).length) {
      if (Date.now() > deadline) throw new Error('never pruned');
      await new Promise((r) => setTimeout(r, 50));
    }
    // One pass removes all kinds: wait for the pass that removed the token to finish.
    await t.app.close().catch(() => undefined);
    const left = {
      tokens: (await t.db.selectFrom('login_tokens').select('token_hash').where('token_hash', 'like', 't-%').execute()).map((r) => r.token_hash),
      sessions: (await t.db.selectFrom('sessions').select('id_hash').where('id_hash', 'like', 's-%').execute()).map((r) => r.id_hash),
      keys: (await t.db.selectFrom('idempotency_keys').select('key').where('key', 'like', 'k-%').execute()).map((r) => r.key),
      limits: (await t.db.selectFrom('rate_limits').select('key').where('key', 'like', 'r-%').execute()).map((r) => r.key),
      notices: (await t.db.selectFrom('notices').select('once_key').where('once_key', 'like', 'n-%').orderBy('once_key').execute()).map((r) => r.once_key),
      acceptTokens: (await t.db.selectFrom('accept_tokens').select('token_hash').where('token_hash', 'like', 'a-%').orderBy('token_hash').execute()).map(
        (r) => r.token_hash,
      ),
      mail: (await t.db.selectFrom('outbox').select('recipient').where('recipient', 'like', '%-%@dealer.test').orderBy('recipient').execute()).map(
        (r) => r.recipient,
      ),
    };
    expect(left).toEqual({
      tokens: ['t-new'],
      sessions: ['s-new'],
      keys: ['k-new'],
      limits: ['r-new'],
      notices: ['n-lead', 'n-new'],
      acceptTokens: ['a-lead', 'a-new'],
      mail: ['dropped-new@dealer.test', 'failed-new@dealer.test', 'sent-new@dealer.test', 'waiting-old@dealer.test'],
    });
  });
});
