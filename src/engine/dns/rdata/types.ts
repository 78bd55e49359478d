// The table of record types: mnemonic, code (IANA "Resource Record (RR) TYPEs") and the fields
// of the record data, in order, each of a field kind, as their RFCs define them.
import { DIGESTS } from '../keys';
import { splitLabels } from '../names';
import { unescapeOctets } from '../presentation';

export type FieldKind =
  | 'u8'
  | 'u16'
  | 'u32'
  | 'u64'
  | 'port'
  | 'caa-flags'
  | 'ttl'
  | 'ipv4'
  | 'ipv6'
  | 'name'
  | 'string'
  | 'strings'
  | 'caa-tag'
  | 'caa-value'
  | 'uri-target'
  | 'base64'
  | 'hex'
  | 'salt'
  | 'b32hex'
  | 'types'
  | 'time'
  | 'type'
  | 'alg'
  | 'svcparams'
  | 'loc'
  | 'string-opt'
  | 'ilnp64'
  | 'eui48'
  | 'eui64'
  | 'cert-type'
  | 'base64-opt'
  | 'date'
  | 'alg-name'
  | 'sig-type'
  | 'hex-upper'
  | 'base64-dash'
  | 'dsync-scheme'
  | 'nsap'
  | 'atma'
  | 'a6'
  | 'apl'
  | 'proto'
  | 'wks-ports'
  | 'nxt-types'
  | 'ipseckey-gateway'
  | 'amt-relay'
  | 'hip';

/**
 * One field of a type's record data: its name (the contract's JSON key for the contract's types,
 * the DNSSEC validator's for the DNSSEC types) and kind.
 */
export interface Field {
  name: string;
  kind: FieldKind;
}

export interface TypeSpec {
  code: number;
  /** the fields of the record data, in wire and presentation order */
  fields: Field[];
  /** the field holding a name other records may point at, for the target checks */
  target?: number;
  /**
   * whether the canonical form of RFC 4034 section 6.2 lowers the case of its names: the types
   * of item 3 of that list, NSEC left out as RFC 6840 section 5.1 says
   */
  downcase?: boolean;
  /**
   * A rule of the type's RFC across its fields (a digest's length by its type), on the fields'
   * canonical texts and the data's wire length: what breaks it, or undefined.
   */
  check?(fields: string[], wireLength: number): { code: string; message: string } | undefined;
  /**
   * whether BIND's master-file dump writes the type as TYPEnnn in the RFC 3597 form, though it
   * reads its own form (KEYDATA, a type of BIND's private range)
   */
  dumpsGeneric?: boolean;
  /**
   * whether BIND takes the type's RFC 3597 form as octets, whatever they hold (KEYDATA: its
   * wire reader copies the data unread, and its dump prints data that is no key state in the
   * RFC 3597 form again): such data that does not read as the type is kept as it is
   */
  genericAsIs?: boolean;
  rfc: string;
  summary: string;
}

/** RFC 4034 section 5.1.4: a DS digest of a known type has that type's length. */
function digestLength(fields: string[], wireLength: number) {
  const expected = DIGESTS[Number(fields[2])]?.length;
  const actual = wireLength - 4;
  if (expected === undefined || actual === expected) return undefined;
  return {
    code: 'bad-digest',
    message: `digest type ${fields[2]} needs ${expected} octets, not ${actual}`,
  };
}

/** RFC 4255 and RFC 6594: a SHA-1 fingerprint (type 1) is 20 octets, a SHA-256 one (2) 32. */
function fingerprintLength(fields: string[], wireLength: number) {
  const expected = ({ '1': 20, '2': 32 } as Record<string, number>)[fields[1]];
  const actual = wireLength - 2;
  if (expected === undefined || actual === expected) return undefined;
  return {
    code: 'bad-digest',
    message: `fingerprint type ${fields[1]} needs ${expected} octets, not ${actual}`,
  };
}

/**
 * RFC 2535 section 3.1.2: flags with both "no key" bits set (0xC000) carry no key; any
 * other flags do.
 */
function keyPresence(fields: string[]) {
  const noKey = (Number(fields[0]) & 0xc000) === 0xc000;
  if (noKey === (fields[3] === '')) return undefined;
  return noKey
    ? { code: 'extra-rdata', message: 'flags 0xC000 (no key) with a key after them' }
    : { code: 'missing-rdata', message: 'missing the key (only flags 0xC000 go without one)' };
}

