// The one-shot parser's first path: a record in the shape most records of a zone have (an
// owner or a blank, a TTL and the class IN in either order or not at all, the type A, AAAA or
// NS and one datum, TXT and its strings, or a DNSSEC type and its fields; on one line, or over
// several held by one pair of parentheses; comments anywhere), read in place from the text by
// offsets and added as a row. The lexer and entry parser (lexer.ts scanEntry, entry.ts record)
// make a string and a token per field, look the type and class up by string, and go through
// the general record data reader; for these shapes most of that is not needed, and in a cold
// process every step of per-record code is paid many times over before V8 optimizes it.
//
// An entry of any other shape answers NOT_PLAIN having changed nothing, and the general path
// reads it from the start: the same row, or the problem the general path reports. So this path
// never reports a problem, and takes an entry only when the general path would add the very row
// it adds (plain-record.test.ts holds both to the same rows on generated zones). A zone whose
// entries all take this path leaves the general lexer and parser cold: in a short process, code
// V8 never has to optimize is time saved twice over.
import { isAtOrBelow, isNameError, nameToWire, parseName } from '../dns/names';
import { unescapeOctets } from '../dns/presentation';
import type { NameError, ParsedName } from '../dns/names';
import { readIPv4In, readPlainIPv6OctetsIn } from '../dns/rdata/addresses';
import { DNSSEC_READERS } from '../dns/rdata/dnssec-read';
import { ttlIn } from '../dns/rdata/ttl';
import { typeCode, typeName, TYPES } from '../dns/rdata/types';
import { WireWriter } from '../dns/rdata/writer';
import { MAX_LINE_CHARS, type Token } from './lexer';
import { rowInput, type RecordRows } from './rows';
import { nsec3OwnerFailure } from './rules';

/** What the path reads into: the entry parser's builder (entry.ts) is one. */
export interface PlainRecordSink {
  /** the zone apex (a key) when known; the label of the included file the text is, if one */
  readonly env: { readonly apex: string | undefined; readonly fileLabel: string | undefined };
  /** the context the entries before left (entry.ts Context), updated as a record does */
  readonly ctx: {
    readonly origin: string | undefined;
    readonly defaultTtl: number | undefined;
    lastOwner: string | undefined;
    lastTtl: number | undefined;
  };
  readonly rows: RecordRows;
  /** parseName(text, origin), its last answer kept */
  ownerName(text: string, origin: string | undefined): ParsedName | NameError;
  /** the key of an absolute name as written */
  keyOf(owner: string): string;
}

/** readPlainRecord's answer for an entry it leaves to the general path. */
export const NOT_PLAIN = -1;

/** The lines of the entry readPlainRecord read last (it answers where the next one starts). */
export const plainEntry = { lines: 1 };

// Constants of this module, not imports: read in the loop over every character of a line.
const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const QUOTE = 0x22;
const DOLLAR = 0x24;
const SEMI = 0x3b;
const OPEN = 0x28;
const CLOSE = 0x29;
const BACKSLASH = 0x5c;

const A = TYPES.A.code;
const AAAA = TYPES.AAAA.code;
const NS = TYPES.NS.code;
const TXT = TYPES.TXT.code;

/**
 * The most tokens and lines a plain record has: owner, TTL, class, type, and its data (the
 * fields and base64 pieces of a signature or key of 4,096 bits, a bit map's types).
 */
const MOST_TOKENS = 64;
const MOST_LINES = 32;
/** per token of the entry being read: where it starts and ends in the text (quotes included) */
const starts = new Int32Array(MOST_TOKENS);
const ends = new Int32Array(MOST_TOKENS);
/** per token: its line, counted from the entry's first */
const tokenLines = new Int32Array(MOST_TOKENS);
/** per token: 1 when it is a quoted string */
const quotedTokens = new Uint8Array(MOST_TOKENS);
/** per line of the entry: where it starts in the text */
const lineStarts = new Int32Array(MOST_LINES);
/** what scan() found besides the tokens: their count, the lines, where the entry ends */
const scanned = new Int32Array(4);
const COUNT = 0;
const LINES = 1;
const LAST_LINE = 2;
const LAST_COLUMN = 3;
/**
 * The data tokens of a DNSSEC record, made for its reader (dnssec-read.ts takes the lexer's
 * tokens): objects pooled, one list per length, as scanEntry keeps them.
 */
const dataPool: Token[] = [placed()];
const dataLists: Token[][] = [];

/** Record data is read one record at a time, into this buffer, which the rows copy from. */
const wire = new WireWriter(256);

