// The default backend: the engine in this process. Needs no account and no network beyond the
// look-ups themselves.
import { domainKeys } from '../engine/mail/dkim';
import { query } from '../engine/dns/query';
import { warmUpDns } from '../engine/dns/warm';
import { senderPolicyRanges } from '../engine/mail/spf';
import { checkHost, type CheckHostParams, type CheckHostResult } from '../engine/mail/spf-check';
import type {
  DomainKeysResult,
  IconsResult,
  ImageResult,
  QueryResult,
  RedirectsResult,
  SpfRoot,
  UnfurlResult,
  WhoisResult,
} from '../contract/shapes';
import { icons } from '../engine/web/icons';
import { fetchImageAsDataUri, IMAGE_BYTES } from '../engine/web/image';
import { redirects } from '../engine/web/redirects';
import { unfurl } from '../engine/web/unfurl';
import { whois } from '../engine/whois/index';
import type {
  CallOptions,
  DomainKeysParams,
  DomainService,
  ImageParams,
  MetaParams,
  MetaService,
  QueryParams,
  SenderPolicyParams,
  Services,
  WhoisParams,
} from '../contract/services';

export interface EmbeddedOptions {
  /** DNS: per-try timeout and tries (engine defaults when absent). */
  dnsTimeoutMs?: number;
  dnsTries?: number;
  /**
   * Refuse private and special addresses (on in `hostlens serve`, off in the editor): for web
   * fetches, and for a DNS `server` parameter.
   */
  blockPrivate?: boolean;
  /** With blockPrivate: ranges the operator does want reachable (CIDR strings). */
  allowCidrs?: string[];
}

export class EmbeddedServices implements DomainService, MetaService, Services {
  readonly domain: DomainService = this;
  readonly meta: MetaService = this;

  constructor(private readonly options: EmbeddedOptions = {}) {
    // The DNS engine's once-per-process work, done now rather than in the first request.
    warmUpDns();
  }

  private dns(call: CallOptions | undefined) {
    return {
      signal: call?.signal,
      timeoutMs: this.options.dnsTimeoutMs,
      tries: this.options.dnsTries,
      blockPrivate: this.options.blockPrivate === true,
      allowCidrs: this.options.allowCidrs,
    };
  }

  private web(call: CallOptions | undefined) {
    return {
      signal: call?.signal,
      blockPrivate: this.options.blockPrivate === true,
      allowCidrs: this.options.allowCidrs,
    };
  }

  query(params: QueryParams, call?: CallOptions): Promise<QueryResult> {
    return query(params, this.dns(call));
  }

  domainKeys(params: DomainKeysParams, call?: CallOptions): Promise<DomainKeysResult> {
    return domainKeys(params, this.dns(call));
  }

  senderPolicyRanges(params: SenderPolicyParams, call?: CallOptions): Promise<SpfRoot> {
    return senderPolicyRanges(params, this.dns(call));
  }

  whois(params: WhoisParams, call?: CallOptions): Promise<WhoisResult> {
    return whois(params, { signal: call?.signal });
  }

  icons(params: MetaParams, call?: CallOptions): Promise<IconsResult> {
    return icons(params, this.web(call));
  }

  redirects(params: MetaParams, call?: CallOptions): Promise<RedirectsResult> {
    return redirects(params, this.web(call));
  }

  unfurl(params: MetaParams, call?: CallOptions): Promise<UnfurlResult> {
    return unfurl(params, this.web(call));
  }

  async image(params: ImageParams, call?: CallOptions): Promise<ImageResult> {
    const image = await fetchImageAsDataUri(params.url, {
      ...this.web(call),
      limits: { maxImageBytes: IMAGE_BYTES },
    });
    const { dataUri, ...size } = image;
    return {
      url: image.url,
      width: size.width,
      height: size.height,
      format: size.format,
      data_uri: dataUri,
    };
  }

  /** RFC 7208 check_host with this engine's DNS settings (services/mail.ts `checkSpf`). */
  checkSpf(
    params: CheckHostParams,
    call?: CallOptions & { receiver?: string; now?: number },
  ): Promise<CheckHostResult> {
    const { receiver, now } = call ?? {};
    return checkHost(params, {
      ...this.dns(call),
      ...(receiver !== undefined ? { receiver } : {}),
      ...(now !== undefined ? { now } : {}),
    });
  }
}
