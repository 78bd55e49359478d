// Authenticated denial of existence: what a zone's (already verified) NSEC records prove
// (RFC 4035 section 5.4, RFC 6840 section 4) and what its NSEC3 records prove (RFC 5155
// section 8, opt-out included). Pure functions of the records; never throw on odd data.
import { createHash } from 'node:crypto';
import {
  canonicalName,
  commonAncestor,
  compareNames,
  fromLabels,
  isAtOrBelow,
  isBelow,
  labelCount,
  labels,
  nameToWire,
  suffix,
} from './names';

export interface Nsec {
  owner: string;
  next: string;
  types: ReadonlySet<string>;
}

export interface Nsec3 {
  /** the zone the record belongs to (its owner without the hash label) */
  zone: string;
  hash: Buffer;
  algorithm: number;
  flags: number;
  iterations: number;
  salt: Buffer;
  next: Buffer;
  types: ReadonlySet<string>;
}

export type Denial =
  | { kind: 'nxdomain' }
  | { kind: 'nodata' }
  /** DS asked at a delegation that has none: provably unsigned below */
  | { kind: 'insecure_delegation'; optOut: boolean }
  /** NSEC3 with more iterations than validators accept (RFC 9276): treated as unsigned */
  | { kind: 'insecure'; reason: string }
  | { kind: 'unproven'; reason: string };

/** BIND's and Unbound's ceiling; RFC 9276 section 3.2 lets validators call more insecure. */
export const MAX_NSEC3_ITERATIONS = 150;

const unproven = (reason: string): Denial => ({ kind: 'unproven', reason });

export function proveDenial(
  qname: string,
  qtype: string,
  nxdomain: boolean,
  nsecs: readonly Nsec[],
  nsec3s: readonly Nsec3[],
): Denial {
  const name = canonicalName(qname);
  if (nsecs.length > 0) {
    const byNsec = nsecDenial(name, qtype, nxdomain, nsecs);
    if (byNsec.kind !== 'unproven' || nsec3s.length === 0) return byNsec;
  }
  if (nsec3s.length > 0) return nsec3Denial(name, qtype, nxdomain, nsec3s);
  return unproven('the answer carries no NSEC or NSEC3 record to prove it');
}

// ---- NSEC ----

function nsecCovers(nsec: Nsec, name: string): boolean {
  const afterOwner = compareNames(nsec.owner, name) < 0;
  const beforeNext = compareNames(name, nsec.next) < 0;
  // The last NSEC of a zone points back to the apex.
  if (compareNames(nsec.next, nsec.owner) <= 0) return afterOwner && isAtOrBelow(name, nsec.next);
  return afterOwner && beforeNext;
}

/** An NSEC at a delegation point (NS without SOA) or a DNAME says nothing about names below. */
function blocksBelow(nsec: Nsec, name: string): boolean {
  if (!isBelow(name, nsec.owner)) return false;
  return (nsec.types.has('NS') && !nsec.types.has('SOA')) || nsec.types.has('DNAME');
}

function nsecDenial(
  name: string,
  qtype: string,
  nxdomain: boolean,
  nsecs: readonly Nsec[],
): Denial {
  const matching = nsecs.find((n) => n.owner === name);
  if (matching !== undefined && !nxdomain) return nsecNodata(matching, name, qtype);
  const cover = nsecs.find((n) => nsecCovers(n, name) && !blocksBelow(n, name));
  if (cover === undefined) {
    return unproven(`no NSEC record covers ${name}`);
  }
  // The next name below the asked one: it exists as an empty non-terminal.
  if (isBelow(cover.next, name)) {
    return nxdomain
      ? unproven(`${name} is an empty non-terminal, not a missing name`)
      : { kind: 'nodata' };
  }
  const encloser = deeper(commonAncestor(name, cover.owner), commonAncestor(name, cover.next));
  const wildcard = fromLabels(['*', ...labels(encloser)]);
  const wildcardNsec = nsecs.find((n) => n.owner === wildcard);
  if (nxdomain) {
    if (wildcardNsec !== undefined) return unproven(`the wildcard ${wildcard} exists`);
    if (!nsecs.some((n) => nsecCovers(n, wildcard))) {
      return unproven(`no NSEC record proves there is no wildcard ${wildcard}`);
    }
    return { kind: 'nxdomain' };
  }
  // NODATA from a wildcard: the name is covered, the wildcard exists without the type.
  if (wildcardNsec === undefined) return unproven(`no NSEC record proves ${name} has no ${qtype}`);
  return nsecNodata(wildcardNsec, name, qtype);
}

function nsecNodata(nsec: Nsec, name: string, qtype: string): Denial {
  return nodataFromBitmap(nsec.types, `the NSEC record at ${nsec.owner}`, name, qtype);
}

/**
 * NODATA from the type bitmap of the NSEC or NSEC3 record that matches the name (RFC 4035
 * section 5.4, RFC 5155 section 8.5): the type and CNAME absent, and for DS the parent's side of
 * a delegation; `record` names the record in the reasons.
 */
function nodataFromBitmap(
  types: ReadonlySet<string>,
  record: string,
  name: string,
  qtype: string,
): Denial {
  if (types.has(qtype)) return unproven(`${record} lists ${qtype}`);
  if (types.has('CNAME')) return unproven(`${record} lists CNAME`);
  const delegation = types.has('NS') && !types.has('SOA');
  if (qtype === 'DS') {
    if (types.has('SOA') && name !== '.') {
      return unproven(`${record} comes from the child zone, not its parent`);
    }
    return delegation ? { kind: 'insecure_delegation', optOut: false } : { kind: 'nodata' };
  }
  if (delegation) return unproven(`${record} is the parent's side of a delegation`);
  return { kind: 'nodata' };
}

