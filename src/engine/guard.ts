// The address guard of the server mode: in `hostlens serve`, nothing a caller names (a URL, a
// nameserver, a redirect, a WHOIS referral, an RDAP base) may make this host connect to an
// address that is not globally routable unicast. Every outbound connection of the engine passes
// it: web fetches, DNS over UDP, TCP, TLS and HTTPS, WHOIS port 43 and its referrals, RDAP
// bootstrap, base and redirect requests (and TLS inspection and link checks).
//
// How to use it (the whole API):
//   const guard = createAddressGuard(allowCidrs);  // once per operation or service
//   guard.refusal(address)      -> undefined when allowed, else why not ('loopback', ...)
//   guard.check(address)        -> throws LookupError('blocked_target') when refused
//   guardedLookup(guard)        -> a `lookup` for net.connect/tls.connect/undici that resolves,
//                                  then refuses the name if any of its addresses is refused
//   checkConnected(socket, guard) -> after 'connect': throws blocked_target (and destroys the
//                                  socket) unless its remote address passes
// Apply it to the address actually connected (checkConnected, or a socket opened to an address
// already checked): a name whose answer changes between look-ups (DNS rebinding) must not reach
// an internal service.
//
// An IPv6 address that carries an IPv4 address is judged by that IPv4 address: IPv4-mapped
// (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d, RFC 4291 section 2.5.5.1, so ::7f00:1 is
// 127.0.0.1), NAT64 (64:ff9b::/96, RFC 6052) and 6to4 (2002:AABB:CCDD::/48, RFC 3056).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import { LookupError } from '../contract/errors';

export interface AddressGuard {
  /** Why the address is refused, or undefined when it may be connected. */
  refusal(address: string): string | undefined;
  /** Throws blocked_target when the address is refused. */
  check(address: string): void;
}

/**
 * ipaddr.js names every special-purpose range; its catch-all "unicast" is public, and so are
 * the anycast services IANA's special-purpose registries list as globally reachable (AS112,
 * RFC 7534 and RFC 7535; AMT relays, RFC 7450).
 */
const GLOBAL_RANGES = new Set(['unicast', 'as112', 'as112v6', 'amt']);

/** The first 96 bits of the NAT64 well-known prefix 64:ff9b::/96 (RFC 6052 section 2.1). */
const NAT64_PARTS = [0x64, 0xff9b, 0, 0, 0, 0];

/**
 * The address a string names, as ipaddr.js parses it, with brackets and a zone index removed
 * and any IPv4 address carried inside an IPv6 one taken out. Undefined when it is not an IP.
 */
export function normaliseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(bare) === 0) return undefined;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv4') return parsed;
  return embeddedIPv4(parsed as ipaddr.IPv6) ?? parsed;
}

function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const fromParts = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  // IPv4-compatible ::a.b.c.d; :: and ::1 are the IPv6 unspecified and loopback addresses.
  if (p.slice(0, 6).every((part) => part === 0) && (p[6] !== 0 || p[7] > 1)) {
    return fromParts(p[6], p[7]);
  }
  if (p.slice(0, 6).every((part, i) => part === NAT64_PARTS[i])) return fromParts(p[6], p[7]);
  if (p[0] === 0x2002) return fromParts(p[1], p[2]);
  return undefined;
}

/**
 * Builds the guard. `allowCidrs` is the operator's escape hatch (an internal range they do
 * want reachable); everything that is not global unicast is refused otherwise.
 */
export function createAddressGuard(allowCidrs: readonly string[] = []): AddressGuard {
  const allowed = allowCidrs.map((cidr) => {
    try {
      const [range, bits] = ipaddr.parseCIDR(cidr);
      // A mapped range (::ffff:10.0.0.0/104) allows what it maps, like the addresses it meets.
      if (range.kind() === 'ipv6' && (range as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
        return [(range as ipaddr.IPv6).toIPv4Address(), bits - 96] as const;
      }
      return [range, bits] as const;
    } catch {
      throw new LookupError('invalid_argument', `"${cidr}" is not an address range (CIDR)`);
    }
  });
  const refusal = (address: string): string | undefined => {
    const parsed = normaliseAddress(address);
    if (parsed === undefined) return 'not an IP address';
    for (const [range, bits] of allowed) {
      if (parsed.kind() === range.kind() && parsed.match(range, bits)) return undefined;
    }
    const range = parsed.range();
    return GLOBAL_RANGES.has(range) ? undefined : range;
  };
  return {
    refusal,
    check(address: string): void {
      const why = refusal(address);
      if (why !== undefined) throw blockedTarget(why);
    },
  };
}

/**
 * A CIDR range in canonical form (its network address, compressed IPv6): 10.1.2.3/8 is
 * 10.0.0.0/8. Undefined for text that is not a range.
 */
export function canonicalRange(cidr: string): string | undefined {
  if (!/^[0-9a-f:.]+\/\d{1,3}$/i.test(cidr)) return undefined;
  try {
    const [range, bits] = ipaddr.parseCIDR(cidr);
    const network =
      range.kind() === 'ipv4'
        ? ipaddr.IPv4.networkAddressFromCIDR(cidr)
        : ipaddr.IPv6.networkAddressFromCIDR(cidr);
    return `${network.toString()}/${bits}`;
  } catch {
    return undefined;
  }
}

/** The error of a refused address. The detail names the kind of address, never the address. */
export function blockedTarget(why: string): LookupError {
  return new LookupError(
    'blocked_target',
    `The target is at a ${why} address, which this service does not connect to`,
  );
}

/** Resolves a host name to all its addresses (the system's resolver unless one is given). */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

/** The system resolver's every address for a name, in its order. */
export const systemResolveAll: ResolveAll = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses),
    ),
  );

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` option for net.connect, tls.connect and undici's connector: resolves the name
 * (an IP literal stands for itself) and refuses it as blocked_target when any of its addresses
 * is refused, so one private answer among public ones cannot be picked by a later retry.
 */
export function guardedLookup(guard: AddressGuard | undefined, resolveAll?: ResolveAll) {
  const resolve = resolveAll ?? systemResolveAll;
  return (
    hostname: string,
    options: { family?: number | string; all?: boolean },
    callback: LookupCallback,
  ): void => {
    const literal = hostname.replace(/^\[|\]$/g, '');
    const found =
      isIP(literal) !== 0
        ? Promise.resolve([{ address: literal, family: isIP(literal) }])
        : resolve(hostname);
    found
      .then((addresses) => {
        if (addresses.length === 0) {
          throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
        }
        for (const a of addresses) guard?.check(a.address);
        const family =
          options.family === 'IPv6' ? 6 : options.family === 'IPv4' ? 4 : options.family;
        const wanted =
          family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
        if (options.all === true) callback(null, wanted);
        else if (wanted.length === 0) {
          callback(
            Object.assign(new Error(`${hostname} has no IPv${family} address`), {
              code: 'ENOTFOUND',
            }),
            '',
          );
        } else callback(null, wanted[0].address, wanted[0].family);
      })
      .catch((err: NodeJS.ErrnoException) => callback(err, ''));
  };
}

/**
 * Checks the address a connected socket really reached; on refusal the socket is destroyed and
 * blocked_target thrown. Call it on 'connect' (or 'secureConnect') before writing a byte.
 */
export function checkConnected(socket: Socket, guard: AddressGuard | undefined): void {
  if (guard === undefined) return;
  const remote = socket.remoteAddress;
  const why = remote === undefined ? 'unknown' : guard.refusal(remote);
  if (why !== undefined) {
    socket.destroy();
    throw blockedTarget(why);
  }
}
