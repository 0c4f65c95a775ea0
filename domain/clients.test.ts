import { describe, expect, it } from 'vitest';
import { clientKey } from './clients';

describe('clientKey', () => {
  it('counts an IPv4 client by its address, also when it comes IPv4-mapped', () => {
    expect(['203.0.113.7', '::ffff:203.0.113.7', '::FFFF:cb00:7107', '0:0:0:0:0:ffff:203.0.113.7'].map(clientKey)).toEqual(Array(4).fill('203.0.113.7'));
    expect(clientKey('203.0.113.8')).not.toBe(clientKey('203.0.113.7'));
  });

  it('counts an IPv6 client by its /64, however the address is written', () => {
    const one = ['2001:db8:1:2::1', '2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2:a:b:c:d', '2001:db8:1:2::9%eth0', '2001:db8:1:2::198.51.100.1'];
    expect(one.map(clientKey)).toEqual(Array(one.length).fill('2001:db8:1:2::/64'));
    expect(clientKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1')).toBe('fe80:0:0:0::/64');
  });

  it('keeps anything else as it came, and names a missing address', () => {
    expect([undefined, '', 'a:b:c', '1::2::3', '2001:db8::12345', 'host.example'].map(clientKey)).toEqual([
      'unknown',
      'unknown',
      'a:b:c',
      '1::2::3',
      '2001:db8::12345',
      'host.example',
    ]);
  });
});
