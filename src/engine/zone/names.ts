// Domain names in master-file presentation form (RFC 1035 sections 3.1, 5.1): `@`, relative
// names completed with the origin, `\.` and `\DDD` escapes; limits of 63 octets per label and
// 255 octets on the wire (253 characters of plain text).
import { escapeOctets, unescapeOctets } from './lexer';
import type { WireWriter } from './writer';

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
  const key = full.toLowerCase();
  return { text: key === full ? key : full, key, wireLength: relativeWire + originWire };
}

/**
 * The wire length of the labels of text[0, end) (a length octet each, no root), or -1 when the
 * text has an escape, a character beyond ASCII, an empty label or one over 63 octets.
 */
function plainLabelsWire(text: string, end: number): number {
  let wire = 0;
  let from = 0;
  for (let i = 0; i <= end; i++) {
    const c = i < end ? text.charCodeAt(i) : 0x2e;
    if (c === 0x5c || c >= 0x80) return -1;
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

function endsWithDot(text: string): boolean {
  if (!text.endsWith('.')) return false;
  let slashes = 0;
  for (let i = text.length - 2; i >= 0 && text[i] === '\\'; i--) slashes++;
  return slashes % 2 === 0;
}

function parseAbsolute(text: string): ParsedName | NameError {
  if (text === '.') return { text: '.', key: '.', wireLength: 1 };
  // Every owner and target name comes here. One pass over the text before its final dot
  // measures the labels by char code between the dots, with no copy of it; an escape or a
  // character beyond ASCII sends the name to the careful paths below, which decide alone
  // (so the first failure found here is only kept until the pass is through).
  const bodyEnd = text.length - 1;
  let kind: 'ascii' | 'unicode' | 'escaped' = 'ascii';
  let failure: NameError | undefined;
  let plainWire = 1;
  let from = 0;
  for (let i = 0; i <= bodyEnd; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) {
      kind = 'escaped';
      break;
    }
    if (c >= 0x80) kind = 'unicode';
    if ((i < bodyEnd && c !== 0x2e) || kind !== 'ascii' || failure !== undefined) continue;
    const len = i - from;
    if (len === 0) failure = { code: 'empty-label', message: `empty label in "${text}"` };
    else if (len > MAX_LABEL) {
      failure = {
        code: 'label-too-long',
        message: `label of ${len} octets (at most ${MAX_LABEL})`,
      };
    }
    plainWire += len + 1;
    from = i + 1;
  }
  if (kind === 'ascii') {
    if (failure !== undefined) return failure;
    if (plainWire > MAX_WIRE_NAME) {
      return {
        code: 'name-too-long',
        message: `name of ${plainWire} octets (at most ${MAX_WIRE_NAME})`,
      };
    }
    // a name already in lower case is kept once, flat, for both (records keep owner and key)
    const key = text.toLowerCase();
    return { text: key === text ? key : text, key, wireLength: plainWire };
  }
  if (kind === 'unicode') {
    // No escapes, so labels are the text between dots, measured in UTF-8.
    const body = text.slice(0, -1);
    let wire = 1;
    let from = 0;
    for (;;) {
      const dot = body.indexOf('.', from);
      const to = dot === -1 ? body.length : dot;
      const len = Buffer.byteLength(body.slice(from, to));
      if (len === 0) return { code: 'empty-label', message: `empty label in "${text}"` };
      if (len > MAX_LABEL) {
        return { code: 'label-too-long', message: `label of ${len} octets (at most ${MAX_LABEL})` };
      }
      wire += len + 1;
      if (dot === -1) break;
      from = dot + 1;
    }
    if (wire > MAX_WIRE_NAME) {
      return {
        code: 'name-too-long',
        message: `name of ${wire} octets (at most ${MAX_WIRE_NAME})`,
      };
    }
    const key = text.toLowerCase();
    return { text: key === text ? key : text, key, wireLength: wire };
  }
  const labels = splitLabels(text);
  if (labels === undefined) return { code: 'bad-escape', message: `bad escape in "${text}"` };
  let wire = 1;
  const keyLabels: string[] = [];
  for (const label of labels) {
    if (label.length === 0) return { code: 'empty-label', message: `empty label in "${text}"` };
    if (label.length > MAX_LABEL) {
      return {
        code: 'label-too-long',
        message: `label of ${label.length} octets (at most ${MAX_LABEL})`,
      };
    }
    wire += label.length + 1;
    keyLabels.push(escapeOctets(label.map(lowerOctet), false).replace(/\./g, '\\.'));
  }
  if (wire > MAX_WIRE_NAME) {
    return { code: 'name-too-long', message: `name of ${wire} octets (at most ${MAX_WIRE_NAME})` };
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
