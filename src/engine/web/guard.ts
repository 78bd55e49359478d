// The address guard of the server mode: only globally routable unicast addresses may be
// connected to. It is applied to the address a socket is about to use (inside the DNS lookup
// undici's connector calls) and again to the address it actually connected, so a name whose
// answer changes between look-ups (DNS rebinding) cannot reach an internal service.
import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';
import { LookupError } from '../../contract/errors';

export interface AddressGuard {
  /** Why the address is refused, or undefined when it may be connected. */
  refusal(address: string): string | undefined;
}

/**
 * Builds the guard. `allowCidrs` is the operator's escape hatch (an internal range they do
 * want reachable); everything that is not plain global unicast is refused otherwise.
 */
export function createAddressGuard(allowCidrs: readonly string[] = []): AddressGuard {
  const allowed = allowCidrs.map((cidr) => {
    try {
      return ipaddr.parseCIDR(cidr);
    } catch {
      throw new LookupError('invalid_argument', `"${cidr}" is not an address range (CIDR)`);
    }
  });
  return {
    refusal(address: string): string | undefined {
      const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
      if (isIP(bare) === 0) return 'not an IP address';
      const parsed = ipaddr.parse(bare);
      for (const [range, bits] of allowed) {
        if (parsed.kind() === range.kind() && parsed.match(range, bits)) return undefined;
      }
      const range = parsed.range();
      // ipaddr.js names everything special; only its catch-all "unicast" is public.
      return range === 'unicast' ? undefined : range;
    },
  };
}
