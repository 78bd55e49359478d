// The default backend: the engine in this process. Needs no account and no network beyond the
// look-ups themselves.
import { domainKeys } from '../engine/mail/dkim';
import { fanOutSignal } from '../engine/dns/lookup';
import { query } from '../engine/dns/query';
import { queryWithDnssec, wantsDnssec } from '../engine/dns/dnssec/index';
import { warmUpDns } from '../engine/dns/warm';
import { warmUpMail } from '../engine/mail/warm';
import { senderPolicyRanges } from '../engine/mail/spf';
import { checkHost, type CheckHostParams, type CheckHostResult } from '../engine/mail/spf-check';
import { icons } from '../engine/web/icons';
import { fetchImageAsDataUri, IMAGE_BYTES } from '../engine/web/image';
import { redirects } from '../engine/web/redirects';
import { link } from '../engine/web/link';
import { createWebPool, DEFAULT_WEB_LIMITS, type LookupFunction } from '../engine/web/fetcher';
import type { WebPool } from '../engine/web/pool';
import { unfurl } from '../engine/web/unfurl';
import { whois } from '../engine/whois/index';
import { inspectTls, warmUpTls } from '../engine/tls/index';
import { inspectMtaSts } from '../engine/tls/mta-sts';
import { fetchTrust } from '../engine/tls/trust';
import type {
  CallOptions,
  DomainService,
  MetaService,
  MtaStsParams,
  Services,
} from '../contract/services';
import type { QueryResult } from '../contract/shapes';
import type { WebOptions } from '../engine/web/fetcher';

/** For `hostlens serve --allow-cidr`: a range as the guard reads it. */
export { canonicalRange } from '../engine/guard';

export interface EmbeddedOptions {
  /** DNS: per-try timeout and tries (engine defaults when absent). */
  dnsTimeoutMs?: number;
  dnsTries?: number;
  /**
   * Refuse private and special addresses (on in `hostlens serve`, off in the editor): for web
   * fetches, RDAP redirects, and a DNS `server` parameter.
   */
  blockPrivate?: boolean;
  /** With blockPrivate: ranges the operator does want reachable (CIDR strings). */
  allowCidrs?: string[];
  /**
   * The once-per-process warm-up: `dns` (default) for the record look-ups; `all` adds the
   * DKIM and SPF code, for a server that answers its first request as fast as its later ones.
   */
  warmUp?: 'dns' | 'all';
  /** TLS look-ups: CAs trusted besides the platform's and NODE_EXTRA_CA_CERTS (PEM text). */
  extraCa?: readonly string[];
}

export class EmbeddedServices implements DomainService, MetaService, Services {
  readonly domain: DomainService = this;
  readonly meta: MetaService = this;

  /** Settles when the once-per-process warm-up is over; a server listens only after it. */
  readonly ready: Promise<void>;

  constructor(private readonly options: EmbeddedOptions = {}) {
    // The engine's once-per-process work, done now rather than in the first request.
    this.ready =
      options.warmUp === 'all'
        ? warmUpDns()
            .then(warmUpMail)
            .then(() => warmUpTls(options.extraCa))
        : warmUpDns();
  }

  // One signal per look-up (fanOutSignal): the caller's signal carries no listener however
  // many questions the look-up has in flight, and each question's listener goes with it.
  private dns(call: CallOptions | undefined) {
    return {
      signal: fanOutSignal(call?.signal),
      timeoutMs: this.options.dnsTimeoutMs,
      tries: this.options.dnsTries,
      blockPrivate: this.options.blockPrivate === true,
      allowCidrs: this.options.allowCidrs,
    };
  }

  /** The per-try timeout and tries of the DNS questions, when set. */
  private dnsTuning(): { timeoutMs?: number; tries?: number } {
    return {
      ...(this.options.dnsTimeoutMs !== undefined ? { timeoutMs: this.options.dnsTimeoutMs } : {}),
      ...(this.options.dnsTries !== undefined ? { tries: this.options.dnsTries } : {}),
    };
  }

  /** A TLS look-up's options: the call's signal, the address guard, extra CAs, DNS tuning. */
  private tlsConnection(call: CallOptions | undefined) {
    return {
      signal: call?.signal,
      blockPrivate: this.options.blockPrivate === true,
      ...(this.options.allowCidrs !== undefined ? { allowCidrs: this.options.allowCidrs } : {}),
      ...(this.options.extraCa !== undefined ? { extraCa: this.options.extraCa } : {}),
      dns: this.dnsTuning(),
    };
  }

