import { describe, expect, it } from 'vitest';
import { clientKey, parseIpv6, refusedAddress } from './net';

describe('the addresses a request may not reach', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['0.0.0.0', 'this network'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['100.100.100.200', 'shared'],
    ['192.0.0.192', 'protocol assignments'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'not global unicast'],
    ['[::1]', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fd00:ec2::254', 'unique local'],
    ['fc00::1', 'unique local'],
    ['::ffff:127.0.0.1', 'loopback, inside an IPv6 address'],
    ['::ffff:7f00:1', 'loopback, inside an IPv6 address'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:0a00:0001::', 'private'],
    ['::127.0.0.1', 'not global unicast'],
    ['ff02::1', 'not global unicast'],
    ['2001:db8::1', 'documentation'],
    ['2001:0:4136:e378::1', 'Teredo'],
    ['127.1', 'not an IP address'],
    ['localhost', 'not an IP address'],
    ['fe80::1%eth0', 'not an IP address'],
  ])('refuses %s (%s)', (ip, why) => expect(refusedAddress(ip)).toContain(why));

  it.each(['8.8.8.8', '142.250.74.10', '172.32.0.1', '100.128.0.1', '2607:f8b0:4004:c1b::5f', '::ffff:8.8.8.8', '2002:0808:0808::'])('lets %s through', (ip) =>
    expect(refusedAddress(ip)).toBeNull(),
  );

  it('reads IPv6 in its short and long forms', () => {
    expect(parseIpv6('::1')).toEqual([...Array<number>(15).fill(0), 1]);
    expect(parseIpv6('1:2:3:4:5:6:7:8')).toEqual(parseIpv6('1:2:3:4:5:6:0.7.0.8'));
    for (const bad of ['1::2::3', '1:2:3:4:5:6:7', '1:2:3:4:5:6:7:8:9', '12345::', ':1', 'g::1']) expect(parseIpv6(bad)).toBeNull();
  });
});

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
