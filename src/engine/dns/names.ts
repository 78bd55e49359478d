// Domain names, the one module of the engine for them (RFC 1035 sections 3.1, 4.1.4, 5.1;
// RFC 4034 section 6 for the canonical form and order). Two forms:
// - text keys, as the zone parser and the record codecs carry names: absolute, trailing dot,
//   `\.` and `\DDD` escapes, lower case for comparisons; `@` and relative names completed with
//   the origin; limits of 63 octets per label and 255 octets on the wire;
// - label bytes (`Labels`), as messages carry them: read from a message (compression pointers
//   followed), compared with ASCII case folding, printed in the presentation form the contract's
//   JSON uses.
import { LookupError, printable } from '../../contract/errors';
import { MalformedMessage } from './errors';
import { decimal, escapedInLabel, escapeLabel, unescapeOctets } from './presentation';
import { WireWriter } from './rdata/writer';

const BACKSLASH = 0x5c;

export interface ParsedName {
  /** absolute, trailing dot, escapes as written */
  text: string;
  /** lower-case canonical form: the key for comparisons */
  key: string;
  wireLength: number;
}

export interface NameError {
  code: 'label-too-long' | 'name-too-long' | 'empty-label' | 'no-origin' | 'bad-escape';
  message: string;
}

export const MAX_LABEL = 63;
const NON_ASCII = /[^\x00-\x7f]/;
export const MAX_WIRE_NAME = 255;

function labelTooLong(octets: number): NameError {
  return { code: 'label-too-long', message: `label of ${octets} octets (at most ${MAX_LABEL})` };
}

function nameTooLong(octets: number): NameError {
  return { code: 'name-too-long', message: `name of ${octets} octets (at most ${MAX_WIRE_NAME})` };
}

export function isNameError(value: ParsedName | NameError): value is NameError {
  return (value as NameError).code !== undefined;
}

/** A name of the file, completed with `origin` (itself absolute) when relative. */
export function parseName(text: string, origin: string | undefined): ParsedName | NameError {
  if (text === '@') {
    if (origin === undefined) return { code: 'no-origin', message: '"@" with no origin set' };
    return parseAbsolute(origin);
  }
  if (text === '.') return { text: '.', key: '.', wireLength: 1 };
  if (endsWithDot(text)) return parseAbsolute(text);
  if (origin === undefined) {
    return { code: 'no-origin', message: `relative name "${text}" with no origin set` };
  }
  if (origin === '.') return parseAbsolute(`${text}.`);
  // Most names of a file are relative to one origin: its labels are measured once, and a plain
  // relative part is measured on its own. Anything else, failures included, is the full name's
  // to judge.
  const relativeWire = plainLabelsWire(text, text.length);
  const originWire = plainOriginWire(origin);
  const full = `${text}.${origin}`;
  if (relativeWire < 0 || originWire < 0 || relativeWire + originWire > MAX_WIRE_NAME) {
    return parseAbsolute(full);
  }
  const key = lowerCase(full);
  return { text: key === full ? key : full, key, wireLength: relativeWire + originWire };
}

/**
 * The wire length of the labels of text[0, end) (a length octet each, no root), or -1 when the
 * text has an escape or an octet printed escaped, a character beyond ASCII, an empty label or
 * one over 63 octets.
 */
function plainLabelsWire(text: string, end: number): number {
  let wire = 0;
  let from = 0;
  for (let i = 0; i <= end; i++) {
    const c = i < end ? text.charCodeAt(i) : 0x2e;
    if (c >= 0x80 || (c !== 0x2e && escapedInLabel(c))) return -1;
    if (c !== 0x2e) continue;
    const len = i - from;
    if (len === 0 || len > MAX_LABEL) return -1;
    wire += len + 1;
    from = i + 1;
  }
  return wire;
}

let lastOrigin: string | undefined;
let lastOriginWire = -1;

