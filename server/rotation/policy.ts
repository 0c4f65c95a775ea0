import { ApiError } from '../http/errors';
import type { UserRow } from '../users/repo';

/** Only a salesman clocks himself in or out: managers are not in the rotation. */
export function checkOwnDuty(me: Pick<UserRow, 'role'>): void {
  if (me.role !== 'staff') throw new ApiError(409, 'Only salesmen are in the rotation.');
}
