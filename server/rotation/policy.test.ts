import { describe, expect, it } from 'vitest';
import { checkOwnDuty } from './policy';
import { refusal } from '../test/refusal';

describe('rotation policy', () => {
  it('lets only a salesman clock himself in or out', () => {
    expect(refusal(() => checkOwnDuty({ role: 'staff' }))).toBeNull();
    expect(refusal(() => checkOwnDuty({ role: 'manager' }))).toEqual({ status: 409, message: 'Only salesmen are in the rotation.' });
  });
});