// Where the row's tokens are, handed to the rows (which copy them) in objects shaped as the
// lexer's tokens, as the general path hands them: the rows' add sees one shape.
const ownerPlace = placed();
const ttlPlace = placed();
const typePlace = placed();
const targetPlace = placed();

function placed(): Token {
  return { kind: 'word', text: '', start: 0, end: 0, line: 0 };
}

/** Token `token` of the entry that starts on line `line`, placed as the lexer places it. */
function place(to: Token, line: number, token: number): Token {
  const start = lineStarts[tokenLines[token]];
  to.line = line + tokenLines[token];
  to.start = starts[token] - start;
  to.end = ends[token] - start;
  return to;
}

/**
 * Reads the entry that starts at `from` (line `line`) when it is a plain record, or blank, or
 * a comment; answers where the entry after it starts (past text.length when it ends the text;
 * its lines in plainEntry), or NOT_PLAIN having changed nothing.
 */
export function readPlainRecord(
  text: string,
  from: number,
  line: number,
  out: PlainRecordSink,
): number {
  const next = scan(text, from);
  if (next === NOT_PLAIN) return NOT_PLAIN;
  const count = scanned[COUNT];
  plainEntry.lines = scanned[LINES];
  if (count === 0) return next;
  const leadingBlank = isBlank(text.charCodeAt(from));
  const { ctx } = out;

  // the owner, as record() in entry.ts reads it
  let token = 0;
  let owner: string;
  let key: string;
  if (!leadingBlank) {
    // a directive
    if (text.charCodeAt(starts[0]) === DOLLAR) return NOT_PLAIN;
    const parsed = out.ownerName(text.slice(starts[0], ends[0]), ctx.origin);
    if (isNameError(parsed)) return NOT_PLAIN;
    owner = parsed.text;
    key = parsed.key;
    token = 1;
  } else {
    if (ctx.lastOwner === undefined) return NOT_PLAIN;
    owner = ctx.lastOwner;
    key = out.keyOf(owner);
  }

  // A TTL and the class in either order, each at most once, as record() takes them. A token
  // that starts with a digit but is no TTL, or another class, is record()'s to refuse.
  let ttl = -1;
  let ttlToken = -1;
  let hasClass = false;
  for (let k = 0; k < 2 && token < count; k++) {
    const start = starts[token];
    const c = text.charCodeAt(start);
    if (ttlToken === -1 && c >= 0x30 && c <= 0x39) {
      ttl = ttlIn(text, start, ends[token]);
      if (ttl === -1) return NOT_PLAIN;
      ttlToken = token++;
    } else if (!hasClass && isIN(text, start, ends[token])) {
      hasClass = true;
      token++;
    } else break;
  }

  // the type, then its data: one word, or a TXT's strings
  const typeToken = token;
  if (count < typeToken + 2) return NOT_PLAIN;
  // a quoted string before the data (record() reads its text as a word's) is left to it
  for (let k = 0; k <= typeToken; k++) if (quotedTokens[k] === 1) return NOT_PLAIN;
  const code = typeOf(text, starts[typeToken], ends[typeToken]);
  const reader = DNSSEC_READERS.get(code);
  if (code === A || code === AAAA || code === NS) {
    if (count !== typeToken + 2 || quotedTokens[typeToken + 1] === 1) return NOT_PLAIN;
  } else if (code !== TXT && reader === undefined) {
    return NOT_PLAIN;
  }
  const dataStart = starts[typeToken + 1];
  const dataEnd = ends[typeToken + 1];
  let data: string | undefined;
  let target: string | undefined;
  wire.reset();
  if (code === TXT) {
    if (!writeStrings(text, typeToken + 1, count)) return NOT_PLAIN;
  } else if (reader !== undefined) {
    // its fields by the lean reader the general path runs (readRdata with textFromWire), on
    // the same tokens; an NSEC3 owner that is no hash is record()'s to refuse
    const tokens = dataTokens(text, typeToken + 1, count);
    if (tokens === undefined || !reader(tokens, ctx.origin, wire)) return NOT_PLAIN;
    if (nsec3OwnerFailure(key, typeName(code)) !== undefined) return NOT_PLAIN;
  } else if (code === A) {
    if (!readIPv4In(text, dataStart, dataEnd, wire.buffer, wire.reserve(4))) return NOT_PLAIN;
  } else if (code === AAAA) {
    if (!readPlainIPv6OctetsIn(text, dataStart, dataEnd, wire.buffer, wire.reserve(16))) {
      return NOT_PLAIN;
    }
  } else if (code === NS) {
    // a name already in its canonical form (no capitals, no escapes), whose text is its key;
    // NS at a wildcard owner is refused (entry.ts, wildcardNsFailure)
    const name = parseName(text.slice(dataStart, dataEnd), ctx.origin);
    if (isNameError(name) || name.text !== name.key || isWildcard(key)) return NOT_PLAIN;
    nameToWire(name.key, wire);
    data = name.key;
    target = name.key;
  } else return NOT_PLAIN;

  // no TTL, none to fall back on, or an owner outside the zone: record()'s to report
  if (ttlToken === -1) {
    const fallback = ctx.defaultTtl ?? ctx.lastTtl;
    if (fallback === undefined) return NOT_PLAIN;
    ttl = fallback;
  }
  const { apex } = out.env;
  if (apex !== undefined && !isAtOrBelow(key, apex)) return NOT_PLAIN;

  // The line is a plain record: the context and the row, as record() leaves them.
  if (!leadingBlank) ctx.lastOwner = owner;
  ctx.lastTtl = ttl;
  const input = rowInput;
  input.owner = owner;
  input.key = key;
  input.ttl = ttl;
  input.typeCode = code;
  input.data = data;
  input.wire = wire.buffer;
  input.wireLength = wire.length;
  input.target = target;
  input.file = out.env.fileLabel;
  input.line = line + tokenLines[0];
  input.start = starts[0] - lineStarts[tokenLines[0]];
  input.endLine = line + scanned[LAST_LINE];
  input.end = scanned[LAST_COLUMN];
  input.ownerToken = leadingBlank ? undefined : place(ownerPlace, line, 0);
  input.ttlToken = ttlToken === -1 ? undefined : place(ttlPlace, line, ttlToken);
  input.typeToken = place(typePlace, line, typeToken);
  input.targetToken = target === undefined ? undefined : place(targetPlace, line, typeToken + 1);
  input.serial = undefined;
  input.serialToken = undefined;
  out.rows.add(input);
  return next;
}

