// Bad input and failing upstreams through `hostlens serve` with the real engine behind it:
// every contract error code the engine (or the server in front of it) produces, end to end,
// as an RFC 9457 problem with the right status. server.test.ts covers the same codes with a
// test double; this file proves the engine really produces them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { ERROR_STATUS, type ErrorCode } from '../../../src/contract/errors';
import { EmbeddedServices, type EmbeddedOptions } from '../../../src/services/embedded';
import { loadFixtureZones, startDnsServer, type DnsFixture } from '../../support/dns-server';
import { startRdapServer, type RdapFixture } from '../../support/rdap-server';
import { startTestServer, type TestServer } from '../../support/serve';
import { startWebServer, type WebFixture } from '../../support/web-server';
import { startWhoisServer, type WhoisFixture } from '../../support/whois-server';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: Record<string, unknown>;
}

const agent = new Agent({ connections: 16 });

async function get(server: TestServer, path: string, auth: string | null = server.token) {
  const res = await request(`${server.url}${path}`, {
    headers: auth === null ? {} : { authorization: auth },
    dispatcher: agent,
  });
  const text = await res.body.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // left empty: assertProblem reports the text
  }
  return { status: res.statusCode, headers: res.headers, text, json, path } as Reply & {
    path: string;
  };
}

/** `upstreams`: servers the engine found by itself (a registry) whose names a detail may give. */
function assertProblem(
  reply: Reply & { path: string },
  code: ErrorCode,
  upstreams: string[] = [],
): void {
  const status = ERROR_STATUS[code];
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.headers['content-type'], 'application/problem+json');
  assert.deepEqual(Object.keys(reply.json).sort(), ['code', 'detail', 'status', 'title', 'type']);
  assert.equal(reply.json.code, code, reply.text);
  assert.equal(reply.json.status, status);
  assert.equal(reply.json.type, `https://hostlens.dev/problems/${code}`);
  assert.doesNotMatch(reply.text, /\bat .*\.[jt]s:\d+|node:internal|Error:/, 'a stack trace');
  // The only addresses a body may name are those the caller sent (or a public upstream's).
  const sent = [decodeURIComponent(reply.path), ...upstreams].join(' ');
  for (const ip of reply.text.match(/\b\d{1,3}(?:\.\d{1,3}){3}\b/g) ?? []) {
    assert.ok(sent.includes(ip), `the body names ${ip}, which the request did not`);
  }
}

const q = (params: Record<string, string | string[]>): string => {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    for (const item of Array.isArray(v) ? v : [v]) search.append(k, item);
  return `?${search.toString()}`;
};