/** The wire length of an absolute origin with plain labels (root included), or -1. */
function plainOriginWire(origin: string): number {
  if (origin !== lastOrigin) {
    lastOrigin = origin;
    lastOriginWire = endsWithDot(origin) ? plainLabelsWire(origin, origin.length - 1) : -1;
    if (lastOriginWire >= 0) lastOriginWire += 1;
  }
  return lastOriginWire;
}

/**
 * `text` in lower case: itself when it has no capital, as most names have none (every owner and
 * target comes here, and String#toLowerCase is a call into the runtime, which also folds beyond
 * ASCII: such text still goes to it).
 */
function lowerCase(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x41 && c <= 0x5a) || c >= 0x80) return text.toLowerCase();
  }
  return text;
}

function endsWithDot(text: string): boolean {
  if (text.charCodeAt(text.length - 1) !== 0x2e) return false;
  let slashes = 0;
  for (let i = text.length - 2; i >= 0 && text[i] === '\\'; i--) slashes++;
  return slashes % 2 === 0;
}

function parseAbsolute(text: string): ParsedName | NameError {
  if (text === '.') return { text: '.', key: '.', wireLength: 1 };
  // Every owner and target name comes here. One pass over the text before its final dot
  // measures the labels by char code between the dots, with no copy of it; an escape, an octet
  // printed escaped or a character beyond ASCII sends the name to the careful path below,
  // which decides alone (so the first failure found here is only kept until the pass is
  // through). A character beyond ASCII is its UTF-8 octets, as BIND reads a master file: such
  // a name gets the key its \DDD spelling has, and only ASCII is folded (RFC 4343: "É" and
  // "é" are other octets, so other names).
  const bodyEnd = text.length - 1;
  let plain = true;
  let failure: NameError | undefined;
  let plainWire = 1;
  let from = 0;
  for (let i = 0; i <= bodyEnd; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80 || (c !== 0x2e && escapedInLabel(c))) {
      plain = false;
      break;
    }
    if ((i < bodyEnd && c !== 0x2e) || failure !== undefined) continue;
    const len = i - from;
    if (len === 0) failure = { code: 'empty-label', message: `empty label in "${text}"` };
    else if (len > MAX_LABEL) {
      failure = labelTooLong(len);
    }
    plainWire += len + 1;
    from = i + 1;
  }
  if (plain) {
    if (failure !== undefined) return failure;
    if (plainWire > MAX_WIRE_NAME) {
      return nameTooLong(plainWire);
    }
    // a name already in lower case is kept once, flat, for both (records keep owner and key)
    const key = lowerCase(text);
    return { text: key === text ? key : text, key, wireLength: plainWire };
  }
  const labels = splitLabels(text);
  if (labels === undefined) return { code: 'bad-escape', message: `bad escape in "${text}"` };
  let wire = 1;
  const keyLabels: string[] = [];
  for (const label of labels) {
    if (label.length === 0) return { code: 'empty-label', message: `empty label in "${text}"` };
    if (label.length > MAX_LABEL) {
      return labelTooLong(label.length);
    }
    wire += label.length + 1;
    keyLabels.push(escapeLabel(label.map(lowerOctet)));
  }
  if (wire > MAX_WIRE_NAME) {
    return nameTooLong(wire);
  }
  return { text, key: `${keyLabels.join('.')}.`, wireLength: wire };
}

function lowerOctet(b: number): number {
  return b >= 0x41 && b <= 0x5a ? b + 0x20 : b;
}

/** The labels of an absolute name as octets, or undefined on a bad escape. */
export function splitLabels(text: string): number[][] | undefined {
  if (text === '.') return [];
  const labels: number[][] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') {
      current += text.slice(i, i + (/^\d{3}$/.test(text.slice(i + 1, i + 4)) ? 4 : 2));
      i += /^\d{3}$/.test(text.slice(i + 1, i + 4)) ? 3 : 1;
    } else if (ch === '.') {
      const octets = unescapeOctets(current);
      if (octets === undefined) return undefined;
      labels.push(octets);
      current = '';
    } else {
      current += ch;
    }
  }
  if (current !== '') {
    const octets = unescapeOctets(current);
    if (octets === undefined) return undefined;
    labels.push(octets);
  }
  return labels;
}

