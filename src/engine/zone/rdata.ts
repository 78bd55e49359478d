// Record data from presentation tokens to canonical wire form (names uncompressed, lower case:
// RFC 4034 section 6.2) and canonical presentation. Both sides of every comparison (duplicates,
// drift) go through here, so "1.2.3.4" and "\# 4 01020304" are the same record.
import type { Token } from './lexer';
import { escapeOctets, unescapeOctets } from './lexer';
import { readIPv4, readIPv6 } from './addresses';
import { isNameError, nameToWire, parseName } from './names';
import { ALGORITHMS, typeCode, typeName, typeSpec, type FieldKind } from './rrtypes';
import { parseTtl } from './ttl';
import { encodeLoc } from './loc';
import { encodeSvcParams } from './svcb';
import { WireWriter } from './writer';

export interface RdataError {
  code: string;
  message: string;
  /** index of the offending token; the token count when input ended too early */
  token: number;
}

export interface Rdata {
  /** canonical wire form, hex */
  wire: string;
  data: string;
  /** key of the name a NS, MX, SRV or CNAME points at, and the index of its token */
  target?: string;
  targetToken?: number;
  serial?: number;
  minimum?: number;
}

export class RdataFailure extends Error {
  constructor(readonly failure: RdataError) {
    super(failure.message);
  }
}

function fail(code: string, message: string, token: number): never {
  throw new RdataFailure({ code, message, token });
}

export function parseRdata(
  type: string,
  tokens: Token[],
  origin: string | undefined,
): Rdata | RdataError {
  // Failures unwind by exception from deep in a field reader; a file with thousands of bad
  // lines must not pay for a stack trace each.
  const stackLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    if (tokens.length > 0 && tokens[0].kind === 'word' && tokens[0].text === '\\#') {
      return parseGeneric(tokens);
    }
    const spec = typeSpec(type);
    if (spec === undefined) {
      return {
        code: 'unknown-type',
        message: `${type} needs the RFC 3597 form \\# <length> <hex>`,
        token: 0,
      };
    }
    const reader = new Reader(tokens, origin);
    wire.reset();
    const { fields } = spec;
    let data = '';
    let target: string | undefined;
    let targetToken: number | undefined;
    let parts: string[] | undefined;
    if (fields.length === 1) {
      data = readField(fields[0], reader, wire, type);
      if (spec.target === 0) {
        target = data.toLowerCase();
        targetToken = 0;
      }
    } else {
      parts = [];
      for (let index = 0; index < fields.length; index++) {
        const at = reader.index;
        const text = readField(fields[index], reader, wire, type);
        parts.push(text);
        if (index === spec.target) {
          target = text.toLowerCase();
          targetToken = at;
        }
      }
      data = parts.join(' ');
    }
    if (!reader.done()) fail('extra-rdata', 'extra input after the record data', reader.index);
    if (parts !== undefined && (type === 'DS' || type === 'CDS')) {
      checkDigest(parts, wire.length, reader.index - 1);
    }
    const result: Rdata = { wire: wire.hex(), data };
    if (target !== undefined) {
      result.target = target;
      result.targetToken = targetToken;
    }
    if (parts !== undefined && type === 'SOA') {
      result.serial = Number(parts[2]);
      result.minimum = Number(parts[6]);
    }
    return result;
  } catch (err) {
    if (err instanceof RdataFailure) return err.failure;
    throw err;
  } finally {
    Error.stackTraceLimit = stackLimit;
  }
}

/** Record data is parsed one record at a time, so one buffer serves them all. */
const wire = new WireWriter();

class Reader {
  index = 0;
  constructor(
    readonly tokens: Token[],
    readonly origin: string | undefined,
  ) {}
  done(): boolean {
    return this.index >= this.tokens.length;
  }
  next(what: string): Token {
    const token = this.tokens[this.index];
    if (token === undefined) fail('missing-rdata', `missing ${what}`, this.index);
    this.index++;
    return token;
  }
  /** every token left, for the fields that run to the end */
  rest(what: string): Token[] {
    if (this.done()) fail('missing-rdata', `missing ${what}`, this.index);
    const out = this.tokens.slice(this.index);
    this.index = this.tokens.length;
    return out;
  }
}

