// The JSON shapes of docs/contract.md (seed sections 2.1 and 2.2). Fields the seed lists keep
// its names; fields marked "additive" come from the contract and are optional for clients.

export const RECORD_TYPES = [
  'A',
  'AAAA',
  'CAA',
  'CNAME',
  'MX',
  'NS',
  'PTR',
  'TXT',
  'SRV',
  'SOA',
] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export interface DnsRecord {
  /**
   * additive: the record's owner, fully qualified, when it is not the asked name (a record
   * reached through CNAMEs, and each link of `chain`)
   */
  name?: string;
  type: RecordType;
  value?: string;
  priority?: number;
  weight?: number;
  port?: number;
  flags?: number;
  tag?: string;
  parts?: string[];
  mname?: string;
  rname?: string;
  serial?: number;
  refresh?: number;
  retry?: number;
  expire?: number;
  min_ttl?: number;
  ttl?: number;
}

/** additive: a record type whose look-up failed while others answered */
export interface TypeFailure {
  type: RecordType;
  code: 'upstream_timeout' | 'upstream_error' | 'servfail' | 'refused' | 'connection_refused';
}

export interface QueryResult {
  records: DnsRecord[];
  status?: 'NOERROR' | 'NXDOMAIN';
  errors?: TypeFailure[];
  /** additive, with `dnssec=true`: whether the answer validates from the trust anchor down */
  dnssec?: DnssecResult;
  /**
   * additive: the CNAME records followed from the asked name to the owner of `records`, in
   * order, each with its `name`; absent when no CNAME was followed
   */
  chain?: DnsRecord[];
}

/** additive: the DNSSEC verdict of a query (`dnssec=true`), the worst of the asked types' */
export interface DnssecResult {
  status: 'secure' | 'insecure' | 'bogus' | 'indeterminate';
  /** why, in words, naming the record, zone or key at fault */
  reason: string;
  /** the zones from the trust anchor down, each with the DS that vouches for it */
  chain: DnssecLink[];
  /** additive: the signature that validated each answer RRset */
  signatures?: DnssecSignature[];
}

export interface DnssecLink {
  zone: string;
  /** the DS records at the parent (the anchor's for the top zone); empty at an unsigned cut */
  ds: Array<{ key_tag: number; algorithm: number; digest_type: number; digest: string }>;
  dnskey: Array<{ key_tag: number; algorithm: number; flags: number; bits: number }>;
  /** the RRSIG over the zone's DNSKEY set (the one that validated, else the one that failed) */
  rrsig?: DnssecSignatureWindow;
}

export interface DnssecSignatureWindow {
  key_tag: number;
  algorithm: number;
  /** ISO 8601 UTC */
  inception: string;
  expiration: string;
}

export interface DnssecSignature extends DnssecSignatureWindow {
  name: string;
  type: string;
  signer: string;
}

export interface DkimEntry {
  selector: string;
  domain: string;
  version: string;
  key_type: string;
  public_key: string;
  service_type: string[];
  /** additive: RSA modulus length, when the key decodes */
  key_bits?: number;
}

export interface DomainKeysResult {
  domain_keys: DkimEntry[];
}

export interface IpRange {
  version: 4 | 6;
  cidr_block: string;
}

export interface SpfProblem {
  /** stable snake_case identifier of the problem */
  code: string;
  /** the domain of the node the problem belongs to */
  domain: string;
  /** the policy term at fault, when one is */
  term?: string;
  message: string;
  /**
   * additive: `error` when receivers evaluate the policy to permerror because of it (RFC 7208),
   * `warning` when it works but is unwise or could not be checked
   */
  severity?: 'error' | 'warning';
}

export interface SpfNode {
  domain: string;
  policy: string;
  ips: IpRange[];
  includes: SpfNode[];
  /** additive: how the parent referenced this node */
  via?: 'include' | 'redirect';
}

export interface SpfRoot {
  query_count: number;
  policy: string;
  ips: IpRange[];
  includes: SpfNode[];
  /** additive: RFC 7208 section 4.6.4 count of DNS-querying terms */
  lookup_count?: number;
  /** additive: void lookups (RFC 7208 section 4.6.4) */
  void_lookup_count?: number;
  /** additive */
  problems?: SpfProblem[];
}

