// A reader for the subset of BIND master files the fixtures use: $ORIGIN, $TTL, `@`, relative
// owner names, blank owners, parentheses across lines, quoted strings with escapes, and the ten
// record types of the contract. Produces FixtureRecords whose `data` is dns-packet's shape.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The SOA, NS and glue of a valid example.test. zone, for tests that append the lines they test. */
export const ZONE_HEAD = [
  '$ORIGIN example.test.',
  '$TTL 3600',
  '@ IN SOA ns1 hostmaster 1 7200 3600 1209600 3600',
  '@ IN NS ns1',
  'ns1 IN A 192.0.2.1',
  '',
].join('\n');

/** test/fixtures/zones: one `<origin>.zone` file per zone */
export const ZONES_DIR = resolve(__dirname, '../fixtures/zones');

export interface FixtureRecord {
  name: string;
  type: string;
  ttl?: number;
  /** dns-packet answer `data` for that type */
  data: unknown;
}

interface Token {
  text: string;
  quoted: boolean;
  /** raw bytes of a quoted string, escapes decoded */
  bytes?: Buffer;
}

interface Line {
  number: number;
  /** the line starts with white space: same owner as the previous record */
  inheritsOwner: boolean;
  tokens: Token[];
}

const TYPES = new Set(['A', 'AAAA', 'CAA', 'CNAME', 'MX', 'NS', 'PTR', 'TXT', 'SRV', 'SOA']);
const CLASSES = new Set(['IN', 'CH', 'HS']);
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

export function loadZoneFile(path: string, origin?: string): FixtureRecord[] {
  return parseZone(readFileSync(path, 'utf8'), origin, path);
}

/**
 * Records of the fixture zones (all of them by default), each file read with its file name as
 * origin, so `example.test.zone` is the zone `example.test.`.
 */
export function loadFixtureZones(files?: string[]): FixtureRecord[] {
  const names =
    files ??
    readdirSync(ZONES_DIR)
      .filter((f) => f.endsWith('.zone'))
      .sort();
  return names.flatMap((f) => loadZoneFile(join(ZONES_DIR, f), f.replace(/\.zone$/, '')));
}

export function parseZone(text: string, origin?: string, source = 'zone'): FixtureRecord[] {
  let currentOrigin = origin === undefined ? undefined : absolute(origin);
  let defaultTtl: number | undefined;
  let lastOwner: string | undefined;
  const records: FixtureRecord[] = [];
  for (const line of logicalLines(text)) {
    const fail = (why: string) => new Error(`${source}:${line.number}: ${why}`);
    const tokens = [...line.tokens];
    const first = tokens[0];
    if (!first.quoted && first.text.toUpperCase() === '$ORIGIN') {
      currentOrigin = absolute(tokens[1]?.text ?? '');
      continue;
    }
    if (!first.quoted && first.text.toUpperCase() === '$TTL') {
      defaultTtl = parseTtl(tokens[1]?.text ?? '', fail);
      continue;
    }
    if (first.text.startsWith('$')) throw fail(`unsupported directive ${first.text}`);
    const resolveName = (name: string): string => {
      if (name === '@') {
        if (currentOrigin === undefined) throw fail('@ used with no $ORIGIN');
        return currentOrigin;
      }
      if (name.endsWith('.')) return name;
      if (currentOrigin === undefined) throw fail(`relative name ${name} with no $ORIGIN`);
      return currentOrigin === '.' ? `${name}.` : `${name}.${currentOrigin}`;
    };
    let owner: string;
    if (line.inheritsOwner) {
      if (lastOwner === undefined) throw fail('record with no owner');
      owner = lastOwner;
    } else {
      owner = resolveName(tokens.shift()!.text);
    }
    lastOwner = owner;
    let ttl = defaultTtl;
    while (tokens.length > 0 && !TYPES.has(tokens[0].text.toUpperCase())) {
      const t = tokens.shift()!.text;
      if (CLASSES.has(t.toUpperCase())) continue;
      if (/^\d/.test(t)) ttl = parseTtl(t, fail);
      else throw fail(`unknown type or field ${t}`);
    }
    const typeToken = tokens.shift();
    if (typeToken === undefined) throw fail('record with no type');
    const type = typeToken.text.toUpperCase();
    const data = rdata(type, tokens, resolveName, fail);
    const record: FixtureRecord = { name: owner.replace(/\.$/, '') || '.', type, data };
    if (ttl !== undefined) record.ttl = ttl;
    records.push(record);
  }
  return records;
}

