// The table of record types: mnemonic, code (IANA "Resource Record (RR) TYPEs") and the fields
// of the record data, in order, each of a field kind, as their RFCs define them.
import { DIGESTS } from '../keys';
import { splitLabels } from '../names';

export type FieldKind =
  | 'u8'
  | 'u16'
  | 'u32'
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
  | 'loc';

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
    rfc: 'RFC 4255',
    summary: 'SSH key fingerprint',
  },
  RRSIG: {
    code: 46,
    fields: fields(
      'typeCovered:type algorithm:alg labels:u8 originalTTL:u32 expiration:time inception:time keyTag:u16 signersName:name signature:base64',
    ),
    downcase: true,
    check: signerAbove,
    rfc: 'RFC 4034',
    summary: 'DNSSEC signature',
  },
  NSEC: {
    code: 47,
    fields: fields('nextDomain:name rrtypes:types'),
    rfc: 'RFC 4034',
    summary: 'next secure record',
  },
  DNSKEY: { code: 48, fields: DNSKEY, rfc: 'RFC 4034', summary: 'DNSSEC public key' },
  NSEC3: {
    code: 50,
    fields: fields(
      'algorithm:u8 flags:u8 iterations:u16 salt:salt nextDomain:b32hex rrtypes:types',
    ),
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
    fields: fields('usage:u8 selector:u8 matching_type:u8 data:hex'),
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
};

const BY_CODE = new Map(Object.entries(TYPES).map(([name, spec]) => [spec.code, name]));
const BY_NAME = new Map(Object.entries(TYPES).map(([name, spec]) => [name, spec.code]));
const SPECS = new Map(Object.entries(TYPES));

/** The spec of a type by its code, undefined for a type the table does not have. */
export function specOf(code: number): TypeSpec | undefined {
  const name = BY_CODE.get(code);
  return name === undefined ? undefined : SPECS.get(name);
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
  const spec = BY_NAME.get(upper);
  if (spec !== undefined) return spec;
  const m = /^TYPE(\d{1,5})$/.exec(upper);
  if (m && Number(m[1]) <= 65535) return Number(m[1]);
  return undefined;
}

/** The mnemonic of a code, or TYPEnnn (RFC 3597) when it has none here. */
export function typeName(code: number): string {
  return BY_CODE.get(code) ?? `TYPE${code}`;
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
