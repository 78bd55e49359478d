// Is a token a hostname? The rules, in order (each one a decision worth knowing about):
//
// 1. Syntax: labels of letters (any script), digits, '-' and '_', none empty, none starting
//    or ending with '-', at most 63 characters, 253 in all; an optional leading "*." (a
//    wildcard owner, which the engine accepts as a name to ask about). The last label is
//    alphabetic or an A-label ("xn--…"), so version strings and dotted numbers never pass.
// 2. Special-use names pass without the Public Suffix List, because sysadmins write them all
//    the time: "localhost" and anything under localhost, test, example, invalid (RFC 6761),
//    local (mDNS), onion, alt, internal (ICANN's private-use TLD), home.arpa, and the
//    de-facto private suffixes lan and corp. ("home" is left out: "user.home" is a Java
//    property far more often than a host.)
// 3. Otherwise the suffix must be on the Public Suffix List (ICANN or private section), via
//    tldts: "package.json" and "foo.bar.baz" fail here.
// 4. Some real TLDs are also everyday file extensions (zip, md, py, sh, rs, mov, …). Outside
//    a host context such a name is taken for a file ("archive.zip", "README.md") unless its
//    first label is "www".
// 5. Code-shaped names fail: a first label that is a well-known object root ("this", "self",
//    "window", "process", …), so "this.foo.bar" is never a host even though "bar" is a TLD.
//    (A name followed by "(" is rejected by the scanner, which sees the context.)
//
// In a host context (nginx server_name, a "host:" field, an /etc/hosts line, a zone file…)
// rules 3–5 are skipped: the field already says this is a name, so "db.corp.acme" counts.
import { parse } from 'tldts';

const SPECIAL_USE_SUFFIXES = [
  'localhost',
  'test',
  'example',
  'invalid',
  'local',
  'onion',
  'alt',
  'internal',
  'home.arpa',
  'lan',
  'corp',
];

const FILE_EXTENSION_TLDS = new Set(
  (
    'ac ai am build cab cc cr fm gd gs in inc java la map md mk ml mm mo mov pid pl pm pro ' +
    'properties ps pt pub py rs sh so st tf zip'
  ).split(' '),
);

const CODE_ROOTS = new Set(
  (
    'this self super window document globalthis global process console module exports ' +
    'require math json object array string number promise reflect react vscode props state ' +
    'ctx req res std os sys np pd cls args kwargs params options opts config env util utils ' +
    'lodash event err error target node navigator'
  ).split(' '),
);

const LABEL = /^[\p{L}\p{N}_](?:[\p{L}\p{N}_-]*[\p{L}\p{N}_])?$/u;
const TLD = /^(?:\p{L}[\p{L}\p{M}-]*\p{L}|xn--[a-z0-9-]+)$/u;

export interface NameCheck {
  /** Skip the suffix, file-extension and code checks (the context says it is a name). */
  hostContext?: boolean;
  /** Accept a single label (an /etc/hosts alias, a zone-relative name). */
  allowSingleLabel?: boolean;
}

/** The lower-case name without trailing dot when `token` is a hostname, else undefined. */
export function asHostname(token: string, check: NameCheck = {}): string | undefined {
  let name = token.endsWith('.') ? token.slice(0, -1) : token;
  name = name.toLowerCase();
  if (name.length === 0 || name.length > 253) return undefined;
  const wildcard = name.startsWith('*.');
  const labels = (wildcard ? name.slice(2) : name).split('.');
  if (!labels.every((label) => label.length <= 63 && LABEL.test(label))) return undefined;
  const tld = labels[labels.length - 1];
  if (labels.length === 1) {
    if (tld === 'localhost') return name;
    return check.allowSingleLabel && !/^\d+$/.test(tld) ? name : undefined;
  }
  if (!TLD.test(tld)) return undefined;
  if (check.hostContext) return name;
  if (CODE_ROOTS.has(labels[0])) return undefined;
  const bare = labels.join('.');
  if (isSpecialUse(bare)) return name;
  const parsed = parse(bare, { allowPrivateDomains: true, extractHostname: false });
  if (!parsed.isIcann && !parsed.isPrivate) return undefined;
  if (FILE_EXTENSION_TLDS.has(tld) && labels[0] !== 'www') return undefined;
  return name;
}

function isSpecialUse(name: string): boolean {
  return SPECIAL_USE_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}
