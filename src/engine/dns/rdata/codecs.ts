// One codec per field kind of the type table (types.ts), each in three directions:
// - `read`: presentation tokens to wire form (into the writer) and canonical text;
// - `print`: wire form to the same canonical text (names lower case when the reader says so)
//   and the canonical wire form (names uncompressed) into the writer;
// - `json`: wire form to the value the contract's JSON gives the field.
// `read` and `print` give the same text for the same record: the type-table round trip test
// holds every kind to it, and compares the text with what BIND prints.
import { bytesText, escapedText, isUtf8, unescapeOctets } from '../presentation';
import { ipv6Text, readIPv4, readIPv6 } from './addresses';
import { fromBase32Hex, toBase32Hex } from './base32hex';
import { COMPOSITE_CODECS } from './composite';
import { decodeLoc, encodeLoc } from './loc';
import { name } from './name-field';
import { fail, type Token, type WireReader } from './reader';
import { decodeSvcParams, encodeSvcParams } from './svcb';
import { parseTtl } from './ttl';
import {
  ALGORITHMS,
  coveredType,
  printedTypeName,
  typeCode,
  typeMnemonic,
  typeName,
  type FieldKind,
} from './types';
import { WireWriter } from './writer';
import type { FieldCodec } from './field-codec';

export type { FieldCodec } from './field-codec';

function isDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** The failure of a decimal number over `max`, or undefined when it is one. */
function decimalFailure(text: string, max: number, what: string): string | undefined {
  if (!isDigits(text)) return `${what} "${text}" is not a number`;
  if (Number(text) > max) return `${what} ${text} is out of range (at most ${max})`;
  return undefined;
}

/**
 * A 64-bit unsigned number as IPN's registration writes it (draft-johnson-dns-ipn-cla-07
 * section 3.1, as NLnet Labs' simdzone reads it): decimal, or two 32-bit decimals joined by a
 * dot, the high half first. The value, or why the text is none.
 */
function readU64(text: string): bigint | string {
  const dot = text.indexOf('.');
  if (dot === -1) {
    if (!isDigits(text)) return `"${text}" is not a number`;
    const value = BigInt(text);
    return value <= 0xffffffffffffffffn ? value : `${text} is out of range (at most 2^64-1)`;
  }
  const high = text.slice(0, dot);
  const low = text.slice(dot + 1);
  const failure =
    decimalFailure(high, 4294967295, 'the high half') ??
    decimalFailure(low, 4294967295, 'the low half');
  return failure ?? (BigInt(high) << 32n) | BigInt(low);
}

interface ScalarSpec {
  size: 1 | 2 | 4;
  /** what a missing token is ("the port") */
  missing: string;
  code: string;
  /** the number a token stands for, or why it stands for none */
  parse: (text: string) => number | { failure: string };
  /** its canonical text (decimal when absent) */
  text?: (value: number) => string;
  /** whether the contract's JSON and value give the text rather than the number */
  asText?: boolean;
}

/** A field of one token and a fixed number of octets: numbers, types, times. */
function scalar(spec: ScalarSpec): FieldCodec {
  const { size, missing } = spec;
  const write = (out: WireWriter, v: number) =>
    size === 1 ? out.u8(v) : size === 2 ? out.u16(v) : out.u32(v);
  const get = (w: WireReader) =>
    size === 1 ? w.u8(missing) : size === 2 ? w.u16(missing) : w.u32(missing);
  const text = spec.text ?? String;
  const value = (w: WireReader) => (spec.asText === true ? text(get(w)) : get(w));
  return {
    read(r, out) {
      const at = r.index;
      const parsed = spec.parse(r.next(missing).text);
      if (typeof parsed !== 'number') fail(spec.code, parsed.failure, at);
      write(out, parsed);
      return text(parsed);
    },
    print(w, out) {
      const v = get(w);
      write(out, v);
      return text(v);
    },
    json(w, record, key) {
      record[key] = value(w);
    },
    value,
  };
}

