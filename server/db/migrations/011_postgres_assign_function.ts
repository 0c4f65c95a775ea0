import { sql, type Migration } from 'kysely';
import type { Dialect } from '../index';
import type { Db } from './kit';
import { ASSIGN_FUNCTION } from './assign-function';

export default (dialect: Dialect): Migration => {
  return {
    // On PostgreSQL an assign is one statement: this function locks the rotation state, replays
    // an action id already seen, returns the lead a prospect id already made, picks the next
    // eligible salesman (the rules of domain/rotation.ts), stores the lead, logs it and moves
    // the pointer, all in the caller's single round trip. SQLite runs the same steps in process.
    async up(db: Db) {
      if (dialect !== 'postgres') return;
      await sql.raw(ASSIGN_FUNCTION).execute(db);
    },
  };
};
