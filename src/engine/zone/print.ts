// A zone's records as a server holds them once loaded, one master-file line each (owner, TTL,
// class, type, data; names absolute), in the order and form BIND's `named-compilezone -s full`
// writes them, so the two outputs can be compared line by line:
// - one RRset per owner and type, its TTL the first record's (RFC 2181 section 5.2: the TTLs
//   of an RRset are one; BIND keeps the first and warns), a record repeated only once;
// - owners in the canonical order of RFC 4034 section 6.1, each RRset's written as its first
//   record's (BIND keeps the owner's case per RRset);
// - at an owner SOA first, then NS, then the other types by number, each type's signatures
//   (RRSIG) right after it;
// - in an RRset, the records in the canonical order of their data (RFC 4034 section 6.3);
// - NSEC3 records (and their signatures) after all others, as BIND keeps them in a tree apart;
// - base64 and hex in pieces of 56 characters, hex and base32hex in capitals;
// - types BIND dumps in the RFC 3597 form (those it does not know, KEYDATA) as TYPEnnn \\# ...
import { presentationText, splitLabels } from '../dns/names';
import { genericText, parseRdata } from '../dns/rdata/text';
import { specOf } from '../dns/rdata/types';
import { tokenizeLine } from './lexer';
import type { ZoneRecord } from './types';

interface RRset {
  owner: string;
  key: string;
  type: string;
  rank: number;
  ttl: number;
  records: ZoneRecord[];
  wires: Set<string>;
}

export function printRecords(records: readonly ZoneRecord[]): string[] {
  const sets = new Map<string, RRset>();
  for (const r of records) {
    const rank = dumpRank(r);
    const id = `${r.key} ${r.typeCode} ${rank}`;
    let set = sets.get(id);
    if (set === undefined) {
      set = {
        owner: r.owner,
        key: r.key,
        type: r.type,
        rank,
        ttl: r.ttl,
        records: [],
        wires: new Set(),
      };
      sets.set(id, set);
    }
    if (set.wires.has(r.wire)) continue;
    set.wires.add(r.wire);
    set.records.push(r);
  }
  const labels = new Map<string, number[][]>();
  const labelsOf = (key: string) => {
    let found = labels.get(key);
    if (found === undefined) {
      found = (splitLabels(key) ?? []).reverse();
      labels.set(key, found);
    }
    return found;
  };
  const NSEC3 = 50;
  const apart = (set: RRset) => (set.rank >> 1 === NSEC3 + 2 ? 1 : 0);
  const ordered = [...sets.values()].sort(
    (a, b) =>
      apart(a) - apart(b) || compareLabels(labelsOf(a.key), labelsOf(b.key)) || a.rank - b.rank,
  );
  const lines: string[] = [];
  for (const set of ordered) {
    const owner = presentationText(set.owner);
    const data = set.records.sort((a, b) => compareWire(a.wire, b.wire));
    for (const r of data) {
      const generic = dumpedGeneric(r);
      const type = generic ? `TYPE${r.typeCode}` : r.type;
      const text = generic ? genericText(Buffer.from(r.wire, 'hex'), 'bind') : bindStyle(r);
      lines.push(`${owner} ${set.ttl} IN ${type} ${text}`);
    }
  }
  return lines;
}

/**
 * Whether BIND's dump writes the record in the RFC 3597 form: a type the table does not have,
 * or one BIND dumps so though it reads its form (KEYDATA).
 */
function dumpedGeneric(r: ZoneRecord): boolean {
  const spec = specOf(r.typeCode);
  return spec === undefined || spec.dumpsGeneric === true;
}

/** The record's data as BIND's dump writes it: its text read again in that style. */
function bindStyle(r: ZoneRecord): string {
  const parsed = parseRdata(r.type, tokenizeLine(r.data).tokens, '.', 'bind');
  if ('code' in parsed) return r.data;
  // data of its type with no presentation of it (an AMTRELAY relay type past 3)
  return parsed.data.startsWith('\\# ')
    ? genericText(Buffer.from(parsed.wire, 'hex'), 'bind')
    : parsed.data;
}

/**
 * Where a record's RRset goes among its owner's: SOA, NS, then the rest by type number, an
 * RRSIG right after the type it covers (the order BIND's master-file dump sorts them in).
 */
function dumpRank(r: ZoneRecord): number {
  const RRSIG = 46;
  const covered = r.typeCode === RRSIG ? parseInt(r.wire.slice(0, 4), 16) : r.typeCode;
  const rank = covered === 6 ? 0 : covered === 2 ? 1 : covered + 2;
  return rank * 2 + (r.typeCode === RRSIG ? 1 : 0);
}

/** Names as label octets from the root down, lower case: RFC 4034 section 6.1. */
function compareLabels(a: number[][], b: number[][]): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const x = a[i];
    const y = b[i];
    for (let k = 0; k < x.length && k < y.length; k++) {
      if (x[k] !== y[k]) return x[k] - y[k];
    }
    if (x.length !== y.length) return x.length - y.length;
  }
  return a.length - b.length;
}

/** Canonical wire forms (hex of equal case) as octets: shorter first when one starts the other. */
function compareWire(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
