import { describe, it, expect } from 'vitest';
import { normalizeRole, effectiveRole, normalizeName, normalizeEmail, DEFAULT_NAME } from './roles';

describe('normalizeRole', () => {
  it('keeps manager in any case and spacing', () => {
    expect(normalizeRole('manager')).toBe('manager');
    expect(normalizeRole('  MANAGER ')).toBe('manager');
  });

  it.each(['staff', 'admin', '', '  ', 'managers', null, undefined, 1, {}])('turns %s into staff', (r) => {
    expect(normalizeRole(r)).toBe('staff');
  });
});

describe('effectiveRole', () => {
  it('takes the first non-empty candidate', () => {
    expect(effectiveRole('Manager', 'staff', 'staff')).toBe('manager');
    expect(effectiveRole('staff', 'manager', 'manager')).toBe('staff');
  });

  it('skips empty, blank and missing candidates', () => {
    expect(effectiveRole(null, '  ', 'manager')).toBe('manager');
    expect(effectiveRole(undefined, ' Manager ')).toBe('manager');
  });

  it('normalises an unknown first candidate to staff rather than falling through', () => {
    expect(effectiveRole('owner', 'manager')).toBe('staff');
  });

  it('defaults to staff', () => {
    expect(effectiveRole()).toBe('staff');
    expect(effectiveRole(null, undefined, '')).toBe('staff');
  });
});

describe('normalizeName', () => {
  it('trims', () => {
    expect(normalizeName('  Ann Lee ')).toBe('Ann Lee');
  });

  it.each(['', '   ', null, undefined, 42])('defaults %s to User', (n) => {
    expect(normalizeName(n)).toBe(DEFAULT_NAME);
    expect(DEFAULT_NAME).toBe('User');
  });
});

describe('normalizeEmail', () => {
  it('trims and lower-cases', () => {
    expect(normalizeEmail('  Ann.Lee@Dealer.COM ')).toBe('ann.lee@dealer.com');
  });
});
