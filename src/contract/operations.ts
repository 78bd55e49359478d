// One table of the seed's endpoints. The server routes, the HTTP client and the command
// line are all driven by it, so a parameter added here reaches every front end at once.
import type { SchemaName } from './schemas';
import type { DomainService, MetaService } from './services';

export interface ParamSpec {
  name: string;
  required: boolean;
  /** Repeated in the query string (`types=A&types=MX`). */
  repeated: boolean;
  /** A switch: `dnssec=true` in the query string, a bare `--dnssec` on the command line. */
  flag?: boolean;
}

interface OperationBase {
  /** Name on the command line (`hostlens <name>`) and path segment on the server. */
  name: string;
  path: string;
  summary: string;
  params: ParamSpec[];
  /** the JSON Schema (schemas.ts) of a successful answer */
  result: SchemaName;
}

export interface DomainOperation extends OperationBase {
  service: 'domain';
  method: keyof DomainService;
}

export interface MetaOperation extends OperationBase {
  service: 'meta';
  method: keyof MetaService;
}

export type Operation = DomainOperation | MetaOperation;

const one = (name: string, required = false): ParamSpec => ({ name, required, repeated: false });
const many = (name: string): ParamSpec => ({ name, required: false, repeated: true });
const flag = (name: string): ParamSpec => ({ name, required: false, repeated: false, flag: true });
const metaParams = [one('url', true), one('language')];

export const OPERATIONS: readonly Operation[] = [
  {
    service: 'domain',
    name: 'query',
    result: 'QueryResult',
    path: '/query',
    method: 'query',
    summary: 'DNS records of the requested types',
    params: [one('host', true), many('types'), one('server'), flag('dnssec')],
  },
  {
    service: 'domain',
    name: 'domain_keys',
    result: 'DomainKeysResult',
    path: '/domain_keys',
    method: 'domainKeys',
    summary: 'DKIM public keys for selectors',
    params: [one('host', true), many('selectors'), one('server')],
  },
  {
    service: 'domain',
    name: 'sender_policy_ranges',
    result: 'SpfRoot',
    path: '/sender_policy_ranges',
    method: 'senderPolicyRanges',
    summary: 'the SPF policy tree and its IP ranges',
    params: [one('host', true), one('server')],
  },
  {
    service: 'domain',
    name: 'whois',
    result: 'WhoisResult',
    path: '/whois',
    method: 'whois',
    summary: 'structured WHOIS (RDAP first, then port 43)',
    params: [one('host', true)],
  },
  {
    service: 'domain',
    name: 'tls',
    result: 'TlsResult',
    path: '/tls',
    method: 'tls',
    summary: 'a TLS endpoint: handshake, certificate chain as sent, CAA and DANE, problems',
    params: [one('host', true), one('port'), one('starttls'), one('server')],
  },
  {
    service: 'domain',
    name: 'mta_sts',
    result: 'MtaStsResult',
    path: '/mta_sts',
    method: 'mtaSts',
    summary: "a mail domain's MTA-STS policy (RFC 8461), fetched over HTTPS, against its MX hosts",
    params: [one('host', true), one('server')],
  },
  {
    service: 'meta',
    name: 'icons',
    result: 'IconsResult',
    path: '/icons',
    method: 'icons',
    summary: 'the icons a page links, with their real sizes',
    params: metaParams,
  },
  {
    service: 'meta',
    name: 'redirects',
    result: 'RedirectsResult',
    path: '/redirects',
    method: 'redirects',
    summary: 'every redirect hop with its status code',
    params: metaParams,
  },
  {
    service: 'meta',
    name: 'unfurl',
    result: 'UnfurlResult',
    path: '/unfurl',
    method: 'unfurl',
    summary: 'title, description, icon and Open Graph of a page',
    params: metaParams,
  },
  {
    service: 'meta',
    name: 'image',
    result: 'ImageResult',
    path: '/image',
    method: 'image',
    summary: 'one image (at most 512 KB) as a data: URI with its decoded size',
    params: [one('url', true)],
  },
  {
    service: 'meta',
    name: 'link',
    result: 'LinkResult',
    path: '/link',
    method: 'link',
    summary: "one link's verdict: status after redirects, Retry-After, missing fragments",
    params: [one('url', true), many('fragments'), one('server')],
  },
];

export function findOperation(name: string): Operation | undefined {
  return OPERATIONS.find((op) => op.name === name);
}
