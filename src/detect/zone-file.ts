// Is a text a DNS zone file (RFC 1035 master file)? And what origin does a file name imply?
// Used for "*.db" and "db.*" files, which are zone files by BIND convention but may be anything.

/** Record types a zone line may carry (the common ones; unknown TYPEnnn too). */
export const RECORD_TYPES = new Set(
  (
    'A AAAA AFSDB APL CAA CDNSKEY CDS CERT CNAME CSYNC DHCID DLV DNAME DNSKEY DS EUI48 EUI64 ' +
    'HINFO HIP HTTPS IPSECKEY KEY KX LOC MX NAPTR NS NSEC NSEC3 NSEC3PARAM OPENPGPKEY PTR RP ' +
    'RRSIG SIG SMIMEA SOA SPF SRV SSHFP SVCB TA TKEY TLSA TSIG TXT URI ZONEMD WKS X25 ISDN RT ' +
    'NSAP MB MG MR MINFO NULL'
  ).split(' '),
);
export const CLASSES = new Set(['IN', 'CH', 'HS', 'CS']);
/** A TTL: seconds, or BIND's unit form (1h, 1d12h, 2W). */
export const TTL_RE = /^(?:\d+|(?:\d+[smhdw])+)$/i;

export function isRecordType(token: string): boolean {
  const upper = token.toUpperCase();
  return RECORD_TYPES.has(upper) || /^TYPE\d+$/.test(upper);
}

const SCAN_LIMIT = 64 * 1024;

/**
 * Heuristics, on the first 64 KB: a NUL byte means binary (an SQLite "*.db"), so no; a
 * $ORIGIN or $TTL directive at the start of a line, or an SOA record, means yes; otherwise at
 * least three record lines making up at least 60% of the lines that are not blank or comments.
 */
export function looksLikeZoneFile(text: string): boolean {
  const head = text.slice(0, SCAN_LIMIT);
  if (head.includes('\u0000')) return false;
  let meaningful = 0;
  let records = 0;
  let inParens = false;
  for (const raw of head.split(/\r?\n/)) {
    const line = stripComment(raw);
    if (line.trim() === '') continue;
    if (/^\$(?:ORIGIN|TTL)\s+\S/i.test(line)) return true;
    const tokens = line.trim().split(/\s+/);
    meaningful++;
    if (inParens) {
      records++;
      if (line.includes(')')) inParens = false;
      continue;
    }
    const type = recordTypeIndex(tokens, !/^\s/.test(line));
    if (type < 0) continue;
    if (tokens[type].toUpperCase() === 'SOA') return true;
    records++;
    if (line.includes('(') && !line.includes(')')) inParens = true;
  }
  return records >= 3 && records / meaningful >= 0.6;
}

/**
 * Where the type is among a record line's tokens: after an optional owner (when the line
 * starts in column 0) and up to two TTL/class tokens in either order; -1 when not a record.
 */
export function recordTypeIndex(tokens: string[], hasOwner: boolean): number {
  let i = hasOwner ? 1 : 0;
  for (let skipped = 0; skipped < 2 && i < tokens.length; skipped++) {
    const token = tokens[i];
    if (!TTL_RE.test(token) && !CLASSES.has(token.toUpperCase())) break;
    i++;
  }
  return i < tokens.length && isRecordType(tokens[i]) ? i : -1;
}

/** The line up to its first ';' outside a quoted string. */
export function stripComment(line: string): string {
  return line.slice(0, commentStart(line));
}

export function commentStart(line: string): number {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '\\') i++;
    else if (ch === '"') quoted = !quoted;
    else if (ch === ';' && !quoted) return i;
  }
  return line.length;
}

const NAME = /^(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*$/;

/**
 * The origin a zone file's name implies, with trailing dot: "db.example.com" and
 * "example.com.zone" (also ".db", ".zone.signed") give "example.com."; BIND's reverse-zone
 * habit "db.192.168.1" gives "1.168.192.in-addr.arpa."; Debian's "db.local" is the localhost
 * zone. Accepts a path; undefined when the name says nothing.
 */
export function originFromFileName(fileName: string): string | undefined {
  const base = (fileName.split(/[\\/]/).pop() ?? '').toLowerCase();
  let name: string | undefined;
  if (base.startsWith('db.')) name = base.slice(3);
  else name = /^(.+)\.(?:zone(?:\.signed)?|db)$/.exec(base)?.[1];
  if (name === undefined || name === '' || !NAME.test(name)) return undefined;
  if (name === 'local') return 'localhost.';
  if (name === 'root') return '.';
  if (/^\d{1,3}(?:\.\d{1,3}){0,2}$/.test(name)) {
    return `${name.split('.').reverse().join('.')}.in-addr.arpa.`;
  }
  return `${name}.`;
}

/** File names worth sniffing with looksLikeZoneFile: "*.zone", "db.*", "*.db". */
export function isZoneFileNameCandidate(fileName: string): boolean {
  const base = (fileName.split(/[\\/]/).pop() ?? '').toLowerCase();
  return base.startsWith('db.') || /\.(?:zone|db)$/.test(base);
}

/**
 * The `firstLine` regex for the dns-zone language in package.json (VS Code consults it only
 * when no file name or extension association matched): a $ORIGIN or $TTL directive, or an
 * SOA record, on the first line.
 */
export const ZONE_FIRST_LINE_PATTERN =
  '^(?:\\$(?:ORIGIN|TTL)\\s+\\S' +
  // an SOA whose owner is "@" or absolute, or that carries the class: not "The SOA record…"
  '|(?:@|\\S*\\.)\\s+(?:[0-9]+[smhdwSMHDW]?\\s+)?(?:IN\\s+)?SOA\\s' +
  '|\\S+\\s+(?:[0-9]+[smhdwSMHDW]?\\s+)?IN\\s+SOA\\s)';
