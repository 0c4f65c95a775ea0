import { describe, expect, it } from 'vitest';
import { dealerKey, dealerLabel, storeOfDealer } from './dealers';

describe('dealers', () => {
  it('folds case, spaces and composition', () => {
    expect(dealerKey('  Northside   HONDA ')).toBe('northside honda');
    expect(dealerKey('Cafe\u0301 Motors')).toBe(dealerKey('Café motors'));
  });

  it('shows the name and the id, or whichever came', () => {
    expect(dealerLabel({ name: 'Northside Honda', id: '4471' })).toBe('Northside Honda (4471)');
    expect(dealerLabel({ name: 'Northside Honda', id: '' })).toBe('Northside Honda');
    expect(dealerLabel({ name: '', id: '4471' })).toBe('4471');
    expect(dealerLabel({ name: 'NSH', id: 'nsh' })).toBe('NSH');
    expect(dealerLabel({ name: '', id: '' })).toBe('');
  });

  it('maps by id before name, and finds nothing for an unmapped dealer', () => {
    const mapped = new Map([
      ['4471', 'NSH'],
      ['bayview toyota', 'BVT'],
      ['northside honda', 'MAIN'],
    ]);
    expect(storeOfDealer(mapped, { name: 'Northside Honda', id: '4471' })).toBe('NSH');
    expect(storeOfDealer(mapped, { name: 'Northside Honda', id: '9999' })).toBe('MAIN');
    expect(storeOfDealer(mapped, { name: ' BAYVIEW  toyota', id: '' })).toBe('BVT');
    expect(storeOfDealer(mapped, { name: 'Elsewhere Ford', id: '12' })).toBeNull();
    expect(storeOfDealer(mapped, { name: '', id: '' })).toBeNull();
  });
});
