// The one-shot parser's first path: a record on one line in the shape most records of a zone
// have (an owner or a blank, a TTL and the class IN in either order or not at all, the type A,
// AAAA or NS, one datum, maybe a comment), read in place from the text by offsets and added as
// a row. The lexer and entry parser (lexer.ts scanEntry, entry.ts record) make a string and a
// token per field, look the type and class up by string, and go through the general record
// data reader; for these shapes none of that is needed, and in a cold process every step of
// per-record code is paid many times over before V8 optimizes it.
//
// A line of any other shape answers NOT_PLAIN having changed nothing, and the general path
// reads it from the start: the same row, or the problem the general path reports. So this path
// never reports a problem, and takes a line only when the general path would add the very row
// it adds (plain-record.test.ts holds both to the same rows on generated zones).
import { isAtOrBelow, isNameError, nameToWire, parseName } from '../dns/names';
import type { NameError, ParsedName } from '../dns/names';
import { readIPv4In, readPlainIPv6OctetsIn } from '../dns/rdata/addresses';
import { ttlIn } from '../dns/rdata/ttl';
import { TYPES } from '../dns/rdata/types';
import { WireWriter } from '../dns/rdata/writer';
import { MAX_LINE_CHARS, type Token } from './lexer';
import { rowInput, type RecordRows } from './rows';

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

/** readPlainRecord's answer for a line it leaves to the general path. */
export const NOT_PLAIN = -1;

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

/** The most tokens a plain record has: owner, TTL, class, type, datum. */
const MOST_TOKENS = 5;
/** per token of the line being read: its start and end column (2k, 2k + 1) */
const bounds = new Int32Array(2 * MOST_TOKENS);

/** Record data is read one record at a time: an address's octets, or a name's wire form. */
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

function place(to: Token, line: number, token: number): Token {
  to.line = line;
  to.start = bounds[2 * token];
  to.end = bounds[2 * token + 1];
  return to;
}

/**
 * Reads the line that starts at `from` (line `line`) when it is a plain record, or blank, or a
 * comment; answers where the next line starts (past text.length when this line ends the text),
 * or NOT_PLAIN having changed nothing.
 */
export function readPlainRecord(
  text: string,
  from: number,
  line: number,
  out: PlainRecordSink,
): number {
  const feed = text.indexOf('\n', from);
  const end = feed === -1 ? text.length : feed;
  if (end - from > MAX_LINE_CHARS) return NOT_PLAIN;
  const next = feed === -1 ? text.length + 1 : feed + 1;
  // The tokens, as the lexer cuts them (a CR is a blank, as it is to the lexer); a quote, a
  // parenthesis or an escape is the general path's.
  let count = 0;
  let i = from;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === TAB || c === CR) {
      i++;
      continue;
    }
    if (c === SEMI) break;
    if (count === MOST_TOKENS) return NOT_PLAIN;
    const start = i;
    for (; i < end; i++) {
      const d = text.charCodeAt(i);
      if (d === SPACE || d === TAB || d === CR || d === SEMI) break;
      if (d === QUOTE || d === OPEN || d === CLOSE || d === BACKSLASH) return NOT_PLAIN;
    }
    bounds[2 * count] = start - from;
    bounds[2 * count + 1] = i - from;
    count++;
  }
  if (count === 0) return next;
  const leadingBlank = isBlank(text.charCodeAt(from));
  const { ctx } = out;

  // the owner, as record() in entry.ts reads it
  let token = 0;
  let owner: string;
  let key: string;
  if (!leadingBlank) {
    // a directive
    if (text.charCodeAt(from + bounds[0]) === DOLLAR) return NOT_PLAIN;
    const parsed = out.ownerName(text.slice(from + bounds[0], from + bounds[1]), ctx.origin);
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
    const start = from + bounds[2 * token];
    const c = text.charCodeAt(start);
    if (ttlToken === -1 && c >= 0x30 && c <= 0x39) {
      ttl = ttlIn(text, start, from + bounds[2 * token + 1]);
      if (ttl === -1) return NOT_PLAIN;
      ttlToken = token++;
    } else if (!hasClass && isIN(text, start, from + bounds[2 * token + 1])) {
      hasClass = true;
      token++;
    } else break;
  }

  // the type, then its one datum
  if (count !== token + 2) return NOT_PLAIN;
  const typeToken = token;
  const code = plainType(text, from + bounds[2 * typeToken], from + bounds[2 * typeToken + 1]);
  const dataStart = from + bounds[2 * typeToken + 2];
  const dataEnd = from + bounds[2 * typeToken + 3];
  let data: string | undefined;
  let target: string | undefined;
  wire.reset();
  if (code === A) {
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
  input.line = line;
  input.start = bounds[0];
  input.endLine = line;
  input.end = bounds[2 * count - 1];
  input.ownerToken = leadingBlank ? undefined : place(ownerPlace, line, 0);
  input.ttlToken = ttlToken === -1 ? undefined : place(ttlPlace, line, ttlToken);
  input.typeToken = place(typePlace, line, typeToken);
  input.targetToken = target === undefined ? undefined : place(targetPlace, line, typeToken + 1);
  input.serial = undefined;
  input.serialToken = undefined;
  out.rows.add(input);
  return next;
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

/**
 * The code of the type text[start, end) names when it is A, AAAA or NS in any case (an ASCII
 * letter is the only character that `| 0x20` takes to a lower-case letter), else 0.
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
  }
  return 0;
}

/** Whether a key is a wildcard owner (`*.x`, or `*.` at the root). */
function isWildcard(key: string): boolean {
  return key.charCodeAt(0) === 0x2a && key.charCodeAt(1) === 0x2e;
}