/** Label bytes as a text key (the form parseName gives), in lower case when `lower`. */
export function keyText(labels: Labels, lower: boolean): string {
  if (labels.length === 0) return '.';
  let out = '';
  for (const label of labels) {
    const octets = lower ? label.map(lowerOctet) : label;
    out += `${escapeLabel(octets)}.`;
  }
  return out;
}

/**
 * An absolute name as written (a ParsedName's text) in the master-file form BIND prints: its
 * case kept, every octet escaped exactly when escapeLabel escapes it (`\065` is `A`, `a@b` is
 * `a\@b`, UTF-8 is `\DDD`).
 */
export function presentationText(text: string): string {
  let plain = true;
  for (let i = 0; i < text.length && plain; i++) {
    const c = text.charCodeAt(i);
    plain = c === 0x2e || (c < 0x80 && !escapedInLabel(c));
  }
  return plain
    ? text
    : keyText(
        (splitLabels(text) ?? []).map((l) => Uint8Array.from(l)),
        false,
      );
}

/** Uncompressed wire form of a key (already lower case). */
export function nameToWire(key: string, out: WireWriter): void {
  if (!key.includes('\\') && !NON_ASCII.test(key)) {
    // Plain ASCII: each dot becomes the length of the label after it.
    if (key === '.') {
      out.u8(0);
      return;
    }
    const at = out.reserve(key.length + 1);
    const { buffer } = out;
    let lengthAt = at;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      if (c === 0x2e) {
        buffer[lengthAt] = at + i - lengthAt;
        lengthAt = at + i + 1;
      } else buffer[at + i + 1] = c;
    }
    buffer[lengthAt] = 0;
    return;
  }
  if (!key.includes('\\')) {
    for (const label of key.slice(0, -1).split('.')) out.counted(Buffer.from(label, 'utf8'));
    out.u8(0);
    return;
  }
  for (const label of splitLabels(key) ?? []) out.counted(label);
  out.u8(0);
}

/** The uncompressed wire form of a key (already lower case) as a Buffer of its own. */
export function keyWire(key: string): Buffer {
  const out = new WireWriter();
  nameToWire(key, out);
  return Buffer.from(out.buffer.subarray(0, out.length));
}

/** Whether `name` is `zone` or below it (both keys). */
export function isAtOrBelow(name: string, zone: string): boolean {
  if (zone === '.' || name === zone) return true;
  // `name` ends with "." and `zone`; compared in place, since every record's owner and target
  // come through here and building ".zone" each time was a string per call
  const dot = name.length - zone.length - 1;
  return dot >= 0 && name.charCodeAt(dot) === 0x2e && name.endsWith(zone);
}

/** The key one label up, or undefined at the root. */
export function parentKey(key: string): string | undefined {
  if (key === '.') return undefined;
  for (let i = 0; i < key.length - 1; i++) {
    if (key[i] === '\\') i += /^\d{3}$/.test(key.slice(i + 1, i + 4)) ? 3 : 1;
    else if (key[i] === '.') return key.slice(i + 1);
  }
  return '.';
}

// Names as label bytes.

/** A name as its labels' bytes, root = []. */
export type Labels = Uint8Array[];