function deeper(a: string, b: string): string {
  return labelCount(a) >= labelCount(b) ? a : b;
}

// ---- NSEC3 ----

/** RFC 5155 section 5: iterated SHA-1 over the canonical wire name and the salt. */
export function nsec3Hash(name: string, salt: Buffer, iterations: number): Buffer {
  let digest = createHash('sha1').update(nameToWire(name)).update(salt).digest();
  for (let i = 0; i < iterations; i++) {
    digest = createHash('sha1').update(digest).update(salt).digest();
  }
  return digest;
}

function nsec3Denial(
  name: string,
  qtype: string,
  nxdomain: boolean,
  all: readonly Nsec3[],
): Denial {
  const usable = all.filter((n) => n.algorithm === 1 && (n.flags & 0xfe) === 0);
  if (usable.length === 0) return unproven('no NSEC3 record uses a known hash algorithm');
  const iterations = Math.max(...usable.map((n) => n.iterations));
  if (iterations > MAX_NSEC3_ITERATIONS) {
    return {
      kind: 'insecure',
      reason: `NSEC3 uses ${iterations} iterations, more than the ${MAX_NSEC3_ITERATIONS} validators accept (RFC 9276)`,
    };
  }
  const hashes = new Map<string, Buffer>();
  const hashOf = (n: string, rec: Nsec3) => {
    const key = `${n}|${rec.salt.toString('hex')}|${rec.iterations}`;
    let h = hashes.get(key);
    if (h === undefined) {
      h = nsec3Hash(n, rec.salt, rec.iterations);
      hashes.set(key, h);
    }
    return h;
  };
  const inZone = usable.filter((n) => isAtOrBelow(name, n.zone));
  const match = (n: string) => inZone.find((r) => hashOf(n, r).equals(r.hash));
  const cover = (n: string) =>
    inZone.find((r) => {
      const h = hashOf(n, r);
      const afterOwner = Buffer.compare(r.hash, h) < 0;
      const beforeNext = Buffer.compare(h, r.next) < 0;
      if (Buffer.compare(r.next, r.hash) <= 0) return afterOwner || beforeNext;
      return afterOwner && beforeNext;
    });

  const exact = match(name);
  if (exact !== undefined && !nxdomain) return nsec3Nodata(exact, name, qtype);

  // The closest encloser proof (RFC 5155 section 8.3).
  const zoneLabels = inZone.length > 0 ? labelCount(inZone[0].zone) : 0;
  let encloser: string | undefined;
  let encloserRecord: Nsec3 | undefined;
  for (let n = labelCount(name) - 1; n >= zoneLabels; n--) {
    const candidate = suffix(name, n);
    const found = match(candidate);
    if (found !== undefined) {
      encloser = candidate;
      encloserRecord = found;
      break;
    }
  }
  if (encloser === undefined || encloserRecord === undefined) {
    return unproven(`no NSEC3 record matches an ancestor of ${name}`);
  }
  const t = encloserRecord.types;
  if (t.has('DNAME') || (t.has('NS') && !t.has('SOA'))) {
    return unproven(`the closest encloser ${encloser} is a delegation or a DNAME`);
  }
  const nextCloser = suffix(name, labelCount(encloser) + 1);
  const nextCover = cover(nextCloser);
  if (nextCover === undefined) return unproven(`no NSEC3 record covers ${nextCloser}`);
  const wildcard = fromLabels(['*', ...labels(encloser)]);

  if (nxdomain) {
    if (cover(wildcard) === undefined) {
      return unproven(`no NSEC3 record proves there is no wildcard ${wildcard}`);
    }
    return { kind: 'nxdomain' };
  }
  // A wildcard that matches answers for the name (NODATA from it), opt-out span or not.
  const wildcardRecord = match(wildcard);
  if (wildcardRecord !== undefined) return nsec3Nodata(wildcardRecord, name, qtype);
  if (qtype === 'DS' && (nextCover.flags & 1) !== 0) {
    return { kind: 'insecure_delegation', optOut: true };
  }
  return unproven(`no NSEC3 record proves ${name} has no ${qtype}`);
}

function nsec3Nodata(rec: Nsec3, name: string, qtype: string): Denial {
  return nodataFromBitmap(rec.types, `the NSEC3 record for ${name}`, name, qtype);
}

/**
 * Whether the name a wildcard answer was made for provably does not exist itself. Covered only
 * by an NSEC3 opt-out span, an unsigned delegation could hide there: as BIND does, insecure.
 */
export function proveWildcardExpansion(
  qname: string,
  encloser: string,
  nsecs: readonly Nsec[],
  nsec3s: readonly Nsec3[],
): 'proven' | 'opt_out' | 'unproven' {
  const name = canonicalName(qname);
  if (nsecs.some((n) => nsecCovers(n, name) && !blocksBelow(n, name))) return 'proven';
  const nextCloser = suffix(name, labelCount(encloser) + 1);
  const covering = nsec3s.filter((r) => {
    if (r.algorithm !== 1 || r.iterations > MAX_NSEC3_ITERATIONS || !isAtOrBelow(name, r.zone)) {
      return false;
    }
    const h = nsec3Hash(nextCloser, r.salt, r.iterations);
    const afterOwner = Buffer.compare(r.hash, h) < 0;
    const beforeNext = Buffer.compare(h, r.next) < 0;
    return Buffer.compare(r.next, r.hash) <= 0
      ? afterOwner || beforeNext
      : afterOwner && beforeNext;
  });
  if (covering.length === 0) return 'unproven';
  return covering.some((r) => (r.flags & 1) === 0) ? 'proven' : 'opt_out';
}
