import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { keyword, mobileCodeSchema, mobileSchema, readMobile, showMobile } from './notices-phone';

describe('a mobile number', () => {
  it('reads E.164 and US numbers as typed', () => {
    expect(readMobile('+1 (843) 555-0123')).toBe('+18435550123');
    expect(readMobile('843.555.0123')).toBe('+18435550123');
    expect(readMobile('1 843 555 0123')).toBe('+18435550123');
    expect(readMobile('+44 7911 123456')).toBe('+447911123456');
    expect(readMobile(' +4915112345678 ')).toBe('+4915112345678');
  });

  it('refuses what is no number', () => {
    for (const bad of [
      '',
      '+',
      '555-0123',
      '+0123456789',
      '+1234567',
      '+1234567890123456',
      '043 555 0123',
      '+1 143 555 0123',
      '+1 843 155 0123',
      '843-555-012x',
      '++18435550123',
      '+1843555012３',
      'x'.repeat(10_000),
      '+1843\u00005550123',
    ])
      expect(readMobile(bad), bad).toBeNull();
  });

  it('is E.164 whenever it reads one, and reads its own answer back the same', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        const m = readMobile(s);
        if (m === null) return;
        expect(m).toMatch(/^\+[1-9][0-9]{7,14}$/);
        expect(readMobile(m)).toBe(m);
        expect(readMobile(showMobile(m))).toBe(m);
      }),
    );
    fc.assert(fc.property(fc.stringMatching(/^[2-9][0-9]{2}[2-9][0-9]{6}$/), (ten) => readMobile(ten) === `+1${ten}`));
  });

  it('shows a US number grouped', () => {
    expect(showMobile('+18435550123')).toBe('+1 843-555-0123');
    expect(showMobile('+447911123456')).toBe('+447911123456');
  });

  it('says what to type when the body is wrong', () => {
    expect(mobileSchema.safeParse({ mobile: '843 555 0123' }).data).toEqual({ mobile: '+18435550123' });
    expect(mobileSchema.safeParse({ mobile: 'nope' }).error?.issues[0].message).toMatch(/Enter a mobile number/);
    expect(mobileSchema.safeParse({ mobile: 'x'.repeat(10_000) }).error?.issues[0].message).toMatch(/Enter a mobile number/);
    expect(mobileSchema.safeParse({ mobile: 1 }).success).toBe(false);
    expect(mobileSchema.safeParse({ mobile: '8435550123', extra: 1 }).error?.issues[0].message).toBe('Unknown field: extra');
    expect(mobileCodeSchema.safeParse({ code: ' 012345 ' }).data).toEqual({ code: '012345' });
    for (const code of ['12345', '1234567', 'abcdef', '', '１２３４５６']) expect(mobileCodeSchema.safeParse({ code }).success, code).toBe(false);
  });
});

describe('a text from the phone', () => {
  it('STOP and its synonyms turn texts off, START turns them on, anything else asks nothing', () => {
    for (const w of ['STOP', 'stop', ' Stop ', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']) expect(keyword(w), w).toBe('stop');
    for (const w of ['START', 'start', 'UNSTOP', 'yes']) expect(keyword(w), w).toBe('start');
    for (const w of ['', 'stop it', 'Please stop', 'ok', 'STOP!']) expect(keyword(w), w).toBeNull();
  });
});
