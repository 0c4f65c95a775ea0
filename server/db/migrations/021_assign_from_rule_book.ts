import { sql, type Migration } from 'kysely';
import type { Dialect } from '../index';
import type { Db } from './kit';
import { ASSIGN_ARGS_014 } from './assign-function';

export default (dialect: Dialect): Migration => ({
  // The one-call assign is now built by each app server from the rule book
  // (server/rotation/assign-postgres.ts); the hand-kept copy 016 left behind goes.
  async up(db: Db) {
    if (dialect !== 'postgres') return;
    await sql.raw(`drop function if exists bdc_assign_next(${ASSIGN_ARGS_014}, text, boolean, integer, text, text[])`).execute(db);
  },
});