/** RFC 1183 section 3.1: a PSDN address is decimal digits (BIND asks for at least 4). */
function psdnAddress(fields: string[]) {
  if (/^"\d{4,}"$/.test(fields[0])) return undefined;
  return { code: 'bad-x25', message: `${fields[0]} is not a PSDN address of 4 or more digits` };
}

/** The octets of a character-string's canonical quoted text. */
function stringOctets(text: string): number[] {
  return unescapeOctets(text.slice(1, -1)) ?? [];
}

/**
 * RFC 3403 section 4.1: flags are letters and digits; a regexp, when there is one, is
 * `delim ERE delim replacement delim flags` with "i" the only flag, a delimiter that is no
 * digit or backslash, and back-references only to groups the ERE has.
 */
function naptrRules(fields: string[]) {
  if (!/^"[A-Za-z0-9]*"$/.test(fields[2])) {
    return { code: 'bad-naptr', message: `NAPTR flags ${fields[2]} are not letters and digits` };
  }
  const regexp = stringOctets(fields[4]);
  if (regexp.length === 0 || validRegexp(regexp)) return undefined;
  return {
    code: 'bad-naptr',
    message: `NAPTR regexp ${fields[4]} is not delim ERE delim repl delim`,
  };
}

function validRegexp(octets: number[]): boolean {
  const BACKSLASH = 0x5c;
  const delim = octets[0];
  if (delim === 0 || delim === BACKSLASH || (delim >= 0x30 && delim <= 0x39)) return false;
  const parts: number[][] = [[]];
  let escaped = false;
  for (const c of octets.slice(1)) {
    if (c === 0) return false;
    if (c === delim && !escaped) {
      parts.push([]);
      continue;
    }
    parts[parts.length - 1].push(c);
    escaped = c === BACKSLASH && !escaped;
  }
  if (parts.length !== 3) return false;
  const [ere, replacement, flags] = parts;
  if (flags.some((f) => f !== 0x69)) return false;
  let groups = 0;
  for (let i = 0; i < ere.length; i++) {
    if (ere[i] === BACKSLASH) i++;
    else if (ere[i] === 0x28) groups++;
  }
  for (let i = 0; i < replacement.length; i++) {
    if (replacement[i] !== BACKSLASH) continue;
    const next = replacement[++i];
    if (next >= 0x31 && next <= 0x39 && next - 0x30 > groups) return false;
  }
  return true;
}

/** RFC 5155 section 3.1.7: with SHA-1 (hash algorithm 1) the next hashed owner is 20 octets. */
function nsec3HashLength(fields: string[]) {
  if (fields[0] !== '1' || fields[4].length === 32) return undefined;
  return {
    code: 'bad-base32',
    message: `a SHA-1 next hashed owner is 20 octets (32 digits), not ${fields[4]}`,
  };
}

/**
 * RFC 4035 section 2.3: an NSEC's type bit map shows at least the NSEC type itself, so it is
 * never empty (BIND refuses an empty one in either form; NSEC3's may be, for an empty
 * non-terminal, RFC 5155 section 3.2).
 */
function nsecTypesPresent(fields: string[]) {
  if (fields[1] !== '') return undefined;
  return { code: 'missing-rdata', message: 'an NSEC type bit map lists at least its own type' };
}

/** RFC 8976 section 2.2.4: a digest of at least 12 octets; SHA-384 (1) 48, SHA-512 (2) 64. */
function zonemdDigest(fields: string[], wireLength: number) {
  const actual = wireLength - 6;
  const expected = ({ '1': 48, '2': 64 } as Record<string, number>)[fields[2]];
  if (actual >= 12 && (expected === undefined || actual === expected)) return undefined;
  return {
    code: 'bad-digest',
    message: `a ZONEMD digest of ${actual} octets (hash ${fields[2]} needs ${expected ?? 'at least 12'})`,
  };
}

/**
 * RFC 4035 section 5.3.1: the signer is the zone holding the owner, so the owner's labels (the
 * Labels field) are at least the signer's. BIND refuses the record when they are not.
 */
