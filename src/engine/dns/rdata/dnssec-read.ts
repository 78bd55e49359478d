// The record data of the DNSSEC types (RRSIG, NSEC, NSEC3, DS, CDS, DNSKEY, CDNSKEY) read
// straight from a zone file's tokens into wire form. A signed zone holds about as many of these
// as of all other records together, and they are the long ones: through the per-field codecs
// (codecs.ts) each made a text per field and a joined text a second time, and cost several
// times an address record. These readers do the same field checks in one pass and make no
// text: the record's text is its wire form printed (the names are lower case, as written), so
// the rows print it only when asked (rows.ts).
//
// Each reader answers false for anything it does not take the plain way (a mnemonic where a
// number is usual, a name with capitals or escapes, base64 to re-encode, any failure): the
// codecs then read the record from the start and give the text or the error they always gave.
// The type-table tests hold both ways to the same wire form and text.
import { isNameError, nameToWire, parseName } from '../names';
import { DIGESTS } from '../keys';
import { base32HexDigit } from './base32hex';
import { sigTime } from './codecs';
import type { Token } from './reader';
import { typeCode } from './types';
import type { WireWriter } from './writer';

type Reader = (tokens: Token[], origin: string | undefined, out: WireWriter) => boolean;

/** A decimal number of at most `max`, or -1 (as the codecs' decimalFailure judges it). */
function decimal(text: string, max: number): number {
  const n = text.length;
  if (n === 0) return -1;
  // past ten digits only leading zeros keep a number in range (and exact)
  if (n > 10) return isDigits(text) && Number(text) <= max ? Number(text) : -1;
  let value = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return -1;
    value = value * 10 + (c - 0x30);
  }
  return value <= max ? value : -1;
}

function isDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** A token of the record data as a plain word (not quoted, not a parenthesis), or undefined. */
function word(tokens: Token[], index: number): string | undefined {
  const t = tokens[index];
  return t === undefined || t.kind !== 'word' ? undefined : t.text;
}

/** The text of tokens [from, end) as one string (base64 and hex may be cut anywhere by blanks). */
function joined(tokens: Token[], from: number): string | undefined {
  if (from >= tokens.length) return undefined;
  if (from === tokens.length - 1) return word(tokens, from);
  let text = '';
  for (let i = from; i < tokens.length; i++) {
    const t = word(tokens, i);
    if (t === undefined) return undefined;
    text += t;
  }
  return text;
}

const HEX = /^[0-9a-fA-F]+$/;

/**
 * Base64 to the end of the data, in its canonical form (RFC 4648 section 4: its length a
 * multiple of four, the bits the padding drops zero): its octets into `out`. Canonical base64
 * is the one text that encoding its octets gives back, so the text is decoded and the octets
 * encoded again, both natively: a signature is hundreds of digits, and a pattern matched over
 * them, or a loop over them in script, cost more than the two passes (a cold process runs
 * either unoptimized for its first records). Anything else answers false for the codecs.
 */
function base64Rest(tokens: Token[], from: number, out: WireWriter): boolean {
  const text = joined(tokens, from);
  if (text === undefined || text.length % 4 !== 0) return false;
  const room = (text.length / 4) * 3;
  const into = out.reserve(room);
  const length = out.buffer.write(text, into, room, 'base64');
  if (out.buffer.toString('base64', into, into + length) !== text) return false;
  out.length = into + length;
  return true;
}

/** Hex to the end of the data: its octets into `out`; their count, or -1. */
function hexRest(tokens: Token[], from: number, out: WireWriter): number {
  const text = joined(tokens, from);
  if (text === undefined || text.length % 2 !== 0 || !HEX.test(text)) return -1;
  const length = text.length / 2;
  const into = out.reserve(length);
  return out.buffer.write(text, into, length, 'hex') === length ? length : -1;
}

/** The last signer an RRSIG named: a zone's signatures all name one (its apex). */
const lastSigner = { text: '', origin: undefined as string | undefined, key: '', labels: -1 };

