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