function signerAbove(fields: string[]) {
  const signer = splitLabels(fields[7])?.length ?? 0;
  if (Number(fields[2]) >= signer) return undefined;
  return {
    code: 'bad-rrsig',
    message: `labels ${fields[2]} is fewer than the ${signer} of the signer ${fields[7]}`,
  };
}

/**
 * RKEY (IANA, Reid): BIND reads the record only with flags 0, the one value the draft that
 * registered it defines.
 */
function rkeyFlags(fields: string[]) {
  if (fields[0] === '0') return undefined;
  return { code: 'bad-flags', message: `RKEY flags ${fields[0]} (only 0 is defined)` };
}

/** Fields from `name:kind` pairs, as the table below writes them. */
function fields(text: string): Field[] {
  return text.split(' ').map((pair) => {
    const [name, kind] = pair.split(':');
    return { name, kind: kind as FieldKind };
  });
}

const SOA = fields('mname:name rname:name serial:u32 refresh:ttl retry:ttl expire:ttl min_ttl:ttl');
const DNSKEY = fields('flags:u16 protocol:u8 algorithm:alg key:base64');
const DS = fields('keyTag:u16 algorithm:alg digestType:u8 digest:hex');
const SVCB = fields('priority:u16 target:name params:svcparams');
const RRSIG = fields(
  'typeCovered:type algorithm:alg labels:u8 originalTTL:u32 expiration:time inception:time keyTag:u16 signersName:name signature:base64',
);
const TLSA = fields('usage:u8 selector:u8 matching_type:u8 data:hex');
const KEY = fields('flags:u16 protocol:u8 algorithm:alg key:base64-opt');
const CERT = fields('cert_type:cert-type key_tag:u16 algorithm:alg-name certificate:base64');
const ZONEMD = fields('serial:u32 scheme:u8 hash_algorithm:u8 digest:hex');
const DOWNCASE = { downcase: true };

/** A table entry; `rdata` as `name:kind` pairs or fields. */
function entry(
  code: number,
  rdata: string | Field[],
  rfc: string,
  summary: string,
  more: Partial<TypeSpec> = {},
): TypeSpec {
  return { code, fields: typeof rdata === 'string' ? fields(rdata) : rdata, rfc, summary, ...more };
}

// SIG's times are dates only (BIND reads no plain seconds there, as it does for RRSIG's)
const SIG = fields(
  'typeCovered:sig-type algorithm:alg labels:u8 originalTTL:u32 expiration:date inception:date keyTag:u16 signersName:name signature:base64',
);
const NAME = fields('value:name');
const TEXT = fields('value:strings');

/**
 * The record types the engine reads and writes, by mnemonic: a type is one entry here, and
 * the codecs of its field kinds (codecs.ts) read and print it in every form. The field names of
 * the contract's types (RECORD_TYPES of contract/shapes.ts) are the contract's JSON keys.
 */