describe('server errors with the real engine behind it', function () {
  let dns: DnsFixture;
  let web: WebFixture;
  let rdap: RdapFixture;
  let port43: WhoisFixture;
  let tmp: string;
  const servers: TestServer[] = [];
  const savedEnv: Record<string, string | undefined> = {};

  /** A server over a fresh engine; closed after the suite. */
  async function serve(
    engine: EmbeddedOptions = {},
    options: Parameters<typeof startTestServer>[1] = {},
  ): Promise<TestServer> {
    const server = await startTestServer(
      new EmbeddedServices({ dnsTimeoutMs: 1000, dnsTries: 1, blockPrivate: false, ...engine }),
      options,
    );
    servers.push(server);
    return server;
  }

  let open: TestServer;

  before(async function () {
    this.timeout(20_000);
    tmp = mkdtempSync(join(tmpdir(), 'hostlens-engine-errors-'));
    [dns, web, rdap, port43] = await Promise.all([
      startDnsServer({
        records: loadFixtureZones(),
        behaviour: ({ name, type }) => {
          const labels = name.toLowerCase().split('.');
          if (labels.includes('silent')) return 'timeout';
          if (labels.includes('broken')) return 'servfail';
          if (labels.includes('refusing')) return 'refused';
          if (name.toLowerCase() === 'mail.test' && type === 'MX') return 'servfail';
          return undefined;
        },
      }),
      startWebServer(),
      startRdapServer({
        '/domain/limited.cz': { status: 429, headers: { 'retry-after': '42' }, body: {} },
      }),
      startWhoisServer({}),
    ]);
    // Nothing leaves the machine: the bootstrap is a local file naming the loopback RDAP server.
    const bootstrap = join(tmp, 'dns.json');
    writeFileSync(bootstrap, JSON.stringify({ version: '1.0', services: [[['cz'], [rdap.base]]] }));
    const env = { HOSTLENS_RDAP_BOOTSTRAP: bootstrap, HOSTLENS_WHOIS_SERVER: port43.address };
    for (const [k, v] of Object.entries(env)) {
      savedEnv[k] = process.env[k];
      process.env[k] = v;
    }
    open = await serve();
  });

  after(async () => {
    for (const [k, v] of Object.entries(savedEnv)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await Promise.all(servers.map((s) => s.close()));
    await Promise.all([dns?.close(), web?.close(), rdap?.close(), port43?.close()]);
    await agent.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  describe('bad input: 400', () => {
    const cases: Array<[string, ErrorCode, () => string]> = [
      ['query: empty label', 'invalid_host', () => `/domain/query${q({ host: 'a..b.test' })}`],
      [
        'query: name over 253 octets',
        'invalid_host',
        () => `/domain/query${q({ host: `${'abcdefghi.'.repeat(26)}test` })}`,
      ],
      [
        'query: control character',
        'invalid_host',
        () => `/domain/query${q({ host: 'exa\u0001mple.test' })}`,
      ],
      ['query: host missing', 'invalid_host', () => '/domain/query'],
      ['whois: an IP address', 'invalid_host', () => `/domain/whois${q({ host: '192.0.2.1' })}`],
      [
        'domain_keys: bad host',
        'invalid_host',
        () => `/domain/domain_keys${q({ host: '-bad..name' })}`,
      ],
      [
        'query: unknown type',
        'invalid_type',
        () => `/domain/query${q({ host: 'example.test', types: ['MX', 'NOPE'] })}`,
      ],
      [
        'query: server out of range',
        'invalid_server',
        () => `/domain/query${q({ host: 'example.test', server: '256.0.0.1' })}`,
      ],
      [
        'query: IPv6 server without brackets and a port',
        'invalid_server',
        () => `/domain/query${q({ host: 'example.test', server: '2001:db8::1:53:x' })}`,
      ],
      [
        'domain_keys: bad server port',
        'invalid_server',
        () => `/domain/domain_keys${q({ host: 'mail.test', server: '127.0.0.1:0' })}`,
      ],
      [
        'sender_policy_ranges: bad server',
        'invalid_server',
        () => `/domain/sender_policy_ranges${q({ host: 'mail.test', server: '[::1' })}`,
      ],
      ['icons: ftp URL', 'invalid_url', () => `/meta/icons${q({ url: 'ftp://example.test/' })}`],
      [
        'redirects: javascript URL',
        'invalid_url',
        () => `/meta/redirects${q({ url: 'javascript:alert(1)' })}`,
      ],
      [
        'unfurl: URL over 8 KB',
        'invalid_url',
        () => `/meta/unfurl${q({ url: `http://example.test/${'a'.repeat(8300)}` })}`,
      ],
      ['unfurl: url missing', 'invalid_url', () => '/meta/unfurl'],
      [
        'domain_keys: a selector that is not one',
        'invalid_argument',
        () => `/domain/domain_keys${q({ host: 'mail.test', selectors: ['bad selector!'] })}`,
      ],
      [
        'query: unknown parameter',
        'invalid_argument',
        () => `/domain/query${q({ host: 'example.test', type: 'MX' })}`,
      ],
    ];
    for (const [label, code, path] of cases) {
      it(`${label}: ${code}`, async () => {
        assertProblem(await get(open, path()), code);
      });
    }

    it('asks the nameserver nothing for any of them', () => {
      assert.deepEqual(dns.queries, []);
    });
  });

  describe('not found: 404', () => {
    it('no SPF record at the host', async () => {
      const path = `/domain/sender_policy_ranges${q({ host: 'www.example.test', server: dns.address })}`;
      assertProblem(await get(open, path), 'not_found');
    });

    it('unregistered domain (RDAP 404) and a public suffix', async () => {
      assertProblem(await get(open, `/domain/whois${q({ host: 'nobody.cz' })}`), 'not_found');
      assertProblem(await get(open, `/domain/whois${q({ host: 'co.uk' })}`), 'not_found');
    });

    it('unregistered domain over port 43', async () => {
      port43.queries.length = 0;
      assertProblem(await get(open, `/domain/whois${q({ host: 'nobody.net' })}`), 'not_found');
      assert.ok(port43.queries.length > 0, 'the loopback port-43 server was asked');
    });

    it('a page that answers 404', async () => {
      assertProblem(
        await get(open, `/meta/unfurl${q({ url: web.url('/status/404') })}`),
        'not_found',
      );
    });

    it('an unknown endpoint', async () => {
      assertProblem(await get(open, '/domain/nothing'), 'not_found');
    });
  });

  describe('upstream failures', () => {
    it('upstream_timeout: the nameserver never answers any type', async () => {
      const started = Date.now();
      for (const path of [
        `/domain/query${q({ host: 'silent.example.test', types: ['A', 'MX'], server: dns.address })}`,
        `/domain/domain_keys${q({ host: 'silent.example.test', selectors: ['s1'], server: dns.address })}`,
        `/domain/sender_policy_ranges${q({ host: 'silent.example.test', server: dns.address })}`,
      ]) {
        assertProblem(await get(open, path), 'upstream_timeout');
      }
      assert.ok(Date.now() - started < 8000, 'bounded by dnsTimeoutMs');
    });

    it('upstream_timeout: the server deadline cuts a slow look-up', async () => {
      const slow = await serve({ dnsTimeoutMs: 5000 }, { requestTimeoutMs: 200 });
      const path = `/domain/query${q({ host: 'silent.example.test', types: ['A'], server: dns.address })}`;
      const started = Date.now();
      assertProblem(await get(slow, path), 'upstream_timeout');
      assert.ok(Date.now() - started < 3000);
    });

    it('upstream_error: SERVFAIL or REFUSED for every type', async () => {
      for (const host of ['broken.example.test', 'refusing.example.test']) {
        const path = `/domain/query${q({ host, types: ['A', 'TXT'], server: dns.address })}`;
        assertProblem(await get(open, path), 'upstream_error');
      }
    });

    it('one failed type among answers is a 200 with errors[], not a problem', async () => {
      const path = `/domain/query${q({ host: 'mail.test', types: ['A', 'MX'], server: dns.address })}`;
      const reply = await get(open, path);
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.json.errors, [{ type: 'MX', code: 'servfail' }]);
    });

    it('upstream_error: a body that does not decompress', async () => {
      assertProblem(
        await get(open, `/meta/unfurl${q({ url: web.url('/corrupt-gzip') })}`),
        'upstream_error',
      );
    });

    it('response_too_large: a 50 MB page', async () => {
      for (const path of ['/huge/head', '/huge/declared']) {
        assertProblem(
          await get(open, `/meta/unfurl${q({ url: web.url(path) })}`),
          'response_too_large',
        );
      }
    });
  });

  describe('guard, limits and auth', () => {
    it('blocked_target: the default guard refuses loopback pages', async () => {
      const guarded = await serve({ blockPrivate: true });
      const before = web.requests.length;
      for (const op of ['unfurl', 'icons', 'redirects']) {
        assertProblem(
          await get(guarded, `/meta/${op}${q({ url: web.url('/final') })}`),
          'blocked_target',
        );
      }
      assert.equal(web.requests.length, before, 'nothing reached the loopback site');
    });

    it('rate_limited: the per-token limit answers 429 with Retry-After', async () => {
      const tight = await serve({}, { rateLimit: { perMinute: 1, burst: 1 } });
      const path = `/domain/query${q({ host: 'example.test', types: ['A'], server: dns.address })}`;
      assert.equal((await get(tight, path)).status, 200);
      const reply = await get(tight, path);
      assertProblem(reply, 'rate_limited');
      assert.ok(Number(reply.headers['retry-after']) >= 1);
    });

    it('rate_limited: a registry that rate-limits passes through with its Retry-After', async () => {
      const reply = await get(open, `/domain/whois${q({ host: 'limited.cz' })}`);
      // The registry is named (a public service in real life; the loopback fixture here).
      assertProblem(reply, 'rate_limited', [rdap.base]);
      assert.equal(reply.headers['retry-after'], '42');
    });

    const auths: Array<[string, string | null]> = [
      ['no header', null],
      ['a wrong token', 'wrong-token-0123456789abcdef-xyz'],
      ['a wrong-length token', 'short'],
      ['the Bearer form of a wrong token', 'Bearer wrong-token-0123456789abcdef'],
    ];
    for (const [label, auth] of auths) {
      it(`unauthorized: ${label}, and the engine asks nothing`, async () => {
        const asked = dns.queries.length;
        const path = `/domain/query${q({ host: 'example.test', server: dns.address })}`;
        assertProblem(await get(open, path, auth), 'unauthorized');
        assert.equal(dns.queries.length, asked);
      });
    }

    it('the Bearer form of the right token is served', async () => {
      const path = `/domain/query${q({ host: 'example.test', types: ['A'], server: dns.address })}`;
      assert.equal((await get(open, path, `Bearer ${open.token}`)).status, 200);
    });
  });
});
