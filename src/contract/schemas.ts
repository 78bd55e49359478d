// JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of every shape in shapes.ts. They are written
// once here: the OpenAPI document is built from them and the contract tests validate answers
// with them. Each object schema is typed against its interface, so a field added to shapes.ts
// and not here fails the type check.
import { ERROR_STATUS } from './errors';
import type {
  DkimEntry,
  DnsRecord,
  DnssecLink,
  DnssecResult,
  DnssecSignature,
  DnssecSignatureWindow,
  DomainKeysResult,
  Icon,
  IconsResult,
  ImageResult,
  IpRange,
  LinkResult,
  MtaStsMx,
  MtaStsPolicy,
  MtaStsProblem,
  MtaStsResult,
  OpenGraphImage,
  QueryResult,
  RedirectHop,
  RedirectsResult,
  SpfNode,
  SpfProblem,
  SpfRoot,
  TlsCertificate,
  TlsDane,
  TlsProblem,
  TlsResult,
  TypeFailure,
  UnfurlResult,
  WhoisDomain,
  WhoisRegistrar,
  WhoisResult,
} from './shapes';
import { MTA_STS_PROBLEM_CODES, RECORD_TYPES, TLS_PROBLEM_CODES } from './shapes';
import type { Problem } from './errors';

export type JsonSchema = { [keyword: string]: unknown };

const string: JsonSchema = { type: 'string' };
const integer: JsonSchema = { type: 'integer' };
const strings: JsonSchema = { type: 'array', items: string };
const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const truncated: JsonSchema = {
  const: true,
  description: 'additive: a size cap left something out of this answer',
};

/** An object schema whose properties are exactly the interface's fields. */
function object<T>(
  properties: { [K in keyof Required<T>]: JsonSchema },
  required: ReadonlyArray<keyof T & string>,
): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

const DnsRecordSchema = object<DnsRecord>(
  {
    name: {
      type: 'string',
      description: "additive: the record's owner, when it is not the asked name",
    },
    type: { enum: [...RECORD_TYPES] },
    value: string,
    priority: integer,
    weight: integer,
    port: integer,
    flags: integer,
    tag: string,
    parts: strings,
    mname: string,
    rname: string,
    serial: integer,
    refresh: integer,
    retry: integer,
    expire: integer,
    min_ttl: integer,
    ttl: integer,
  },
  ['type'],
);

const TypeFailureSchema = object<TypeFailure>(
  {
    type: { enum: [...RECORD_TYPES] },
    code: {
      enum: ['upstream_timeout', 'upstream_error', 'servfail', 'refused', 'connection_refused'],
    },
  },
  ['type', 'code'],
);

const IpRangeSchema = object<IpRange>({ version: { enum: [4, 6] }, cidr_block: string }, [
  'version',
  'cidr_block',
]);

const SpfProblemSchema = object<SpfProblem>(
  {
    code: string,
    domain: string,
    term: string,
    message: string,
    severity: {
      enum: ['error', 'warning'],
      description: 'additive: error when receivers evaluate the policy to permerror because of it',
    },
  },
  ['code', 'domain', 'message'],
);

const WhoisDomainSchema = object<WhoisDomain>(
  {
    id: string,
    domain: string,
    punycode: string,
    name: string,
    extension: string,
    whois_server: string,
    status: strings,
    name_servers: strings,
    dnssec: { type: 'boolean' },
    created_date: string,
    created_date_in_time: string,
    updated_date: string,
    updated_date_in_time: string,
    expiration_date: string,
    expiration_date_in_time: string,
  },
  [],
);

const signatureWindow = {
  key_tag: integer,
  algorithm: integer,
  inception: string,
  expiration: string,
};

const DnssecSignatureWindowSchema = object<DnssecSignatureWindow>(signatureWindow, [
  'key_tag',
  'algorithm',
  'inception',
  'expiration',
]);

const DnssecSignatureSchema = object<DnssecSignature>(
  { ...signatureWindow, name: string, type: string, signer: string },
  ['key_tag', 'algorithm', 'inception', 'expiration', 'name', 'type', 'signer'],
);

type DsLine = DnssecLink['ds'][number];
type KeyLine = DnssecLink['dnskey'][number];

