import { forbidden } from '../http/errors';
import type { UserRow } from '../users/repo';

type Me = Pick<UserRow, 'id' | 'role'>;

/** Whose sales tracker one may open: one's own, or, for a manager, anyone's, read-only. Answers whether it is read-only. */
export function checkSeeSales(me: Me, ownerId: string | undefined): { readOnly: boolean } {
  if (!ownerId || ownerId === me.id) return { readOnly: false };
  if (me.role !== 'manager') throw forbidden('You can only see your own sales.');
  return { readOnly: true };
}

/** Nobody changes another's sale, managers included. */
export function checkChangeSale(me: Me, sale: { user_id: string }): void {
  if (!saleCan(me, sale).edit) throw forbidden('You can only change your own sales.');
}

/** A manager picks whose tracker to open from the list of salesmen. */
export const seesSalesmen = (me: Me): boolean => me.role === 'manager';

/** What `me` may do to a sale: change or delete his own, nobody else's. */
export const saleCan = (me: Me, sale: { user_id: string }) => {
  const own = sale.user_id === me.id;
  return { edit: own, delete: own };
};
