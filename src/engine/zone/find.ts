// What a server finds in the zone at a name an NS, MX or SRV record points at, as BIND's
// integrity checks look it up: the name's own records; the address is the child's when the name
// is at or below another delegation; nothing but a DNAME's rewrite when a DNAME sits above it
// (RFC 6672 section 2.3); else the records a wildcard synthesises (RFC 4592 section 3.3.1).
import { isAtOrBelow, parentKey } from '../dns/names';

/** The zone as the look-up needs it (names are keys). */
export interface ZoneIndex {
  readonly apex: string;
  /** owners below the apex that hold NS records */
  readonly cuts: ReadonlySet<string>;
  /** owners that hold a DNAME record */
  readonly dnames: { readonly size: number; has(key: string): boolean };
  /** whether `key` holds any record */
  exists(key: string): boolean;
  /** whether some owner lies strictly below `key` (so `key` exists, if only as a non-terminal) */
  hasNamesBelow(key: string): boolean;
}

export type Found =
  /** the records of `name` answer: the target's own, or those of the wildcard `name` */
  | { kind: 'at'; name: string }
  | { kind: 'delegated'; cut: string }
  | { kind: 'below-dname'; dname: string };

/**
 * The look-up of `target` (a key in the zone) for a record of owner `from`: a delegation's own
 * glue below its cut is looked at, as a server needs it to refer; any other cut ends the search.
 */
export function findTarget(zone: ZoneIndex, target: string, from: string): Found {
  if (zone.dnames.size > 0) {
    for (let name = parentKey(target); name !== undefined; name = parentKey(name)) {
      if (!isAtOrBelow(name, zone.apex)) break;
      if (zone.dnames.has(name)) return { kind: 'below-dname', dname: name };
    }
  }
  if (zone.cuts.size > 0) {
    for (let name: string | undefined = target; name !== undefined; name = parentKey(name)) {
      if (name === zone.apex || !isAtOrBelow(name, zone.apex)) break;
      if (zone.cuts.has(name) && name !== from) return { kind: 'delegated', cut: name };
    }
  }
  if (zone.exists(target)) return { kind: 'at', name: target };
  return { kind: 'at', name: wildcardAnswering(zone, target) ?? target };
}

/**
 * RFC 4592 section 3.3.1: a name that does not exist takes the records of the wildcard at its
 * closest encloser (the nearest existing ancestor), if there is one there.
 */
function wildcardAnswering(zone: ZoneIndex, target: string): string | undefined {
  // Cheap first: no wildcard at any ancestor, no synthesis (the usual case).
  let any = false;
  for (let name = parentKey(target); name !== undefined && !any; name = parentKey(name)) {
    if (!isAtOrBelow(name, zone.apex)) break;
    any = zone.exists(wildcardOf(name));
  }
  if (!any || zone.hasNamesBelow(target)) return undefined;
  for (let name = parentKey(target); name !== undefined; name = parentKey(name)) {
    if (!isAtOrBelow(name, zone.apex)) break;
    // the closest encloser (a wildcard below a name makes it exist)
    if (name === zone.apex || zone.exists(name) || zone.hasNamesBelow(name)) {
      return wildcardOf(name);
    }
  }
  return undefined;
}

function wildcardOf(name: string): string {
  return name === '.' ? '*.' : `*.${name}`;
}
