import { sql, type Migration } from 'kysely';
import type { Dialect } from '../index';
import type { Db } from './kit';
import { ASSIGN_FUNCTION, ASSIGN_ARGS_014 } from './assign-function';

export default (dialect: Dialect): Migration => {
  return {
    // The one-call assign also answers, under the lock and before acting, when the rules the
    // app server remembers are no longer the stored ones or when leads wait in Unassigned (they
    // go out first), names the salesman's address for his mail, and sends the live-update
    // notifications it is given with its commit: no statements around the call.
    async up(db: Db) {
      if (dialect !== 'postgres') return;
      await sql.raw(`drop function if exists bdc_assign_next(${ASSIGN_ARGS_014})`).execute(db);
      await sql.raw(ASSIGN_FUNCTION).execute(db);
    },
  };
};
