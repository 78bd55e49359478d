// Record types the parser knows: mnemonic, code (IANA "Resource Record (RR) TYPEs") and the
// presentation fields of the record data, in order, as their RFCs define them.

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

export interface TypeSpec {
  code: number;
  fields: FieldKind[];
  /** the field holding a name other records may point at, for the target checks */
  target?: number;
  rfc: string;
  summary: string;
}

const SOA: FieldKind[] = ['name', 'name', 'u32', 'ttl', 'ttl', 'ttl', 'ttl'];
const DNSKEY: FieldKind[] = ['u16', 'u8', 'alg', 'base64'];
const DS: FieldKind[] = ['u16', 'alg', 'u8', 'hex'];
const SVCB: FieldKind[] = ['u16', 'name', 'svcparams'];

export const TYPES: Record<string, TypeSpec> = {
  A: { code: 1, fields: ['ipv4'], rfc: 'RFC 1035', summary: 'IPv4 address' },
  NS: {
    code: 2,
    fields: ['name'],
    target: 0,
    rfc: 'RFC 1035',
    summary: 'authoritative nameserver',
  },
  CNAME: {
    code: 5,
    fields: ['name'],
    target: 0,
    rfc: 'RFC 1035',
    summary: 'canonical name (alias)',
  },
  SOA: { code: 6, fields: SOA, rfc: 'RFC 1035', summary: 'start of a zone of authority' },
  PTR: { code: 12, fields: ['name'], rfc: 'RFC 1035', summary: 'domain name pointer' },
  HINFO: { code: 13, fields: ['string', 'string'], rfc: 'RFC 8482', summary: 'host information' },
  MX: { code: 15, fields: ['u16', 'name'], target: 1, rfc: 'RFC 1035', summary: 'mail exchange' },
  TXT: { code: 16, fields: ['strings'], rfc: 'RFC 1035', summary: 'text strings' },
  RP: { code: 17, fields: ['name', 'name'], rfc: 'RFC 1183', summary: 'responsible person' },
  AAAA: { code: 28, fields: ['ipv6'], rfc: 'RFC 3596', summary: 'IPv6 address' },
  LOC: { code: 29, fields: ['loc'], rfc: 'RFC 1876', summary: 'location' },
  SRV: {
    code: 33,
    fields: ['u16', 'u16', 'port', 'name'],
    target: 3,
    rfc: 'RFC 2782',
    summary: 'service location',
  },
  NAPTR: {
    code: 35,
    fields: ['u16', 'u16', 'string', 'string', 'string', 'name'],
    rfc: 'RFC 3403',
    summary: 'naming authority pointer',
  },
  DNAME: { code: 39, fields: ['name'], rfc: 'RFC 6672', summary: 'delegation of a subtree' },
  DS: { code: 43, fields: DS, rfc: 'RFC 4034', summary: 'delegation signer' },
  SSHFP: { code: 44, fields: ['u8', 'u8', 'hex'], rfc: 'RFC 4255', summary: 'SSH key fingerprint' },
  RRSIG: {
    code: 46,
    fields: ['type', 'alg', 'u8', 'ttl', 'time', 'time', 'u16', 'name', 'base64'],
    rfc: 'RFC 4034',
    summary: 'DNSSEC signature',
  },
  NSEC: { code: 47, fields: ['name', 'types'], rfc: 'RFC 4034', summary: 'next secure record' },
  DNSKEY: { code: 48, fields: DNSKEY, rfc: 'RFC 4034', summary: 'DNSSEC public key' },
  NSEC3: {
    code: 50,
    fields: ['u8', 'u8', 'u16', 'salt', 'b32hex', 'types'],
    rfc: 'RFC 5155',
    summary: 'hashed next secure record',
  },
  NSEC3PARAM: {
    code: 51,
    fields: ['u8', 'u8', 'u16', 'salt'],
    rfc: 'RFC 5155',
    summary: 'NSEC3 parameters',
  },
  TLSA: {
    code: 52,
    fields: ['u8', 'u8', 'u8', 'hex'],
    rfc: 'RFC 6698',
    summary: 'TLS certificate association (DANE)',
  },
  CDS: { code: 59, fields: DS, rfc: 'RFC 7344', summary: 'child copy of DS' },
  CDNSKEY: { code: 60, fields: DNSKEY, rfc: 'RFC 7344', summary: 'child copy of DNSKEY' },
  SVCB: { code: 64, fields: SVCB, rfc: 'RFC 9460', summary: 'service binding' },
  HTTPS: { code: 65, fields: SVCB, rfc: 'RFC 9460', summary: 'HTTPS service binding' },
  SPF: { code: 99, fields: ['strings'], rfc: 'RFC 7208', summary: 'SPF policy (obsolete type)' },
  URI: {
    code: 256,
    fields: ['u16', 'u16', 'uri-target'],
    rfc: 'RFC 7553',
    summary: 'uniform resource identifier',
  },
  CAA: {
    code: 257,
    fields: ['caa-flags', 'caa-tag', 'caa-value'],
    rfc: 'RFC 8659',
    summary: 'certification authority authorization',
  },
};

const BY_CODE = new Map(Object.entries(TYPES).map(([name, spec]) => [spec.code, name]));
const BY_NAME = new Map(Object.entries(TYPES).map(([name, spec]) => [name, spec.code]));
const SPECS = new Map(Object.entries(TYPES));

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