export const TYPES: Record<string, TypeSpec> = {
  A: { code: 1, fields: fields('value:ipv4'), rfc: 'RFC 1035', summary: 'IPv4 address' },
  NS: {
    code: 2,
    fields: NAME,
    target: 0,
    downcase: true,
    rfc: 'RFC 1035',
    summary: 'authoritative nameserver',
  },
  CNAME: {
    code: 5,
    fields: NAME,
    target: 0,
    downcase: true,
    rfc: 'RFC 1035',
    summary: 'canonical name (alias)',
  },
  SOA: {
    code: 6,
    fields: SOA,
    downcase: true,
    rfc: 'RFC 1035',
    summary: 'start of a zone of authority',
  },
  PTR: { code: 12, fields: NAME, downcase: true, rfc: 'RFC 1035', summary: 'domain name pointer' },
  HINFO: {
    code: 13,
    fields: fields('cpu:string os:string'),
    rfc: 'RFC 8482',
    summary: 'host information',
  },
  MX: {
    code: 15,
    fields: fields('priority:u16 value:name'),
    target: 1,
    downcase: true,
    rfc: 'RFC 1035',
    summary: 'mail exchange',
  },
  TXT: { code: 16, fields: TEXT, rfc: 'RFC 1035', summary: 'text strings' },
  RP: {
    code: 17,
    fields: fields('mbox:name txt:name'),
    downcase: true,
    rfc: 'RFC 1183',
    summary: 'responsible person',
  },
  AAAA: { code: 28, fields: fields('value:ipv6'), rfc: 'RFC 3596', summary: 'IPv6 address' },
  LOC: { code: 29, fields: fields('location:loc'), rfc: 'RFC 1876', summary: 'location' },
  SRV: {
    code: 33,
    fields: fields('priority:u16 weight:u16 port:port value:name'),
    target: 3,
    downcase: true,
    rfc: 'RFC 2782',
    summary: 'service location',
  },
  NAPTR: {
    code: 35,
    fields: fields(
      'order:u16 preference:u16 flags:string services:string regexp:string replacement:name',
    ),
    downcase: true,
    check: naptrRules,
    rfc: 'RFC 3403',
    summary: 'naming authority pointer',
  },
  DNAME: {
    code: 39,
    fields: NAME,
    downcase: true,
    rfc: 'RFC 6672',
    summary: 'delegation of a subtree',
  },
  DS: { code: 43, fields: DS, check: digestLength, rfc: 'RFC 4034', summary: 'delegation signer' },
  SSHFP: {
    code: 44,
    fields: fields('algorithm:u8 fp_type:u8 fingerprint:hex'),
    check: fingerprintLength,
    rfc: 'RFC 4255',
    summary: 'SSH key fingerprint',
  },
  RRSIG: {
    code: 46,
    fields: RRSIG,
    downcase: true,
    check: signerAbove,
    rfc: 'RFC 4034',
    summary: 'DNSSEC signature',
  },
  NSEC: {
    code: 47,
    fields: fields('nextDomain:name rrtypes:types'),
    check: nsecTypesPresent,
    rfc: 'RFC 4034',
    summary: 'next secure record',
  },
  DNSKEY: { code: 48, fields: DNSKEY, rfc: 'RFC 4034', summary: 'DNSSEC public key' },
  NSEC3: {
    code: 50,
    fields: fields(
      'algorithm:u8 flags:u8 iterations:u16 salt:salt nextDomain:b32hex rrtypes:types',
    ),
    check: nsec3HashLength,
    rfc: 'RFC 5155',
    summary: 'hashed next secure record',
  },
  NSEC3PARAM: {
    code: 51,
    fields: fields('algorithm:u8 flags:u8 iterations:u16 salt:salt'),
    rfc: 'RFC 5155',
    summary: 'NSEC3 parameters',
  },
  TLSA: {
    code: 52,
    fields: TLSA,
    rfc: 'RFC 6698',
    summary: 'TLS certificate association (DANE)',
  },
  CDS: { code: 59, fields: DS, check: digestLength, rfc: 'RFC 7344', summary: 'child copy of DS' },
  CDNSKEY: { code: 60, fields: DNSKEY, rfc: 'RFC 7344', summary: 'child copy of DNSKEY' },
  SVCB: { code: 64, fields: SVCB, rfc: 'RFC 9460', summary: 'service binding' },
  HTTPS: { code: 65, fields: SVCB, rfc: 'RFC 9460', summary: 'HTTPS service binding' },
  SPF: { code: 99, fields: TEXT, rfc: 'RFC 7208', summary: 'SPF policy (obsolete type)' },
  URI: {
    code: 256,
    fields: fields('priority:u16 weight:u16 target:uri-target'),
    rfc: 'RFC 7553',
    summary: 'uniform resource identifier',
  },
  CAA: {
    code: 257,
    fields: fields('flags:caa-flags tag:caa-tag value:caa-value'),
    rfc: 'RFC 8659',
    summary: 'certification authority authorization',
  },
  // The rest of the IANA registry that BIND 9.18 reads in presentation form, by field kind
  // (MD and MF it refuses as obsolete, and so they are unknown here).
  MB: entry(7, NAME, 'RFC 1035', 'mailbox domain name', DOWNCASE),
  MG: entry(8, NAME, 'RFC 1035', 'mail group member', DOWNCASE),
  MR: entry(9, NAME, 'RFC 1035', 'mail rename domain name', DOWNCASE),
  MINFO: entry(14, 'rmailbx:name emailbx:name', 'RFC 1035', 'mailbox information', DOWNCASE),
  AFSDB: entry(18, 'subtype:u16 hostname:name', 'RFC 1183', 'AFS database location', DOWNCASE),
  X25: entry(19, 'address:string', 'RFC 1183', 'X.25 PSDN address', { check: psdnAddress }),
  ISDN: entry(20, 'address:string subaddress:string-opt', 'RFC 1183', 'ISDN address'),
  RT: entry(21, 'preference:u16 host:name', 'RFC 1183', 'route through', DOWNCASE),
  'NSAP-PTR': entry(23, NAME, 'RFC 1348', 'NSAP pointer (obsolete)'),
  SIG: entry(24, SIG, 'RFC 2535', 'signature (obsolete)', { ...DOWNCASE, check: signerAbove }),
  KEY: entry(25, KEY, 'RFC 2535', 'security key', { check: keyPresence }),
  PX: entry(26, 'preference:u16 map822:name mapx400:name', 'RFC 2163', 'X.400 mapping', DOWNCASE),
  GPOS: entry(27, 'longitude:string latitude:string altitude:string', 'RFC 1712', 'position'),
  KX: entry(36, 'preference:u16 exchanger:name', 'RFC 2230', 'key exchanger', DOWNCASE),
  CERT: entry(37, CERT, 'RFC 4398', 'certificate'),
  DHCID: entry(49, 'digest:base64', 'RFC 4701', 'DHCP identifier'),
  SMIMEA: entry(53, TLSA, 'RFC 8162', 'S/MIME certificate association'),
  NINFO: entry(56, TEXT, 'IANA (Reid)', 'zone status information'),
  TALINK: entry(58, 'previous:name next:name', 'IANA (Wijngaards)', 'trust anchor link'),
  OPENPGPKEY: entry(61, 'key:base64', 'RFC 7929', 'OpenPGP public key'),
  CSYNC: entry(62, 'serial:u32 flags:u16 rrtypes:types', 'RFC 7477', 'child-to-parent sync'),
  ZONEMD: entry(63, ZONEMD, 'RFC 8976', 'message digest of the zone', { check: zonemdDigest }),
  NID: entry(104, 'preference:u16 node_id:ilnp64', 'RFC 6742', 'ILNP node identifier'),
  L32: entry(105, 'preference:u16 locator:ipv4', 'RFC 6742', 'ILNP 32-bit locator'),
  L64: entry(106, 'preference:u16 locator:ilnp64', 'RFC 6742', 'ILNP 64-bit locator'),
  LP: entry(107, 'preference:u16 fqdn:name', 'RFC 6742', 'ILNP locator pointer'),
  EUI48: entry(108, 'address:eui48', 'RFC 7043', 'EUI-48 address'),
  EUI64: entry(109, 'address:eui64', 'RFC 7043', 'EUI-64 address'),
  AVC: entry(258, TEXT, 'IANA (Barlow)', 'application visibility and control'),
  RESINFO: entry(261, TEXT, 'RFC 9606', 'resolver information'),
  WALLET: entry(262, TEXT, 'IANA (Brause)', 'public wallet address'),
  // Registered after BIND 9.18 and Knot 3.2 (neither reads them); the forms are those of
  // draft-johnson-dns-ipn-cla-07 as NLnet Labs' simdzone and NSD read and print them: CLA's
  // data TXT's, IPN's a 64-bit node number
  CLA: entry(263, TEXT, 'draft-johnson-dns-ipn-cla', 'bundle protocol convergence layer adapter'),
  IPN: entry(264, 'node:u64', 'draft-johnson-dns-ipn-cla', 'bundle protocol node number'),
  TA: entry(32768, DS, 'IANA (Weiler)', 'DNSSEC trust authority', { check: digestLength }),
  DLV: entry(32769, DS, 'RFC 4431', 'lookaside validation (obsolete)', { check: digestLength }),
  // BIND's own type in the private range (RFC 6895 section 3.1), the state of an RFC 5011
  // trust anchor in its managed-keys zones: three times, then a DNSKEY's data
  KEYDATA: entry(
    65533,
    'refresh:date addHoldDown:date removeHoldDown:date flags:u16 protocol:u8 algorithm:alg key:base64-opt',
    'BIND (private use)',
    "RFC 5011 trust anchor state (BIND's managed-keys zones)",
    // the key's flags as KEY's: 0xC000 goes without a key (BIND reads it so)
    { dumpsGeneric: true, genericAsIs: true, check: (fields) => keyPresence(fields.slice(3)) },
  ),
  // Older and rarer types, with the field kinds of composite.ts
  WKS: entry(
    11,
    'address:ipv4 protocol:proto services:wks-ports',
    'RFC 1035',
    'well known services',
  ),
  NSAP: entry(22, 'address:nsap', 'RFC 1706', 'NSAP address'),
  NXT: entry(30, 'next:name types:nxt-types', 'RFC 2535', 'next (obsolete)', DOWNCASE),
  EID: entry(31, 'endpoint:hex-upper', 'IANA (Patton)', 'endpoint identifier'),
  NIMLOC: entry(32, 'locator:hex-upper', 'IANA (Patton)', 'Nimrod locator'),
  ATMA: entry(34, 'address:atma', 'ATM Forum af-dans-0152', 'ATM address'),
  A6: entry(38, 'address:a6', 'RFC 2874', 'IPv6 address in parts (historic)', DOWNCASE),
  SINK: entry(
    40,
    'meaning:u8 coding:u8 subcoding:u8 data:base64-opt',
    'IANA (Eastlake)',
    'kitchen sink',
  ),
  APL: entry(42, 'items:apl', 'RFC 3123', 'address prefix list'),
  IPSECKEY: entry(
    45,
    'precedence:u8 gateway:ipseckey-gateway key:base64',
    'RFC 4025',
    'IPsec keying material',
  ),
  HIP: entry(55, 'hip:hip', 'RFC 8005', 'host identity protocol'),
  RKEY: entry(57, DNSKEY, 'IANA (Reid)', 'resource record key', { check: rkeyFlags }),
  DSYNC: entry(
    66,
    'rrtype:type scheme:dsync-scheme port:u16 target:name',
    'RFC 9859',
    'DNS synchronization endpoint',
  ),
  HHIT: entry(67, 'data:base64', 'IANA (Moskowitz)', 'hierarchical host identity tag'),
  BRID: entry(68, 'data:base64', 'IANA (Moskowitz)', 'UAS broadcast remote ID'),
  DOA: entry(
    259,
    'enterprise:u32 type:u32 location:u8 media_type:string data:base64-dash',
    'draft-durand-doa-over-dns',
    'digital object architecture',
  ),
  AMTRELAY: entry(260, 'precedence:u8 relay:amt-relay', 'RFC 8777', 'AMT relay'),
};