/**
 * The tokens of the entry at `from` into starts, ends, tokenLines and quotedTokens, its lines
 * into lineStarts, and their counts and where it ends into `scanned`; answers where the entry
 * after it starts (past text.length at the end), or NOT_PLAIN. A function of its own: V8
 * optimizes its loops while they run (a signature's long lines make them hot at once), and it
 * optimized the whole reader at that point, before it had seen the rest of its paths.
 */
function scan(text: string, from: number): number {
  // The tokens, as scanEntry cuts them (a CR is a blank, as it is to the lexer): words, quoted
  // strings, one pair of parentheses across lines. An escape outside quotes, a string not
  // closed on its line, a quote right after a word, parentheses nested or never closed are the
  // general path's.
  let count = 0;
  let depth = 0;
  let lines = 0;
  let at = from;
  // where the entry ends: its last token or closing parenthesis (line from the first, column)
  let lastLine = 0;
  let lastColumn = 0;
  let next: number;
  for (;;) {
    const feed = text.indexOf('\n', at);
    const end = feed === -1 ? text.length : feed;
    if (end - at > MAX_LINE_CHARS || lines === MOST_LINES) return NOT_PLAIN;
    lineStarts[lines] = at;
    let i = at;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === SPACE || c === TAB || c === CR) {
        i++;
        continue;
      }
      if (c === SEMI) break;
      if (c === OPEN || c === CLOSE) {
        depth += c === OPEN ? 1 : -1;
        if (depth > 1 || depth < 0) return NOT_PLAIN;
        i++;
        lastLine = lines;
        lastColumn = i - at;
        continue;
      }
      if (count === MOST_TOKENS) return NOT_PLAIN;
      const start = i;
      if (c === QUOTE) {
        for (i++; i < end && text.charCodeAt(i) !== QUOTE; i++) {
          if (text.charCodeAt(i) === BACKSLASH) i++;
        }
        if (i >= end) return NOT_PLAIN;
        i++;
        quotedTokens[count] = 1;
      } else {
        for (; i < end; i++) {
          const d = text.charCodeAt(i);
          if (d === SPACE || d === TAB || d === CR || d === SEMI || d === OPEN || d === CLOSE) {
            break;
          }
          if (d === QUOTE || d === BACKSLASH) return NOT_PLAIN;
        }
        quotedTokens[count] = 0;
      }
      starts[count] = start;
      ends[count] = i;
      tokenLines[count] = lines;
      count++;
      lastLine = lines;
      lastColumn = i - at;
    }
    lines++;
    if (depth === 0) {
      next = feed === -1 ? text.length + 1 : feed + 1;
      break;
    }
    if (feed === -1) return NOT_PLAIN;
    at = feed + 1;
  }
  scanned[COUNT] = count;
  scanned[LINES] = lines;
  scanned[LAST_LINE] = lastLine;
  scanned[LAST_COLUMN] = lastColumn;
  return next;
}

