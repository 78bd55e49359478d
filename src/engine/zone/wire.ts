// Resource records from DNS messages, in the same canonical form as the parser's (names
// decompressed and lower case, RFC 4034 section 6.2), so live data and file data compare
// octet for octet; and their presentation, for showing a difference.
import ipaddr from 'ipaddr.js';
import { escapeOctets } from './lexer';
import { TYPES, typeName, type FieldKind } from './rrtypes';
import { genericText } from './rdata';

export interface WireRecord {
  key: string;
  type: string;
  typeCode: number;
  ttl: number;
  /** canonical rdata, hex */
  wire: string;
  /** canonical presentation of the rdata */
  data: string;
}

export interface Message {
  id: number;
  flags: number;
  rcode: number;
  answers: WireRecord[];
}

export class WireError extends Error {}

/** Reads a name at `offset`, following compression pointers; returns it and the next offset. */
function readName(msg: Buffer, offset: number): { key: string; octets: number[]; next: number } {
  const labels: string[] = [];
  const octets: number[] = [];
  let next = -1;
  let at = offset;
  for (let hops = 0; hops < 128; hops++) {
    if (at >= msg.length) throw new WireError('name runs past the message');
    const len = msg[at];
    if ((len & 0xc0) === 0xc0) {
      if (next < 0) next = at + 2;
      at = ((len & 0x3f) << 8) | msg[at + 1];
      continue;
    }
    if (len === 0) {
      octets.push(0);
      return {
        key: labels.length === 0 ? '.' : `${labels.join('.')}.`,
        octets,
        next: next < 0 ? at + 1 : next,
      };
    }
    const label = [...msg.subarray(at + 1, at + 1 + len)].map((b) =>
      b >= 0x41 && b <= 0x5a ? b + 0x20 : b,
    );
    octets.push(len, ...label);
    labels.push(escapeOctets(label, false).replace(/\./g, '\\.'));
    at += len + 1;
  }
  throw new WireError('too many compression pointers');
}

/** Fixed sizes of the fields that come before a record's last variable field. */
const FIXED: Partial<Record<FieldKind, number>> = {
  u8: 1,
  alg: 1,
  'caa-flags': 1,
  u16: 2,
  port: 2,
  type: 2,
  u32: 4,
  ttl: 4,
  time: 4,
  ipv4: 4,
  ipv6: 16,
};

/** Canonical rdata and its presentation: names decompressed; unknown layouts kept as they are. */
function canonical(
  msg: Buffer,
  start: number,
  length: number,
  code: number,
): { wire: number[]; data: string } {
  const end = start + length;
  const raw = [...msg.subarray(start, end)];
  const spec = TYPES[typeName(code)];
  if (spec === undefined) return { wire: raw, data: genericText(raw) };
  const wire: number[] = [];
  const parts: string[] = [];
  let at = start;
  let presentable = true;
  for (const kind of spec.fields) {
    if (at > end) throw new WireError('rdata shorter than its type needs');
    const size = FIXED[kind];
    if (size !== undefined) {
      const bytes = msg.subarray(at, at + size);
      wire.push(...bytes);
      parts.push(fixedText(kind, bytes));
      at += size;
    } else if (kind === 'name') {
      const name = readName(msg, at);
      wire.push(...name.octets);
      parts.push(name.key);
      at = name.next;
    } else if (kind === 'string') {
      const len = msg[at];
      const bytes = [...msg.subarray(at + 1, at + 1 + len)];
      wire.push(len, ...bytes);
      parts.push(`"${escapeOctets(bytes, true)}"`);
      at += len + 1;
    } else {
      // The last, variable field: kept as sent.
      const rest = [...msg.subarray(at, end)];
      wire.push(...rest);
      const text = restText(kind, rest);
      if (text === undefined) presentable = false;
      else parts.push(text);
      at = end;
      break;
    }
  }
  if (at !== end) presentable = false;
  return { wire, data: presentable ? parts.join(' ') : genericText(wire) };
}

function fixedText(kind: FieldKind, bytes: Buffer): string {
  if (kind === 'ipv4') return [...bytes].join('.');
  if (kind === 'ipv6') return ipaddr.fromByteArray([...bytes]).toString();
  if (kind === 'type') return typeName(bytes.readUInt16BE(0));
  if (bytes.length === 1) return String(bytes[0]);
  if (bytes.length === 2) return String(bytes.readUInt16BE(0));
  return String(bytes.readUInt32BE(0));
}

function restText(kind: FieldKind, rest: number[]): string | undefined {
  switch (kind) {
    case 'strings': {
      const out: string[] = [];
      for (let i = 0; i < rest.length;) {
        const len = rest[i];
        out.push(`"${escapeOctets(rest.slice(i + 1, i + 1 + len), true)}"`);
        i += len + 1;
      }
      return out.join(' ');
    }
    case 'base64':
      return Buffer.from(rest).toString('base64');
    case 'hex':
      return Buffer.from(rest).toString('hex');
    case 'caa-tag': {
      const len = rest[0];
      const tag = Buffer.from(rest.slice(1, 1 + len))
        .toString('latin1')
        .toLowerCase();
      return `${tag} "${escapeOctets(rest.slice(1 + len), true)}"`;
    }
    case 'uri-target':
      return `"${escapeOctets(rest, true)}"`;
    default:
      return undefined;
  }
}

/** One DNS message (RFC 1035 section 4.1): header and answer records. */
export function parseMessage(msg: Buffer): Message {
  if (msg.length < 12) throw new WireError('message shorter than its header');
  const id = msg.readUInt16BE(0);
  const flags = msg.readUInt16BE(2);
  const qd = msg.readUInt16BE(4);
  const an = msg.readUInt16BE(6);
  let at = 12;
  for (let i = 0; i < qd; i++) at = readName(msg, at).next + 4;
  const answers: WireRecord[] = [];
  for (let i = 0; i < an; i++) {
    const owner = readName(msg, at);
    at = owner.next;
    const code = msg.readUInt16BE(at);
    const ttl = msg.readUInt32BE(at + 4);
    const length = msg.readUInt16BE(at + 8);
    at += 10;
    if (at + length > msg.length) throw new WireError('record data runs past the message');
    const { wire, data } = canonical(msg, at, length, code);
    at += length;
    answers.push({
      key: owner.key,
      type: typeName(code),
      typeCode: code,
      ttl,
      wire: Buffer.from(wire).toString('hex'),
      data,
    });
  }
  return { id, flags, rcode: flags & 0x0f, answers };
}
