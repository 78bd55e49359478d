// What a WHOIS key means to the parser. Every question the reader asks about a key (which
// field it fills, whether it opens a section or a contact block, how a registrar block reads
// it) is answered once per distinct spelling and cached, so the per-line cost is one Map hit:
// the same few hundred spellings repeat across replies, and regex tests per line were most of
// the parse time.

export type Field =
  | 'ds'
  | 'domain'
  | 'id'
  | 'whois_server'
  | 'status'
  | 'ns'
  | 'dnssec'
  | 'created'
  | 'updated'
  | 'expires'
  | 'registrar'
  | 'registrar_current'
  | 'registrar_id'
  | 'registrar_url';

/** Every field, in one place, for the record's fixed-shape value object. */
export const FIELDS: readonly Field[] = [
  'ds',
  'domain',
  'id',
  'whois_server',
  'status',
  'ns',
  'dnssec',
  'created',
  'updated',
  'expires',
  'registrar',
  'registrar_current',
  'registrar_id',
  'registrar_url',
];

/**
 * A record's field values. An object with every field declared (not a Map): reads and writes
 * are plain property accesses, which the per-line walk does often.
 */
export type FieldValues = Record<Field, string | undefined>;

export function emptyFields(): FieldValues {
  return {
    ds: undefined,
    domain: undefined,
    id: undefined,
    whois_server: undefined,
    status: undefined,
    ns: undefined,
    dnssec: undefined,
    created: undefined,
    updated: undefined,
    expires: undefined,
    registrar: undefined,
    registrar_current: undefined,
    registrar_id: undefined,
    registrar_url: undefined,
  };
}

export type SectionKind =
  'contact' | 'registrar' | 'ns' | 'status' | 'domain' | 'dates' | 'dnssec' | 'other';

/** How a line inside a registrar block or section is read; `overwrite` lets a later line win. */
export interface RegistrarAction {
  field: 'registrar' | 'registrar_id' | 'registrar_url' | 'whois_server';
  overwrite: boolean;
}

export interface KeyInfo {
  /** lower case, dots/underscores/dashes/slashes/brackets as single spaces, no trailing index */
  key: string;
  /** the field a top-level "key: value" fills */
  field: Field | undefined;
  /** the section a heading with this text opens */
  section: SectionKind | undefined;
  /** opens a RIPE-style contact object (skipped whole) when it starts a block */
  contactBlock: boolean;
  /** names a host inside a name-server section */
  nsKey: boolean;
  registrar: RegistrarAction | undefined;
}

// Keys are compared after normalising: lower case, dots/underscores/dashes as spaces.
const TOP_KEYS = new Map<string, Field>();
function keys(field: Field, ...names: string[]): void {
  for (const n of names) TOP_KEYS.set(n, field);
}
keys('domain', 'domain name', 'domain', 'domainname', 'domain name ascii');
keys('id', 'registry domain id', 'domain id', 'roid', 'domain handle', 'registry id');
keys(
  'whois_server',
  'registrar whois server',
  'registry whois server',
  'whois server',
  'whois',
  'registrar whois',
);
keys(
  'status',
  'domain status',
  'status',
  'state',
  'eppstatus',
  'epp status',
  'domain state',
  'query status',
);
keys(
  'ns',
  'name server',
  'nameserver',
  'nameservers',
  'name servers',
  'nserver',
  'ns',
  'host name',
  'ns name',
  'primary server',
  'secondary server',
);
keys('dnssec', 'dnssec', 'signed', 'domain dnssec', 'dnssec status', 'domain signed');
// A published DS record (AFNIC's key1-*, ds-rdata) means the delegation is signed.
keys('ds', 'key1 tag', 'ds rdata', 'ds record');
keys(
  'created',
  'creation date',
  'created',
  'created on',
  'created date',
  'create date',
  'registered',
  'registered on',
  'registered date',
  'registration date',
  'registration time',
  'domain registration date',
  'record created',
  'record created on',
  'first registration date',
  'domain name commencement date',
  'domain create date',
  'domain created',
  'domain record activated',
  'domain registered',
);
keys(
  'updated',
  'updated date',
  'last updated',
  'last updated date',
  'last update',
  'last modified',
  'modified',
  'changed',
  'updated',
  'updated on',
  'domain last updated date',
  'last updated on',
  'modification date',
  'domain updated',
  'domain record last updated',
  'update date',
  'domain datelastmodified',
);
keys(
  'expires',
  'registry expiry date',
  'registrar registration expiration date',
  'expiration date',
  'expiry date',
  'expires',
  'expires on',
  'expire date',
  'expire',
  'paid till',
  'expiration time',
  'record expires on',
  'domain expiration date',
  'valid until',
  'expiry',
  'renewal date',
  'domain expires',
  'record will expire on',
);
keys(
  'registrar',
  'registrar',
  'registrar name',
  'sponsoring registrar',
  'registration service provider',
  'authorized agency',
  'registrar organization',
  'registar created',
);
keys('registrar_current', 'current registrar', 'current registar');
keys('registrar_id', 'registrar iana id', 'sponsoring registrar iana id', 'registrar id');
keys(
  'registrar_url',
  'registrar url',
  'referral url',
  'registration service url',
  'registrar website',
  'registrar web',
  'registrar www',
  'www',
);

