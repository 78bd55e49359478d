// Finds URLs, e-mail addresses, IP addresses and host names on one line of prose, config or
// code. Candidates are gathered by kind, most specific first (a URL wins over the host inside
// it), and a later candidate overlapping an earlier one is dropped.
import { isIPv4, isIPv6 } from 'node:net';
import { codeSpans, hostSpans, linkTextSpans, type HostSpan } from './contexts';
import { asHostname } from './hostname';
import type { Detected, Span } from './types';

// Lookbehinds keep every search starting at a token boundary, so a long line costs linear time.
const URL_RE = /(?<![\p{L}\p{N}+.-])https?:\/\/[^\s<>"'`\\^{}|]+/giu;
const EMAIL_RE =
  /(?<![\p{L}\p{N}._%+-])([\p{L}\p{N}_%+-]+(?:\.[\p{L}\p{N}_%+-]+)*)@([\p{L}\p{M}\p{N}_-]+(?:\.[\p{L}\p{M}\p{N}_-]+)+)/gu;
const IPV4_RE = /(?<![\p{L}\p{N}_.])(?:\d{1,3}\.){3}\d{1,3}(?![\p{L}\p{N}_]|\.[\p{L}\p{N}_-])/gu;
// "ip6:" is the SPF mechanism; elsewhere a colon before the candidate means it is a fragment.
const IPV6_RE = /(?<=^|[^\p{L}\p{N}_:.]|ip6:)[0-9a-f]*:[0-9a-f:.]*[0-9a-f:]/giu;
const NAME_RE =
  /(?<![\p{L}\p{M}\p{N}_.\-@$%&\\~])(?:\*\.)?[\p{L}\p{M}\p{N}_-]+(?:\.[\p{L}\p{M}\p{N}_-]+)+\.?/gu;
const LOCALHOST_RE = /(?<![\p{L}\p{N}_.\-@/])localhost(?![\p{L}\p{N}_-]|\.[\p{L}\p{N}])/giu;
const LOCALHOST_WORD = /localhost/iu; // the flags of LOCALHOST_RE: "u" folds case more widely
const HOST_TOKEN_RE = /[^\s,;"'`()[\]{}<>=|]+/gu;

/** All items on a line that is not a zone file line. `offset` shifts the ranges. */
export function scanLine(line: string, languageId?: string, offset = 0): Detected[] {
  const hosts = hostSpans(line, languageId);
  const scan: Scan = {
    allowed: codeSpans(line, languageId),
    excluded: linkTextSpans(line),
    found: [],
  };

  // Each pattern runs only on a line holding the characters it cannot match without. The
  // patterns are searched with exec() on their one object (matchAll would copy the pattern
  // for each line); none of them matches an empty string, so every search moves on.
  const dotted = line.includes('.');
  const colon = line.includes(':');
  let m: RegExpExecArray | null;
  if (colon) {
    URL_RE.lastIndex = 0;
    while ((m = URL_RE.exec(line))) {
      const text = trimUrl(m[0]);
      if (isLookupableUrl(text)) add(scan, 'url', m.index, text, text);
    }
  }
  if (line.includes('@')) {
    EMAIL_RE.lastIndex = 0;
    while ((m = EMAIL_RE.exec(line))) {
      const domainStart = m.index + m[1].length + 1;
      const inHost = hosts.some((h) => h.start <= domainStart && domainStart < h.end);
      const domain = asHostname(m[2], { hostContext: inHost });
      if (domain !== undefined) add(scan, 'email', m.index, m[0], domain);
    }
  }
  if (colon) {
    IPV6_RE.lastIndex = 0;
    while ((m = IPV6_RE.exec(line))) {
      if (startsInFound(scan, m.index)) continue;
      const ip = trimIpv6(m[0]);
      if (ip !== undefined && !/[\p{L}\p{N}_]/u.test(line.charAt(m.index + ip.length))) {
        add(scan, 'ip', m.index, ip, ip.toLowerCase());
      }
    }
  }
  if (dotted) {
    IPV4_RE.lastIndex = 0;
    while ((m = IPV4_RE.exec(line))) {
      if (!startsInFound(scan, m.index) && isIPv4(m[0])) add(scan, 'ip', m.index, m[0], m[0]);
    }
  }
  for (const span of hosts) {
    for (const [start, text, value] of hostTokens(line, span)) {
      add(scan, 'hostname', start, text, value);
    }
  }
  if (dotted) {
    NAME_RE.lastIndex = 0;
    while ((m = NAME_RE.exec(line))) {
      if (startsInFound(scan, m.index)) continue;
      const text = m[0].endsWith('.') ? m[0].slice(0, -1) : m[0];
      const after = line[m.index + m[0].length];
      if (after === '(' || after === '@') continue;
      const value = asHostname(text);
      if (value !== undefined) add(scan, 'hostname', m.index, text, value);
    }
  }
  if (LOCALHOST_WORD.test(line)) {
    LOCALHOST_RE.lastIndex = 0;
    while ((m = LOCALHOST_RE.exec(line))) add(scan, 'hostname', m.index, m[0], 'localhost');
  }

  const found = scan.found;
  found.sort((a, b) => a.start - b.start);
  return offset === 0
    ? found
    : found.map((d) => ({ ...d, start: d.start + offset, end: d.end + offset }));
}

/** One line's search: where items may be, where they may not, and what was found so far. */
interface Scan {
  /** in code, the strings and comments; undefined: the whole line */
  allowed: Span[] | undefined;
  /** Markdown link texts */
  excluded: Span[];
  found: Detected[];
}

/** Adds an item unless it is outside the allowed spans, excluded, or overlaps an earlier one. */
function add(scan: Scan, kind: Detected['kind'], start: number, text: string, value: string): void {
  const item: Detected = { kind, text, value, start, end: start + text.length };
  if (scan.allowed && !scan.allowed.some((s) => s.start <= item.start && item.end <= s.end)) return;
  if (scan.excluded.some((s) => overlaps(s, item))) return;
  if (scan.found.some((f) => overlaps(f, item))) return;
  scan.found.push(item);
}

/**
 * Whether an item found already holds column `start`: a candidate starting there overlaps it,
 * and add() would drop it, so it is not checked first (the host in a URL, an address in it).
 */
function startsInFound(scan: Scan, start: number): boolean {
  return scan.found.some((f) => f.start <= start && start < f.end);
}

function overlaps(a: Span, b: Span): boolean {
  return a.start < b.end && b.start < a.end;
}

// Sentence punctuation and closing brackets that the URL did not open belong to the prose.
const OPENING: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

function trimUrl(raw: string): string {
  let url = raw;
  for (;;) {
    const last = url[url.length - 1];
    const open = OPENING[last];
    if ('.,;:!?*_~'.includes(last)) url = url.slice(0, -1);
    else if (open !== undefined && count(url, open) < count(url, last)) url = url.slice(0, -1);
    else return url;
  }
}

function count(text: string, ch: string): number {
  let n = 0;
  for (let at = text.indexOf(ch); at >= 0; at = text.indexOf(ch, at + 1)) n++;
  return n;
}

function isLookupableUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host.includes(':')) return isIPv6(host);
  return isIPv4(host) || /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?$/.test(host);
}

// A candidate may carry sentence punctuation or a port-ish colon; shorten until it parses.
// A digit is required so that hex words around "::" in code ("dec::add") are not addresses.
function trimIpv6(raw: string): string | undefined {
  let ip = raw;
  while (ip.length > 2 && !isIPv6(ip) && /[.:]$/.test(ip)) ip = ip.slice(0, -1);
  if (!isIPv6(ip) || ip === '::' || !/\d/.test(ip)) return undefined;
  return ip;
}

function* hostTokens(line: string, span: HostSpan): Generator<[number, string, string]> {
  const region = line.slice(span.start, span.end);
  for (const m of region.matchAll(HOST_TOKEN_RE)) {
    let start = span.start + m.index;
    let text = m[0];
    if (text.startsWith('~') || text.startsWith('-') || text.startsWith('+')) continue;
    text = text.replace(/:\d*$/, ''); // a port
    if (text.endsWith('.')) text = text.slice(0, -1);
    if (text.startsWith('.')) {
      text = text.slice(1); // nginx ".example.com": the name and all below it
      start++;
    }
    const value = asHostname(text, { hostContext: true, allowSingleLabel: span.singleLabel });
    if (value !== undefined && text !== '') yield [start, text, value];
  }
}
