// The two service interfaces of the seed. Parameter names are the seed's query parameters,
// so the HTTP server, the HTTP client and the command line map onto them one to one.
import type {
  DomainKeysResult,
  IconsResult,
  ImageResult,
  LinkResult,
  MtaStsResult,
  QueryResult,
  RedirectsResult,
  SpfRoot,
  TlsResult,
  UnfurlResult,
  WhoisResult,
} from './shapes';

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * Additive: the longest the call may take, in ms; by then it has ended, with upstream_timeout
   * if nothing else. A backend with a shorter deadline of its own keeps that one.
   */
  timeoutMs?: number;
}

export interface QueryParams {
  host: string;
  types?: string[];
  server?: string;
  /** additive: validate the answer (DNSSEC) and add `dnssec` to the result */
  dnssec?: boolean;
}

export interface DomainKeysParams {
  host: string;
  selectors?: string[];
  server?: string;
}

export interface SenderPolicyParams {
  host: string;
  server?: string;
}

export interface WhoisParams {
  host: string;
}

/** additive (`GET /domain/tls`) */
export interface TlsParams {
  host: string;
  /** default 443, or 25 with starttls=smtp; a string as the query string gives it */
  port?: string | number;
  /** `smtp`; anything else is invalid_argument */
  starttls?: string;
  server?: string;
}

/** additive (`GET /domain/mta_sts`) */
export interface MtaStsParams {
  /** the mail domain (the part after @) */
  host: string;
  server?: string;
}

export interface ImageParams {
  url: string;
}

export interface MetaParams {
  url: string;
  language?: string;
}

export interface DomainService {
  query(params: QueryParams, options?: CallOptions): Promise<QueryResult>;
  domainKeys(params: DomainKeysParams, options?: CallOptions): Promise<DomainKeysResult>;
  senderPolicyRanges(params: SenderPolicyParams, options?: CallOptions): Promise<SpfRoot>;
  whois(params: WhoisParams, options?: CallOptions): Promise<WhoisResult>;
  /** additive: a TLS endpoint's handshake, chain and problems */
  tls(params: TlsParams, options?: CallOptions): Promise<TlsResult>;
  /** additive: the MTA-STS record, the policy fetched over HTTPS and the MX hosts against it */
  mtaSts(params: MtaStsParams, options?: CallOptions): Promise<MtaStsResult>;
}

/** additive (`GET /meta/link`): one link's verdict, for the workspace check */
export interface LinkParams {
  url: string;
  /** fragments (without '#') the final page must hold as an id or name */
  fragments?: string[];
  /** a nameserver every host name of the link is resolved through */
  server?: string;
}

export interface MetaService {
  icons(params: MetaParams, options?: CallOptions): Promise<IconsResult>;
  redirects(params: MetaParams, options?: CallOptions): Promise<RedirectsResult>;
  unfurl(params: MetaParams, options?: CallOptions): Promise<UnfurlResult>;
  /** additive: one image as a data: URI, so an editor never contacts a page's image hosts */
  image(params: ImageParams, options?: CallOptions): Promise<ImageResult>;
  /** additive: one link's status after its redirects, Retry-After and missing fragments */
  link(params: LinkParams, options?: CallOptions): Promise<LinkResult>;
}

export interface Services {
  domain: DomainService;
  meta: MetaService;
}
