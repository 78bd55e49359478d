// BIND's $GENERATE (ARM "Zone File", "$GENERATE"): `$GENERATE start-stop[/step] lhs [ttl]
// [class] type rhs`, where `$` in lhs and rhs is the iterator and `${offset,width,base}`
// formats it: base d, o, x or X, or n and N, the nibble format of reverse IPv6 names (the
// value's hex digits lowest first, one a label, lower or upper case).
import type { Token } from './lexer';

/** BIND refuses ranges this long too; a typo like 1-1000000000 must not hang the editor. */
export const MAX_GENERATED = 65536;

export type Generated = { lines: string[] } | { message: string; token: number };

export function generateLines(args: Token[]): Generated {
  if (args.length < 4) {
    return { message: '$GENERATE takes a range, an owner, a type and data', token: 0 };
  }
  const m = /^(\d+)-(\d+)(?:\/(\d+))?$/.exec(args[0].text);
  if (!m) return { message: `bad range "${args[0].text}" (start-stop[/step])`, token: 0 };
  const start = Number(m[1]);
  const stop = Number(m[2]);
  const step = m[3] === undefined ? 1 : Number(m[3]);
  if (stop < start || step < 1) return { message: 'the range is empty', token: 0 };
  if ((stop - start) / step + 1 > MAX_GENERATED) {
    return { message: `the range makes more than ${MAX_GENERATED} records`, token: 0 };
  }
  const lhs = args[1].text;
  const middle = args
    .slice(2, -1)
    .map((t) => t.text)
    .join(' ');
  const rhs = args[args.length - 1].text;
  const lines: string[] = [];
  for (let i = start; i <= stop; i += step) {
    const owner = substitute(lhs, i);
    if (typeof owner !== 'string') return { message: owner.message, token: 1 };
    const data = substitute(rhs, i);
    if (typeof data !== 'string') return { message: data.message, token: args.length - 1 };
    lines.push(`${owner} ${middle} ${data}`);
  }
  return { lines };
}

/** BIND computes iterator + offset in a signed 32-bit integer and refuses what overflows it. */
const INT32_MAX = 2 ** 31 - 1;

type Substituted = string | { message: string };

function substitute(template: string, value: number): Substituted {
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const ch = template[i];
    if (ch === '\\' && template[i + 1] === '$') {
      out += '$';
      i++;
    } else if (ch === '$' && template[i + 1] === '{') {
      const close = template.indexOf('}', i);
      if (close < 0) return { message: `bad $ modifier in "${template}"` };
      const m = /^([-+]?\d+)(?:,(\d+)(?:,([doxXnN]))?)?$/.exec(template.slice(i + 2, close));
      if (!m) return { message: `bad $ modifier in "${template}"` };
      const offset = Number(m[1]);
      const n = value + offset;
      if (Math.abs(offset) > INT32_MAX || n > INT32_MAX) {
        return { message: `$GENERATE offset ${m[1]} takes the iterator out of range` };
      }
      const width = Number(m[2] ?? 0);
      const base = m[3] ?? 'd';
      if (base === 'n' || base === 'N') {
        out += nibbles(n, width, base === 'N');
      } else {
        // octal and hex print a negative value's 32-bit two's complement, as BIND's printf
        let text = base === 'd' ? String(n) : (n >>> 0).toString(base === 'o' ? 8 : 16);
        if (base === 'X') text = text.toUpperCase();
        out += text.padStart(width, '0');
      }
      i = close;
    } else if (ch === '$') {
      out += String(value);
    } else {
      out += ch;
    }
  }
  return out;
}

/**
 * The nibble format: the value's hex digits from the lowest, each followed by a dot but the
 * last, until the value is used up and at least `width` characters (digits and dots) are
 * written; so a width ending on a dot leaves a trailing dot, as BIND does.
 */
function nibbles(value: number, width: number, upper: boolean): string {
  // a negative value's nibbles are those of its 32-bit two's complement, as BIND's
  let rest = value >>> 0;
  let left = width;
  let out = '';
  do {
    const digit = (rest & 0xf).toString(16);
    out += upper ? digit.toUpperCase() : digit;
    rest >>>= 4;
    if (left > 0) left--;
    if (left > 0 || rest !== 0) {
      out += '.';
      if (left > 0) left--;
    }
  } while (rest !== 0 || left > 0);
  return out;
}
