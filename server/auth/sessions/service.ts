import type { Db } from '../../db';
import type { Bus } from '../../events/bus';
import { deviceLabel } from '../../../domain/push';
import { howSignedIn, placeOf } from '../../../domain/sessions';

const iso = (ms: number | string) => new Date(Number(ms)).toISOString();

/** His live sessions, the one last used first; `current` is the public id of the one asking. */
export async function listSessions(db: Db, userId: string, current: string | null) {
  const rows = await db
    .selectFrom('sessions')
    .select(['sid', 'via', 'user_agent', 'ip', 'last_seen_at', 'created_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', Date.now())
    // Sessions from before devices were recorded have no last use: their sign-in stands for it.
    .orderBy((eb) => eb.fn.coalesce('last_seen_at', 'created_at'), 'desc')
    .execute();
  return rows
    .map((r) => ({
      sid: r.sid,
      device: deviceLabel(r.user_agent ?? undefined),
      how: howSignedIn(r.via),
      place: placeOf(r.ip),
      lastSeenAt: r.last_seen_at === null ? null : iso(r.last_seen_at),
      signedInAt: iso(r.created_at),
      current: r.sid === current,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/**
 * Ends sessions of `userId`: the one with public id `sid`, or all of them, and with them in one
 * transaction their devices' push notifications and whatever `also` records (a manager's audit entry). Once committed, their open
 * screens hear it (session-revoked with each sid: that device's stream ends and it goes to sign in).
 */
export async function endSessions(
  db: Db,
  bus: Bus,
  userId: string,
  opts: { sid?: string; also?: (trx: Db, ended: number) => Promise<void> } = {},
): Promise<number> {
  const { sid, also } = opts;
  const ended = await db.transaction().execute(async (trx) => {
    const rows = await trx
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .$if(sid !== undefined, (q) => q.where('sid', '=', sid ?? ''))
      .returning('sid')
      .execute();
    // Their devices' push notifications end with them.
    if (rows.length)
      await trx
        .deleteFrom('push_subscriptions')
        .where(
          'session_sid',
          'in',
          rows.map((r) => r.sid),
        )
        .execute();
    await also?.(trx, rows.length);
    return rows;
  });
  for (const s of ended) bus.publish({ topic: 'session-revoked', userId, sid: s.sid });
  return ended.length;
}