/**
 * A name whose text is its key (lower case, no escapes), in wire form; its labels, or -1.
 * `lastName` holds the last one read, when the caller reads the same name again and again.
 */
function plainName(
  text: string | undefined,
  origin: string | undefined,
  out: WireWriter,
  lastName?: typeof lastSigner,
): number {
  if (text === undefined) return -1;
  if (lastName !== undefined && text === lastName.text && origin === lastName.origin) {
    nameToWire(lastName.key, out);
    return lastName.labels;
  }
  const parsed = parseName(text, origin);
  if (isNameError(parsed) || parsed.text !== parsed.key) return -1;
  const at = out.length;
  nameToWire(parsed.key, out);
  let labels = 0;
  for (let i = at; out.buffer[i] !== 0; i += out.buffer[i] + 1) labels++;
  if (lastName !== undefined) {
    lastName.text = text;
    lastName.origin = origin;
    lastName.key = parsed.key;
    lastName.labels = labels;
  }
  return labels;
}

function u8(out: WireWriter, value: number): void {
  // reserved before the buffer is read: reserve may replace it (WireWriter.u8)
  const at = out.reserve(1);
  out.buffer[at] = value;
}

function u16(out: WireWriter, value: number): void {
  const at = out.reserve(2);
  out.buffer[at] = value >>> 8;
  out.buffer[at + 1] = value & 0xff;
}

function u32(out: WireWriter, value: number): void {
  const at = out.reserve(4);
  const { buffer } = out;
  buffer[at] = value >>> 24;
  buffer[at + 1] = (value >>> 16) & 0xff;
  buffer[at + 2] = (value >>> 8) & 0xff;
  buffer[at + 3] = value & 0xff;
}

/** The type bit maps (RFC 4034 section 4.1.2) of the type mnemonics tokens[from, end). */
function bitmaps(tokens: Token[], from: number, out: WireWriter): boolean {
  const codes: number[] = [];
  let ordered = true;
  for (let i = from; i < tokens.length; i++) {
    const text = word(tokens, i);
    const code = text === undefined ? undefined : typeCode(text);
    if (code === undefined) return false;
    if (codes.length > 0 && code <= codes[codes.length - 1]) ordered = false;
    codes.push(code);
  }
  // written in order, as signers write them; else sorted, each once
  const sorted = ordered ? codes : [...new Set(codes)].sort((a, b) => a - b);
  let i = 0;
  while (i < sorted.length) {
    const window = sorted[i] >> 8;
    const at = out.reserve(2);
    out.buffer[at] = window;
    let length = 0;
    for (; i < sorted.length && sorted[i] >> 8 === window; i++) {
      const low = sorted[i] & 0xff;
      const octet = low >> 3;
      for (; length <= octet; length++) u8(out, 0);
      out.buffer[at + 2 + octet] |= 0x80 >> (low & 7);
    }
    out.buffer[at + 1] = length;
  }
  return true;
}

/** RFC 4034 section 3.2; labels at least the signer's (RFC 4035 section 5.3.1, as BIND). */
const rrsig: Reader = (tokens, origin, out) => {
  const typeText = word(tokens, 0);
  const covered = typeText === undefined ? undefined : typeCode(typeText);
  const algorithm = decimal(word(tokens, 1) ?? '', 255);
  const labels = decimal(word(tokens, 2) ?? '', 255);
  const ttl = decimal(word(tokens, 3) ?? '', 4294967295);
  const expiration = sigTime(word(tokens, 4) ?? '');
  const inception = sigTime(word(tokens, 5) ?? '');
  const tag = decimal(word(tokens, 6) ?? '', 65535);
  if (covered === undefined || algorithm < 0 || labels < 0 || ttl < 0 || tag < 0) return false;
  if (expiration === undefined || inception === undefined) return false;
  u16(out, covered);
  u8(out, algorithm);
  u8(out, labels);
  u32(out, ttl);
  u32(out, expiration);
  u32(out, inception);
  u16(out, tag);
  const signerLabels = plainName(word(tokens, 7), origin, out, lastSigner);
  return signerLabels >= 0 && labels >= signerLabels && base64Rest(tokens, 8, out);
};