/**
 * The character-strings of tokens [first, count) of the entry into `wire`, as the
 * TXT reader of the general path writes them (codecs.ts writeCharStrings): a string of plain
 * printable ASCII as it is, any other through unescapeOctets. False for what that reader
 * refuses (a string past 255 octets, an escape past 255) and for RFC 3597's `\#` first, which
 * is not read as strings: the general path's to read or report.
 */
function writeStrings(text: string, first: number, count: number): boolean {
  for (let k = first; k < count; k++) {
    let start = starts[k];
    let end = ends[k];
    if (quotedTokens[k] === 1) {
      start++;
      end--;
    }
    const length = end - start;
    if (
      k === first &&
      length === 2 &&
      text.charCodeAt(start) === BACKSLASH &&
      text.charCodeAt(start + 1) === 0x23
    ) {
      return false;
    }
    if (length <= 255 && isPlainPrintable(text, start, end)) {
      const at = wire.reserve(length + 1);
      const { buffer } = wire;
      buffer[at] = length;
      for (let i = 0; i < length; i++) buffer[at + 1 + i] = text.charCodeAt(start + i);
      continue;
    }
    const octets = unescapeOctets(text.slice(start, end));
    if (octets === undefined || octets.length > 255) return false;
    wire.counted(octets);
  }
  return true;
}

/**
 * Tokens [first, count) of the entry as the lexer's tokens, for a DNSSEC reader: valid until
 * the next call. Undefined when one is a quoted string (the readers take words only).
 */
function dataTokens(text: string, first: number, count: number): Token[] | undefined {
  const length = count - first;
  for (let k = 0; k < length; k++) {
    if (quotedTokens[first + k] === 1) return undefined;
    let token = dataPool[k];
    if (token === undefined) dataPool.push((token = placed()));
    token.text = text.slice(starts[first + k], ends[first + k]);
  }
  return (dataLists[length] ??= dataPool.slice(0, length));
}

/** Whether text[start, end) is space to "~" without `"` and `\` (its octets are itself). */
function isPlainPrintable(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === QUOTE || c === BACKSLASH) return false;
  }
  return true;
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB || c === CR;
}

/** Whether text[start, end) is the class IN, in any case. */
function isIN(text: string, start: number, end: number): boolean {
  return (
    end - start === 2 &&
    (text.charCodeAt(start) | 0x20) === 0x69 &&
    (text.charCodeAt(start + 1) | 0x20) === 0x6e
  );
}

/** The code of the type text[start, end) names, as record() reads it; 0 for none. */
function typeOf(text: string, start: number, end: number): number {
  return plainType(text, start, end) || (typeCode(text.slice(start, end)) ?? 0);
}

/**
 * The code of the type text[start, end) names when it is A, AAAA, NS or TXT in any case (an
 * ASCII letter is the only character that `| 0x20` takes to a lower-case letter), else 0.
 */
function plainType(text: string, start: number, end: number): number {
  const first = text.charCodeAt(start) | 0x20;
  const length = end - start;
  if (first === 0x61) {
    if (length === 1) return A;
    if (
      length === 4 &&
      (text.charCodeAt(start + 1) | 0x20) === 0x61 &&
      (text.charCodeAt(start + 2) | 0x20) === 0x61 &&
      (text.charCodeAt(start + 3) | 0x20) === 0x61
    ) {
      return AAAA;
    }
  } else if (first === 0x6e && length === 2 && (text.charCodeAt(start + 1) | 0x20) === 0x73) {
    return NS;
  } else if (
    first === 0x74 &&
    length === 3 &&
    (text.charCodeAt(start + 1) | 0x20) === 0x78 &&
    (text.charCodeAt(start + 2) | 0x20) === 0x74
  ) {
    return TXT;
  }
  return 0;
}

/** Whether a key is a wildcard owner (`*.x`, or `*.` at the root). */
function isWildcard(key: string): boolean {
  return key.charCodeAt(0) === 0x2a && key.charCodeAt(1) === 0x2e;
}
