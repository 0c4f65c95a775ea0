import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, readRules, ruleChanges, rulesSchema } from './rules';

describe('dealership rules', () => {
  it('default to a 10-minute response window', () => {
    expect(DEFAULT_RULES).toEqual({ responseWindowMinutes: 10 });
    expect(readRules(null)).toEqual(DEFAULT_RULES);
  });

  it('take 0 (off) or a whole number of minutes from 1 to 120', () => {
    for (const ok of [0, 1, 60, 120]) expect(rulesSchema.safeParse({ responseWindowMinutes: ok }).success).toBe(true);
    for (const bad of [-1, 121, 2.5, '10', null]) {
      const r = rulesSchema.safeParse({ responseWindowMinutes: bad });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0].message).toBe('Response window must be a whole number from 1 to 120 minutes, or 0 for off');
    }
  });

  it('read a stored record with today’s schema: unknown or broken fields fall back to their default', () => {
    expect(readRules({ responseWindowMinutes: 5, retired: true })).toEqual({ responseWindowMinutes: 5 });
    expect(readRules({ responseWindowMinutes: 500 })).toEqual(DEFAULT_RULES);
  });

  it('list what a save changed', () => {
    expect(ruleChanges({ responseWindowMinutes: 10 }, { responseWindowMinutes: 5 })).toEqual({ responseWindowMinutes: { from: 10, to: 5 } });
    expect(ruleChanges(DEFAULT_RULES, DEFAULT_RULES)).toEqual({});
  });
});