/** RFC 4034 section 4. */
// an NSEC lists at least one type (the codecs' check says why, types.ts)
const nsec: Reader = (tokens, origin, out) =>
  tokens.length > 1 && plainName(word(tokens, 0), origin, out) >= 0 && bitmaps(tokens, 1, out);

/**
 * Unpadded base32hex (RFC 4648 section 7) with a length octet first, as NSEC3 writes the next
 * hashed owner: its octet count, or -1 when the text is not a whole encoding (base32hex.ts).
 */
function base32HexCounted(text: string, out: WireWriter): number {
  const lengthAt = out.reserve(1);
  let bits = 0;
  let value = 0;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const digit = base32HexDigit(text.charCodeAt(i));
    if (digit < 0) return -1;
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      u8(out, (value >> bits) & 0xff);
      count++;
    }
  }
  if (bits >= 5 || (value & ((1 << bits) - 1)) !== 0 || count > 255) return -1;
  out.buffer[lengthAt] = count;
  return count;
}

/** RFC 5155 section 3.2; a SHA-1 hash (algorithm 1) is 20 octets. */
const nsec3: Reader = (tokens, _origin, out) => {
  const algorithm = decimal(word(tokens, 0) ?? '', 255);
  const flags = decimal(word(tokens, 1) ?? '', 255);
  const iterations = decimal(word(tokens, 2) ?? '', 65535);
  const salt = word(tokens, 3);
  const next = word(tokens, 4);
  if (algorithm < 0 || flags < 0 || iterations < 0 || salt === undefined || next === undefined) {
    return false;
  }
  u8(out, algorithm);
  u8(out, flags);
  u16(out, iterations);
  if (salt === '-') u8(out, 0);
  else {
    if (salt.length % 2 !== 0 || salt.length > 510 || !HEX.test(salt)) return false;
    u8(out, salt.length / 2);
    out.buffer.write(salt, out.reserve(salt.length / 2), salt.length / 2, 'hex');
  }
  const hash = base32HexCounted(next, out);
  if (hash < 0 || (algorithm === 1 && hash !== 20)) return false;
  return bitmaps(tokens, 5, out);
};

/** RFC 4034 section 5.1; a digest of its type's length (RFC 4509, RFC 6605). */
const ds: Reader = (tokens, _origin, out) => {
  const tag = decimal(word(tokens, 0) ?? '', 65535);
  const algorithm = decimal(word(tokens, 1) ?? '', 255);
  const digestType = decimal(word(tokens, 2) ?? '', 255);
  if (tag < 0 || algorithm < 0 || digestType < 0) return false;
  u16(out, tag);
  u8(out, algorithm);
  u8(out, digestType);
  const length = hexRest(tokens, 3, out);
  const expected = DIGESTS[digestType]?.length;
  return length >= 0 && (expected === undefined || length === expected);
};

/** RFC 4034 section 2.1. */
const dnskey: Reader = (tokens, _origin, out) => {
  const flags = decimal(word(tokens, 0) ?? '', 65535);
  const protocol = decimal(word(tokens, 1) ?? '', 255);
  const algorithm = decimal(word(tokens, 2) ?? '', 255);
  if (flags < 0 || protocol < 0 || algorithm < 0) return false;
  u16(out, flags);
  u8(out, protocol);
  u8(out, algorithm);
  return base64Rest(tokens, 3, out);
};

/** The reader of a type by its code; undefined for the types the codecs read. */
export const DNSSEC_READERS: ReadonlyMap<number, Reader> = new Map([
  [46, rrsig],
  [47, nsec],
  [50, nsec3],
  [43, ds],
  [59, ds],
  [48, dnskey],
  [60, dnskey],
]);
