// Zone file lines (RFC 1035 master format as BIND and Knot write it): owner names relative
// to $ORIGIN, "@" for the origin, names in the RDATA of the types that carry them, addresses
// in A/AAAA, and whatever the quoted strings of TXT/SPF/CAA mention.
import { isIPv4, isIPv6 } from 'node:net';
import { asHostname } from './hostname';
import { scanLine } from './scan';
import type { Detected } from './types';
import { commentStart, originFromFileName, recordTypeIndex, stripComment } from './zone-file';

// Which RDATA field holds a domain name, per type. SOA's RNAME and RP's mailbox are mail
// addresses written as names, so they are left alone.
const NAME_FIELD: Record<string, number> = {
  NS: 0,
  CNAME: 0,
  DNAME: 0,
  PTR: 0,
  MB: 0,
  MG: 0,
  MR: 0,
  SOA: 0,
  MX: 1,
  AFSDB: 1,
  KX: 1,
  RT: 1,
  SVCB: 1,
  HTTPS: 1,
  SRV: 3,
  NAPTR: 5,
};

type Token = { text: string; start: number };

export function detectZoneLine(line: string, origin?: string): Detected[] {
  const cut = commentStart(line);
  const tokens = tokenize(line.slice(0, cut));
  const found: Detected[] = [];
  const name = (token: Token | undefined): void => {
    if (token === undefined) return;
    const value = resolveName(token.text, origin);
    if (value !== undefined) found.push(detected('hostname', token, value));
  };

  const first = tokens[0];
  if (first?.text.startsWith('$')) {
    const directive = first.text.toUpperCase();
    if (directive === '$ORIGIN') name(tokens[1]);
    if (directive === '$INCLUDE') name(tokens[2]);
  } else if (first !== undefined) {
    const hasOwner = first.start === 0;
    const words = tokens.map((t) => t.text);
    const typeAt = recordTypeIndex(words, hasOwner);
    if (hasOwner) name(first);
    if (typeAt >= 0) {
      const type = words[typeAt].toUpperCase();
      const rdata = tokens.slice(typeAt + 1);
      const field = NAME_FIELD[type];
      const ipField = rdata[0];
      if (field !== undefined && rdata[field]?.text !== '.') name(rdata[field]);
      else if (type === 'A' && ipField && isIPv4(ipField.text)) {
        found.push(detected('ip', ipField, ipField.text));
      } else if (type === 'AAAA' && ipField && isIPv6(ipField.text)) {
        found.push(detected('ip', ipField, ipField.text.toLowerCase()));
      }
    } else {
      // A continuation line inside ( … ) or something unknown: only what is unambiguous.
      for (const token of hasOwner ? tokens.slice(1) : tokens) {
        if (isIPv4(token.text) || isIPv6(token.text)) {
          found.push(detected('ip', token, token.text.toLowerCase()));
        } else if (token.text.endsWith('.') && token.text.length > 1) {
          name(token);
        }
      }
    }
  }
  // TXT, SPF and CAA strings (also on continuation lines) are searched like prose.
  for (const token of tokens) {
    if (token.text.startsWith('"')) {
      found.push(...scanLine(unquote(token.text), undefined, token.start + 1));
    }
  }
  if (cut < line.length) found.push(...scanLine(line.slice(cut), undefined, cut));
  return found.sort((a, b) => a.start - b.start);
}

/** The origin in effect at a line: the last $ORIGIN above it, else what the file name says. */
export function zoneOriginAt(
  lines: string[],
  lineIndex: number,
  fileOriginHint?: string,
): string | undefined {
  let origin = originFromHint(fileOriginHint);
  const end = Math.min(Math.max(lineIndex, 0), lines.length);
  for (let i = 0; i < end; i++) {
    const m = /^\$ORIGIN\s+(\S+)/i.exec(stripComment(lines[i]));
    if (!m) continue;
    const value = resolveName(m[1], origin);
    origin = value === undefined ? undefined : value === '.' ? '.' : `${value}.`;
  }
  return origin;
}

// A hint is an origin ("example.com.") or a file name/path ("db.example.com", "x.zone", or
// a bare "example.com", which must then pass the ordinary host name test).
function originFromHint(hint: string | undefined): string | undefined {
  if (hint === undefined || hint === '') return undefined;
  if (hint.endsWith('.')) return hint === '.' ? '.' : resolveName(hint, undefined)?.concat('.');
  const fromName = originFromFileName(hint);
  if (fromName !== undefined) return fromName;
  const base = hint.split(/[\\/]/).pop() ?? '';
  const value = asHostname(base);
  return value === undefined || value.startsWith('*') ? undefined : `${value}.`;
}

/**
 * A name as the zone means it, lower case without trailing dot: "@" is the origin, a name
 * ending in "." is absolute, anything else is relative to the origin (and unknowable without
 * one). Escaped names ("\.") are not handled and give undefined.
 */
function resolveName(text: string, origin: string | undefined): string | undefined {
  const base = origin === undefined ? undefined : origin.replace(/\.$/, '').toLowerCase();
  let full: string;
  if (text === '@') {
    if (base === undefined || base === '') return undefined;
    full = base;
  } else if (text.endsWith('.')) {
    full = text.slice(0, -1);
  } else {
    if (base === undefined) return undefined;
    full = base === '' ? text : `${text}.${base}`;
  }
  if (full === '' || text.includes('\\')) return undefined;
  return asHostname(full, { hostContext: true, allowSingleLabel: true });
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(/"(?:[^"\\]|\\.)*"?|[^\s()"]+/g)) {
    tokens.push({ text: m[0], start: m.index });
  }
  return tokens;
}

function unquote(text: string): string {
  return text.slice(1, text.endsWith('"') && text.length > 1 ? -1 : undefined);
}

function detected(kind: Detected['kind'], token: Token, value: string): Detected {
  return {
    kind,
    text: token.text,
    value,
    start: token.start,
    end: token.start + token.text.length,
  };
}
