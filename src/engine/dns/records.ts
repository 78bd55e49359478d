// One reply turned into the contract's records, or into an outcome: NXDOMAIN, NODATA, or a
// failure code. Only records on the asked name's CNAME chain are used, each with its own TTL;
// the records' data is read by the codecs of the type table (rdata/json.ts).
import type { DnsRecord, RecordType, TypeFailure } from '../../contract/shapes';
import { nameText, readName, sameName, type Labels } from './names';
import { recordJson } from './rdata/json';
import { CLASS_IN, RCODE, TYPE_CNAME, TYPE_CODES, type WireMessage, type WireRecord } from './wire';

/** `chain`: the CNAME records followed from the asked name, when the answer followed any */
export type TypeOutcome =
  | { kind: 'records'; records: DnsRecord[]; chain?: DnsRecord[] }
  | { kind: 'nxdomain'; chain?: DnsRecord[] }
  | { kind: 'nodata'; chain?: DnsRecord[] }
  /** `reason`: what went wrong on the way, when the code alone does not say (a certificate) */
  | { kind: 'failed'; code: TypeFailure['code']; reason?: string }
  | { kind: 'cancelled' };

/** Longer chains than this are a loop or an attack, not a configuration. */
const MAX_CHAIN = 16;

/**
 * The answer records that answer `type` at `name`: those of the name itself, or of the last
 * name of the CNAME chain that starts at it (`owner`), with the CNAMEs followed (`links`).
 * Records owned by any other name are ignored.
 */
export function chainRecords(
  reply: WireMessage,
  name: Labels,
  type: number,
): { records: WireRecord[]; links: WireRecord[]; owner: Labels } {
  const inClass = reply.answers.filter((r) => r.class === CLASS_IN);
  const links: WireRecord[] = [];
  let current = name;
  for (let hop = 0; hop <= MAX_CHAIN; hop++) {
    // A loop ends where a name comes back: its links are then shown once each.
    if (links.some((link) => sameName(link.owner, current))) break;
    const owned = inClass.filter((r) => sameName(r.owner, current));
    const matching = owned.filter((r) => r.type === type);
    if (matching.length > 0 || type === TYPE_CNAME)
      return { records: matching, links, owner: current };
    const alias = owned.find((r) => r.type === TYPE_CNAME);
    if (alias === undefined) break;
    links.push(alias);
    current = readName(alias.message, alias.rdataOffset).labels;
  }
  return { records: [], links, owner: current };
}

/** What one reply says about one type at one name. */
export function outcomeOf(reply: WireMessage, name: Labels, type: RecordType): TypeOutcome {
  switch (reply.rcode) {
    case RCODE.NOERROR:
    case RCODE.NXDOMAIN: {
      const found = chainRecords(reply, name, TYPE_CODES[type]);
      // Records of another owner than the asked name say whose they are, as dig shows them.
      const owner = found.links.length > 0 ? nameText(found.owner) : undefined;
      const records = found.records.map((r) => owned(owner, toRecord(r, type)));
      const chain =
        found.links.length > 0
          ? { chain: found.links.map((r) => owned(nameText(r.owner), toRecord(r, 'CNAME'))) }
          : {};
      if (records.length > 0) return { kind: 'records', records, ...chain };
      return reply.rcode === RCODE.NXDOMAIN
        ? { kind: 'nxdomain', ...chain }
        : { kind: 'nodata', ...chain };
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

/** The record with its owner first, when it has one to say. */
function owned(owner: string | undefined, record: DnsRecord): DnsRecord {
  return owner === undefined ? record : { name: owner, ...record };
}

/** The contract's record for one resource record of the asked type. */
export function toRecord(record: WireRecord, type: RecordType): DnsRecord {
  return recordJson(record.message, record.rdataOffset, record.rdataLength, type, record.ttl);
}