export interface WhoisDomain {
  id?: string;
  domain?: string;
  punycode?: string;
  name?: string;
  extension?: string;
  whois_server?: string;
  status?: string[];
  name_servers?: string[];
  dnssec?: boolean;
  created_date?: string;
  created_date_in_time?: string;
  updated_date?: string;
  updated_date_in_time?: string;
  expiration_date?: string;
  expiration_date_in_time?: string;
}

export interface WhoisRegistrar {
  id?: string;
  name?: string;
  referral_url?: string;
}

export interface WhoisResult {
  domain: WhoisDomain;
  registrar: WhoisRegistrar;
  /** additive */
  source?: 'rdap' | 'whois';
  /** additive: the reply as received */
  raw?: string;
}

export interface Icon {
  rel: string;
  url: string;
  height: number;
  width: number;
  /** additive: decoded format, e.g. png, ico, svg */
  format?: string;
  /**
   * additive: why the icon is listed 0 × 0: over the image byte cap (`too_large`), or its URL
   * answered an HTTP error (`http_error`, with `status`)
   */
  reason?: 'too_large' | 'http_error';
  /** additive, with `reason: http_error`: the HTTP status the icon's URL answered */
  status?: number;
}

export interface IconsResult {
  canonical_url: string;
  /** the best icon that was fetched and decoded; "" when none was */
  icon_url: string;
  icons: Icon[];
  /** additive: the page links more icons than an answer lists */
  truncated?: true;
}

/** additive (`GET /meta/image`): one image fetched by the service, for a preview panel */
export interface ImageResult {
  /** the image's address after its own redirects */
  url: string;
  width: number;
  height: number;
  /** decoded format, e.g. png, ico, svg */
  format: string;
  /** the bytes as a data: URI whose media type matches the decoded format */
  data_uri: string;
}

export interface RedirectHop {
  status_code: number;
  location: string;
}

export interface RedirectsResult {
  locations: RedirectHop[];
  final_url?: string;
  final_status_code?: number;
  error?: { code: 'redirect_loop' | 'too_many_redirects' };
  /** additive: a <meta http-equiv=refresh> on the final page, reported and not followed */
  meta_refresh?: { delay: number; url: string };
  /** additive: a hop's location was longer than an answer holds and was cut */
  truncated?: true;
}

/** additive (`GET /meta/link`): one link's verdict */
export interface LinkResult {
  /** the status of the last response (after redirects); 0 when the walk stopped on an error */
  status: number;
  /** HEAD when that answered; GET when HEAD was refused or the page was read for fragments */
  method: 'HEAD' | 'GET';
  locations: RedirectHop[];
  final_url?: string;
  error?: { code: 'redirect_loop' | 'too_many_redirects' };
  /** seconds from the Retry-After of a 429 or 503 answer */
  retry_after?: number;
  /** the asked fragments the final page holds neither as an id nor as a name */
  missing_fragments?: string[];
  /** additive: a URL (a hop's location, final_url) was longer than an answer holds and was cut */
  truncated?: true;
}

export interface OpenGraphImage {
  url: string;
  width?: string;
  height?: string;
  alt?: string;
  type?: string;
  secure_url?: string;
}

export type OpenGraph = Record<string, string | OpenGraphImage[]> & {
  'og:image'?: OpenGraphImage[];
};

export interface UnfurlResult {
  application_name: string;
  canonical_url: string;
  page_description: string;
  icon_url: string;
  page_keywords: string;
  resolved_url: string;
  page_title: string;
  open_graph: OpenGraph;
  /** additive: twitter:* card tags */
  twitter?: Record<string, string>;
  /** additive: oEmbed discovery links */
  oembed?: { json?: string; xml?: string };
  /** additive: the page had more og:* (or twitter:*) tags, or longer values, than kept */
  truncated?: true;
}