  // Pages are fetched under the TLS look-ups' extra CAs too: a site under a user's private CA
  // previews where its certificate shows trusted.
  // A call's own deadline, when shorter than the engine's, bounds the whole operation.
  private web(call: CallOptions | undefined): WebOptions {
    const extraCa = this.options.extraCa;
    const timeoutMs = call?.timeoutMs;
    return {
      signal: call?.signal,
      blockPrivate: this.options.blockPrivate === true,
      allowCidrs: this.options.allowCidrs,
      ...(extraCa !== undefined && extraCa.length > 0
        ? { secureContext: fetchTrust(extraCa) }
        : {}),
      ...(timeoutMs !== undefined && timeoutMs < DEFAULT_WEB_LIMITS.totalTimeoutMs
        ? { limits: { totalTimeoutMs: timeoutMs } }
        : {}),
    };
  }

  readonly query: DomainService['query'] = async (params, c) => {
    const { dnssec, ...plain } = params;
    return wantsDnssec(dnssec) ? queryWithDnssec(plain, this.dns(c)) : query(plain, this.dns(c));
  };
  readonly domainKeys: DomainService['domainKeys'] = (p, c) => domainKeys(p, this.dns(c));
  readonly senderPolicyRanges: DomainService['senderPolicyRanges'] = (p, c) =>
    senderPolicyRanges(p, this.dns(c));
  readonly whois: DomainService['whois'] = (p, c) =>
    whois(p, {
      signal: fanOutSignal(c?.signal),
      blockPrivate: this.options.blockPrivate === true,
      allowCidrs: this.options.allowCidrs,
    });
  readonly tls: DomainService['tls'] = (p, c) => inspectTls(p, this.tlsConnection(c));
  readonly mtaSts: DomainService['mtaSts'] = (p, c) => inspectMtaSts(p, this.tlsConnection(c));
  /** mtaSts with the domain's MX answer already asked (the mail set-up's), not asked again */
  readonly mtaStsWithMx = (p: MtaStsParams, mx: Promise<QueryResult>, c?: CallOptions) =>
    inspectMtaSts(p, { ...this.tlsConnection(c), mxAnswer: mx });
  readonly icons: MetaService['icons'] = (p, c) => icons(p, this.web(c));
  readonly redirects: MetaService['redirects'] = (p, c) => redirects(p, this.web(c));
  readonly unfurl: MetaService['unfurl'] = (p, c) => unfurl(p, this.web(c));
  readonly image: MetaService['image'] = async (p, c) => {
    const web = this.web(c);
    const { url, width, height, format, dataUri } = await fetchImageAsDataUri(p.url, {
      ...web,
      limits: { ...web.limits, maxImageBytes: IMAGE_BYTES },
    });
    return { url, width, height, format, data_uri: dataUri };
  };

  /**
   * With `server`, the link's hosts (redirect targets too) resolve through that nameserver. A
   * check makes thousands of these calls: they share a connection pool per nameserver (kept
   * alive between links to one host), where other operations build one each.
   */
  readonly link: MetaService['link'] = (p, c) => {
    const fragments = typeof p.fragments === 'string' ? [p.fragments] : p.fragments;
    const params = fragments ? { url: p.url, fragments } : { url: p.url };
    const web: WebOptions = this.web(c);
    web.agent = this.linkAgent(p.server ?? '', web);
    return link(params, web);
  };

  private readonly linkAgents = new Map<string, WebPool>();

  /** Closes the link check's connection pools (the command line, when a check is over). */
  async close(): Promise<void> {
    const pools = [...this.linkAgents.values()];
    this.linkAgents.clear();
    await Promise.all(pools.map((pool) => pool.close().catch(() => undefined)));
  }

  /** The pool of links resolved through `server` (the system's resolver when ''). */
  private linkAgent(server: string, web: WebOptions): WebPool {
    let agent = this.linkAgents.get(server);
    if (!agent) {
      // A few nameservers at most in practice; the oldest pool goes when a ninth is named.
      if (this.linkAgents.size >= 8) {
        const [oldest, pool] = this.linkAgents.entries().next().value!;
        this.linkAgents.delete(oldest);
        void pool.close().catch(() => undefined);
      }
      const lookup = server === '' ? {} : { lookup: this.resolveThrough(server) };
      agent = createWebPool({ ...web, ...lookup, signal: undefined });
      this.linkAgents.set(server, agent);
    }
    return agent;
  }

  private resolveThrough(server: string): LookupFunction {
    return async (hostname) => {
      // The pool outlives one call, so its look-ups carry no call's signal.
      const answer = await query(
        { host: hostname, types: ['A', 'AAAA'], server },
        this.dns(undefined),
      );
      const addresses = answer.records
        .filter((r) => (r.type === 'A' || r.type === 'AAAA') && r.value !== undefined)
        .map((r) => ({ address: r.value!, family: r.type === 'A' ? 4 : 6 }));
      // The connector reads ENOTFOUND as "does not resolve", as from the system resolver.
      if (addresses.length === 0)
        throw Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' });
      return addresses;
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