function parseGeneric(tokens: Token[]): Rdata {
  const lengthToken = tokens[1];
  if (lengthToken === undefined || !/^\d+$/.test(lengthToken.text)) {
    fail('bad-generic', 'RFC 3597 data needs a length after \\#', 1);
  }
  const length = Number(lengthToken.text);
  const hex = tokens
    .slice(2)
    .map((t) => t.text)
    .join('');
  if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2 !== 0) fail('bad-hex', 'bad hex data', 2);
  if (hex.length / 2 !== length) {
    fail('bad-generic', `RFC 3597 length ${length} but ${hex.length / 2} octets of data`, 1);
  }
  // validated hex of even length: its octets' hex is the same digits in lower case
  const lower = hex.toLowerCase();
  return { wire: lower, data: length === 0 ? '\\# 0' : `\\# ${length} ${lower}` };
}

export function genericText(wire: number[]): string {
  return wire.length === 0 ? '\\# 0' : `\\# ${wire.length} ${Buffer.from(wire).toString('hex')}`;
}

function isDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

function number(text: string, max: number, code: string, token: number, what: string): number {
  if (!isDigits(text)) fail(code, `${what} "${text}" is not a number`, token);
  const value = Number(text);
  if (value > max) fail(code, `${what} ${text} is out of range (at most ${max})`, token);
  return value;
}