/** Reads a possibly compressed name; returns its labels and the offset after it. */
export function readName(message: Uint8Array, start: number): { labels: Labels; next: number } {
  const labels: Labels = [];
  let offset = start;
  let next = -1;
  let octets = 1;
  // Each pointer must go strictly backwards, so a loop of pointers cannot run forever.
  let limit = start;
  for (;;) {
    if (offset >= message.length) throw new MalformedMessage('name runs past the end');
    const length = message[offset];
    if ((length & 0xc0) === 0xc0) {
      if (offset + 1 >= message.length) throw new MalformedMessage('cut compression pointer');
      const target = ((length & 0x3f) << 8) | message[offset + 1];
      if (target >= limit) throw new MalformedMessage('compression pointer goes forwards');
      if (next === -1) next = offset + 2;
      offset = target;
      limit = target;
      continue;
    }
    if ((length & 0xc0) !== 0) throw new MalformedMessage('unknown label type');
    if (length === 0) break;
    if (offset + 1 + length > message.length) throw new MalformedMessage('label runs past the end');
    octets += length + 1;
    if (octets > MAX_WIRE_NAME) throw new MalformedMessage('name longer than 255 octets');
    labels.push(message.subarray(offset + 1, offset + 1 + length));
    offset += 1 + length;
  }
  return { labels, next: next === -1 ? offset + 1 : next };
}

function plainNameByte(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) ||
    (byte >= 0x41 && byte <= 0x5a) ||
    (byte >= 0x61 && byte <= 0x7a) ||
    byte === 0x2d ||
    byte === 0x5f ||
    byte === 0x2a ||
    byte === 0x2f
  );
}

/** One label in presentation form. */
export function labelText(label: Uint8Array): string {
  let out = '';
  for (const byte of label) {
    if (plainNameByte(byte)) out += String.fromCharCode(byte);
    // '#' is printed numerically: a leading '#' reads as the RFC 3597 generic form elsewhere.
    else if (byte > 0x20 && byte < 0x7f && byte !== 0x23) out += `\\${String.fromCharCode(byte)}`;
    else out += decimal(byte);
  }
  return out;
}

/** A fully qualified name in presentation form, with its trailing dot; the root is ".". */
export function nameText(labels: Labels): string {
  if (labels.length === 0) return '.';
  return `${labels.map(labelText).join('.')}.`;
}

/**
 * A name given as text into labels. Escapes (`\.`, `\\`, `\DDD`) are read, so every name this
 * module prints comes back as the same bytes. Other characters are taken as UTF-8.
 */
export function textToLabels(text: string): Labels {
  const invalid = (why: string) =>
    new LookupError('invalid_host', `"${printable(text)}" is not a domain name (${why})`);
  if (text === '.' || text === '') return [];
  const labels: Labels = [];
  let current: number[] = [];
  const bytes = Buffer.from(text, 'utf8');
  let total = 1;
  const close = () => {
    if (current.length === 0) throw invalid('empty label');
    if (current.length > 63) throw invalid('label over 63 octets');
    total += current.length + 1;
    labels.push(Uint8Array.from(current));
    current = [];
  };
  let endsWithSeparator = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    endsWithSeparator = byte === 0x2e;
    if (byte === 0x2e) {
      close();
      continue;
    }
    if (byte !== BACKSLASH) {
      current.push(byte);
      continue;
    }
    const digits = /^\d{3}/.exec(bytes.toString('latin1', i + 1, i + 4));
    if (digits !== null) {
      const value = Number(digits[0]);
      if (value > 255) throw invalid('escape over 255');
      current.push(value);
      i += 3;
    } else if (i + 1 < bytes.length) {
      current.push(bytes[++i]);
    } else {
      throw invalid('lone backslash at the end');
    }
  }
  if (current.length > 0) close();
  else if (!endsWithSeparator) throw invalid('empty label');
  if (total > 255) throw invalid('over 255 octets');
  return labels;
}

/** ASCII case folding only (RFC 4343): other octets compare exactly. */
export function sameName(a: Labels, b: Labels): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.length !== y.length) return false;
    for (let j = 0; j < x.length; j++) {
      if (fold(x[j]) !== fold(y[j])) return false;
    }
  }
  return true;
}

function fold(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte;
}
