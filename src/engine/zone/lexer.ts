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
  error?: { start: number; end: number; message: string };
}

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
