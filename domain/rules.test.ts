import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, readRules, ruleChanges, rulesChangeSchema, rulesSchema } from './rules';

describe('dealership rules', () => {
  it('default to a 10-minute response window', () => {
    expect(DEFAULT_RULES).toEqual({
      responseWindowMinutes: 10,
      followUpHours: 24,
      skipSnoozeMinutes: 30,
      checkInOrder: false,
      holdOut: false,
      businessHours: null,
      nextFollowUpHours: 24,
      saleCheckAbove: 25_000,
      lostReasons: ['Bought elsewhere', 'Not in market', 'No response', 'Credit', 'Duplicate'],
      notify: { lead: 'push', up_next: 'push', time_left: 'push', appointment: 'push' },
      routing: { rules: [], fallback: { floor: true }, backOfEveryLine: true },
    });
    expect(readRules(null)).toEqual(DEFAULT_RULES);
  });

  it('keep 1 to 20 lost reasons, each once and 1 to 60 characters, and a next follow-up of 1 to 336 hours', () => {
    for (const bad of [[], [''], ['Credit', 'credit'], ['x'.repeat(61)], Array.from({ length: 21 }, (_, i) => `R${i}`), 'Credit'])
      expect(rulesChangeSchema.safeParse({ lostReasons: bad }).success, JSON.stringify(bad).slice(0, 40)).toBe(false);
    expect(rulesChangeSchema.parse({ lostReasons: [' Credit ', 'Lease ended'] })).toEqual({ lostReasons: ['Credit', 'Lease ended'] });
    for (const bad of [0, 337, 1.5, '5']) expect(rulesChangeSchema.safeParse({ nextFollowUpHours: bad }).success).toBe(false);
    expect(readRules({ lostReasons: 'nonsense', nextFollowUpHours: 48 })).toMatchObject({ lostReasons: DEFAULT_RULES.lostReasons, nextFollowUpHours: 48 });
  });

  it('take a response window of 0 (off) or a whole number of minutes from 1 to 120', () => {
    for (const ok of [0, 1, 60, 120]) expect(rulesSchema.safeParse({ ...DEFAULT_RULES, responseWindowMinutes: ok }).success).toBe(true);
    for (const bad of [-1, 121, 2.5, '10', null]) {
      const r = rulesSchema.safeParse({ ...DEFAULT_RULES, responseWindowMinutes: bad });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0].message).toBe('Response window must be a whole number from 1 to 120 minutes, or 0 for off');
    }
  });

  it('take follow-up hours from 1 to 168 and a skip snooze from 1 to 240 minutes', () => {
    const error = (v: object) => rulesSchema.safeParse({ ...DEFAULT_RULES, ...v }).error?.issues[0].message;
    expect(error({ followUpHours: 168, skipSnoozeMinutes: 240 })).toBeUndefined();
    expect(error({ followUpHours: 0 })).toBe('Follow-up due must be a whole number of hours from 1 to 168');
    expect(error({ followUpHours: 169 })).toBe('Follow-up due must be a whole number of hours from 1 to 168');
    expect(error({ skipSnoozeMinutes: 241 })).toBe('Skip snooze must be a whole number of minutes from 1 to 240');
    expect(error({ checkInOrder: 'yes' })).toBe('Serve in check-in order must be on or off');
  });

  it('read a stored record with today’s schema: unknown or broken fields fall back to their default', () => {
    expect(readRules({ responseWindowMinutes: 5, retired: true })).toEqual({ ...DEFAULT_RULES, responseWindowMinutes: 5 });
    expect(readRules({ responseWindowMinutes: 500 })).toEqual(DEFAULT_RULES);
  });

  it('list what a save changed', () => {
    expect(ruleChanges(DEFAULT_RULES, { ...DEFAULT_RULES, responseWindowMinutes: 5 })).toEqual({ responseWindowMinutes: { from: 10, to: 5 } });
    expect(ruleChanges(DEFAULT_RULES, DEFAULT_RULES)).toEqual({});
  });
});
