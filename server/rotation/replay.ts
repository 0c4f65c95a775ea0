import type { Db } from '../db';
import { ApiError } from '../http/errors';

/**
 * A manager's assign or skip runs once per action id (made when the form was filled): a repeat
 * (double-click, a retry after a dropped connection, two tabs) gets the first answer and changes
 * nothing. Call inside the rotation transaction, which makes the check and the write one step.
 */
export async function once<T extends object>(trx: Db, actionId: string | undefined, request: object, run: () => Promise<T>): Promise<T & { replayed?: true }> {
  if (!actionId) return run();
  const asked = JSON.stringify(request);
  const seen = await trx.selectFrom('rotation_actions').selectAll().where('id', '=', actionId).executeTakeFirst();
  if (seen) {
    if (seen.request !== asked) throw new ApiError(422, 'This action id was already used for a different request.');
    // Safe: the stored result is what run() answered for this very request (the request names its
    // kind, { assign }, { beBack } or { skip }, and was compared above), so it is a T.
    return { ...(JSON.parse(seen.result) as T), replayed: true };
  }
  const result = await run();
  await trx
    .insertInto('rotation_actions')
    .values({ id: actionId, request: asked, result: JSON.stringify(result), created_at: Date.now() })
    .execute();
  return result;
}
