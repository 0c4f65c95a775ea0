import { describe, expect, it } from 'vitest';
import { checkChangeSale, checkSeeSales, seesSalesmen } from './policy';
import { refusal } from '../test/refusal';

const manager = { id: 'm', role: 'manager' as const };
const walker = { id: 'w', role: 'staff' as const };

describe('sales policy', () => {
  it("opens one's own tracker writable, and another's only for a manager, read-only", () => {
    expect(checkSeeSales(walker, undefined)).toEqual({ readOnly: false });
    expect(checkSeeSales(walker, 'w')).toEqual({ readOnly: false });
    expect(checkSeeSales(manager, 'w')).toEqual({ readOnly: true });
    expect(refusal(() => checkSeeSales(walker, 'x'))).toEqual({ status: 403, message: 'You can only see your own sales.' });
  });

  it("lets nobody change another's sale, managers included", () => {
    expect(refusal(() => checkChangeSale(walker, { user_id: 'w' }))).toBeNull();
    expect(refusal(() => checkChangeSale(manager, { user_id: 'w' }))).toEqual({ status: 403, message: 'You can only change your own sales.' });
  });

  it('gives only a manager the list of salesmen', () => {
    expect([seesSalesmen(manager), seesSalesmen(walker)]).toEqual([true, false]);
  });
});