/**
 * Mnemonics of the registry with no presentation form of their own: NULL and the reserved
 * UINFO, UID, GID and UNSPEC, read only in the RFC 3597 form; MD and MF, obsolete (RFC 973),
 * and the meta types, refused as record types. All may be named in a type bit map.
 */
const MNEMONICS_ONLY: Record<string, number> = {
  MD: 3,
  MF: 4,
  NULL: 10,
  OPT: 41,
  UINFO: 100,
  UID: 101,
  GID: 102,
  UNSPEC: 103,
  TKEY: 249,
  TSIG: 250,
  IXFR: 251,
  AXFR: 252,
  MAILB: 253,
  MAILA: 254,
  ANY: 255,
};

/**
 * Why a zone may not hold records of type `code`, or undefined when it may: MD and MF are
 * obsolete (RFC 973, BIND refuses them), 0 and OPT and the range 128 to 255 are meta types
 * (RFC 6895 section 3.1) that only messages carry.
 */
export function notForZones(code: number): { code: string; message: string } | undefined {
  if (code === 3 || code === 4) {
    return {
      code: 'obsolete-type',
      message: `type ${typeName(code)} is obsolete (RFC 973): use MX`,
    };
  }
  if (code === 0 || code === 41 || (code >= 128 && code <= 255)) {
    return { code: 'meta-type', message: `${typeName(code)} is a meta type, not for zone data` };
  }
  return undefined;
}

