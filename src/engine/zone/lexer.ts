// One line of a master file (RFC 1035 section 5.1) as tokens. A line's tokens never depend on
// the lines around it (quoted strings do not cross lines, parentheses only group), so editors
// can cache them per line and re-tokenise only the lines an edit touched.

export type TokenKind = 'word' | 'quoted' | 'open' | 'close';

export interface Token {
  kind: TokenKind;
  /** the token as written: escapes kept, the quotes of a quoted string dropped */
  text: string;
  start: number;
  end: number;
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

/**
 * The octets of a character-string or word as RFC 1035 section 5.1 reads it: `\DDD` is one
 * octet in decimal, `\X` is X itself. Characters beyond ASCII count as their UTF-8 octets.
 * Returns undefined when a `\DDD` is over 255.
 */
export function unescapeOctets(text: string): number[] | undefined {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH && i + 1 < text.length) {
      // \DDD read by char code: TXT strings with escapes come through here by the thousand
      const d1 = digitAt(text, i + 1);
      const d2 = digitAt(text, i + 2);
      const d3 = digitAt(text, i + 3);
      if (d1 >= 0 && d2 >= 0 && d3 >= 0) {
        const value = d1 * 100 + d2 * 10 + d3;
        if (value > 255) return undefined;
        out.push(value);
        i += 3;
      } else {
        i++;
        pushChar(out, text, i);
        if (text.charCodeAt(i) >= 0xd800 && text.charCodeAt(i) <= 0xdbff) i++;
      }
    } else if (c < 0x80) {
      out.push(c);
    } else {
      pushChar(out, text, i);
      if (c >= 0xd800 && c <= 0xdbff) i++;
    }
  }
  return out;
}

/** The decimal digit at `i`, or -1 (also past the end). */
function digitAt(text: string, i: number): number {
  const c = text.charCodeAt(i) - 0x30;
  return c >= 0 && c <= 9 ? c : -1;
}

function pushChar(out: number[], text: string, i: number): void {
  const cp = text.codePointAt(i) ?? 0;
  if (cp < 0x80) out.push(cp);
  else for (const b of Buffer.from(String.fromCodePoint(cp), 'utf8')) out.push(b);
}

/** Octets back to presentation: printable ASCII as is, `"` `\` `;` escaped, the rest `\DDD`. */
export function escapeOctets(octets: ArrayLike<number>, inQuotes: boolean): string {
  let out = '';
  for (let i = 0; i < octets.length; i++) {
    const b = octets[i];
    if (b === QUOTE || b === BACKSLASH || (!inQuotes && (b === SEMI || b === OPEN || b === CLOSE)))
      out += `\\${String.fromCharCode(b)}`;
    else if (b > 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else if (b === SPACE && inQuotes) out += ' ';
    else out += `\\${String(b).padStart(3, '0')}`;
  }
  return out;
}
