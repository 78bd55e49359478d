// What a server finds in the zone at a name an NS, MX or SRV record points at, as BIND's
// integrity checks look it up: the name's own records; the address is the child's when the name
// is at or below another delegation; nothing but a DNAME's rewrite when a DNAME sits above it
// (RFC 6672 section 2.3); else the records a wildcard synthesises (RFC 4592 section 3.3.1).
import { isAtOrBelow, parentKey } from '../dns/names';
import type { ZoneRecord } from './types';

/** The zone as the look-up needs it. */
export interface ZoneIndex {
  readonly apex: string;
  recordsAt(key: string): readonly ZoneRecord[];
  /** owners below the apex that hold NS records */
  readonly cuts: ReadonlySet<string>;
  /** whether some owner lies strictly below `key` (so `key` exists, if only as a non-terminal) */
  hasNamesBelow(key: string): boolean;
}

export type Found =
  | { kind: 'records'; records: readonly ZoneRecord[]; wildcard?: string }
  | { kind: 'delegated'; cut: string }
  | { kind: 'below-dname'; dname: string };

const NONE: Found = { kind: 'records', records: [] };

/**
 * The look-up of `target` (a key in the zone) for a record of owner `from`: a delegation's own
 * glue below its cut is looked at, as a server needs it to refer; any other cut ends the search.
 */
export function findTarget(zone: ZoneIndex, target: string, from: string): Found {
  for (let name = parentKey(target); name !== undefined; name = parentKey(name)) {
    if (!isAtOrBelow(name, zone.apex)) break;
    if (zone.recordsAt(name).some((r) => r.type === 'DNAME')) {
      return { kind: 'below-dname', dname: name };
    }
  }
  for (let name: string | undefined = target; name !== undefined; name = parentKey(name)) {
    if (name === zone.apex || !isAtOrBelow(name, zone.apex)) break;
    if (zone.cuts.has(name) && name !== from) return { kind: 'delegated', cut: name };
  }
  const records = zone.recordsAt(target);
  if (records.length > 0) return { kind: 'records', records };
  return wildcardAnswer(zone, target) ?? NONE;
}

/**
 * RFC 4592 section 3.3.1: a name that does not exist takes the records of the wildcard at its
 * closest encloser (the nearest existing ancestor), if there is one there.
 */
function wildcardAnswer(zone: ZoneIndex, target: string): Found | undefined {
  // Cheap first: no wildcard at any ancestor, no synthesis (the usual case).
  let any = false;
  for (let name = parentKey(target); name !== undefined; name = parentKey(name)) {
    if (!isAtOrBelow(name, zone.apex)) break;
    if (zone.recordsAt(wildcardOf(name)).length > 0) any = true;
  }
  if (!any || zone.hasNamesBelow(target)) return undefined;
  for (let name = parentKey(target); name !== undefined; name = parentKey(name)) {
    if (!isAtOrBelow(name, zone.apex)) break;
    const records = zone.recordsAt(name);
    if (name === zone.apex || records.length > 0 || zone.hasNamesBelow(name)) {
      // the closest encloser
      const wildcard = wildcardOf(name);
      return { kind: 'records', records: zone.recordsAt(wildcard), wildcard };
    }
  }
  return undefined;
}

function wildcardOf(name: string): string {
  return name === '.' ? '*.' : `*.${name}`;
}
