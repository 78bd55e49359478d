// The records of a validated answer in the contract's shape (docs/contract.md), so that with
// `dnssec=true` the records shown are exactly the ones the verdict is about, bogus ones too.
// Read by the type table's codecs as the answers of a plain look-up are (rdata/json.ts).
import type { DnsRecord, RecordType } from '../../../contract/shapes';
import { recordJson } from '../rdata/json';
import type { RRset } from './rrset';

export function contractRecords(type: RecordType, set: RRset): DnsRecord[] {
  return set.records.map((r) => recordJson(r.message, r.rdataOffset, r.rdataLength, type, set.ttl));
}
