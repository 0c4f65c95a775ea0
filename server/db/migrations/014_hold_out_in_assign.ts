import { sql, type Migration } from 'kysely';
import type { Dialect } from '../index';
import type { Db } from './kit';
import { ASSIGN_FUNCTION, ASSIGN_ARGS_012 } from './assign-function';

export default (dialect: Dialect): Migration => {
  return {
    // The one-call assign also holds out salesmen with past-due follow-ups when the rule is on.
    async up(db: Db) {
      if (dialect !== 'postgres') return;
      await sql.raw(`drop function if exists bdc_assign_next(${ASSIGN_ARGS_012})`).execute(db);
      await sql.raw(ASSIGN_FUNCTION).execute(db);
    },
  };
};
