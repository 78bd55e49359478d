// Where on a line names may be, and where the line itself says "this is a host name".
import { isIP } from 'node:net';
import type { Span } from './types';

/** A stretch of a line whose tokens are host names by position (relaxed checks apply). */
export type HostSpan = Span & { singleLabel: boolean };

const C_LIKE = new Set(
  (
    'javascript typescript javascriptreact typescriptreact java c cpp csharp go rust kotlin ' +
    'swift scala dart php groovy objective-c objective-cpp fsharp zig vue svelte'
  ).split(' '),
);
const HASH = new Set(
  'python ruby perl r julia elixir coffeescript terraform hcl powershell nim crystal'.split(' '),
);
const DASH = new Set('lua sql haskell elm'.split(' '));
const MODULE_SPECIFIER_BEFORE = /(?:\bfrom|\bimport|\brequire\s*\(|\bimport\s*\()\s*$/;

/**
 * The string literals and comments of a line of code, or undefined when the language is not
 * a programming language (prose, config, markup: the whole line counts). Identifiers in code
 * are never host names, so in code only these spans are searched. Per line, without state:
 * a string or block comment that spans lines is only seen on lines that show its delimiters
 * (and JSDoc-style lines starting with "*").
 */
export function codeSpans(line: string, languageId?: string): Span[] | undefined {
  if (languageId === undefined) return undefined;
  const cLike = C_LIKE.has(languageId);
  const hash = HASH.has(languageId) || languageId === 'php' || languageId === 'terraform';
  const dash = DASH.has(languageId);
  if (!cLike && !hash && !dash) return undefined;
  const slashComments = cLike || languageId === 'terraform' || languageId === 'hcl';
  if (slashComments && /^\s*(?:\*|\/\*)/.test(line)) return [{ start: 0, end: line.length }];
  const spans: Span[] = [];
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (ch === '"' || ch === "'" || ch === '`') {
      let j = i + 1;
      while (j < line.length && line[j] !== ch) j += line[j] === '\\' ? 2 : 1;
      // Module specifiers ("socket.io", "lodash.get") name packages, not hosts.
      if (!MODULE_SPECIFIER_BEFORE.test(line.slice(0, i))) {
        spans.push({ start: i + 1, end: Math.min(j, line.length) });
      }
      i = j + 1;
    } else if (
      (slashComments && line.startsWith('//', i)) ||
      (hash && ch === '#') ||
      (dash && line.startsWith('--', i))
    ) {
      spans.push({ start: i, end: line.length });
      break;
    } else if (slashComments && line.startsWith('/*', i)) {
      const close = line.indexOf('*/', i + 2);
      const end = close < 0 ? line.length : close;
      spans.push({ start: i, end });
      i = end + 2;
    } else {
      i++;
    }
  }
  return spans;
}

// Keys whose value is a host name, compared lower case without '_' and '-'.
const HOST_KEYS = new Set(
  (
    'host hosts hostname hostnames domain domains domainname domainnames servername ' +
    'servernames serveralias fqdn server servers nameserver nameservers ns mx cname dnsname ' +
    'dnsnames vhost virtualhost sni commonname cn san altnames subjectaltnames'
  ).split(' '),
);

// DNS-ish commands whose plain arguments are names (not curl/ssh: their arguments are files).
const SHELL_COMMAND =
  /^(\s*(?:[$#]\s+)?(?:sudo\s+)?(?:dig|nslookup|host|ping6?|traceroute6?|tracepath|mtr|whois|drill|kdig|delv)\s+)(.*)$/;
const CADDY_ADDRESS = /^(?:https?:\/\/)?(?:\*\.)?[\p{L}\p{N}_.-]*(?::\d+)?$/u;

const NGINX_SERVER_NAME = /^(\s*server_name\s+)([^;#]*)/;
const APACHE_SERVER_NAME = /^(\s*(?:ServerName|ServerAlias)\s+)([^#]*)/i;
const FIRST_WORD_AND_REST = /^(\s*(\S+)\s+)([^#]*)/;
const BLOCK_OPENING = /^(\s*)([^\s#{][^#{]*?)\s*\{\s*$/;
const KEY_AND_VALUE = /^(\s*(?:-\s+|export\s+)?["']?([A-Za-z_][\w-]*)["']?\s*[:=]\s*)(.*)$/;
const INLINE_KEY_AND_VALUE = /["']([A-Za-z_][\w-]*)["']\s*:\s*["']([^"']*)["']/g;

/** Stretches of the line that name hosts by their position in a config or command. */
export function hostSpans(line: string, languageId?: string): HostSpan[] {
  const spans: HostSpan[] = [];
  let m: RegExpExecArray | null;

  if ((m = NGINX_SERVER_NAME.exec(line))) {
    addSpan(spans, m[1].length, m[1].length + m[2].length); // nginx
  } else if ((m = APACHE_SERVER_NAME.exec(line))) {
    addSpan(spans, m[1].length, m[1].length + m[2].length); // Apache
  } else if ((m = SHELL_COMMAND.exec(line))) {
    addSpan(spans, m[1].length, line.length);
  } else if ((m = FIRST_WORD_AND_REST.exec(line)) && isHostsLine(m[2], m[3], languageId)) {
    addSpan(spans, m[1].length, m[1].length + m[3].length, true); // /etc/hosts: address, then names
  } else if ((m = BLOCK_OPENING.exec(line)) && isCaddyAddresses(m[2])) {
    addSpan(spans, m[1].length, m[1].length + m[2].length); // Caddyfile site block
  } else if ((m = KEY_AND_VALUE.exec(line))) {
    if (isHostKey(m[2])) {
      const value = m[3];
      const comment = value.search(/\s#/);
      addSpan(spans, m[1].length, m[1].length + (comment < 0 ? value.length : comment));
    }
  }
  // Host keys inside one-line JSON/JS objects: {"host": "a.example", "port": 1}
  const inline = INLINE_KEY_AND_VALUE;
  inline.lastIndex = 0;
  while ((m = inline.exec(line))) {
    if (!isHostKey(m[1])) continue;
    const start = m.index + m[0].length - 1 - m[2].length;
    addSpan(spans, start, start + m[2].length);
  }
  return spans;
}

function addSpan(spans: HostSpan[], start: number, end: number, singleLabel = false): void {
  if (end > start) spans.push({ start, end, singleLabel });
}

// "192.0.2.1 is the address" is prose, not a hosts line: all tokens must be names and, unless
// the language says hosts, the first must look like a canonical host name.
function isHostsLine(address: string, names: string, languageId?: string): boolean {
  if (!isIP(address.split('%')[0])) return false;
  const tokens = names.split(/\s+/).filter((t) => t !== '');
  if (tokens.length === 0 || !tokens.every((t) => /^[\p{L}\p{N}_.-]+$/u.test(t))) return false;
  const first = tokens[0].toLowerCase();
  return (
    languageId === 'hosts' ||
    first.includes('.') ||
    first.startsWith('localhost') ||
    first.startsWith('ip6-')
  );
}

// The last word of a compound key also counts: DB_HOST, smtpServer, cookie-domain.
const HOST_KEY_LAST_WORDS = new Set(
  'host hosts hostname hostnames domain domains fqdn server servers nameserver nameservers'.split(
    ' ',
  ),
);

function isHostKey(key: string): boolean {
  if (HOST_KEYS.has(key.toLowerCase().replace(/[_-]/g, ''))) return true;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_-]+/);
  return words.length > 1 && HOST_KEY_LAST_WORDS.has(words[words.length - 1]);
}

function isCaddyAddresses(text: string): boolean {
  const tokens = text.split(/[\s,]+/).filter((t) => t !== '');
  return (
    tokens.length > 0 &&
    tokens.every((t) => CADDY_ADDRESS.test(t) && t !== '') &&
    tokens.some((t) => t.includes('.') || /localhost/i.test(t) || t.startsWith(':'))
  );
}

/**
 * The text of Markdown links, `[text](url)`: the link gives the URL, and its text is not
 * looked at (it is often the same host, and one item per link is what a hover wants).
 */
export function linkTextSpans(line: string): Span[] {
  const spans: Span[] = [];
  const re = /\[([^\][]*)\]\(/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line))) spans.push({ start: m.index + 1, end: m.index + 1 + m[1].length });
  return spans;
}
