import { describe, expect, it } from 'vitest';
import { emailDomain, parseEmail } from './email';

describe('an e-mail address', () => {
  it('is lower-cased, its parts read from the one @', () => {
    expect(parseEmail('  Ann.Lee@Dealer.COM ')).toEqual({ address: 'ann.lee@dealer.com', local: 'ann.lee', domain: 'dealer.com' });
    expect(parseEmail("o'brien+leads@sub.dealer.co.uk")?.domain).toBe('sub.dealer.co.uk');
  });

  it('takes an international domain in its IDNA form, and a local part in any script', () => {
    expect(parseEmail('Jörg@Bücher.de')).toEqual({ address: 'jörg@xn--bcher-kva.de', local: 'jörg', domain: 'xn--bcher-kva.de' });
    expect(emailDomain('bücher.de')).toBe('xn--bcher-kva.de');
  });

  it.each([
    ['"x@demo-dealer.com@"@attacker.example', 'a quoted local part'],
    ['evil@demo-dealer.com@attacker.example', 'a second @'],
    ['"evil"@demo-dealer.com', 'quotes'],
    ['evil(demo-dealer.com)@attacker.example', 'a comment'],
    ['\u212Aate@dealer.test', 'a Kelvin sign (NFKC: K)'],
    ['kate@\u212Aealer.test', 'a Kelvin sign in the domain'],
    ['ſam@dealer.test', 'a long s (NFKC: s)'],
    ['ａnn@dealer.test', 'a full-width letter'],
    ['ann@dealer。test', 'an ideographic full stop'],
    ['ann\u200b@dealer.test', 'a zero-width space'],
    ['ann@dealer.test.', 'a trailing dot'],
    ['ann@dealer', 'a single label'],
    ['ann@127.0.0.1', 'an IP address'],
    ['ann@[127.0.0.1]', 'an address literal'],
    ['ann@-dealer.test', 'a label starting with a hyphen'],
    ['ann@dealer..test', 'an empty label'],
    ['.ann@dealer.test', 'a leading dot'],
    ['an..n@dealer.test', 'two dots'],
    ['ann dealer@x.com', 'a space'],
    ['ann@', 'no domain'],
    ['@dealer.com', 'no local part'],
    [`${'a'.repeat(65)}@dealer.test`, 'a local part over 64'],
  ])('refuses %j (%s)', (input) => expect(parseEmail(input)).toBeNull());
});