function rdata(
  type: string,
  tokens: Token[],
  name: (n: string) => string,
  fail: (why: string) => Error,
): unknown {
  const need = (count: number) => {
    if (tokens.length !== count) throw fail(`${type} wants ${count} fields, got ${tokens.length}`);
    return tokens.map((t) => t.text);
  };
  const int = (text: string) => {
    if (!/^\d+$/.test(text)) throw fail(`${text} is not a number`);
    return Number(text);
  };
  const dname = (text: string) => stripDot(name(text));
  switch (type) {
    case 'A':
    case 'AAAA':
      return need(1)[0];
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return dname(need(1)[0]);
    case 'MX': {
      const [preference, exchange] = need(2) as [string, string];
      return { preference: int(preference), exchange: dname(exchange) };
    }
    case 'SRV': {
      const [priority, weight, port, target] = need(4) as [string, string, string, string];
      return {
        priority: int(priority),
        weight: int(weight),
        port: int(port),
        target: dname(target),
      };
    }
    case 'CAA': {
      const [flags, tag, value] = need(3) as [string, string, string];
      return { flags: int(flags), tag, value };
    }
    case 'SOA': {
      const f = need(7);
      const secs = f.slice(2).map((t) => parseTtl(t, fail));
      return {
        mname: dname(f[0]),
        rname: dname(f[1]),
        serial: int(f[2]),
        refresh: secs[1],
        retry: secs[2],
        expire: secs[3],
        minimum: secs[4],
      };
    }
    case 'TXT': {
      if (tokens.length === 0) throw fail('TXT with no strings');
      return tokens.map((t) => {
        const bytes = t.bytes ?? Buffer.from(t.text, 'utf8');
        if (bytes.length > 255) throw fail('a TXT character-string is longer than 255 octets');
        const text = bytes.toString('utf8');
        return Buffer.from(text, 'utf8').equals(bytes) ? text : bytes;
      });
    }
    default:
      throw fail(`unsupported type ${type}`);
  }
}

function stripDot(name: string): string {
  return name === '.' ? '.' : name.replace(/\.$/, '');
}

function absolute(name: string): string {
  if (name === '' || name === '.') return '.';
  return name.endsWith('.') ? name : `${name}.`;
}

function parseTtl(text: string, fail: (why: string) => Error): number {
  if (/^\d+$/.test(text)) return Number(text);
  const parts = /^(?:\d+[smhdw])+$/i.test(text) ? text.match(/\d+[smhdw]/gi)! : undefined;
  if (parts === undefined) throw fail(`${text} is not a TTL`);
  return parts.reduce(
    (sum, p) => sum + Number(p.slice(0, -1)) * UNIT_SECONDS[p.slice(-1).toLowerCase()],
    0,
  );
}

/** Splits the file into records: comments dropped, parentheses joined, strings kept whole. */
function logicalLines(text: string): Line[] {
  const lines: Line[] = [];
  let current: Line | undefined;
  let depth = 0;
  let lineNumber = 1;
  let i = 0;
  const flush = () => {
    if (current !== undefined && current.tokens.length > 0) lines.push(current);
    current = undefined;
  };
  const startLine = (inheritsOwner: boolean) => {
    current ??= { number: lineNumber, inheritsOwner, tokens: [] };
    return current;
  };
  let atLineStart = true;
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      lineNumber++;
      if (depth === 0) flush();
      atLineStart = true;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      if (atLineStart && depth === 0) startLine(true);
      atLineStart = false;
      i++;
      continue;
    }
    atLineStart = false;
    if (c === ';') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (c === '(' || c === ')') {
      depth += c === '(' ? 1 : -1;
      if (depth < 0) throw new Error(`line ${lineNumber}: unbalanced ")"`);
      startLine(false);
      i++;
      continue;
    }
    const line = startLine(false);
    if (c === '"') {
      const bytes: number[] = [];
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\') {
          const digits = /^\d{3}/.exec(text.slice(i + 1, i + 4));
          if (digits !== null) {
            bytes.push(Number(digits[0]));
            i += 4;
            continue;
          }
          i++;
        }
        const ch = text.codePointAt(i)!;
        const s = String.fromCodePoint(ch);
        bytes.push(...Buffer.from(s, 'utf8'));
        i += s.length;
      }
      if (i >= text.length) throw new Error(`line ${lineNumber}: unterminated string`);
      i++;
      const buf = Buffer.from(bytes);
      line.tokens.push({ text: buf.toString('utf8'), quoted: true, bytes: buf });
      continue;
    }
    let word = '';
    while (i < text.length && !/[\s;()"]/.test(text[i])) word += text[i++];
    line.tokens.push({ text: word, quoted: false });
  }
  if (depth !== 0) throw new Error('unbalanced "(" at end of zone');
  flush();
  return lines;
}
