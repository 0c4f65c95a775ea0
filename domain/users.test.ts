import { describe, expect, it } from 'vitest';
import { describeAudit, diff, leavesNoManager, statusOf, visibleUsers, type Person } from './users';

const p = (id: string, role: string, over: Partial<Person> = {}): Person => ({
  id,
  email: `${id}@x.test`,
  name: id,
  role,
  disabled: false,
  deletedAt: null,
  ...over,
});

describe('statusOf', () => {
  it('tells active, disabled and deleted apart', () => {
    expect(statusOf(p('a', 'staff'))).toBe('active');
    expect(statusOf(p('a', 'staff', { disabled: true }))).toBe('disabled');
    expect(statusOf(p('a', 'staff', { disabled: true, deletedAt: 1 }))).toBe('deleted');
  });
});

describe('leavesNoManager', () => {
  const boss = p('boss', 'manager');
  const rep = p('rep', 'staff');

  it('refuses to disable, delete or demote the last live manager', () => {
    const team = [boss, rep];
    expect(leavesNoManager(team, boss, { ...boss, disabled: true })).toBe(true);
    expect(leavesNoManager(team, boss, { ...boss, disabled: true, deletedAt: 5 })).toBe(true);
    expect(leavesNoManager(team, boss, { ...boss, role: 'staff' })).toBe(true);
  });

  it('allows it when another live manager remains', () => {
    const other = p('other', 'manager');
    expect(leavesNoManager([boss, other, rep], boss, { ...boss, role: 'staff' })).toBe(false);
  });

  it('does not count a disabled or deleted manager as the one who remains', () => {
    const off = p('off', 'manager', { disabled: true });
    const gone = p('gone', 'manager', { disabled: true, deletedAt: 1 });
    expect(leavesNoManager([boss, off, gone], boss, { ...boss, disabled: true })).toBe(true);
  });

  it('never blocks changes to staff, or edits that keep the manager live', () => {
    expect(leavesNoManager([boss, rep], rep, { ...rep, disabled: true })).toBe(false);
    expect(leavesNoManager([boss], boss, { ...boss })).toBe(false);
  });
});

describe('visibleUsers', () => {
  const list = [
    p('b', 'staff', { name: 'bea' }),
    p('a', 'staff', { name: 'Al', disabled: true }),
    p('c', 'staff', { name: 'Cy', disabled: true, deletedAt: 1 }),
  ];
  it('hides soft-deleted people unless asked, keeps disabled ones, sorts by name', () => {
    expect(visibleUsers(list, false).map((u) => u.id)).toEqual(['a', 'b']);
    expect(visibleUsers(list, true).map((u) => u.id)).toEqual(['a', 'b', 'c']);
  });
  it('breaks ties on name by e-mail', () => {
    const same = [p('z', 'staff', { name: 'User' }), p('m', 'staff', { name: 'User' })];
    expect(visibleUsers(same, false).map((u) => u.email)).toEqual(['m@x.test', 'z@x.test']);
  });
});

describe('diff and describeAudit', () => {
  it('lists only changed fields, from what to what', () => {
    const c = diff({ email: 'a@x.test', name: 'User', role: 'staff' }, { email: 'a@x.test', name: 'Ann', role: 'manager' });
    expect(c).toEqual({ name: { from: 'User', to: 'Ann' }, role: { from: 'staff', to: 'manager' } });
    expect(describeAudit('update', c)).toBe('Edited: Name User → Ann; Role staff → manager');
  });
  it('treats a new record as changed from nothing', () => {
    const c = diff(null, { email: 'a@x.test', name: 'Ann' });
    expect(c).toEqual({ email: { from: null, to: 'a@x.test' }, name: { from: null, to: 'Ann' } });
    expect(describeAudit('create', c)).toBe('Added: Email a@x.test; Name Ann');
  });
  it('shows an asked e-mail change with both addresses', () => {
    expect(describeAudit('email change', { email: { from: 'a@x.test', to: 'b@x.test' } })).toBe(
      'E-mail change asked (waits for its link to be opened): Email a@x.test → b@x.test',
    );
  });
  it('names status changes plainly', () => {
    expect(describeAudit('delete', { disabled: { from: false, to: true } })).toBe('Soft-deleted');
    expect(describeAudit('restore', {})).toBe('Restored');
    expect(describeAudit('update', {})).toBe('Edited');
  });
});