function readField(kind: FieldKind, r: Reader, out: WireWriter, type: string): string {
  const at = r.index;
  switch (kind) {
    case 'u8': {
      const v = number(r.next('a number').text, 255, 'bad-number', at, 'value');
      out.u8(v);
      return String(v);
    }
    case 'caa-flags': {
      const v = number(r.next('the CAA flags').text, 255, 'bad-caa-flags', at, 'CAA flags');
      out.u8(v);
      return String(v);
    }
    case 'u16':
    case 'port': {
      const what = kind === 'port' ? 'port' : 'value';
      const v = number(
        r.next(kind === 'port' ? 'the port' : 'a number').text,
        65535,
        kind === 'port' ? 'bad-port' : 'bad-number',
        at,
        what,
      );
      out.u16(v);
      return String(v);
    }
    case 'u32': {
      const v = number(r.next('a number').text, 4294967295, 'bad-number', at, 'value');
      out.u32(v);
      return String(v);
    }
    case 'ttl': {
      const text = r.next('a time value').text;
      const v = parseTtl(text);
      if (v === undefined) fail('bad-ttl', `"${text}" is not a time value`, at);
      out.u32(v);
      return String(v);
    }
    case 'alg': {
      const text = r.next('the algorithm').text;
      const named = ALGORITHMS[text.toUpperCase()];
      const v = named ?? number(text, 255, 'bad-number', at, 'algorithm');
      out.u8(v);
      return String(v);
    }
    case 'ipv4': {
      const text = r.next('an IPv4 address').text;
      if (!readIPv4(text, out.buffer, out.reserve(4))) {
        fail('bad-address', `"${text}" is not an IPv4 address`, at);
      }
      return text;
    }
    case 'ipv6': {
      const text = r.next('an IPv6 address').text;
      const canonical = readIPv6(text, out.buffer, out.reserve(16));
      if (canonical === undefined) fail('bad-address', `"${text}" is not an IPv6 address`, at);
      return canonical;
    }
    case 'name': {
      const token = r.next('a name');
      const name = parseName(token.text, r.origin);
      if (isNameError(name)) fail(name.code, name.message, at);
      nameToWire(name.key, out);
      return name.key;
    }
    case 'string':
      return charString(r.next('a character-string'), at, out);
    case 'strings': {
      r.rest('a character-string');
      if (r.tokens.length === at + 1) return charString(r.tokens[at], at, out);
      const texts: string[] = [];
      for (let i = at; i < r.tokens.length; i++) texts.push(charString(r.tokens[i], i, out));
      return texts.join(' ');
    }
    case 'caa-tag': {
      const text = r.next('the CAA tag').text;
      if (!/^[A-Za-z0-9]+$/.test(text))
        fail('bad-caa-tag', `CAA tag "${text}" is not alphanumeric`, at);
      out.counted(Buffer.from(text.toLowerCase()));
      return text.toLowerCase();
    }
    case 'caa-value':
    case 'uri-target': {
      const token = r.next(kind === 'uri-target' ? 'the target URI' : 'the CAA value');
      if (kind === 'uri-target' && token.kind !== 'quoted') {
        fail('syntax', 'the URI target must be a quoted string', at);
      }
      const octets = unescapeOctets(token.text);
      if (octets === undefined) fail('bad-escape', 'an escape \\DDD is over 255', at);
      out.octets(octets);
      return `"${escapeOctets(octets, true)}"`;
    }
    case 'base64': {
      const text = r
        .rest('base64 data')
        .map((t) => t.text)
        .join('');
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) {
        fail('bad-base64', 'bad base64 data', at);
      }
      const bytes = Buffer.from(text, 'base64');
      out.octets(bytes);
      return bytes.toString('base64');
    }
    case 'hex': {
      const text = r
        .rest('hex data')
        .map((t) => t.text)
        .join('');
      if (!/^[0-9a-fA-F]+$/.test(text) || text.length % 2 !== 0)
        fail('bad-hex', 'bad hex data', at);
      out.octets(Buffer.from(text, 'hex'));
      return text.toLowerCase();
    }
    case 'salt': {
      const text = r.next('the salt').text;
      if (text === '-') {
        out.u8(0);
        return '-';
      }
      if (!/^[0-9a-fA-F]+$/.test(text) || text.length % 2 !== 0 || text.length > 510) {
        fail('bad-hex', `bad salt "${text}"`, at);
      }
      out.counted(Buffer.from(text, 'hex'));
      return text.toLowerCase();
    }
    case 'b32hex': {
      const text = r.next('the next hashed owner').text;
      const bytes = base32hex(text);
      if (bytes === undefined) fail('bad-base32', `bad base32hex "${text}"`, at);
      out.counted(bytes);
      return text.toLowerCase();
    }
    case 'types': {
      const codes = new Set<number>();
      for (let i = r.index; i < r.tokens.length; i++) {
        const c = typeCode(r.tokens[i].text);
        if (c === undefined) fail('unknown-type', `unknown type "${r.tokens[i].text}"`, i);
        codes.add(c);
      }
      r.index = r.tokens.length;
      const sorted = [...codes].sort((a, b) => a - b);
      out.octets(typeBitmap(sorted));
      return sorted.map(typeName).join(' ');
    }
    case 'type': {
      const text = r.next('a type').text;
      const c = typeCode(text);
      if (c === undefined) fail('unknown-type', `unknown type "${text}"`, at);
      out.u16(c);
      return typeName(c);
    }
    case 'time': {
      const text = r.next('a time').text;
      const v = sigTime(text);
      if (v === undefined) fail('bad-time', `"${text}" is not a YYYYMMDDHHmmSS time`, at);
      out.u32(v);
      return String(v);
    }
    case 'svcparams': {
      const tokens = r.tokens.slice(r.index);
      r.index = r.tokens.length;
      const encoded = encodeSvcParams(tokens);
      if ('message' in encoded) fail('bad-svcparam', encoded.message, at + encoded.token);
      out.octets(encoded.wire);
      return encoded.text;
    }
    case 'loc': {
      const tokens = r.tokens.slice(r.index);
      r.index = r.tokens.length;
      const encoded = encodeLoc(tokens.map((t) => t.text));
      if (typeof encoded === 'string') fail('bad-loc', encoded, at);
      out.octets(encoded);
      return tokens.map((t) => t.text.toUpperCase()).join(' ');
    }
    default:
      return fail('syntax', `no reader for ${type}`, at);
  }
}

