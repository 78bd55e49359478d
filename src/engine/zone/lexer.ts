// One line of a master file (RFC 1035 section 5.1) as tokens. A line's tokens never depend on
// the lines around it (quoted strings do not cross lines, parentheses only group), so editors
// can cache them per line and re-tokenise only the lines an edit touched.

import type { Token as RdataToken } from '../dns/rdata/reader';

export type TokenKind = RdataToken['kind'];

export interface Token extends RdataToken {
  /**
   * the line the token is on: 0 from the lexer (a line's tokens do not know where the line
   * is, and cached lines move as an editor inserts lines); the entry parser sets it as it
   * reads the token, so no placed copy of every token is made
   */
  line: number;
}

export interface LineTokens {
  tokens: Token[];
  /** the line starts with a blank: the owner is the previous entry's */
  leadingBlank: boolean;
  /** `code` is the problem's code when it is not 'syntax' */
  error?: { start: number; end: number; message: string; code?: string };
}

/**
 * The longest line read. The largest RDATA (65535 bytes) written all as \DDD escapes takes
 * 262,140 characters; a line four times that long holds no record, and one of hundreds of MB
 * would exhaust the heap as tokens. Past this the line is refused, unread.
 */
export const MAX_LINE_CHARS = 1024 * 1024;

// Constants of this module, not imports: the loop over every character of a file reads them,
// and an imported binding is a property read through the module's exports object each time
// outside the bundle (tests, benches under tsx).
const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const QUOTE = 0x22;
const SEMI = 0x3b;
const OPEN = 0x28;
const CLOSE = 0x29;
const BACKSLASH = 0x5c;

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB || c === CR;
}

export function tokenizeLine(line: string): LineTokens {
  const tokens: Token[] = [];
  const n = line.length;
  const leadingBlank = n > 0 && isBlank(line.charCodeAt(0));
  if (n > MAX_LINE_CHARS) {
    const message = `the line has ${n} characters; lines of more than ${MAX_LINE_CHARS} are not read`;
    return { tokens, leadingBlank, error: { start: 0, end: 0, message, code: 'line-too-long' } };
  }
  let i = 0;
  while (i < n) {
    const c = line.charCodeAt(i);
    if (isBlank(c)) {
      i++;
    } else if (c === SEMI) {
      break;
    } else if (c === OPEN || c === CLOSE) {
      tokens.push({
        kind: c === OPEN ? 'open' : 'close',
        text: line[i],
        start: i,
        end: i + 1,
        line: 0,
      });
      i++;
    } else if (c === QUOTE) {
      let j = i + 1;
      while (j < n && line.charCodeAt(j) !== QUOTE) j += line.charCodeAt(j) === BACKSLASH ? 2 : 1;
      if (j >= n) {
        return {
          tokens,
          leadingBlank,
          error: { start: i, end: n, message: 'unterminated quoted string' },
        };
      }
      tokens.push({ kind: 'quoted', text: line.slice(i + 1, j), start: i, end: j + 1, line: 0 });
      i = j + 1;
    } else {
      let j = i;
      while (j < n) {
        const d = line.charCodeAt(j);
        if (isBlank(d) || d === SEMI || d === OPEN || d === CLOSE || d === QUOTE) break;
        j += d === BACKSLASH ? 2 : 1;
      }
      if (j > n) j = n;
      tokens.push({ kind: 'word', text: line.slice(i, j), start: i, end: j, line: 0 });
      i = j;
    }
  }
  return { tokens, leadingBlank };
}

/** Where scanEntry leaves the entry it read. */
export interface ScannedEntry {
  /**
   * the entry's tokens, parentheses left out, each placed on its line: valid until the next
   * scan, which reuses the token objects (from `pool`) and the array (from `lists`), so that
   * reading an entry makes no objects but its tokens' strings
   */
  tokens: Token[];
  pool: Token[];
  /**
   * per token count n, the array of pool[0, n): a pooled token keeps its index, so the array
   * of n tokens is made once and never changes (emptying and refilling one array was a call
   * into the runtime per entry, to set its length)
   */
  lists: Token[][];
  leadingBlank: boolean;
  /** lines the entry spans (blank and comment lines count as an entry of no tokens) */
  lines: number;
  /** where the entry's last token (a closing parenthesis included) ends */
  endLine: number;
  endColumn: number;
  /** the offset of the line after the entry, or -1 when the entry ends the text */
  next: number;
}

