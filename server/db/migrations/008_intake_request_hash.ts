import type { Migration } from 'kysely';
import type { Db } from './kit';

export default (): Migration => {
  return {
    // A retry with the same Idempotency-Key must be the same request; null on older rows.
    async up(db: Db) {
      await db.schema.alterTable('idempotency_keys').addColumn('request_hash', 'text').execute();
    },
  };
};