/** The normalised keys that fill a field (for tests of the look-up shortcuts). */
export const FIELD_KEYS: ReadonlyMap<string, Field> = TOP_KEYS;

// The first two characters of every field key, as a bitmap over ASCII pairs: a top-level line
// whose key cannot start like one fills no field, and needs no look-up (half the lines of a
// gTLD reply are Admin/Tech/Billing contact lines).
const FIELD_STARTS = new Uint8Array(128 * 128);
for (const key of TOP_KEYS.keys()) FIELD_STARTS[key.charCodeAt(0) * 128 + key.charCodeAt(1)] = 1;

/**
 * False when the raw key str[from, to) cannot normalise to a field key. Only ASCII letters,
 * digits, spaces and the separators normalizeKey turns into a space are judged; anything else
 * (and a key starting with a separator, which normalising shifts) may be a field key.
 */
export function mayBeField(str: string, from: number, to: number): boolean {
  if (to - from < 2) return false;
  let c0 = str.charCodeAt(from);
  if (c0 >= 65 && c0 <= 90) c0 += 32;
  else if (!(c0 >= 97 && c0 <= 122) && !(c0 >= 48 && c0 <= 57)) return true;
  let c1 = str.charCodeAt(from + 1);
  if (c1 >= 65 && c1 <= 90) c1 += 32;
  else if (isSeparator(c1)) c1 = 32;
  else if (!(c1 >= 97 && c1 <= 122) && !(c1 >= 48 && c1 <= 57)) return true;
  return FIELD_STARTS[c0 * 128 + c1] === 1;
}

/** What normalizeKey turns into a space: its separators ._-/()[] and ASCII whitespace. */
function isSeparator(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 46 ||
    c === 95 ||
    c === 45 ||
    c === 47 ||
    c === 40 ||
    c === 41 ||
    c === 91 ||
    c === 93
  );
}
function sectionKind(key: string): SectionKind | undefined {
  if (
    /^(registrar|sponsoring registrar|registrar information|registration service provider)$/.test(
      key,
    )
  )
    return 'registrar';
  if (
    /^(name ?servers?( information| in listed order)?|nameservers|domain ?name ?servers|domain servers( in listed order)?|dns servers|primary name server|secondary name server|\d+(st|nd|rd|th) name server|host ?names?)$/.test(
      key,
    )
  )
    return 'ns';
  if (/^(registration status|domain status|status)$/.test(key)) return 'status';
  if (/^(domain name|domain)$/.test(key)) return 'domain';
  if (/^(relevant dates|dates|important dates)$/.test(key)) return 'dates';
  if (key === 'dnssec') return 'dnssec';
  if (
    /(registrant|admin|tech|billing|holder|contact|onsite|reseller|abuse|owner|organi[sz]ation|data validation|zone c|trademark|registry|ns keys|keys)/.test(
      key,
    )
  )
    return 'contact';
  return undefined;
}

function registrarAction(key: string): RegistrarAction | undefined {
  if (/^(name|registrar|registrar name)$/.test(key)) return { field: 'registrar', overwrite: true };
  if (key === 'registrar iana id') return { field: 'registrar_id', overwrite: false };
  if (key === 'registrar url') return { field: 'registrar_url', overwrite: false };
  if (/^(organi[sz]ation|org)$/.test(key)) return { field: 'registrar', overwrite: false };
  if (/^(url|website|www|web|referral url|homepage)$/.test(key)) {
    return { field: 'registrar_url', overwrite: false };
  }
  if (/^(iana id|id)$/.test(key)) return { field: 'registrar_id', overwrite: false };
  if (/whois server/.test(key)) return { field: 'whois_server', overwrite: false };
  return undefined;
}

export function normalizeKey(raw: string): string {
  return keyInfo(raw).key;
}

// Bounded: keys repeat across replies, but a hostile reply must not grow the cache forever.
const CACHE_LIMIT = 10000;
const cache = new Map<string, KeyInfo>();

/** Everything the parser needs to know about a raw key (or a short bare line read as a heading). */
export function keyInfo(raw: string): KeyInfo {
  const hit = cache.get(raw);
  if (hit !== undefined) return hit;
  const key = raw
    .toLowerCase()
    .replace(/[._\-/()[\]]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/ \d+$/, '');
  const info: KeyInfo = {
    key,
    field: TOP_KEYS.get(key),
    section: sectionKind(key),
    contactBlock: /^(nic hdl|person|role|contact|holder c|admin c|tech c)$/.test(key),
    nsKey: /^(host ?name|nserver|name ?server|ns|.* server)$/.test(key),
    registrar: registrarAction(key),
  };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(raw, info);
  return info;
}
