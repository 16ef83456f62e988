import { describe, expect, it } from 'vitest';
import { classifyAddress, describeRange, type AddressRange } from './classifyAddress';

describe('classifyAddress', () => {
  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('lets the public address %s through', (address) => {
    expect(classifyAddress(address)).toBeNull();
  });

  const refused: [string, AddressRange][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.10', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['224.0.0.251', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['169.254.169.254', 'cloud metadata'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fd00:ec2:0:0:0:0:0:254', 'cloud metadata'],
    ['168.63.129.16', 'cloud metadata'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.1.1', 'private'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b:1::1', 'unspecified'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a9fe:a9fe::1', 'cloud metadata'],
    ['::7f00:1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['not an address', 'reserved'],
  ];
  it.each(refused)('refuses %s as %s', (address, range) => {
    expect(classifyAddress(address)).toBe(range);
  });

  it('describes ranges with the right article', () => {
    expect(describeRange('loopback')).toBe('a loopback address');
    expect(describeRange('unspecified')).toBe('an unspecified address');
    expect(describeRange('unique-local')).toBe('a unique-local address');
  });
});
