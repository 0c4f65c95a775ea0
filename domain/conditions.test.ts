import { describe, expect, it } from 'vitest';
import { all, any, below, compare, due, eq, holds, isNull, ne, not } from './conditions';

type Row = { flag: boolean; name: string | null; n: number | null; at: Date | null; place: number; id: string };
const NOW = new Date('2026-11-24T15:00:00Z');
const row = (over: Partial<Row> = {}): Row => ({ flag: true, name: 'a', n: 1, at: null, place: 1, id: 'x', ...over });

describe('conditions', () => {
  it('reads flags and dates as the database stores them', () => {
    expect(holds(eq<Row>('flag', true), row(), NOW)).toBe(true);
    expect(holds(eq<Row>('flag', false), row(), NOW)).toBe(false);
    expect(holds(due<Row>('at'), row({ at: NOW }), NOW)).toBe(true);
    expect(holds(due<Row>('at'), row({ at: new Date(NOW.getTime() + 1) }), NOW)).toBe(false);
  });

  it('never lets a missing value satisfy a comparison, even under not (as the SQL is compiled)', () => {
    for (const c of [eq<Row>('name', 'a'), ne<Row>('name', 'a'), below<Row>('n', 5), due<Row>('at')]) {
      expect(holds(c, row({ name: null, n: null, at: null }), NOW)).toBe(false);
    }
    expect(holds(not(ne<Row>('name', 'a')), row({ name: null }), NOW)).toBe(true);
    expect(holds(isNull<Row>('name'), row({ name: null }), NOW)).toBe(true);
    expect(holds(all<Row>(), row(), NOW)).toBe(true);
    expect(holds(any<Row>(), row(), NOW)).toBe(false);
  });

  it('orders by each key in turn, those above the pointer first', () => {
    const rows = [row({ place: 1, id: 'a' }), row({ place: 3, id: 'b' }), row({ place: 2, id: 'c' })];
    const order = compare<Row>([{ above: 'place', ref: 'pointer' }, { field: 'place' }, { field: 'id' }], { pointer: 1 });
    expect([...rows].sort(order).map((r) => r.id)).toEqual(['c', 'b', 'a']);
  });
});
