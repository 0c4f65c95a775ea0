import { describe, expect, it } from 'vitest';
import { checkMove, checkName, checkTimeline, holderRefusal, seesKpisOf } from './policy';
import { refusal } from '../test/refusal';

const manager = { id: 'm', role: 'manager' as const };
const walker = { id: 'w', role: 'staff' as const };
const mine = { assigned_to: 'w', closed_by_id: null };
const othersLead = { assigned_to: 'x', closed_by_id: null };

describe('lead policy', () => {
  it('leaves contacts, appointments and the sale to the holder; losing and showings to him or a manager', () => {
    for (const m of ['contact', 'appoint', 'sell'] as const) {
      expect(refusal(() => checkMove(walker, mine, m))).toBeNull();
      expect(refusal(() => checkMove(manager, mine, m))?.status, m).toBe(403);
      expect(refusal(() => checkMove(walker, othersLead, m))?.message, m).toMatch(/^Only the salesman who holds this lead can/);
    }
    for (const m of ['lose', 'show', 'noShow'] as const) {
      expect(refusal(() => checkMove(walker, mine, m))).toBeNull();
      expect(refusal(() => checkMove(manager, othersLead, m))).toBeNull();
      expect(refusal(() => checkMove(walker, othersLead, m))).toEqual({ status: 403, message: 'You can only change your own leads.' });
    }
  });

  it('lets a salesman reopen only a lead of his that he lost; a manager reopens any', () => {
    expect(refusal(() => checkMove(walker, { assigned_to: 'w', closed_by_id: 'w' }, 'reopen'))).toBeNull();
    expect(refusal(() => checkMove(walker, { assigned_to: 'w', closed_by_id: 'm' }, 'reopen'))).toEqual({
      status: 403,
      message: 'Only a manager can reopen a lead someone else closed.',
    });
    expect(refusal(() => checkMove(manager, { assigned_to: 'w', closed_by_id: 'w' }, 'reopen'))).toBeNull();
  });

  it('lets the salesman of a lead or a manager name it', () => {
    expect(refusal(() => checkName(walker, mine))).toBeNull();
    expect(refusal(() => checkName(manager, othersLead))).toBeNull();
    expect(refusal(() => checkName(walker, othersLead))).toEqual({ status: 403, message: 'You can only name your own leads.' });
  });

  it("shows a salesman only his own KPIs and a manager everyone's", () => {
    expect([seesKpisOf(walker, 'w'), seesKpisOf(walker, 'x'), seesKpisOf(manager, 'x')]).toEqual([true, false, true]);
  });

  it('leaves Accept and contacts to the holder of an open lead, and shows the timeline to him and to managers', () => {
    const lead = { assigned_to: 'w', assigned_to_name: 'Walt', closed: 0 };
    const said = (e: { status: number; message: string } | null) => e && { status: e.status, message: e.message };
    expect(holderRefusal(lead, walker, 'accept it')).toBeNull();
    expect(said(holderRefusal(lead, manager, 'accept it'))).toEqual({ status: 403, message: 'Only the salesman who holds this lead can accept it.' });
    expect(said(holderRefusal({ ...lead, assigned_to: '' }, walker, 'accept it'))).toEqual({ status: 403, message: 'No one holds this lead yet.' });
    expect(said(holderRefusal({ ...lead, closed: 1 }, walker, 'log a contact'))).toEqual({ status: 409, message: 'This lead is closed.' });
    expect(said(holderRefusal(undefined, walker, 'accept it'))).toEqual({ status: 404, message: 'Lead not found' });
    expect(refusal(() => checkTimeline(walker, mine))).toBeNull();
    expect(refusal(() => checkTimeline(manager, { assigned_to: '' }))).toBeNull();
    expect(refusal(() => checkTimeline(walker, { assigned_to: '' }))).toEqual({ status: 403, message: 'You can only see the timeline of your own leads.' });
  });
});
