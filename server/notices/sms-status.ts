import type { Db } from '../db';

/** What the provider finally said of a text: delivered, or not with why. */
export type FinalStatus = { state: 'delivered'; at: number } | { state: 'failed'; error: string; at: number };

/** Marks the sent text with this provider id as the status says; whether one was marked. */
async function mark(db: Db, providerId: string, s: FinalStatus): Promise<boolean> {
  const done = await db
    .updateTable('notices')
    .set(s.state === 'delivered' ? { state: 'delivered', delivered_at: s.at } : { state: 'failed', error: s.error })
    .where('channel', '=', 'sms')
    .where('provider_id', '=', providerId)
    .where('state', '=', 'sent')
    .executeTakeFirst();
  return Number(done.numUpdatedRows) > 0;
}

/**
 * A status callback: kept first, then applied to its text. The provider may report before the
 * sender has stored the text's id (it answers the send and posts the status at once); then the
 * sender finds the kept status when it stores the id (applyKeptStatus). Kept before it is applied,
 * and the sender stores the id before it looks, so one of the two always sees the other.
 */
export async function takeStatus(db: Db, providerId: string, s: FinalStatus) {
  await db
    .insertInto('sms_early_status')
    .values({ provider_id: providerId, state: s.state, error: s.state === 'failed' ? s.error : null, received_at: s.at })
    .onConflict((oc) => oc.column('provider_id').doNothing())
    .execute();
  if (await mark(db, providerId, s)) await db.deleteFrom('sms_early_status').where('provider_id', '=', providerId).execute();
}

/** After the sender stored a text's id (committed): a status that came before it is applied now. */
export async function applyKeptStatus(db: Db, providerId: string) {
  const kept = await db.selectFrom('sms_early_status').selectAll().where('provider_id', '=', providerId).executeTakeFirst();
  if (!kept) return;
  const s: FinalStatus =
    kept.state === 'delivered'
      ? { state: 'delivered', at: Number(kept.received_at) }
      : { state: 'failed', error: kept.error ?? '', at: Number(kept.received_at) };
  await mark(db, providerId, s);
  await db.deleteFrom('sms_early_status').where('provider_id', '=', providerId).execute();
}
