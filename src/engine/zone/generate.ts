// BIND's $GENERATE (ARM "Zone File", "$GENERATE"): `$GENERATE start-stop[/step] lhs [ttl]
// [class] type rhs`, where `$` in lhs and rhs is the iterator and `${offset,width,base}`
// formats it (base d, o, x or X).
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
    const data = substitute(rhs, i);
    if (owner === undefined) return { message: `bad $ modifier in "${lhs}"`, token: 1 };
    if (data === undefined)
      return { message: `bad $ modifier in "${rhs}"`, token: args.length - 1 };
    lines.push(`${owner} ${middle} ${data}`);
  }
  return { lines };
}

function substitute(template: string, value: number): string | undefined {
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const ch = template[i];
    if (ch === '\\' && template[i + 1] === '$') {
      out += '$';
      i++;
    } else if (ch === '$' && template[i + 1] === '{') {
      const close = template.indexOf('}', i);
      if (close < 0) return undefined;
      const m = /^(-?\d+)(?:,(\d+)(?:,([doxX]))?)?$/.exec(template.slice(i + 2, close));
      if (!m) return undefined;
      const n = value + Number(m[1]);
      const base = m[3] ?? 'd';
      let text = n.toString(base === 'o' ? 8 : base === 'd' ? 10 : 16);
      if (base === 'X') text = text.toUpperCase();
      out += text.padStart(Number(m[2] ?? 0), '0');
      i = close;
    } else if (ch === '$') {
      out += String(value);
    } else {
      out += ch;
    }
  }
  return out;
}
