// One reply turned into the contract's records, or into an outcome: NXDOMAIN, NODATA, or a
// failure code. Only records on the asked name's CNAME chain are used, each with its own TTL;
// the records' data is read by the codecs of the type table (rdata/json.ts).
import type { DnsRecord, RecordType, TypeFailure } from '../../contract/shapes';
import { readName, sameName, type Labels } from './names';
import { recordJson } from './rdata/json';
import { CLASS_IN, RCODE, TYPE_CNAME, TYPE_CODES, type WireMessage, type WireRecord } from './wire';

export type TypeOutcome =
  | { kind: 'records'; records: DnsRecord[] }
  | { kind: 'nxdomain' }
  | { kind: 'nodata' }
  /** `reason`: what went wrong on the way, when the code alone does not say (a certificate) */
  | { kind: 'failed'; code: TypeFailure['code']; reason?: string }
  | { kind: 'cancelled' };

/** Longer chains than this are a loop or an attack, not a configuration. */
const MAX_CHAIN = 16;

/**
 * The answer records that answer `type` at `name`: those of the name itself, or of the last
 * name of the CNAME chain that starts at it. Records owned by any other name are ignored.
 */
export function chainRecords(reply: WireMessage, name: Labels, type: number): WireRecord[] {
  const inClass = reply.answers.filter((r) => r.class === CLASS_IN);
  let current = name;
  for (let hop = 0; hop <= MAX_CHAIN; hop++) {
    const owned = inClass.filter((r) => sameName(r.owner, current));
    const matching = owned.filter((r) => r.type === type);
    if (matching.length > 0 || type === TYPE_CNAME) return matching;
    const alias = owned.find((r) => r.type === TYPE_CNAME);
    if (alias === undefined) return [];
    current = readName(alias.message, alias.rdataOffset).labels;
  }
  return [];
}

/** What one reply says about one type at one name. */
export function outcomeOf(reply: WireMessage, name: Labels, type: RecordType): TypeOutcome {
  switch (reply.rcode) {
    case RCODE.NOERROR:
    case RCODE.NXDOMAIN: {
      const records = chainRecords(reply, name, TYPE_CODES[type]).map((r) => toRecord(r, type));
      if (records.length > 0) return { kind: 'records', records };
      return reply.rcode === RCODE.NXDOMAIN ? { kind: 'nxdomain' } : { kind: 'nodata' };
    }
    case RCODE.SERVFAIL:
      return { kind: 'failed', code: 'servfail' };
    case RCODE.REFUSED:
      return { kind: 'failed', code: 'refused' };
    default:
      // FORMERR, NOTIMP, BADVERS...: the nameserver's answer was unusable.
      return { kind: 'failed', code: 'upstream_error' };
  }
}

/** The contract's record for one resource record of the asked type. */
export function toRecord(record: WireRecord, type: RecordType): DnsRecord {
  return recordJson(record.message, record.rdataOffset, record.rdataLength, type, record.ttl);
}
