import ipaddr from 'ipaddr.js';

/** Why an address is not on the public internet; fetch_url refuses these unless the policy allows the host. */
export type AddressRange =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'multicast'
  | 'broadcast'
  | 'unspecified'
  | 'carrier-grade NAT'
  | 'cloud metadata'
  | 'reserved';

/**
 * Cloud instance-metadata endpoints: they hand out credentials to whoever asks from inside the
 * machine. 168.63.129.16 (Azure's wire server) sits in a public range, so the range checks alone
 * would let it through.
 */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '168.63.129.16', '100.100.100.200', '192.0.0.192', 'fd00:ec2::254']);

const IPV4_RANGES: Record<string, AddressRange | undefined> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
  reserved: 'reserved',
  as112: 'reserved',
  amt: 'reserved',
};

const IPV6_RANGES: Record<string, AddressRange | undefined> = {
  unspecified: 'unspecified',
  linkLocal: 'link-local',
  multicast: 'multicast',
  loopback: 'loopback',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'private',
};

/**
 * The range an IP address (v4 or v6, as a string) belongs to, or null when it is an ordinary
 * public address. IPv6 forms that carry an IPv4 address (mapped, translated, NAT64, 6to4) are
 * judged by the IPv4 address inside them, since that is where the packets end up. Anything that is
 * not a valid address is 'reserved': the caller refuses what it cannot place.
 */
export function classifyAddress(address: string): AddressRange | null {
  if (!ipaddr.isValid(address)) return 'reserved';
  const parsed = ipaddr.parse(address);
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()) || METADATA_ADDRESSES.has(parsed.toString())) return 'cloud metadata';
  if (parsed.kind() === 'ipv4') {
    const range = parsed.range();
    return range === 'unicast' ? null : (IPV4_RANGES[range] ?? 'reserved');
  }
  const v6 = parsed as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded) return classifyAddress(embedded);
  const range = v6.range();
  if (range === 'unicast') {
    // ::/96 (IPv4-compatible, deprecated) holds no public hosts; some stacks still route it to IPv4.
    return v6.parts.slice(0, 6).every((part) => part === 0) ? 'reserved' : null;
  }
  return IPV6_RANGES[range] ?? 'reserved';
}

/** The IPv4 address an IPv6 address stands for, when it is one of the forms that embed one. */
function embeddedIPv4(v6: ipaddr.IPv6): string | null {
  const p = v6.parts;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  switch (v6.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
      return v4(p[6] ?? 0, p[7] ?? 0);
    case 'rfc6052': // 64:ff9b::a.b.c.d (the well-known NAT64 prefix); 64:ff9b:1::/48 is local use
      return p[2] === 0 ? v4(p[6] ?? 0, p[7] ?? 0) : '0.0.0.0';
    case '6to4': // 2002:aabb:ccdd::/48
      return v4(p[1] ?? 0, p[2] ?? 0);
    default:
      return null;
  }
}

/** "a loopback address", "an unspecified address": for messages. */
export function describeRange(range: AddressRange): string {
  return `${range === 'unspecified' ? 'an' : 'a'} ${range} address`;
}