/** An empty ScannedEntry for scanEntry to fill (one per parse, reused for every entry). */
export function emptyScannedEntry(): ScannedEntry {
  // The pool starts with a token, so that every list sliced from it, the empty one too, is an
  // array of objects: an empty array of no kind yet (the list of a comment line at the top of
  // a file) met later made V8 throw away the parser's optimized code.
  const pool: Token[] = [{ kind: 'word', text: '', start: 0, end: 0, line: 0 }];
  return {
    tokens: pool.slice(0, 0),
    pool,
    lists: [],
    leadingBlank: false,
    lines: 0,
    endLine: 0,
    endColumn: 0,
    next: -1,
  };
}

/**
 * The one-shot parser's fast path: the entry that starts at `from` (line `line`) read straight
 * from the text, with no string per line and no per-line token lists. It gives the tokens
 * tokenizeLine gives, line by line, for the entries that lex cleanly: one line, or several held
 * together by one pair of parentheses. Anything else (an unterminated quoted string, nested or
 * unbalanced parentheses, a line past MAX_LINE_CHARS, a "(" never closed) answers false, and the
 * entry is read line by line by tokenizeLine, which reports what is wrong where it is.
 */
export function scanEntry(text: string, from: number, line: number, out: ScannedEntry): boolean {
  const { pool } = out;
  let count = 0;
  const length = text.length;
  let depth = 0;
  let at = from;
  let current = line;
  let endLine = line;
  let endColumn = 0;
  let leadingBlank = false;
  for (;;) {
    const feed = text.indexOf('\n', at);
    // as parseText cuts lines: a CR is dropped only before a line feed
    const cut =
      feed === -1 ? length : feed > at && text.charCodeAt(feed - 1) === CR ? feed - 1 : feed;
    if (cut - at > MAX_LINE_CHARS) return false;
    if (current === line) leadingBlank = cut > at && isBlank(text.charCodeAt(at));
    let i = at;
    while (i < cut) {
      const c = text.charCodeAt(i);
      if (c === SPACE || c === TAB || c === CR) {
        i++;
      } else if (c === SEMI) {
        break;
      } else if (c === OPEN || c === CLOSE) {
        depth += c === OPEN ? 1 : -1;
        if (depth > 1 || depth < 0) return false;
        i++;
        endLine = current;
        endColumn = i - at;
      } else if (c === QUOTE) {
        let j = i + 1;
        while (j < cut && text.charCodeAt(j) !== QUOTE)
          j += text.charCodeAt(j) === BACKSLASH ? 2 : 1;
        if (j >= cut) return false;
        const end = j + 1 - at;
        pooled(pool, count++, 'quoted', text.slice(i + 1, j), i - at, end, current);
        endLine = current;
        endColumn = end;
        i = j + 1;
      } else {
        let j = i;
        while (j < cut) {
          const d = text.charCodeAt(j);
          if (
            d === SPACE ||
            d === TAB ||
            d === CR ||
            d === SEMI ||
            d === OPEN ||
            d === CLOSE ||
            d === QUOTE
          ) {
            break;
          }
          j += d === BACKSLASH ? 2 : 1;
        }
        if (j > cut) j = cut;
        const end = j - at;
        pooled(pool, count++, 'word', text.slice(i, j), i - at, end, current);
        endLine = current;
        endColumn = end;
        i = j;
      }
    }
    if (depth === 0) {
      out.tokens = out.lists[count] ??= pool.slice(0, count);
      out.leadingBlank = leadingBlank;
      out.lines = current - line + 1;
      out.endLine = endLine;
      out.endColumn = endColumn;
      out.next = feed === -1 ? -1 : feed + 1;
      return true;
    }
    if (feed === -1) return false;
    at = feed + 1;
    current++;
  }
}

/** Token `index` of a scan, from the pool: set to the values given, or made once. */
function pooled(
  pool: Token[],
  index: number,
  kind: TokenKind,
  text: string,
  start: number,
  end: number,
  line: number,
): void {
  const token = pool[index];
  if (token === undefined) {
    // the pool grows one token at a time: this one is pool[index]
    pool.push({ kind, text, start, end, line });
  } else {
    token.kind = kind;
    token.text = text;
    token.start = start;
    token.end = end;
    token.line = line;
  }
}
