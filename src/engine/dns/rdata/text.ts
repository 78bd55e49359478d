// Record data from presentation tokens to canonical wire form (names uncompressed, lower case:
// RFC 4034 section 6.2) and canonical presentation, through the codecs of the type table. Both
// sides of every comparison (duplicates, drift) come to this form, so "1.2.3.4" and
// "\\# 4 01020304" are the same record.
import { MalformedMessage } from '../errors';
import { escapedText, unescapeOctets } from '../presentation';
import { CODECS, writeCharStrings } from './codecs';
import { DNSSEC_READERS } from './dnssec-read';
import {
  fail,
  NoPresentation,
  RdataFailure,
  TokenReader,
  WireReader,
  type RdataError,
  type Token,
} from './reader';
import { notForZones, typeCode, typeName, typeSpec, type TypeSpec } from './types';
import { WireWriter } from './writer';

export type { RdataError, Token };

export interface Rdata {
  /** canonical wire form, hex */
  wire: string;
  /** presentation: names absolute, in the case they were written; numbers decimal */
  data: string;
  /** key of the name a NS, MX, SRV or CNAME points at, and the index of its token */
  target?: string;
  targetToken?: number;
  serial?: number;
  minimum?: number;
}

/** Rdata with its wire form as octets: a view of a buffer the next parse reuses. */
export interface RdataOctets extends Omit<Rdata, 'wire' | 'data'> {
  /** the wire form is wire[0, wireLength) (no view is made per record) */
  wire: Uint8Array;
  wireLength: number;
  /**
   * the presentation; undefined only when the caller asked for `textFromWire` and the text is
   * the wire form printed (printRdata, names lower case), which it then makes when it needs it
   */
  data: string | undefined;
}

export function parseRdata(
  type: string,
  tokens: Token[],
  origin: string | undefined,
  style?: 'bind',
): Rdata | RdataError {
  const parsed = readRdata(type, tokens, origin, style);
  if ('code' in parsed) return parsed;
  const { wireLength, data, ...rest } = parsed;
  const hex = Buffer.from(parsed.wire.buffer, parsed.wire.byteOffset, wireLength).toString('hex');
  return { ...rest, data: data ?? '', wire: hex };
}

/**
 * As parseRdata, the wire form left as octets (no hex string per record): the zone parser
 * copies them into its rows before it reads the next record. With `textFromWire`, the DNSSEC
 * types' data written the plain way is read by dnssec-read.ts and comes without its text.
 */
