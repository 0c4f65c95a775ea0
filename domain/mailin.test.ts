import { describe, expect, it } from 'vitest';
import { labelledFields, senderDomain } from './mailin';

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