/** A character-string into `out` (length first); its text in canonical quoted form. */
function charString(token: Token, index: number, out: WireWriter): string {
  const { text } = token;
  if (text.length <= 255 && isPlainPrintable(text)) {
    // Printable ASCII with nothing to escape, the usual TXT string: its octets are its
    // characters and its canonical form is itself in quotes.
    const at = out.reserve(text.length + 1);
    out.buffer[at] = text.length;
    out.buffer.write(text, at + 1, text.length, 'latin1');
    return `"${text}"`;
  }
  const octets = unescapeOctets(text);
  if (octets === undefined) fail('bad-escape', 'an escape \\DDD is over 255', index);
  if (octets.length > 255) {
    fail('string-too-long', `character-string of ${octets.length} octets (at most 255)`, index);
  }
  out.counted(octets);
  return `"${escapeOctets(octets, true)}"`;
}

/** Space to "~" without the two characters a quoted string escapes (`"` and `\`). */
function isPlainPrintable(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

const B32 = '0123456789abcdefghijklmnopqrstuv';

function base32hex(text: string): number[] | undefined {
  const bits: number[] = [];
  let acc = 0;
  let n = 0;
  for (const ch of text.toLowerCase()) {
    const v = B32.indexOf(ch);
    if (v < 0) return undefined;
    acc = (acc << 5) | v;
    n += 5;
    if (n >= 8) {
      bits.push((acc >>> (n - 8)) & 0xff);
      n -= 8;
    }
  }
  return bits;
}

/** The type bit maps of NSEC and NSEC3 (RFC 4034 section 4.1.2). */
export function typeBitmap(sorted: number[]): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < sorted.length) {
    const window = sorted[i] >> 8;
    const bitmap: number[] = [];
    while (i < sorted.length && sorted[i] >> 8 === window) {
      const low = sorted[i] & 0xff;
      while (bitmap.length <= low >> 3) bitmap.push(0);
      bitmap[low >> 3] |= 0x80 >> (low & 7);
      i++;
    }
    out.push(window, bitmap.length, ...bitmap);
  }
  return out;
}

function sigTime(text: string): number | undefined {
  if (/^\d{14}$/.test(text)) {
    const ms = Date.UTC(
      Number(text.slice(0, 4)),
      Number(text.slice(4, 6)) - 1,
      Number(text.slice(6, 8)),
      Number(text.slice(8, 10)),
      Number(text.slice(10, 12)),
      Number(text.slice(12, 14)),
    );
    return Number.isNaN(ms) ? undefined : (ms / 1000) % 2 ** 32;
  }
  if (/^\d{1,10}$/.test(text) && Number(text) <= 4294967295) return Number(text);
  return undefined;
}

/** Splits an over-long character-string into pieces of at most 255 octets, for a quick fix. */
export function splitCharString(text: string): string[] {
  const octets = unescapeOctets(text) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < octets.length; i += 255) {
    pieces.push(`"${escapeOctets(octets.slice(i, i + 255), true)}"`);
  }
  return pieces;
}

/** Digest lengths of the DS digest types (IANA "Delegation Signer Digest Algorithms"). */
const DIGEST_LENGTHS: Record<string, number> = { '1': 20, '2': 32, '3': 32, '4': 48 };

function checkDigest(parts: string[], wireLength: number, token: number): void {
  const expected = DIGEST_LENGTHS[parts[2]];
  const actual = wireLength - 4;
  if (expected !== undefined && actual !== expected) {
    fail('bad-digest', `digest type ${parts[2]} needs ${expected} octets, not ${actual}`, token);
  }
}