/** additive (`GET /domain/tls`): one certificate of the chain the server sent */
export interface TlsCertificate {
  subject: string;
  issuer: string;
  /** hex, lower case */
  serial: string;
  /** ISO 8601 UTC */
  not_before: string;
  not_after: string;
  /** whole days until not_after; negative once expired */
  days_left: number;
  dns_names: string[];
  ip_addresses: string[];
  /** RSA, EC, Ed25519… */
  key_type: string;
  key_bits: number;
  /** OpenSSL's name, e.g. sha256WithRSAEncryption */
  signature_algorithm: string;
  /** SHA-256 of the DER, hex, lower case */
  sha256: string;
}

export const TLS_PROBLEM_CODES = [
  'expired',
  'not_yet_valid',
  'name_mismatch',
  'untrusted',
  'self_signed',
  'incomplete_chain',
  'weak_key',
  'sha1_signature',
  'expires_soon',
  'caa_mismatch',
  'dane_mismatch',
  'dane_unusable',
  'no_starttls',
] as const;
export type TlsProblemCode = (typeof TLS_PROBLEM_CODES)[number];

export interface TlsProblem {
  code: TlsProblemCode;
  severity: 'error' | 'warning';
  message: string;
}

/** additive (`GET /domain/tls`): a TLS endpoint's handshake, chain as sent and problems */
export interface TlsResult {
  host: string;
  port: number;
  /** e.g. TLSv1.3; "" when no handshake took place (no_starttls) */
  protocol: string;
  cipher: string;
  /** the protocol ALPN settled on; "" when none */
  alpn: string;
  /** what OpenSSL's default verification (security level 2) decides for the name */
  trusted: boolean;
  /** leaf first, as sent (a trust anchor the store supplied is not listed) */
  chain: TlsCertificate[];
  /** errors first */
  problems: TlsProblem[];
  /** additive: the address connected to */
  address?: string;
  /** additive: the STARTTLS dialect used */
  starttls?: 'smtp';
  /** additive: present when the name has TLSA records (RFC 6698) */
  dane?: TlsDane;
}

export const MTA_STS_PROBLEM_CODES = [
  'record_invalid',
  'policy_unavailable',
  'policy_certificate_invalid',
  'policy_redirect',
  'policy_media_type',
  'policy_invalid',
  'mx_not_covered',
  'testing_mode',
  'mode_none',
  'max_age_short',
] as const;
export type MtaStsProblemCode = (typeof MTA_STS_PROBLEM_CODES)[number];

export interface MtaStsProblem {
  code: MtaStsProblemCode;
  severity: 'error' | 'warning';
  message: string;
}

/** additive: an MTA-STS policy file as fetched (RFC 8461 section 3.2) */
export interface MtaStsPolicy {
  version: string;
  /** enforce, testing or none; anything else is policy_invalid and kept as written */
  mode: string;
  /** seconds; null when missing or not a number */
  max_age: number | null;
  /** the mx: patterns in file order */
  mx: string[];
}

/** additive: one MX host of the domain against the policy's mx: patterns */
export interface MtaStsMx {
  host: string;
  preference: number;
  /** the first pattern that matches it (RFC 8461 section 4.1); null: none does */
  pattern: string | null;
}

/** additive (`GET /domain/mta_sts`): a mail domain's MTA-STS record, policy and MX coverage */
export interface MtaStsResult {
  host: string;
  /** the `_mta-sts` TXT record (v=STSv1); null: none, and no policy is fetched */
  record: string | null;
  /** the record's id= */
  id?: string;
  policy_url: string;
  /** null when there is no record or the policy could not be fetched or read */
  policy: MtaStsPolicy | null;
  /** the MX hosts against the policy's patterns; empty without a policy */
  mx: MtaStsMx[];
  /** errors first */
  problems: MtaStsProblem[];
}

/** additive: the TLSA records of `_port._tcp.host` against the chain */
export interface TlsDane {
  /** match: a usable record matches; mismatch: none does; unusable: none may be used */
  status: 'match' | 'mismatch' | 'unusable';
  /** the TLSA owner name */
  name: string;
  /** the DNSSEC verdict of the TLSA answer (only `secure` records are usable, RFC 7672) */
  dnssec: DnssecResult['status'];
  /** the records as usage selector matching-type data */
  records: string[];
}
