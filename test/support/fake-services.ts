// A test double of Services: fixed, contract-shaped answers, a log of every call, and a hook
// to make any method throw or wait. It stands in for the engine in server and client tests;
// it is never used outside test/.
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
} from '../../src/contract/shapes';
import type { CallOptions, Services } from '../../src/contract/services';

export const FIXED = {
  query: {
    records: [
      { type: 'A', value: '192.0.2.10', ttl: 300 },
      { type: 'MX', value: 'mail.example.test.', priority: 10, ttl: 300 },
      { type: 'TXT', value: 'v=spf1 -all', parts: ['v=spf1 -all'], ttl: 60 },
    ],
    status: 'NOERROR',
  } satisfies QueryResult,
  domainKeys: {
    domain_keys: [
      {
        selector: 'sel1',
        domain: 'sel1._domainkey.example.test.',
        version: 'DKIM1',
        key_type: 'rsa',
        public_key: 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA',
        service_type: ['all'],
      },
    ],
  } satisfies DomainKeysResult,
  senderPolicyRanges: {
    query_count: 2,
    policy: 'v=spf1 ip4:192.0.2.0/24 include:_spf.example.test -all',
    ips: [{ version: 4, cidr_block: '192.0.2.0/24' }],
    includes: [
      {
        domain: '_spf.example.test',
        policy: 'v=spf1 ip6:2001:db8::/32 -all',
        ips: [{ version: 6, cidr_block: '2001:db8::/32' }],
        includes: [],
        via: 'include',
      },
    ],
    lookup_count: 1,
    problems: [],
  } satisfies SpfRoot,
  whois: {
    domain: {
      domain: 'example.test',
      punycode: 'example.test',
      name: 'example',
      extension: 'test',
      status: ['clienttransferprohibited'],
      name_servers: ['ns1.example.test'],
      dnssec: false,
      created_date: '2020-01-02T03:04:05Z',
      created_date_in_time: '2020-01-02T03:04:05Z',
    },
    registrar: { id: '9999', name: 'Example Registrar «ÆØÅ» 例', referral_url: 'https://r.test' },
    source: 'rdap',
  } satisfies WhoisResult,
  tls: {
    host: 'example.test',
    port: 443,
    protocol: 'TLSv1.3',
    cipher: 'TLS_AES_256_GCM_SHA384',
    alpn: 'h2',
    trusted: true,
    chain: [
      {
        subject: 'CN=example.test',
        issuer: 'CN=Example Test CA, O=Example Test',
        serial: '0a1b2c',
        not_before: '2026-01-01T00:00:00.000Z',
        not_after: '2027-01-01T00:00:00.000Z',
        days_left: 30,
        dns_names: ['example.test'],
        ip_addresses: [],
        key_type: 'EC',
        key_bits: 256,
        signature_algorithm: 'ecdsa-with-SHA256',
        sha256: '00'.repeat(32),
      },
    ],
    problems: [],
  } satisfies TlsResult,
  mtaSts: {
    host: 'example.test',
    record: 'v=STSv1; id=20260101',
    id: '20260101',
    policy_url: 'https://mta-sts.example.test/.well-known/mta-sts.txt',
    policy: { version: 'STSv1', mode: 'enforce', max_age: 604800, mx: ['*.example.test'] },
    mx: [{ host: 'mail.example.test', preference: 10, pattern: '*.example.test' }],
    problems: [],
  } satisfies MtaStsResult,
  icons: {
    canonical_url: '',
    icon_url: 'https://site.test/apple-touch-icon.png',
    icons: [
      {
        rel: 'apple-touch-icon',
        url: 'https://site.test/apple-touch-icon.png',
        width: 180,
        height: 180,
      },
      { rel: 'icon', url: 'https://site.test/favicon.ico', width: 32, height: 32, format: 'ico' },
    ],
  } satisfies IconsResult,
  redirects: {
    locations: [{ status_code: 301, location: 'https://site.test/' }],
    final_url: 'https://site.test/',
    final_status_code: 200,
  } satisfies RedirectsResult,
  unfurl: {
    application_name: '',
    canonical_url: 'https://site.test/',
    page_description: 'A page with "quotes", \\ backslashes, \u2028 and emoji 🎉',
    icon_url: '',
    page_keywords: 'a,b',
    resolved_url: 'https://site.test/',
    page_title: 'Site',
    open_graph: {
      'og:title': 'Site',
      'og:image': [{ url: 'https://site.test/i.png', width: '1' }],
    },
  } satisfies UnfurlResult,
  image: {
    url: 'https://images.example/a.png',
    width: 2,
    height: 3,
    format: 'png',
    // a 2x3 PNG's signature and IHDR are enough for any size check
    data_uri:
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAADklEQVR4nGNgQAYMDAwAABMAAaGjEwQAAAAASUVORK5CYII=',
  } satisfies ImageResult,
  link: {
    status: 200,
    method: 'HEAD',
    locations: [],
    final_url: 'https://site.test/',
  } satisfies LinkResult,
};

export type MethodName = keyof typeof FIXED;

export interface Call {
  method: MethodName;
  params: Record<string, unknown>;
  signal: AbortSignal | undefined;
}

type Behaviour = (params: Record<string, unknown>, options: CallOptions) => Promise<unknown>;

export class FakeServices implements Services {
  readonly calls: Call[] = [];
  /** Replaces a method's answer: throw a LookupError, wait, or return something else. */
  readonly behaviour: Partial<Record<MethodName, Behaviour>> = {};

  private run<T>(method: MethodName, params: object, options: CallOptions = {}): Promise<T> {
    const p = params as Record<string, unknown>;
    this.calls.push({ method, params: p, signal: options.signal });
    const override = this.behaviour[method];
    if (override) return override(p, options) as Promise<T>;
    return Promise.resolve(structuredClone(FIXED[method]) as T);
  }

  readonly domain: Services['domain'] = {
    query: (p, o) => this.run('query', p, o),
    domainKeys: (p, o) => this.run('domainKeys', p, o),
    senderPolicyRanges: (p, o) => this.run('senderPolicyRanges', p, o),
    whois: (p, o) => this.run('whois', p, o),
    tls: (p, o) => this.run('tls', p, o),
    mtaSts: (p, o) => this.run('mtaSts', p, o),
  };

  readonly meta: Services['meta'] = {
    icons: (p, o) => this.run('icons', p, o),
    redirects: (p, o) => this.run('redirects', p, o),
    unfurl: (p, o) => this.run('unfurl', p, o),
    image: (p, o) => this.run('image', p, o),
    link: (p, o) => this.run('link', p, o),
  };
}

/** Resolves when the signal fires, rejecting like an engine that honours cancellation. */
export function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    if (!signal) return;
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}
