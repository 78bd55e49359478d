// The records of a message in canonical form, for comparing them with records read from a
// file (drift) and for the signed data of DNSSEC: owner as a text key, record data in canonical
// wire form (names uncompressed; lower case as asked) and canonical text.
import { keyText } from '../names';
import type { WireRecord } from '../wire';
import { genericText, printRdata } from './text';
import { specOf, typeName } from './types';

export interface CanonicalRecord {
  /** owner, lower case */
  key: string;
  type: string;
  typeCode: number;
  ttl: number;
  /** canonical record data */
  wire: Buffer;
  /** canonical presentation of the record data */
  data: string;
}

/**
 * One record of a message. `lower` says which names of the data are lowered: all of them
 * (`'all'`, the comparison form of the zone parser) or those RFC 4034 section 6.2 lowers
 * (`'dnssec'`). Throws MalformedMessage when the data does not read as its type.
 */
export function canonicalRecord(record: WireRecord, lower: 'all' | 'dnssec'): CanonicalRecord {
  const { message, rdataOffset: at, rdataLength: length } = record;
  const spec = specOf(record.type);
  const base = {
    key: keyText(record.owner, true),
    type: typeName(record.type),
    typeCode: record.type,
    ttl: record.ttl,
  };
  if (spec === undefined) {
    const wire = Buffer.from(message.subarray(at, at + length));
    return { ...base, wire, data: genericText(wire) };
  }
  const printed = printRdata(message, at, length, spec, lower === 'all' || spec.downcase === true);
  return { ...base, wire: printed.wire, data: printed.text };
}