const DnssecLinkSchema = object<DnssecLink>(
  {
    zone: string,
    ds: arrayOf(
      object<DsLine>(
        { key_tag: integer, algorithm: integer, digest_type: integer, digest: string },
        ['key_tag', 'algorithm', 'digest_type', 'digest'],
      ),
    ),
    dnskey: arrayOf(
      object<KeyLine>({ key_tag: integer, algorithm: integer, flags: integer, bits: integer }, [
        'key_tag',
        'algorithm',
        'flags',
        'bits',
      ]),
    ),
    rrsig: DnssecSignatureWindowSchema,
  },
  ['zone', 'ds', 'dnskey'],
);

const DnssecResultSchema = object<DnssecResult>(
  {
    status: { enum: ['secure', 'insecure', 'bogus', 'indeterminate'] },
    reason: string,
    chain: arrayOf(DnssecLinkSchema),
    signatures: arrayOf(DnssecSignatureSchema),
  },
  ['status', 'reason', 'chain'],
);

const OpenGraphImageSchema = object<OpenGraphImage>(
  { url: string, width: string, height: string, alt: string, type: string, secure_url: string },
  ['url'],
);

export const SCHEMAS = {
  DnsRecord: DnsRecordSchema,
  TypeFailure: TypeFailureSchema,
  QueryResult: object<QueryResult>(
    {
      records: arrayOf(ref('DnsRecord')),
      status: { enum: ['NOERROR', 'NXDOMAIN'] },
      errors: arrayOf(ref('TypeFailure')),
      dnssec: DnssecResultSchema,
      chain: {
        ...arrayOf(ref('DnsRecord')),
        description: 'additive: the CNAME records followed from the asked name, in order',
      },
    },
    ['records'],
  ),
  DkimEntry: object<DkimEntry>(
    {
      selector: string,
      domain: string,
      version: string,
      key_type: string,
      public_key: string,
      service_type: strings,
      key_bits: integer,
    },
    ['selector', 'domain', 'version', 'key_type', 'public_key', 'service_type'],
  ),
  DomainKeysResult: object<DomainKeysResult>({ domain_keys: arrayOf(ref('DkimEntry')) }, [
    'domain_keys',
  ]),
  IpRange: IpRangeSchema,
  SpfProblem: SpfProblemSchema,
  SpfNode: object<SpfNode>(
    {
      domain: string,
      policy: string,
      ips: arrayOf(ref('IpRange')),
      includes: arrayOf(ref('SpfNode')),
      via: { enum: ['include', 'redirect'] },
    },
    ['domain', 'policy', 'ips', 'includes'],
  ),
  SpfRoot: object<SpfRoot>(
    {
      query_count: integer,
      policy: string,
      ips: arrayOf(ref('IpRange')),
      includes: arrayOf(ref('SpfNode')),
      lookup_count: integer,
      void_lookup_count: integer,
      problems: arrayOf(ref('SpfProblem')),
    },
    ['query_count', 'policy', 'ips', 'includes'],
  ),
  WhoisDomain: WhoisDomainSchema,
  WhoisRegistrar: object<WhoisRegistrar>({ id: string, name: string, referral_url: string }, []),
  WhoisResult: object<WhoisResult>(
    {
      domain: ref('WhoisDomain'),
      registrar: ref('WhoisRegistrar'),
      source: { enum: ['rdap', 'whois'] },
      raw: string,
    },
    ['domain', 'registrar'],
  ),
  Icon: object<Icon>(
    {
      rel: string,
      url: string,
      height: integer,
      width: integer,
      format: string,
      reason: {
        enum: ['too_large', 'http_error'],
        description: 'additive: why the icon could not be measured (0 × 0)',
      },
      status: {
        type: 'integer',
        description: 'additive, with reason http_error: the HTTP status the icon URL answered',
      },
    },
    ['rel', 'url', 'height', 'width'],
  ),
  IconsResult: object<IconsResult>(
    { canonical_url: string, icon_url: string, icons: arrayOf(ref('Icon')), truncated },
    ['canonical_url', 'icon_url', 'icons'],
  ),
  ImageResult: object<ImageResult>(
    { url: string, width: integer, height: integer, format: string, data_uri: string },
    ['url', 'width', 'height', 'format', 'data_uri'],
  ),
  RedirectHop: object<RedirectHop>({ status_code: integer, location: string }, [
    'status_code',
    'location',
  ]),
  RedirectsResult: object<RedirectsResult>(
    {
      locations: arrayOf(ref('RedirectHop')),
      final_url: string,
      final_status_code: integer,
      error: object<{ code: string }>({ code: { enum: ['redirect_loop', 'too_many_redirects'] } }, [
        'code',
      ]),
      meta_refresh: object<{ delay: number; url: string }>({ delay: integer, url: string }, [
        'delay',
        'url',
      ]),
      truncated,
    },
    ['locations'],
  ),
  LinkResult: object<LinkResult>(
    {
      status: integer,
      method: { enum: ['HEAD', 'GET'] },
      locations: arrayOf(ref('RedirectHop')),
      final_url: string,
      error: object<{ code: string }>({ code: { enum: ['redirect_loop', 'too_many_redirects'] } }, [
        'code',
      ]),
      retry_after: { type: 'integer', minimum: 0 },
      missing_fragments: strings,
      truncated,
    },
    ['status', 'method', 'locations'],
  ),
  OpenGraphImage: OpenGraphImageSchema,
  OpenGraph: {
    type: 'object',
    description: 'og:* property names; og:image is a list of images',
    properties: { 'og:image': arrayOf(ref('OpenGraphImage')) },
    additionalProperties: string,
  },
  UnfurlResult: object<UnfurlResult>(
    {
      application_name: string,
      canonical_url: string,
      page_description: string,
      icon_url: string,
      page_keywords: string,
      resolved_url: string,
      page_title: string,
      open_graph: ref('OpenGraph'),
      twitter: { type: 'object', additionalProperties: string },
      oembed: object<{ json: string; xml: string }>({ json: string, xml: string }, []),
      truncated,
    },
    [
      'application_name',
      'canonical_url',
      'page_description',
      'icon_url',
      'page_keywords',
      'resolved_url',
      'page_title',
      'open_graph',
    ],
  ),
  TlsCertificate: object<TlsCertificate>(
    {
      subject: string,
      issuer: string,
      serial: string,
      not_before: string,
      not_after: string,
      days_left: integer,
      dns_names: strings,
      ip_addresses: strings,
      key_type: string,
      key_bits: integer,
      signature_algorithm: string,
      sha256: string,
    },
    [
      'subject',
      'issuer',
      'serial',
      'not_before',
      'not_after',
      'days_left',
      'dns_names',
      'ip_addresses',
      'key_type',
      'key_bits',
      'signature_algorithm',
      'sha256',
    ],
  ),
  TlsProblem: object<TlsProblem>(
    {
      code: { enum: [...TLS_PROBLEM_CODES] },
      severity: { enum: ['error', 'warning'] },
      message: string,
    },
    ['code', 'severity', 'message'],
  ),
  TlsResult: object<TlsResult>(
    {
      host: string,
      port: integer,
      protocol: string,
      cipher: string,
      alpn: string,
      trusted: { type: 'boolean' },
      chain: arrayOf(ref('TlsCertificate')),
      problems: arrayOf(ref('TlsProblem')),
      address: string,
      starttls: { enum: ['smtp'] },
      dane: object<TlsDane>(
        {
          status: { enum: ['match', 'mismatch', 'unusable'] },
          name: string,
          dnssec: { enum: ['secure', 'insecure', 'bogus', 'indeterminate'] },
          records: strings,
        },
        ['status', 'name', 'dnssec', 'records'],
      ),
    },
    ['host', 'port', 'protocol', 'cipher', 'alpn', 'trusted', 'chain', 'problems'],
  ),
  MtaStsResult: object<MtaStsResult>(
    {
      host: string,
      record: { type: ['string', 'null'] },
      id: string,
      policy_url: string,
      policy: {
        oneOf: [
          { type: 'null' },
          object<MtaStsPolicy>(
            {
              version: string,
              mode: string,
              max_age: { type: ['integer', 'null'] },
              mx: strings,
            },
            ['version', 'mode', 'max_age', 'mx'],
          ),
        ],
      },
      mx: arrayOf(
        object<MtaStsMx>(
          { host: string, preference: integer, pattern: { type: ['string', 'null'] } },
          ['host', 'preference', 'pattern'],
        ),
      ),
      problems: arrayOf(
        object<MtaStsProblem>(
          {
            code: { enum: [...MTA_STS_PROBLEM_CODES] },
            severity: { enum: ['error', 'warning'] },
            message: string,
          },
          ['code', 'severity', 'message'],
        ),
      ),
    },
    ['host', 'record', 'policy_url', 'policy', 'mx', 'problems'],
  ),
  Problem: object<Problem>(
    {
      type: string,
      title: string,
      status: integer,
      detail: string,
      code: { enum: Object.keys(ERROR_STATUS) },
    },
    ['type', 'title', 'status', 'detail', 'code'],
  ),
} satisfies Record<string, JsonSchema>;

export type SchemaName = keyof typeof SCHEMAS;