export function readRdata(
  type: string,
  tokens: Token[],
  origin: string | undefined,
  style?: 'bind',
  textFromWire = false,
): RdataOctets | RdataError {
  if (textFromWire && style === undefined) {
    const lean = LEAN_READERS.get(type);
    if (lean !== undefined && !(tokens.length > 0 && tokens[0].text === '\\#')) {
      wire.reset();
      if (lean(tokens, origin, wire)) {
        return { wire: wire.buffer, wireLength: wire.length, data: undefined };
      }
    }
  }
  // Failures unwind by exception from deep in a field reader; a file with thousands of bad
  // lines must not pay for a stack trace each.
  const stackLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const spec = typeSpec(type);
    const refused = spec === undefined ? notForZones(typeCode(type) ?? -1) : undefined;
    if (refused !== undefined) fail(refused.code, refused.message, 0);
    if (tokens.length > 0 && tokens[0].kind === 'word' && tokens[0].text === '\\#') {
      return parseGeneric(tokens, spec);
    }
    if (spec === undefined) {
      return {
        code: 'unknown-type',
        message: `${type} needs the RFC 3597 form \\# <length> <hex>`,
        token: 0,
      };
    }
    const reader = new TokenReader(tokens, origin, style);
    wire.reset();
    const { fields } = spec;
    let data = '';
    let target: string | undefined;
    let targetToken: number | undefined;
    let parts: string[] | undefined;
    if (fields.length === 1) {
      data = CODECS[fields[0].kind].read(reader, wire);
      if (spec.target === 0) {
        target = data.toLowerCase();
        targetToken = 0;
      }
    } else {
      parts = [];
      for (let index = 0; index < fields.length; index++) {
        const at = reader.index;
        const text = CODECS[fields[index].kind].read(reader, wire);
        parts.push(text);
        if (index === spec.target) {
          target = text.toLowerCase();
          targetToken = at;
        }
      }
      data = joinFields(parts);
    }
    if (!reader.done()) fail('extra-rdata', 'extra input after the record data', reader.index);
    if (spec.check !== undefined) {
      const broken = spec.check(parts ?? [data], wire.length);
      if (broken !== undefined) fail(broken.code, broken.message, reader.index - 1);
    }
    const result: RdataOctets = { wire: wire.buffer, wireLength: wire.length, data };
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

/**
 * The lean readers by type mnemonic, as readRdata is asked: the DNSSEC types (dnssec-read.ts)
 * and the text strings of TXT and SPF (about one record in six of a usual zone).
 */
const LEAN_READERS = new Map([
  ...[...DNSSEC_READERS].map(([code, read]) => [typeName(code), read] as const),
  ['TXT', leanStrings],
  ['SPF', leanStrings],
]);

function leanStrings(tokens: Token[], _origin: string | undefined, out: WireWriter): boolean {
  return writeCharStrings(tokens, out);
}

/** Record data is parsed one record at a time, so one buffer serves them all. */
const wire = new WireWriter();

/**
 * RFC 3597 data: as it is for a type the table does not have; for one it has, read through the
 * type's codecs into its canonical form (RFC 3597 section 5: the same record as its usual
 * presentation), and refused when it does not read as that type.
 */
function parseGeneric(tokens: Token[], spec: TypeSpec | undefined): RdataOctets {
  const lengthToken = tokens[1];
  if (lengthToken === undefined || !/^\d+$/.test(lengthToken.text)) {
    fail('bad-generic', 'RFC 3597 data needs a length after \\#', 1);
  }
  const length = Number(lengthToken.text);
  // RFC 3597 section 5: the data of one record, whose wire length is a 16-bit field
  if (length > 65535)
    fail('bad-generic', `RFC 3597 length ${length}: record data is at most 65535 octets`, 1);
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
  const octets = Buffer.from(lower, 'hex');
  const asIs = (): RdataOctets => ({
    wire: octets,
    wireLength: octets.length,
    data: genericText(octets),
  });
  if (spec === undefined) return asIs();
  try {
    const canonical = printRdata(octets, 0, length, spec, true);
    const broken = spec.check?.(canonical.fields, length);
    if (broken !== undefined && spec.genericAsIs === true) return asIs();
    if (broken !== undefined) fail(broken.code, broken.message, 2);
    // the text keeps the names' case as the data gave it, as the usual presentation does
    const shown = printRdata(octets, 0, length, spec, false).text;
    const result: RdataOctets = {
      wire: canonical.wire,
      wireLength: canonical.wire.length,
      data: shown,
    };
    // the name it points at, for the target checks, as in the usual form
    if (spec.target !== undefined) {
      result.target = canonical.fields[spec.target].toLowerCase();
      result.targetToken = 2;
    }
    return result;
  } catch (err) {
    if (!(err instanceof MalformedMessage)) throw err;
    if (spec.genericAsIs === true) return asIs();
    return fail('bad-generic', `RFC 3597 data that is not a record of its type (${err.why})`, 2);
  }
}

/** Field texts joined by a blank; a field left out (an optional last one) is ''. */
function joinFields(fields: string[]): string {
  let text = fields[0] ?? '';
  for (let i = 1; i < fields.length; i++) if (fields[i] !== '') text += ` ${fields[i]}`;
  return text;
}

/**
 * The RFC 3597 text of record data the table cannot read: hex in capitals, as BIND prints it,
 * and in the 'bind' style in pieces of 56 digits, as its master-file dump writes them.
 */
export function genericText(wire: Uint8Array, style?: 'bind'): string {
  if (wire.length === 0) return '\\# 0';
  const hex = Buffer.from(wire).toString('hex').toUpperCase();
  if (style !== 'bind') return `\\# ${wire.length} ${hex}`;
  return `\\# ${wire.length} ${(hex.match(/.{1,56}/g) ?? []).join(' ')}`;
}

/**
 * Record data of `spec`'s type as values by field name (FieldCodec.value). Throws
 * MalformedMessage when the data does not read as the type.
 */
export function rdataValues(
  message: Uint8Array,
  at: number,
  length: number,
  spec: TypeSpec,
): Record<string, unknown> {
  const reader = new WireReader(message, at, at + length, true);
  const values: Record<string, unknown> = {};
  try {
    for (const field of spec.fields) values[field.name] = CODECS[field.kind].value(reader);
  } catch (err) {
    // data with no presentation of its type (an AMTRELAY relay type past 3) has no values to
    // give; the validator asks values of its own types only
    if (err instanceof NoPresentation) return {};
    throw err;
  }
  if (!reader.done()) reader.malformed('data left after the last field');
  return values;
}

/** Writes what printRdata reads: one record at a time. */
const printed = new WireWriter();

/**
 * Record data of `spec`'s type in a message (names may point anywhere in it) in canonical text
 * and wire form: names uncompressed, and in lower case when `lower`. Throws MalformedMessage
 * when the data does not read as the type.
 */
export function printRdata(
  message: Uint8Array,
  at: number,
  length: number,
  spec: TypeSpec,
  lower: boolean,
): { wire: Buffer; text: string; fields: string[] } {
  const reader = new WireReader(message, at, at + length, lower);
  printed.reset();
  const fields: string[] = [];
  try {
    for (const field of spec.fields) fields.push(CODECS[field.kind].print(reader, printed));
  } catch (err) {
    if (!(err instanceof NoPresentation)) throw err;
    const wire = Buffer.from(message.subarray(at, at + length));
    const text = genericText(wire);
    return { wire, text, fields: [text] };
  }
  if (!reader.done()) reader.malformed('data left after the last field');
  const wire = Buffer.from(printed.buffer.subarray(0, printed.length));
  return { wire, text: joinFields(fields), fields };
}

/** Splits an over-long character-string into pieces of at most 255 octets, for a quick fix. */
export function splitCharString(text: string): string[] {
  const octets = unescapeOctets(text) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < octets.length; i += 255) {
    pieces.push(`"${escapedText(octets.slice(i, i + 255))}"`);
  }
  return pieces;
}
