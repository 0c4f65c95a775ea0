import { describe, expect, it } from 'vitest';
import { labelledFields, senderDomain, slowFrom, tooSlow } from './mailin';

describe('labelledFields', () => {
  it('reads a web form mail', () => {
    const text = [
      'New inquiry from your website',
      '',
      'Name: Dana Whitfield',
      'Phone: (843) 555-0142',
      'E-mail: dana@example.com',
      'Vehicle of interest: 2024 Honda Pilot EX-L',
      'Comments: Is it still available?',
      'Can I come Saturday?',
      '',
      'Sent by FormMailer',
    ].join('\r\n');
    expect(labelledFields(text)).toEqual({
      customer: 'Dana Whitfield',
      phone: '(843) 555-0142',
      email: 'dana@example.com',
      vehicle: '2024 Honda Pilot EX-L',
      comments: 'Is it still available?\nCan I come Saturday?',
    });
  });

  it('makes the name from first and last, reads quoted lines, keeps the first value of a field', () => {
    const text = '> First Name: Ana\n> Last Name: Ruiz\n> Email: <ana@example.org>\n> Phone: 555-0100\n> Phone: 555-0199';
    expect(labelledFields(text)).toMatchObject({ customer: 'Ana Ruiz', email: 'ana@example.org', phone: '555-0100' });
  });

  it('finds nothing in a mail without labels', () => {
    expect(labelledFields('Hi, please call me back about the truck.\nThanks')).toEqual({ customer: '', phone: '', email: '', vehicle: '', comments: '' });
  });

  it('stops comments at the next label', () => {
    expect(labelledFields('Comments: hello\nthere\nName: Bo')).toMatchObject({ comments: 'hello\nthere', customer: 'Bo' });
  });
});

describe('senderDomain', () => {
  it('is the domain of an address, lower case', () => {
    expect(senderDomain('Leads@Cars.COM')).toBe('cars.com');
    expect(senderDomain('')).toBe('');
  });
});

describe('the slowest a message may come in by SMTP', () => {
  const rule = { bytesPerSecond: 100, graceMs: 10_000 };
  it('is never too slow in its grace period, whatever it has sent', () => {
    expect(tooSlow(0, 0, 9_999, rule)).toBe(false);
    expect(tooSlow(0, 0, 10_000, rule)).toBe(true);
  });
  it('after it, is too slow under the minimum on average since DATA began', () => {
    expect(tooSlow(0, 2_000, 20_000, rule)).toBe(false);
    expect(tooSlow(0, 1_999, 20_000, rule)).toBe(true);
    // One byte every 40 s: too slow as soon as the grace ends.
    expect(tooSlow(0, 1, 10_000, rule)).toBe(true);
  });
  it('says when to look again: the first moment it may be too slow', () => {
    expect(slowFrom(1_000, 0, rule)).toBe(11_000);
    expect(slowFrom(1_000, 5_000, rule)).toBe(51_000);
    expect(tooSlow(1_000, 5_000, 51_000, rule)).toBe(false);
    expect(tooSlow(1_000, 5_000, 51_001, rule)).toBe(true);
  });
  it('has no minimum at 0 bytes a second', () => {
    expect(slowFrom(0, 0, { bytesPerSecond: 0, graceMs: 0 })).toBe(Infinity);
    expect(tooSlow(0, 0, 1e12, { bytesPerSecond: 0, graceMs: 0 })).toBe(false);
  });
});
