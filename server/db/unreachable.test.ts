import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { unreachable } from '.';
import { MANAGER, PG_ADMIN_URL, PG_AVAILABLE, testApp } from '../test/harness';
import { until } from '../test/until';

async function admin(statement: string) {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

describe('a database that cannot be reached', () => {
  it('is told apart from a request that was wrong, whatever the code it comes with', () => {
    const gone = [
      { code: '55000', message: 'database "x" is not currently accepting connections' },
      { code: '3D000', message: 'database "x" does not exist' },
      { code: '28P01', message: 'password authentication failed for user "x"' },
      { code: '28000', message: 'no pg_hba.conf entry for host' },
      { code: '53300', message: 'sorry, too many clients already' },
      { code: '57P03', message: 'the database system is starting up' },
      { code: '57P01', message: 'terminating connection due to administrator command' },
      { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' },
      { code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND db' },
      { message: 'Connection terminated unexpectedly' },
      { code: 'SQLITE_BUSY', message: 'database is locked' },
      { code: 'SQLITE_BUSY_SNAPSHOT', message: 'database is locked' },
      { code: 'SQLITE_CANTOPEN', message: 'unable to open database file' },
      { code: 'SQLITE_FULL', message: 'database or disk is full' },
    ];
    expect(gone.map(unreachable)).toEqual(gone.map((e) => e.code ?? 'connection lost'));
    const wrong = [
      { code: '55000', message: 'currval of sequence "s" is not yet defined in this session' },
      { code: '23505', message: 'duplicate key value violates unique constraint' },
      { code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed' },
      new Error('Something else'),
    ];
    expect(wrong.map(unreachable)).toEqual(wrong.map(() => null));
  });

  it.runIf(PG_AVAILABLE)(
    'answers 503 with Retry-After while PostgreSQL refuses connections, logs why, and 200 once it takes them again',
    { timeout: 30_000 },
    async () => {
      const lines: string[] = [];
      const t = await testApp('postgres', {}, { logger: { level: 'warn', stream: { write: (l: string) => void lines.push(l) } } });
      const name = new URL(t.dbh.url!).pathname.slice(1);
      try {
        const cookie = await t.signIn(MANAGER);
        const sessions = () => t.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: { cookie } });
        expect((await sessions()).statusCode).toBe(200);

        await admin(`alter database ${name} allow_connections false`);
        await admin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`);
        // Every connection the pool held has seen its end: the next request must open a new one.
        await until(() => t.dbh.pool!.idleCount === 0, 'the pool lets its cut connections go');

        const down = await sessions();
        expect({ status: down.statusCode, retryAfter: down.headers['retry-after'], body: down.json() }).toEqual({
          status: 503,
          retryAfter: '2',
          body: { error: 'The database is not answering right now. Please try again in a few seconds.', code: 'database_unavailable' },
        });
        expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
        expect(lines.some((l) => l.includes('"database":"55000"'))).toBe(true);

        await admin(`alter database ${name} allow_connections true`);
        expect((await sessions()).statusCode).toBe(200);
        expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      } finally {
        await admin(`alter database ${name} allow_connections true`);
        await t.close();
      }
    },
  );
});
