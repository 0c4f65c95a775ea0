import type { Member } from './rotation';

/** A salesman for the domain's tests: on the floor and eligible unless `over` says otherwise. */
export const member = (id: string, position: number, over: Partial<Member> = {}): Member => ({
  id,
  name: id.toUpperCase(),
  role: 'staff',
  position,
  active: true,
  onDuty: true,
  snoozeUntil: null,
  disabled: false,
  deletedAt: null,
  ...over,
});
