// One reply turned into the contract's records, or into an outcome: NXDOMAIN, NODATA, or a
// failure code. Only records on the asked name's CNAME chain are used, each with its own TTL;
// names are printed in presentation form and character-strings by the rules of
// presentation.ts (UTF-8 when valid, `\DDD` escapes otherwise).
import ipaddr from 'ipaddr.js';
import type { DnsRecord, RecordType, TypeFailure } from '../../contract/shapes';
import { bytesText, escapedText, isUtf8, nameText } from './presentation';
import {
  CLASS_IN,
  MalformedMessage,
  RCODE,
  readName,
  sameName,
  TYPE_CNAME,
  TYPE_CODES,
  type Labels,
  type WireMessage,
  type WireRecord,
} from './wire';

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
  const { message, rdataOffset: at, rdataLength: length, ttl } = record;
  const end = at + length;
  const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
  const need = (bytes: number) => {
    if (length < bytes) throw new MalformedMessage(`${type} data too short`);
  };
  const name = (offset: number) => {
    const read = readName(message, offset);
    if (read.next > end) throw new MalformedMessage(`${type} name runs past its record`);
    return { text: nameText(read.labels), next: read.next };
  };
  switch (type) {
    case 'A':
      if (length !== 4) throw new MalformedMessage('A data is not 4 octets');
      return { type, value: message.subarray(at, end).join('.'), ttl };
    case 'AAAA':
      if (length !== 16) throw new MalformedMessage('AAAA data is not 16 octets');
      return {
        type,
        value: ipaddr.fromByteArray([...message.subarray(at, end)]).toString(),
        ttl,
      };
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return { type, value: name(at).text, ttl };
    case 'MX':
      need(3);
      return { type, value: name(at + 2).text, priority: view.getUint16(at), ttl };
    case 'SRV':
      need(7);
      return {
        type,
        priority: view.getUint16(at),
        weight: view.getUint16(at + 2),
        port: view.getUint16(at + 4),
        value: name(at + 6).text,
        ttl,
      };
    case 'SOA': {
      const mname = name(at);
      const rname = name(mname.next);
      if (rname.next + 20 !== end) throw new MalformedMessage('SOA data has the wrong length');
      const n = (i: number) => view.getUint32(rname.next + 4 * i);
      return {
        type,
        mname: mname.text,
        rname: rname.text,
        serial: n(0),
        refresh: n(1),
        retry: n(2),
        expire: n(3),
        min_ttl: n(4),
        ttl,
      };
    }
    case 'TXT':
      return txtRecord(characterStrings(message.subarray(at, end)), ttl);
    case 'CAA': {
      // RFC 8659 section 4.1: flags, tag length, tag, then the value to the end of the data.
      need(2);
      const tagLength = message[at + 1];
      if (2 + tagLength > length) throw new MalformedMessage('CAA tag runs past its record');
      const tag = message.subarray(at + 2, at + 2 + tagLength);
      return {
        type,
        flags: message[at],
        tag: escapedText(tag),
        value: bytesText(message.subarray(at + 2 + tagLength, end)),
        ttl,
      };
    }
  }
}

function characterStrings(data: Uint8Array): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let i = 0; i < data.length;) {
    const length = data[i];
    if (i + 1 + length > data.length) throw new MalformedMessage('TXT string runs past its record');
    parts.push(data.subarray(i + 1, i + 1 + length));
    i += 1 + length;
  }
  return parts;
}

/**
 * A TXT record's strings as `value` (joined) and `parts`. The choice between UTF-8 text and the
 * escaped form is made once for the whole record, on the joined bytes: a UTF-8 character cut
 * between two strings still reads as text in `value`, and only that part is shown escaped.
 */
export function txtRecord(strings: Uint8Array[], ttl?: number): DnsRecord {
  const joined = Buffer.concat(strings);
  const asText = isUtf8(joined);
  const value = asText ? joined.toString('utf8') : escapedText(joined);
  const parts = strings.map((s) => (asText ? bytesText(s) : escapedText(s)));
  return { type: 'TXT', value, parts, ...(ttl !== undefined ? { ttl } : {}) };
}
