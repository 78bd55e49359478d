// DNS messages at the byte level (RFC 1035 section 4, RFC 6891 for OPT). Names are kept as
// label bytes, not strings: a label may hold any octet (a space, a dot, non-UTF-8 bytes), and
// only bytes survive that round trip. The one message parser of the engine: record look-ups,
// DNSSEC validation and the zone drift read replies through it, and the records' data through
// the type table's codecs (rdata/).
import { MalformedMessage } from './errors';
import { readName, type Labels } from './names';

export const CLASS_IN = 1;
export const TYPE_OPT = 41;
export const TYPE_CNAME = 5;
export const EDNS_UDP_PAYLOAD = 1232;

export { MalformedMessage };
export type { Labels };

export const TYPE_CODES = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  DS: 43,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  NSEC3: 50,
  NSEC3PARAM: 51,
  TLSA: 52,
  CAA: 257,
} as const;

export const RCODE = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
} as const;

export interface WireRecord {
  owner: Labels;
  type: number;
  class: number;
  ttl: number;
  /** the whole message, so names inside rdata can follow compression pointers */
  message: Uint8Array;
  rdataOffset: number;
  rdataLength: number;
}

export interface WireMessage {
  id: number;
  /** QR, OPCODE, AA, TC, RD, RA, Z, AD, CD bits (the RCODE nibble masked off) */
  flags: number;
  /** the full RCODE: the header nibble plus the OPT record's upper eight bits */
  rcode: number;
  question: { name: Labels; type: number; class: number } | undefined;
  answers: WireRecord[];
  authorities: WireRecord[];
  additionals: WireRecord[];
  /** the OPT pseudo-record, when the reply carries one (EDNS0) */
  opt: { udpPayload: number; version: number; flags: number } | undefined;
}

export const FLAG_QR = 0x8000;
export const FLAG_TC = 0x0200;
export const FLAG_RD = 0x0100;
export const FLAG_CD = 0x0010;
export const EDNS_DO = 0x8000;

function readRecord(message: Uint8Array, view: DataView, start: number) {
  const { labels, next } = readName(message, start);
  if (next + 10 > message.length) throw new MalformedMessage('record header runs past the end');
  const type = view.getUint16(next);
  const klass = view.getUint16(next + 2);
  // RFC 2181 section 8: a TTL with the top bit set is read as zero. OPT (RFC 6891) keeps the
  // field as it is: it carries the extended RCODE, version and flags there.
  const rawTtl = view.getUint32(next + 4);
  const ttl = type !== 41 && rawTtl >= 0x80000000 ? 0 : rawTtl;
  const rdataLength = view.getUint16(next + 8);
  const rdataOffset = next + 10;
  if (rdataOffset + rdataLength > message.length) {
    throw new MalformedMessage('record data runs past the end');
  }
  const record: WireRecord = {
    owner: labels,
    type,
    class: klass,
    ttl,
    message,
    rdataOffset,
    rdataLength,
  };
  return { record, next: rdataOffset + rdataLength };
}

/** Parses a whole message; throws MalformedMessage when any part does not parse. */
export function parseMessage(message: Uint8Array): WireMessage {
  if (message.length < 12) throw new MalformedMessage('shorter than a header');
  const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
  const id = view.getUint16(0);
  const rawFlags = view.getUint16(2);
  const counts = [4, 6, 8, 10].map((o) => view.getUint16(o));
  let offset = 12;
  let question: WireMessage['question'];
  for (let i = 0; i < counts[0]; i++) {
    const { labels, next } = readName(message, offset);
    if (next + 4 > message.length) throw new MalformedMessage('question runs past the end');
    if (i === 0) {
      question = { name: labels, type: view.getUint16(next), class: view.getUint16(next + 2) };
    }
    offset = next + 4;
  }
  const sections: WireRecord[][] = [[], [], []];
  for (let s = 0; s < 3; s++) {
    for (let i = 0; i < counts[s + 1]; i++) {
      const { record, next } = readRecord(message, view, offset);
      sections[s].push(record);
      offset = next;
    }
  }
  let opt: WireMessage['opt'];
  let rcode = rawFlags & 0x000f;
  for (const record of sections[2]) {
    if (record.type !== TYPE_OPT) continue;
    if (opt !== undefined) throw new MalformedMessage('two OPT records');
    // The OPT TTL field: extended RCODE (8 bits), version (8 bits), flags (16 bits).
    opt = {
      udpPayload: record.class,
      version: (record.ttl >>> 16) & 0xff,
      flags: record.ttl & 0xffff,
    };
    rcode |= (record.ttl >>> 24) << 4;
  }
  return {
    id,
    flags: rawFlags & 0xfff0,
    rcode,
    question,
    answers: sections[0],
    authorities: sections[1],
    additionals: sections[2],
    opt,
  };
}

export interface QueryMessageOptions {
  /** EDNS0 with a 1232-byte payload (default true) */
  edns?: boolean;
  /** the DNSSEC OK bit (RFC 3225); implies EDNS0 */
  dnssecOk?: boolean;
  /** Checking Disabled (RFC 4035 section 3.2.2) */
  checkingDisabled?: boolean;
  /** Recursion Desired (default true) */
  recursionDesired?: boolean;
}

/** A query message: one question, RD set, and an OPT record unless `edns` is false. */
export function encodeQuery(
  id: number,
  name: Labels,
  type: number,
  options: QueryMessageOptions = {},
): Buffer {
  const edns = options.edns !== false || options.dnssecOk === true;
  const nameLength = name.reduce((n, l) => n + l.length + 1, 1);
  const size = 12 + nameLength + 4 + (edns ? 11 : 0);
  const out = Buffer.alloc(size);
  out.writeUInt16BE(id, 0);
  let flags = options.recursionDesired === false ? 0 : FLAG_RD;
  if (options.checkingDisabled === true) flags |= FLAG_CD;
  out.writeUInt16BE(flags, 2);
  out.writeUInt16BE(1, 4);
  out.writeUInt16BE(edns ? 1 : 0, 10);
  let offset = 12;
  for (const label of name) {
    out[offset++] = label.length;
    out.set(label, offset);
    offset += label.length;
  }
  out[offset++] = 0;
  out.writeUInt16BE(type, offset);
  out.writeUInt16BE(CLASS_IN, offset + 2);
  offset += 4;
  if (edns) {
    // OPT: root owner, TYPE 41, CLASS = payload size, TTL = ext-rcode/version/DO, no options.
    out[offset] = 0;
    out.writeUInt16BE(TYPE_OPT, offset + 1);
    out.writeUInt16BE(EDNS_UDP_PAYLOAD, offset + 3);
    out.writeUInt32BE(options.dnssecOk === true ? EDNS_DO : 0, offset + 5);
    out.writeUInt16BE(0, offset + 9);
  }
  return out;
}