/**
 * An unsigned number of `size` octets in decimal, or by a mnemonic of `names` (upper case);
 * printed by its mnemonic in `printNames` when it has one there.
 */
function unsigned(
  size: 1 | 2 | 4,
  missing: string,
  what: string,
  code = 'bad-number',
  names?: Record<string, number>,
  printNames?: ReadonlyMap<number, string>,
): FieldCodec {
  const max = size === 1 ? 255 : size === 2 ? 65535 : 4294967295;
  return scalar({
    size,
    missing,
    code,
    parse(text) {
      const named = names?.[text.toUpperCase()];
      if (named !== undefined) return named;
      const failure = decimalFailure(text, max, what);
      return failure === undefined ? Number(text) : { failure };
    },
    ...(printNames ? { text: (value: number) => printNames.get(value) ?? String(value) } : {}),
  });
}

/** Where `json` lets `print` write the wire form it does not keep. */
const discard = new WireWriter();

/** A codec whose JSON value (and value, unless it has one) is its printed text. */
function printed(codec: Omit<FieldCodec, 'json' | 'value'> & Partial<FieldCodec>): FieldCodec {
  const text = (w: WireReader) => {
    discard.reset();
    return codec.print(w, discard);
  };
  return {
    value: text,
    ...codec,
    json(w, record, key) {
      record[key] = text(w);
    },
  };
}

function octets(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes);
}

function copy(out: WireWriter, bytes: Uint8Array): void {
  out.octets(bytes);
}

function quoted(octets: ArrayLike<number>): string {
  return `"${escapedText(octets)}"`;
}

/** A character-string into `out` (length first); its text in canonical quoted form. */
function charString(token: Token, index: number, out: WireWriter): string {
  const { text } = token;
  if (writePlainCharString(text, out)) return `"${text}"`;
  const octets = unescapeOctets(text);
  if (octets === undefined) fail('bad-escape', 'an escape \\DDD is over 255', index);
  if (octets.length > 255) {
    fail('string-too-long', `character-string of ${octets.length} octets (at most 255)`, index);
  }
  out.counted(octets);
  return quoted(octets);
}

/**
 * Printable ASCII with nothing to escape, the usual TXT string, into `out` (length first):
 * its octets are its characters and its canonical form is itself in quotes. False, and
 * nothing written, for any other text.
 */
function writePlainCharString(text: string, out: WireWriter): boolean {
  if (text.length > 255 || !isPlainPrintable(text)) return false;
  const at = out.reserve(text.length + 1);
  out.buffer[at] = text.length;
  out.buffer.write(text, at + 1, text.length, 'latin1');
  return true;
}

/**
 * The character-strings of a TXT or SPF record into `out`, as the `strings` codec reads them
 * but without their text (it is the wire form printed, rows.ts): the zone parser's lean path
 * (text.ts, readRdata with textFromWire). False for anything that fails: the codec then reads
 * the data from the start and says why.
 */
export function writeCharStrings(tokens: Token[], out: WireWriter): boolean {
  if (tokens.length === 0) return false;
  for (const { text } of tokens) {
    if (writePlainCharString(text, out)) continue;
    const octets = unescapeOctets(text);
    if (octets === undefined || octets.length > 255) return false;
    out.counted(octets);
  }
  return true;
}

