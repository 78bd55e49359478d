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

/** BIND formats the value into a buffer of 128 characters: a longer one "ran out of space". */
const MAX_FORMATTED = 127;

// BIND reads a modifier with sscanf("{%d,%u,%1[doxXnN]}") (lib/dns/master.c, genname), and
// glibc converts each number as a C long (strtol, strtoul) and keeps its low 32 bits: an offset
// past 32 bits wraps (99999999999 is 1215752191), past 64 it sticks at the long's limit (so is
// -1, or 0 below), and a width may be signed ("-1" is 4294967295). Measured with
// named-compilezone 9.18 on every such case (bind-rules.test.ts, differential.test.ts).
const LONG_MAX = 2n ** 63n - 1n;
const LONG_MIN = -(2n ** 63n);
const ULONG_MAX = 2n ** 64n - 1n;

/** A `%d` as glibc's sscanf stores it: strtol's long, saturated, cut to a 32-bit int. */
function scannedInt(text: string): number {
  let value = BigInt(text);
  if (value > LONG_MAX) value = LONG_MAX;
  else if (value < LONG_MIN) value = LONG_MIN;
  return Number(BigInt.asIntN(32, value));
}

/** A `%u` as glibc's sscanf stores it: strtoul's unsigned long (a minus negates it), cut to 32 bits. */
function scannedUnsigned(text: string): number {
  const negative = text.startsWith('-');
  let value = BigInt(text.replace(/^[-+]/, ''));
  if (value > ULONG_MAX) value = ULONG_MAX;
  else if (negative) value = BigInt.asUintN(64, -value);
  return Number(BigInt.asUintN(32, value));
}

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
      const m = /^([-+]?\d+)(?:,([-+]?\d+)(?:,([doxXnN]))?)?$/.exec(template.slice(i + 2, close));
      if (!m) return { message: `bad $ modifier in "${template}"` };
      const offset = scannedInt(m[1]);
      const n = value + offset;
      if (n > INT32_MAX) {
        return { message: `$GENERATE offset ${m[1]} takes the iterator out of range` };
      }
      const width = m[2] === undefined ? 0 : scannedUnsigned(m[2]);
      // every value is at least `width` characters: past the buffer, none is made
      if (width > MAX_FORMATTED) {
        return {
          message: `$GENERATE width ${m[2]} makes a value longer than the ${MAX_FORMATTED} characters BIND formats`,
        };
      }
      const base = m[3] ?? 'd';
      if (base === 'n' || base === 'N') {
        out += nibbles(n, width, base === 'N');
      } else if (base === 'd') {
        // printf's %0*d: the sign, then the digits padded with zeros to the width
        const digits = String(Math.abs(n));
        out += n < 0 ? `-${digits.padStart(width - 1, '0')}` : digits.padStart(width, '0');
      } else {
        // octal and hex print a negative value's 32-bit two's complement, as BIND's printf
        let text = (n >>> 0).toString(base === 'o' ? 8 : 16);
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
