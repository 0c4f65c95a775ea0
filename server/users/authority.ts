import type { StoreCtx } from '../context';
import type { Db } from '../db';
import { ApiError } from '../http/errors';
import { escapeHtml, portalName } from '../mail/mailer';
import { storesOf } from '../stores/service';
import { authorityOver, SHARED_PERSON, type Authority } from '../../domain/users';
import type { UserRow } from './repo';
import type { StorePerson } from './service';

/** What a manager may open: the codes and ids of his stores (a group manager's: all). */
export interface Reach {
  me: UserRow;
  group: boolean;
  codes: string[];
  ids: number[];
}

export async function reachOf(db: Db, me: UserRow): Promise<Reach> {
  const stores = await storesOf(db, me);
  return { me, group: !!me.all_stores, codes: stores.map((s) => s.code), ids: stores.map((s) => s.id) };
}

export const authority = (r: Reach, p: Pick<StorePerson, 'all_stores' | 'stores'>): Authority =>
  authorityOver({ group: r.group, stores: r.codes }, { group: !!p.all_stores, stores: p.stores });

/** Refuses a change the manager's authority does not reach ('whole': name, address, role, status, sessions); else says how far it reaches. */
export function checkAuthority(r: Reach, p: StorePerson, need: 'whole' | 'place'): 'whole' | 'place' {
  const a = authority(r, p);
  if (a === 'none') throw new ApiError(403, 'Only a group manager can change a group manager.');
  if (need === 'whole' && a === 'place') throw new ApiError(403, SHARED_PERSON);
  return a;
}

/** Whether a manager may know this person exists: a group manager, or someone of one of his stores. */
export async function visibleTo(db: Db, r: Reach, other: UserRow): Promise<boolean> {
  if (r.group || other.all_stores) return true;
  if (!r.ids.length) return false;
  const shared = await db.selectFrom('memberships').select('user_id').where('user_id', '=', other.id).where('store_id', 'in', r.ids).executeTakeFirst();
  return !!shared;
}

/**
 * A store manager named the address of someone of another store: he is answered as for a new
 * address (the roster is not his to probe), and the group managers are told, who may add the
 * person to that store if it was meant.
 */
export async function tellGroupOfHiddenAdd(ctx: StoreCtx, me: UserRow, other: UserRow, role: string) {
  const groups = await ctx.dbh.db
    .selectFrom('users')
    .select(['email', 'name'])
    .where('all_stores', '=', 1)
    .where('disabled', '=', 0)
    .where('deleted_at', 'is', null)
    .execute();
  const portal = portalName(ctx.config);
  const words = [
    `${me.name} (${me.email}), a manager at ${ctx.store.name}, tried to add ${other.email} as ${role === 'manager' ? 'a manager' : 'a salesman'}.`,
    `That address is ${other.name}'s, who works in another store; nothing was changed and ${me.name} was not told so.`,
    `If ${other.name} should work at ${ctx.store.name} too, add the store to them under Manager → Users.`,
  ];
  await ctx.outbox.queue(
    groups.map((g) => ({
      kind: 'email' as const,
      mail: {
        to: g.email,
        subject: `${portal}: a manager tried to add someone of another store`,
        text: `Hello ${g.name},\n\n${words.join('\n\n')}\n`,
        html: `<p>Hello ${escapeHtml(g.name)},</p>${words.map((w) => `<p>${escapeHtml(w)}</p>`).join('')}`,
      },
      expiresAt: Date.now() + 7 * 24 * 60 * 60 * 1000,
    })),
  );
}