const BY_CODE = new Map([
  ...Object.entries(MNEMONICS_ONLY).map(([name, code]) => [code, name] as const),
  ...Object.entries(TYPES).map(([name, spec]) => [spec.code, name] as const),
]);
const SPEC_BY_CODE = new Map(Object.values(TYPES).map((spec) => [spec.code, spec]));
const BY_NAME = new Map(Object.entries(TYPES).map(([name, spec]) => [name, spec.code]));
const MNEMONIC_CODES = new Map(Object.entries(MNEMONICS_ONLY));
const SPECS = new Map(Object.entries(TYPES));

/** The spec of a type by its code, undefined for a type the table does not have. */
export function specOf(code: number): TypeSpec | undefined {
  return SPEC_BY_CODE.get(code);
}

/** The fields of a type by its mnemonic (a map: looked up once per record). */
export function typeSpec(name: string): TypeSpec | undefined {
  return SPECS.get(name);
}

/**
 * `text` in upper case, itself when it has no lower-case letter: mnemonics are looked up for
 * every record, mostly written in capitals already, and a check by char code is cheaper than
 * String#toUpperCase (which also folds beyond ASCII, so such text goes to it).
 */
export function upperCase(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || c >= 0x80) return text.toUpperCase();
  }
  return text;
}

