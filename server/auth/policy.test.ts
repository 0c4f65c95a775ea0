import { describe, expect, it } from 'vitest';
import { checkAccess } from './policy';
import { refusal } from '../test/refusal';

describe('access policy', () => {
  it('lets anyone through a public or API-key route', () => {
    expect(refusal(() => checkAccess('public', null))).toBeNull();
    expect(refusal(() => checkAccess('apikey', null))).toBeNull();
  });

  it('refuses a route without a rule, even to a manager', () => {
    expect(refusal(() => checkAccess(undefined, { role: 'manager' }))).toEqual({ status: 500, message: 'Route has no access rule' });
  });

  it('wants a signed-in user, and a manager for manager routes', () => {
    expect(refusal(() => checkAccess('user', null))).toEqual({ status: 401, message: 'Not signed in' });
    expect(refusal(() => checkAccess('user', { role: 'staff' }))).toBeNull();
    expect(refusal(() => checkAccess('manager', { role: 'staff' }))).toEqual({ status: 403, message: 'You need manager permissions to do that.' });
    expect(refusal(() => checkAccess('manager', { role: 'manager' }))).toBeNull();
  });
});
