import { describe, expect, it } from 'vitest';
import { codeFromName, isTimeZone, readCode, storePath } from './stores';

describe('stores', () => {
  it('reads a code as an address or a form writes it, and nothing else', () => {
    expect(readCode(' nsh ')).toBe('NSH');
    expect(readCode('N')).toBeNull();
    expect(readCode('NORTHSIDE')).toBeNull();
    expect(readCode('N-H')).toBeNull();
    expect(readCode('__proto__')).toBeNull();
    expect(readCode(7)).toBeNull();
  });

  it('makes a code of a name: its initials, else its first word', () => {
    expect(codeFromName('Northside Honda')).toBe('NH');
    expect(codeFromName('Lakeside Motors of Greater Springfield County Area Now')).toBe('LMOGSCAN');
    expect(codeFromName('Toyota')).toBe('TOYOTA');
    expect(codeFromName('Ö')).toBe('MAIN');
    // A name whose code the portal reads as something else (the group's marker) gets the default.
    expect(codeFromName('Group')).toBe('MAIN');
  });

  it('knows a time zone', () => {
    expect(isTimeZone('America/Chicago')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  it('puts a screen in its store', () => {
    expect(storePath('NSH', '/dashboard/routing')).toBe('/s/NSH/dashboard/routing');
    expect(storePath('NSH', 'dashboard')).toBe('/s/NSH/dashboard');
  });
});
