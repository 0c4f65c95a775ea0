import { describe, expect, it } from 'vitest';
import { checkKeepsAManager, checkLockout } from './policy';
import { USER_MSG } from '../../domain/users';
import type { UserRow } from './repo';
import { refusal } from '../test/refusal';

const row = (id: string, role: 'manager' | 'staff', over: Partial<UserRow> = {}): UserRow => ({
  id,
  email: `${id}@dealer.test`,
  name: id,
  role,
  all_stores: role === 'manager' ? 1 : 0,
  store_id: null,
  disabled: 0,
  deleted_at: null,
  greeting: null,
  notes: null,
  signed_in_at: null,
  created_at: 0,
  updated_at: 0,
  mobile: null,
  mobile_confirmed_at: null,
  sms_stopped_at: null,
  notify: null,
  ...over,
});
const boss = row('boss', 'manager');
const other = row('other', 'manager');

describe('user policy', () => {
  it('refuses a manager locking himself out, and any change to a configured manager', () => {
    expect(refusal(() => checkLockout(boss, 'disable', { id: 'boss', name: 'Boss' }, []))).toEqual({ status: 409, message: USER_MSG.selfDisable });
    expect(refusal(() => checkLockout(boss, 'demote', { id: 'boss', name: 'Boss' }, []))).toEqual({ status: 409, message: USER_MSG.selfDemote });
    expect(refusal(() => checkLockout(boss, 'delete', { id: 'other', name: 'Other' }, []))).toBeNull();
    expect(refusal(() => checkLockout(boss, 'delete', { id: 'other', name: 'Other' }, ['boss@dealer.test']))).toEqual({
      status: 409,
      message: USER_MSG.configured,
    });
  });

  it('refuses taking away the last live manager, not one of two', () => {
    expect(refusal(() => checkKeepsAManager([boss], boss, { ...boss, role: 'staff' }))).toEqual({ status: 409, message: USER_MSG.lastManager });
    expect(refusal(() => checkKeepsAManager([boss, other], boss, { ...boss, disabled: 1 }))).toBeNull();
    expect(refusal(() => checkKeepsAManager([boss, { ...other, deleted_at: 1 }], boss, { ...boss, deleted_at: 2 }))).toEqual({
      status: 409,
      message: USER_MSG.lastManager,
    });
  });
});
