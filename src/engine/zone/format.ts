// Format document: the owner, TTL, class and type of one-line records aligned in columns,
// record data and comments kept as written. Directives, comment lines, records spread over
// parentheses and lines that do not read as a record are left exactly as they are.
import { tokenizeLine, type Token } from './lexer';
import { looksLikeTtl } from '../dns/rdata/ttl';
import { typeCode } from '../dns/rdata/types';
import { CLASSES } from '../dns/rdata/types';

interface Row {
  line: number;
  owner: string;
  ttl: string;
  klass: string;
  type: string;
  rest: string;
}

export function formatZone(text: string): string {
  const lines = text.split(/\r?\n/);
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const rows: Row[] = [];
  let depth = 0;
  lines.forEach((line, index) => {
    const { tokens, leadingBlank, error } = tokenizeLine(line);
    const opens = tokens.filter((t) => t.kind === 'open').length;
    const closes = tokens.filter((t) => t.kind === 'close').length;
    const inside = depth > 0 || opens > 0 || closes > 0;
    depth = Math.max(0, depth + opens - closes);
    if (inside || error !== undefined || tokens.length === 0) return;
    if (!leadingBlank && tokens[0].text.startsWith('$')) return;
    const row = split(line, tokens, leadingBlank);
    if (row !== undefined) rows.push({ ...row, line: index });
  });
  const width = (pick: (r: Row) => string) => Math.max(0, ...rows.map((r) => pick(r).length));
  const w = [
    width((r) => r.owner),
    width((r) => r.ttl),
    width((r) => r.klass),
    width((r) => r.type),
  ];
  for (const r of rows) {
    const cells = [r.owner.padEnd(w[0])];
    if (w[1] > 0) cells.push(r.ttl.padEnd(w[1]));
    if (w[2] > 0) cells.push(r.klass.padEnd(w[2]));
    cells.push(r.type.padEnd(w[3]), r.rest);
    lines[r.line] = cells.join(' ').trimEnd();
  }
  return lines.join(newline);
}

function split(
  line: string,
  tokens: Token[],
  leadingBlank: boolean,
): Omit<Row, 'line'> | undefined {
  let i = 0;
  const owner = leadingBlank ? '' : tokens[i++].text;
  let ttl = '';
  let klass = '';
  for (let k = 0; k < 2 && i < tokens.length; k++) {
    const t = tokens[i].text;
    if (ttl === '' && looksLikeTtl(t)) ttl = t;
    else if (klass === '' && CLASSES.has(t.toUpperCase())) klass = t;
    else break;
    i++;
  }
  const type = tokens[i];
  if (type === undefined || type.kind !== 'word' || typeCode(type.text) === undefined)
    return undefined;
  // The data and any comment, as written, from the first token after the type.
  const rest =
    tokens[i + 1] === undefined
      ? commentAfter(line, type.end)
      : line.slice(tokens[i + 1].start).trimEnd();
  return { owner, ttl, klass, type: type.text, rest };
}

function commentAfter(line: string, from: number): string {
  return line.slice(from).trim();
}