/** The types zone files use most, most used first: the order suggestions for a typo take. */
const COMMON_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SOA', 'SRV', 'PTR', 'CAA'];

/**
 * The known mnemonics one edit (a letter added, dropped, changed or two swapped) from `token`,
 * the common types first: the quick fixes for a mistyped type such as `AAA` or `MXX`.
 */
export function typesNear(token: string): string[] {
  const upper = upperCase(token);
  const near = [...BY_NAME.keys()].filter((name) => oneEditApart(upper, name));
  const rank = (name: string) => {
    const i = COMMON_TYPES.indexOf(name);
    return i === -1 ? COMMON_TYPES.length : i;
  };
  return near.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** True when one insertion, deletion, substitution or swap of neighbours turns a into b. */
function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.slice(i) === long.slice(i + 1);
}

/** A type mnemonic or TYPEnnn to its code; undefined when neither. */
export function typeCode(token: string): number | undefined {
  const upper = upperCase(token);
  const spec = BY_NAME.get(upper) ?? MNEMONIC_CODES.get(upper);
  if (spec !== undefined) return spec;
  const m = /^TYPE(\d{1,5})$/.exec(upper);
  if (m && Number(m[1]) <= 65535) return Number(m[1]);
  return undefined;
}

/** The mnemonic of a code, or TYPEnnn (RFC 3597) when it has none here. */
export function typeName(code: number): string {
  return BY_CODE.get(code) ?? `TYPE${code}`;
}

/**
 * A type as record data names it in print (bit maps, covered types): its mnemonic, but TYPEnnn
 * for a type BIND dumps in the RFC 3597 form (KEYDATA), as BIND prints it there too.
 */
export function printedTypeName(code: number): string {
  return SPEC_BY_CODE.get(code)?.dumpsGeneric === true ? `TYPE${code}` : typeName(code);
}

/**
 * A type a record names (covered by a signature, synchronised): a mnemonic, TYPEnnn, or a bare
 * number, which BIND reads there too (not in the NSEC bit maps).
 */
export function coveredType(text: string): number | { failure: string } {
  const code = typeCode(text) ?? (/^\d{1,5}$/.test(text) ? Number(text) : undefined);
  return code !== undefined && code <= 65535 ? code : { failure: `unknown type "${text}"` };
}

/** A type's mnemonic, or its number when it has none. */
export function typeMnemonic(code: number): string {
  const name = printedTypeName(code);
  return name.startsWith('TYPE') ? String(code) : name;
}

/** DNSSEC algorithm mnemonics (IANA "DNS Security Algorithm Numbers"). */
export const ALGORITHMS: Record<string, number> = {
  RSAMD5: 1,
  DH: 2,
  DSA: 3,
  RSASHA1: 5,
  'DSA-NSEC3-SHA1': 6,
  'RSASHA1-NSEC3-SHA1': 7,
  RSASHA256: 8,
  RSASHA512: 10,
  'ECC-GOST': 12,
  ECDSAP256SHA256: 13,
  ECDSAP384SHA384: 14,
  ED25519: 15,
  ED448: 16,
  INDIRECT: 252,
  PRIVATEDNS: 253,
  PRIVATEOID: 254,
};

export const CLASSES = new Set(['IN', 'CH', 'HS', 'CS', 'NONE', 'ANY']);
