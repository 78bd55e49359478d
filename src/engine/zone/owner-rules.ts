// Rules on the records of one owner that a server applies when it loads a zone, beyond those of
// checks.ts: DNAME is a singleton, DS never sits at the apex, an RRset fits BIND's storage, and
// the apex's CDS and CDNSKEY records name algorithms its DNSKEY set has. Each names its RFC, or
// BIND's behaviour where BIND goes further than an RFC (README, "Zone files").
import { TYPES } from '../dns/rdata/types';
import { problem } from './problem';
import { dataOctets, sameData } from './rows';
import type { ZoneProblem, ZoneRecord } from './types';

/**
 * BIND keeps an RRset in one block of at most 65,535 octets. Measured with named-checkzone 9.18
 * on RRsets of one to five records of TXT and of an unknown type, at short and long owners: the
 * data plus 2 octets per record may come to at most 65,512 (the other 23 are BIND's own). Such
 * an RRset would not fit in one message either (RFC 1035 section 4.2.2: at most 65,535 octets).
 */
export const MAX_RRSET_OCTETS = 65512;

const DNAME = TYPES.DNAME.code;

export function checkOwnerRules(
  key: string,
  apex: string | undefined,
  records: readonly ZoneRecord[],
  out: ZoneProblem[],
): void {
  // Every owner comes here and nearly all break none of the rules: one pass to know which to run.
  let dnames = 0;
  let octets = 0;
  for (const r of records) {
    octets += dataOctets(r) + 2;
    if (r.typeCode === DNAME) dnames++;
  }
  if (dnames > 1) checkDname(records, out);
  if (key === apex) {
    for (const r of records) {
      if (r.type === 'DS') {
        out.push(
          problem(
            'ds-at-apex',
            'error',
            'DS record at the zone apex: a DS set belongs to the parent zone (RFC 4034 section 5, RFC 4035 section 2.4)',
            r,
          ),
        );
      }
    }
  }
  if (octets > MAX_RRSET_OCTETS) checkRrsetSize(records, out);
}

/** RFC 6672 section 2.4: no name holds more than one DNAME record. */
function checkDname(records: readonly ZoneRecord[], out: ZoneProblem[]): void {
  let first: ZoneRecord | undefined;
  for (const r of records) {
    if (r.type !== 'DNAME') continue;
    if (first === undefined) first = r;
    else if (!sameData(r, first)) {
      out.push(
        problem(
          'multiple-dname',
          'error',
          `${r.owner} has more than one DNAME (RFC 6672 section 2.4)`,
          r,
        ),
      );
    }
  }
}

/** The record with which an RRset grows past MAX_RRSET_OCTETS (duplicates count once). */
function checkRrsetSize(records: readonly ZoneRecord[], out: ZoneProblem[]): void {
  const sizes = new Map<string, { octets: number; wires: Set<string> }>();
  for (const r of records) {
    let set = sizes.get(r.type);
    if (set === undefined) sizes.set(r.type, (set = { octets: 0, wires: new Set() }));
    if (set.wires.has(r.wire)) continue;
    const before = set.octets;
    set.wires.add(r.wire);
    set.octets += r.wire.length / 2 + 2;
    if (before <= MAX_RRSET_OCTETS && set.octets > MAX_RRSET_OCTETS) {
      out.push(
        problem(
          'rrset-too-large',
          'error',
          `the ${r.type} records of ${r.owner} come to ${set.octets} octets with this one, more than the ${MAX_RRSET_OCTETS} an RRset can hold in BIND (and nearly a whole DNS message)`,
          r,
        ),
      );
    }
  }
}

/**
 * BIND's check of the apex's CDS and CDNSKEY sets (RFC 7344, RFC 8078) when it loads a zone:
 * each algorithm they name is one of the apex's DNSKEY records; they need a DNSKEY set at all;
 * the delete forms (CDS `0 0 0 00`, CDNSKEY `0 3 0 AA==`, RFC 8078 section 4) stand alone in
 * their set. Returns the records refused, whose key checks need not be reported again.
 */
export function checkApexCds(
  records: readonly ZoneRecord[],
  out: ZoneProblem[],
): Set<ZoneRecord> | undefined {
  let refused: Set<ZoneRecord> | undefined;
  const keyAlgorithms = new Set<number>();
  for (const r of records) if (r.type === 'DNSKEY') keyAlgorithms.add(octet(r.wire, 3));
  for (const type of ['CDS', 'CDNSKEY'] as const) {
    const set = records.filter((r) => r.type === type);
    if (set.length === 0) continue;
    const deleting = set.filter((r) => r.wire === DELETE_WIRE[type]);
    for (const r of set) {
      let why: string | undefined;
      if (r.wire === DELETE_WIRE[type]) {
        if (deleting.length < set.length) {
          why = `a ${type} delete record (RFC 8078 section 4) stands alone in its set`;
        }
      } else {
        const algorithm = octet(r.wire, type === 'CDS' ? 2 : 3);
        if (deleting.length > 0) {
          why = `${type} records beside the delete record (RFC 8078 section 4)`;
        } else if (keyAlgorithms.size === 0) {
          why = `${type} at the apex, which has no DNSKEY records (RFC 7344 section 4.1)`;
        } else if (!keyAlgorithms.has(algorithm)) {
          why = `${type} names algorithm ${algorithm}, which no DNSKEY of the apex has (RFC 7344 section 4.1)`;
        }
      }
      if (why === undefined) continue;
      (refused ??= new Set()).add(r);
      out.push(problem(`${type.toLowerCase()}-without-dnskey`, 'error', why, r));
    }
  }
  return refused;
}

/** The canonical wire form (hex) of the delete records of RFC 8078 section 4. */
const DELETE_WIRE = { CDS: '0000000000', CDNSKEY: '0000030000' };

function octet(hex: string, index: number): number {
  return parseInt(hex.slice(index * 2, index * 2 + 2), 16);
}