/** Space to "~" without the two characters a quoted string escapes (`"` and `\`). */
function isPlainPrintable(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/** The character-strings left in the record, as octets. */
function charStrings(w: WireReader): Uint8Array[] {
  const parts: Uint8Array[] = [];
  while (!w.done()) parts.push(w.counted('character-string'));
  return parts;
}

/**
 * Character-strings as the contract's `value` (joined) and `parts`. The choice between UTF-8
 * text and the escaped form is made once for the whole record, on the joined bytes: a UTF-8
 * character cut between two strings still reads as text in `value`, and only that part is
 * shown escaped.
 */
export function stringsJson(strings: Uint8Array[]): { value: string; parts: string[] } {
  const joined = Buffer.concat(strings);
  const asText = isUtf8(joined);
  const value = asText ? joined.toString('utf8') : escapedText(joined);
  const parts = strings.map((s) => (asText ? bytesText(s) : escapedText(s)));
  return { value, parts };
}

function tokenText(tokens: Token[]): string {
  let text = '';
  for (const t of tokens) text += t.text;
  return text;
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

/** The types of a bit map, in order. */
export function bitmapTypes(w: WireReader): number[] {
  const codes: number[] = [];
  while (!w.done()) {
    const window = w.u8('type bit map');
    const bitmap = w.counted('type bit map');
    for (let i = 0; i < bitmap.length * 8; i++) {
      if (bitmap[i >> 3] & (0x80 >> (i & 7))) codes.push(window * 256 + i);
    }
  }
  return codes;
}

/** RRSIG times (RFC 4034 section 3.2): YYYYMMDDHHmmSS, or seconds as a plain number. */
/**
 * A signed zone writes the same few inception and expiration times on every RRSIG: each is
 * read and printed once (a bounded cache of the texts and times seen).
 */
const sigTimes = new Map<string, number | undefined>();
const sigTimeTexts = new Map<number, string>();

function cached<K, V>(cache: Map<K, V>, key: K, make: (key: K) => V): V {
  const known = cache.get(key);
  if (known !== undefined || cache.has(key)) return known as V;
  if (cache.size >= 64) cache.clear();
  const value = make(key);
  cache.set(key, value);
  return value;
}

export function sigTime(text: string): number | undefined {
  return cached(sigTimes, text, readSigTime);
}

function readSigTime(text: string): number | undefined {
  if (/^\d{14}$/.test(text)) {
    const [year, month, day, hour, minute, second] = [0, 4, 6, 8, 10, 12].map((at) =>
      Number(text.slice(at, at === 0 ? 4 : at + 2)),
    );
    // each field in its range, as BIND's dns_time64_fromtext holds them (a leap second, 60,
    // counts into the next minute)
    const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
    if (month < 1 || month > 12 || day < 1 || day > days) return undefined;
    if (hour > 23 || minute > 59 || second > 60) return undefined;
    const ms = Date.UTC(year, month - 1, day, hour, minute, second);
    return (ms / 1000) % 2 ** 32;
  }
  if (/^\d{1,10}$/.test(text) && Number(text) <= 4294967295) return Number(text);
  return undefined;
}

/** A 32-bit RRSIG time as YYYYMMDDHHmmSS (the form BIND and Knot print). */
function sigTimeText(seconds: number): string {
  return cached(sigTimeTexts, seconds, (s) =>
    new Date(s * 1000).toISOString().replace(/[-T:]/g, '').slice(0, 14),
  );
}

/** Octets to the end of the record in the quoted form (CAA value, URI target). */
function quotedRest(what: string, mustQuote: boolean): FieldCodec {
  return {
    read(r, out) {
      const at = r.index;
      const token = r.next(what);
      if (mustQuote && token.kind !== 'quoted') {
        fail('syntax', `${what} must be a quoted string`, at);
      }
      const octets = unescapeOctets(token.text);
      if (octets === undefined) fail('bad-escape', 'an escape \\DDD is over 255', at);
      out.octets(octets);
      return quoted(octets);
    },
    print(w, out) {
      const rest = w.rest();
      copy(out, rest);
      return quoted(rest);
    },
    json(w, record, key) {
      record[key] = bytesText(w.rest());
    },
    value: (w) => octets(w.rest()),
  };
}

/** Text in pieces of 56 characters, as BIND's master-file dump writes base64 and hex. */
function inPieces(text: string): string {
  if (text.length <= 56) return text;
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += 56) pieces.push(text.slice(i, i + 56));
  return pieces.join(' ');
}

/**
 * Octets to the end of the record, at least one, written as one or more tokens of base64 or
 * hex; `upper` prints hex in capitals (as BIND prints EID, NIMLOC and HIP's HIT).
 */
function blob(encoding: 'base64' | 'hex', upper = false): FieldCodec {
  const valid = encoding === 'base64' ? /^[A-Za-z0-9+/]*={0,2}$/ : /^[0-9a-fA-F]+$/;
  const unit = encoding === 'base64' ? 4 : 2;
  return printed({
    read(r, out) {
      const at = r.index;
      const text = tokenText(r.rest(`${encoding} data`));
      if (!valid.test(text) || text.length % unit !== 0) {
        fail(`bad-${encoding}`, `bad ${encoding} data`, at);
      }
      // decoded straight into the record's wire form; the text is already canonical unless
      // base64 that sets bits its padding drops (then it is encoded again)
      const length = Buffer.byteLength(text, encoding);
      const into = out.reserve(length); // before reading out.buffer: reserve may replace it
      const written = out.buffer.write(text, into, length, encoding);
      if (written !== length) fail(`bad-${encoding}`, `bad ${encoding} data`, at);
      const canonical =
        encoding === 'hex'
          ? text.toLowerCase()
          : canonicalBase64(text)
            ? text
            : out.buffer.toString('base64', out.length - length, out.length);
      if (r.style === 'bind')
        return inPieces(encoding === 'hex' ? canonical.toUpperCase() : canonical);
      return upper ? canonical.toUpperCase() : canonical;
    },
    print(w, out) {
      const rest = w.rest();
      if (rest.length === 0) w.malformed(`no ${encoding} data`);
      copy(out, rest);
      const text = Buffer.from(rest.buffer, rest.byteOffset, rest.length).toString(encoding);
      return upper ? text.toUpperCase() : text;
    },
    value: (w) => octets(w.rest()),
  });
}

const BASE64_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * Whether valid base64 text (RFC 4648 section 4, its length a multiple of 4) is what encoding
 * its octets gives back: the bits of the last digit that padding drops are zero.
 */
export function canonicalBase64(text: string): boolean {
  const n = text.length;
  if (n === 0 || text.charCodeAt(n - 1) !== 0x3d) return true;
  const twoPads = text.charCodeAt(n - 2) === 0x3d;
  const last = BASE64_DIGITS.indexOf(text[twoPads ? n - 3 : n - 2]);
  return (last & (twoPads ? 0x0f : 0x03)) === 0;
}

/**
 * Octets as hex groups of `group` octets joined by `separator`: EUI-48 and EUI-64 (RFC 7043,
 * two digits a group, printed so; BIND reads one as well) and ILNP's 64-bit values (RFC 6742,
 * groups of up to four digits).
 */
function grouped(
  octets: number,
  group: 1 | 2,
  separator: string,
  what: string,
  code: string,
): FieldCodec {
  const groups = octets / group;
  const pattern = new RegExp(
    group === 1
      ? `^[0-9a-fA-F]{1,2}(${separator}[0-9a-fA-F]{1,2}){${groups - 1}}$`
      : `^[0-9a-fA-F]{1,4}(${separator}[0-9a-fA-F]{1,4}){${groups - 1}}$`,
  );
  return printed({
    read(r, out) {
      const at = r.index;
      const text = r.next(what).text;
      if (!pattern.test(text)) fail(code, `"${text}" is not ${what}`, at);
      for (const part of text.split(separator)) {
        const value = parseInt(part, 16);
        if (group === 1) out.u8(value);
        else out.u16(value);
      }
      return groupText(Buffer.from(out.buffer.subarray(out.length - octets, out.length)));
    },
    print(w, out) {
      const bytes = w.take(octets, what);
      copy(out, bytes);
      return groupText(Buffer.from(bytes));
    },
  });
  function groupText(bytes: Buffer): string {
    const parts: string[] = [];
    for (let i = 0; i < octets; i += group) {
      parts.push(
        group === 1 ? bytes.toString('hex', i, i + 1) : bytes.readUInt16BE(i).toString(16),
      );
    }
    return parts.join(separator);
  }
}

/** Certificate types (IANA "Certificate Types", RFC 4398 section 2.1) by mnemonic. */
const CERT_TYPES: Record<string, number> = {
  PKIX: 1,
  SPKI: 2,
  PGP: 3,
  IPKIX: 4,
  ISPKI: 5,
  IPGP: 6,
  ACPKIX: 7,
  IACPKIX: 8,
  URI: 253,
  OID: 254,
};
const ALGORITHM_NAMES = new Map(Object.entries(ALGORITHMS).map(([name, code]) => [code, name]));
const CERT_TYPE_NAMES = new Map(Object.entries(CERT_TYPES).map(([name, code]) => [code, name]));

const BASE64 = blob('base64');

/** DOA's data (draft-durand-doa-over-dns section 3): base64, or "-" (unquoted) for none. */
const base64Dash = printed({
  read(r, out) {
    const token = r.tokens[r.index];
    if (token?.kind === 'word' && token.text === '-' && r.index === r.tokens.length - 1) {
      r.index++;
      return '-';
    }
    return BASE64.read(r, out);
  },
  print: (w, out) => (w.done() ? '-' : BASE64.print(w, out)),
  value: (w) => BASE64.value(w),
});

/** DSYNC schemes (RFC 9859 section 5.2, IANA "DSYNC Location of Synchronization Endpoints"). */
const DSYNC_SCHEMES: Record<string, number> = { NOTIFY: 1 };
const DSYNC_SCHEME_NAMES = new Map(Object.entries(DSYNC_SCHEMES).map(([n, code]) => [code, n]));

export const CODECS: Record<FieldKind, FieldCodec> = {
  ...COMPOSITE_CODECS,
  'hex-upper': blob('hex', true),
  'base64-dash': base64Dash,
  'dsync-scheme': unsigned(
    1,
    'the scheme',
    'scheme',
    'bad-number',
    DSYNC_SCHEMES,
    DSYNC_SCHEME_NAMES,
  ),
  u8: unsigned(1, 'a number', 'value'),
  'caa-flags': unsigned(1, 'the CAA flags', 'CAA flags', 'bad-caa-flags'),
  alg: unsigned(1, 'the algorithm', 'algorithm', 'bad-number', ALGORITHMS),
  u16: unsigned(2, 'a number', 'value'),
  port: unsigned(2, 'the port', 'port', 'bad-port'),
  u32: unsigned(4, 'a number', 'value'),
  u64: printed({
    read(r, out) {
      const at = r.index;
      const value = readU64(r.next('a 64-bit number').text);
      if (typeof value === 'string') fail('bad-number', value, at);
      out.u32(Number(value >> 32n));
      out.u32(Number(value & 0xffffffffn));
      return value.toString();
    },
    print(w, out) {
      const high = w.u32('a 64-bit number');
      const low = w.u32('a 64-bit number');
      out.u32(high);
      out.u32(low);
      return ((BigInt(high) << 32n) | BigInt(low)).toString();
    },
  }),
  ttl: scalar({
    size: 4,
    missing: 'a time value',
    code: 'bad-ttl',
    parse: (text) => parseTtl(text) ?? { failure: `"${text}" is not a time value` },
  }),
  type: scalar({
    size: 2,
    missing: 'a type',
    code: 'unknown-type',
    parse: coveredType,
    text: printedTypeName,
    asText: true,
  }),
  // SIG's covered type, printed as a bare number when it has no mnemonic (as BIND prints it)
  'sig-type': scalar({
    size: 2,
    missing: 'a type',
    code: 'unknown-type',
    parse: coveredType,
    text: typeMnemonic,
    asText: true,
  }),
  time: scalar({
    size: 4,
    missing: 'a time',
    code: 'bad-time',
    parse: (text) => sigTime(text) ?? { failure: `"${text}" is not a YYYYMMDDHHmmSS time` },
    text: sigTimeText,
  }),
  ipv4: printed({
    read(r, out) {
      const at = r.index;
      const text = r.next('an IPv4 address').text;
      if (!readIPv4(text, out.buffer, out.reserve(4))) {
        fail('bad-address', `"${text}" is not an IPv4 address`, at);
      }
      return text;
    },
    print(w, out) {
      const bytes = w.take(4, 'an IPv4 address');
      copy(out, bytes);
      return bytes.join('.');
    },
  }),
  ipv6: printed({
    read(r, out) {
      const at = r.index;
      const text = r.next('an IPv6 address').text;
      const canonical = readIPv6(text, out.buffer, out.reserve(16));
      if (canonical === undefined) fail('bad-address', `"${text}" is not an IPv6 address`, at);
      return canonical;
    },
    print(w, out) {
      const bytes = w.take(16, 'an IPv6 address');
      copy(out, bytes);
      return ipv6Text(bytes);
    },
  }),
  name,
  string: printed({
    read: (r, out) => {
      const at = r.index;
      return charString(r.next('a character-string'), at, out);
    },
    print(w, out) {
      const octets = w.counted('a character-string');
      out.counted(octets);
      return quoted(octets);
    },
    value: (w) => octets(w.counted('a character-string')),
  }),
  // a character-string that may be left out, last in the data (ISDN's subaddress)
  'string-opt': printed({
    read: (r, out) => {
      const at = r.index;
      return r.done() ? '' : charString(r.next('a character-string'), at, out);
    },
    print(w, out) {
      if (w.done()) return '';
      const octets = w.counted('a character-string');
      out.counted(octets);
      return quoted(octets);
    },
  }),
  ilnp64: grouped(8, 2, ':', 'a 64-bit ILNP value', 'bad-ilnp'),
  eui48: grouped(6, 1, '-', 'an EUI-48 address', 'bad-eui'),
  eui64: grouped(8, 1, '-', 'an EUI-64 address', 'bad-eui'),
  // an algorithm printed by its mnemonic (CERT's, as BIND prints it; DNSKEY's and DS's it
  // prints as numbers)
  'alg-name': unsigned(1, 'the algorithm', 'algorithm', 'bad-number', ALGORITHMS, ALGORITHM_NAMES),
  'base64-opt': printed({
    read: (r, out) => (r.done() ? '' : BASE64.read(r, out)),
    print: (w, out) => (w.done() ? '' : BASE64.print(w, out)),
    value: (w) => BASE64.value(w),
  }),
  date: scalar({
    size: 4,
    missing: 'a time',
    code: 'bad-time',
    parse: (text) =>
      (/^\d{14}$/.test(text) ? sigTime(text) : undefined) ?? {
        failure: `"${text}" is not a YYYYMMDDHHmmSS time`,
      },
    text: sigTimeText,
  }),
  'cert-type': unsigned(
    2,
    'the certificate type',
    'certificate type',
    'bad-number',
    CERT_TYPES,
    CERT_TYPE_NAMES,
  ),
  strings: {
    read(r, out) {
      const at = r.index;
      r.rest('a character-string');
      if (r.tokens.length === at + 1) return charString(r.tokens[at], at, out);
      const texts: string[] = [];
      for (let i = at; i < r.tokens.length; i++) texts.push(charString(r.tokens[i], i, out));
      return texts.join(' ');
    },
    print(w, out) {
      const parts = charStrings(w);
      if (parts.length === 0) w.malformed('no character-string');
      for (const p of parts) out.counted(p);
      return parts.map(quoted).join(' ');
    },
    json(w, record, key) {
      const { value, parts } = stringsJson(charStrings(w));
      record[key] = value;
      record.parts = parts;
    },
    value: (w) => charStrings(w).map(octets),
  },
  'caa-tag': {
    read(r, out) {
      const at = r.index;
      const text = r.next('the CAA tag').text;
      if (!/^[A-Za-z0-9]+$/.test(text)) {
        fail('bad-caa-tag', `CAA tag "${text}" is not alphanumeric`, at);
      }
      out.counted(Buffer.from(text.toLowerCase()));
      return text.toLowerCase();
    },
    print(w, out) {
      const tag = w.counted('the CAA tag');
      out.counted(tag);
      return Buffer.from(tag).toString('latin1').toLowerCase();
    },
    json(w, record, key) {
      record[key] = escapedText(w.counted('the CAA tag'));
    },
    value: (w) => Buffer.from(w.counted('the CAA tag')).toString('latin1').toLowerCase(),
  },
  'caa-value': quotedRest('the CAA value', false),
  'uri-target': quotedRest('the URI target', true),
  base64: BASE64,
  hex: blob('hex'),
  salt: printed({
    read(r, out) {
      const at = r.index;
      const text = r.next('the salt').text;
      if (text === '-') {
        out.u8(0);
        return '-';
      }
      if (!/^[0-9a-fA-F]+$/.test(text) || text.length % 2 !== 0 || text.length > 510) {
        fail('bad-hex', `bad salt "${text}"`, at);
      }
      out.counted(Buffer.from(text, 'hex'));
      return r.style === 'bind' ? text.toUpperCase() : text.toLowerCase();
    },
    print(w, out) {
      const salt = w.counted('the salt');
      out.counted(salt);
      return salt.length === 0 ? '-' : Buffer.from(salt).toString('hex');
    },
    value: (w) => octets(w.counted('the salt')),
  }),
  b32hex: printed({
    read(r, out) {
      const at = r.index;
      const text = r.next('the next hashed owner').text;
      const bytes = fromBase32Hex(text);
      if (bytes === undefined) fail('bad-base32', `bad base32hex "${text}"`, at);
      out.counted(bytes);
      return r.style === 'bind' ? toBase32Hex(bytes).toUpperCase() : toBase32Hex(bytes);
    },
    print(w, out) {
      const hash = w.counted('the next hashed owner');
      out.counted(hash);
      return toBase32Hex(hash);
    },
    value: (w) => octets(w.counted('the next hashed owner')),
  }),
  types: printed({
    read(r, out) {
      const codes = new Set<number>();
      for (let i = r.index; i < r.tokens.length; i++) {
        const c = typeCode(r.tokens[i].text);
        if (c === undefined) fail('unknown-type', `unknown type "${r.tokens[i].text}"`, i);
        codes.add(c);
      }
      r.index = r.tokens.length;
      const sorted = [...codes].sort((a, b) => a - b);
      out.octets(typeBitmap(sorted));
      return sorted.map(printedTypeName).join(' ');
    },
    print(w, out) {
      const from = w.at;
      const codes = bitmapTypes(w);
      copy(out, w.message.subarray(from, w.at));
      return codes.map(printedTypeName).join(' ');
    },
    value: (w) => bitmapTypes(w).map(typeName),
  }),
  svcparams: printed({
    read(r, out) {
      const at = r.index;
      const tokens = r.tokens.slice(r.index);
      r.index = r.tokens.length;
      const encoded = encodeSvcParams(tokens);
      if ('message' in encoded) fail('bad-svcparam', encoded.message, at + encoded.token);
      out.octets(encoded.wire);
      return decodeSvcParams(Uint8Array.from(encoded.wire)) ?? '';
    },
    print(w, out) {
      const rest = w.rest();
      copy(out, rest);
      return decodeSvcParams(rest) ?? w.malformed('bad SvcParams');
    },
  }),
  loc: printed({
    read(r, out) {
      const at = r.index;
      const tokens = r.tokens.slice(r.index);
      r.index = r.tokens.length;
      const encoded = encodeLoc(tokens.map((t) => t.text));
      if (typeof encoded === 'string') fail('bad-loc', encoded, at);
      out.octets(encoded);
      return decodeLoc(Uint8Array.from(encoded)) ?? '';
    },
    print(w, out) {
      const rest = w.rest();
      copy(out, rest);
      return decodeLoc(rest) ?? w.malformed('bad LOC data');
    },
  }),
};
