// One table of cases for every operation, each asked three ways: the engine in this process,
// the HTTP client through `hostlens serve` to the engine, and the command line as a child
// process. A success must be the same JSON byte for byte all three ways (and on the wire); a
// failure must carry the same contract code, HTTP status and exit status.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { ERROR_STATUS, LookupError, type ErrorCode } from '../../../src/contract/errors';
import type {
  DomainKeysResult,
  IconsResult,
  QueryResult,
  RedirectsResult,
  SpfRoot,
  UnfurlResult,
  ImageResult,
  TlsResult,
  MtaStsResult,
  LinkResult,
  WhoisResult,
} from '../../../src/contract/shapes';
import { EmbeddedServices } from '../../../src/services/embedded';
import { queryString } from '../../../src/services/http';
import { findOperation, OPERATIONS, type Operation } from '../../../src/contract/operations';
import { buildCli } from '../../support/cli-build';
import { loadFixtureZones, startDnsServer, type DnsFixture } from '../../support/dns-server';
import { startRdapServer, type RdapFixture } from '../../support/rdap-server';
import { OpenApiChecker } from '../../support/openapi';
import { startTestServer, type TestServer } from '../../support/serve';
import { startWebServer, type WebFixture } from '../../support/web-server';
import { startWhoisServer, type WhoisFixture } from '../../support/whois-server';
import { makeTestPki, type TestPki } from '../../support/tls-pki';
import { serveTls, type Listening } from '../../support/tls-server';

type Params = Record<string, string | string[]>;

interface Fixtures {
  dns4: DnsFixture;
  dns6: DnsFixture;
  web: WebFixture;
  /** a TLS server for 127.0.0.1 under the test PKI (trusted through NODE_EXTRA_CA_CERTS) */
  tls: Listening;
}

interface Case {
  name: string;
  op: string;
  params: (fx: Fixtures) => Params;
  /** a success, checked for substance so three equal empty answers cannot pass */
  check?: (json: AnyResult, fx: Fixtures) => void;
  /** a failure with this contract code */
  code?: ErrorCode;
}

/** Every result shape at once (their fields do not clash), so each check reads its own typed. */
type AnyResult = QueryResult &
  DomainKeysResult &
  SpfRoot &
  WhoisResult &
  IconsResult &
  RedirectsResult &
  UnfurlResult &
  ImageResult &
  TlsResult &
  Omit<MtaStsResult, 'host'>;

const values = (json: QueryResult, type?: string): Array<string | undefined> =>
  json.records.filter((r) => type === undefined || r.type === type).map((r) => r.value);

const RDAP_CZ = {
  objectClassName: 'domain',
  ldhName: 'example.cz',
  handle: 'D0001-CZ',
  port43: 'whois.nic.cz',
  status: ['active', 'client transfer prohibited'],
  nameservers: [{ ldhName: 'NS1.EXAMPLE.CZ' }, { ldhName: 'ns2.example.cz.' }],
  secureDNS: { delegationSigned: true },
  events: [
    { eventAction: 'registration', eventDate: '2001-02-03T04:05:06Z' },
    { eventAction: 'expiration', eventDate: '2030-02-03T04:05:06.000+01:00' },
  ],
  entities: [
    {
      roles: ['registrar'],
      publicIds: [{ type: 'IANA Registrar ID', identifier: '9999' }],
      vcardArray: ['vcard', [['fn', {}, 'text', 'Loopback Registrar s.r.o.']]],
    },
  ],
};

const RDAP_IDN_CZ = {
  objectClassName: 'domain',
  ldhName: 'xn--bcher-kva.cz',
  unicodeName: 'bücher.cz',
  handle: 'D0002-CZ',
};

const REGISTRY_COM = [
  'Domain Name: THREEWAY.COM',
  'Registry Domain ID: 123456_DOMAIN_COM-VRSN',
  'Registrar WHOIS Server: whois.registrar.test',
  'Updated Date: 2023-08-14T07:01:38Z',
  'Creation Date: 1995-08-14T04:00:00Z',
  'Registry Expiry Date: 2026-08-13T04:00:00Z',
  'Registrar: Loopback Registrar, Inc.',
  'Registrar IANA ID: 376',
  'Domain Status: clientTransferProhibited https://icann.org/epp#clientTransferProhibited',
  'Name Server: A.NS.THREEWAY.COM',
  'Name Server: B.NS.THREEWAY.COM',
  'DNSSEC: unsigned',
  '',
].join('\r\n');

const REGISTRAR_COM = [
  'Domain Name: threeway.com',
  'Registrar URL: http://registrar.test',
  'Registrar: Loopback Registrar, Inc.',
  'Registrant Organization: Three Way Ltd',
  '',
].join('\r\n');

const CASES: Case[] = [
  {
    name: 'query: A and MX at 127.0.0.1:port',
    op: 'query',
    params: (fx) => ({ host: 'example.test', types: ['A', 'MX'], server: fx.dns4.address }),
    check: (j) => {
      assert.deepEqual(values(j, 'A'), ['192.0.2.10', '192.0.2.11']);
      assert.deepEqual(values(j, 'MX'), ['mail.example.test.', 'mail2.example.test.']);
    },
  },
  {
    name: 'query: every type (types omitted)',
    op: 'query',
    params: (fx) => ({ host: 'example.test', server: fx.dns4.address }),
    check: (j) => {
      for (const t of ['A', 'AAAA', 'CAA', 'MX', 'NS', 'TXT', 'SOA'])
        assert.ok(values(j, t).length > 0, `no ${t} records`);
    },
  },
  {
    name: 'query: lower-case types at [::1]:port, long TXT over TCP',
    op: 'query',
    params: (fx) => ({
      host: 'long.example.test',
      types: ['txt', 'aaaa'],
      server: fx.dns6.address,
    }),
    check: (j) => assert.ok((values(j, 'TXT')[0] ?? '').length > 512),
  },
  {
    name: 'query: nameserver given by host name (localhost:port), CNAME chain, IDN host',
    op: 'query',
    params: (fx) => ({
      host: 'www.example.test',
      types: ['CNAME', 'A'],
      server: `localhost:${fx.dns4.port}`,
    }),
    check: (j) => assert.deepEqual(values(j, 'CNAME'), ['web.example.test.']),
  },
  {
    name: 'query: IDN host, SRV and CAA',
    op: 'query',
    params: (fx) => ({
      host: 'bücher.example.test',
      types: ['AAAA', 'SRV', 'CAA'],
      server: fx.dns4.address,
    }),
    check: (j) => assert.deepEqual(values(j, 'AAAA'), ['2001:db8::80']),
  },
  {
    name: 'query: no such name (NXDOMAIN, records [])',
    op: 'query',
    params: (fx) => ({ host: 'nothing.example.test', types: ['A'], server: fx.dns4.address }),
    check: (j) => assert.deepEqual(j, { records: [], status: 'NXDOMAIN' }),
  },
  {
    name: 'domain_keys: named selectors, one behind a CNAME, one absent',
    op: 'domain_keys',
    params: (fx) => ({
      host: 'mail.test',
      selectors: ['selector1', 'k1', 'absent'],
      server: fx.dns4.address,
    }),
    check: (j) =>
      assert.deepEqual(
        j.domain_keys.map((k) => k.selector),
        ['selector1', 'k1'],
      ),
  },
  {
    name: 'domain_keys: the default selector list',
    op: 'domain_keys',
    params: (fx) => ({ host: 'mail.test', server: fx.dns4.address }),
    check: (j) => assert.ok(j.domain_keys.length >= 3, JSON.stringify(j)),
  },
  {
    name: 'sender_policy_ranges: a tree three includes deep',
    op: 'sender_policy_ranges',
    params: (fx) => ({ host: 'mail.test', server: fx.dns4.address }),
    check: (j) => {
      assert.ok(j.query_count > 3);
      assert.equal(j.includes[0].includes[0].domain, '_spf2.mail.test');
    },
  },
  {
    name: 'whois: RDAP, at the registrable domain',
    op: 'whois',
    params: () => ({ host: 'www.example.cz' }),
    check: (j) => {
      assert.equal(j.source, 'rdap');
      assert.equal(j.registrar.name, 'Loopback Registrar s.r.o.');
    },
  },
  {
    name: 'whois: RDAP for an IDN',
    op: 'whois',
    params: () => ({ host: 'bücher.cz' }),
    check: (j) => assert.equal(j.domain.punycode, 'xn--bcher-kva.cz'),
  },
  {
    name: 'whois: port 43, registry then registrar',
    op: 'whois',
    params: () => ({ host: 'threeway.com' }),
    check: (j) => {
      assert.equal(j.source, 'whois');
      assert.equal(j.domain.whois_server, 'whois.registrar.test');
      assert.ok(j.raw?.includes('Three Way Ltd'));
    },
  },
  {
    name: 'icons: every relation, measured',
    op: 'icons',
    params: (fx) => ({ url: fx.web.url('/icons/all') }),
    check: (j, fx) => {
      assert.ok(j.icons.length >= 8);
      assert.equal(j.canonical_url, fx.web.url('/icons/canonical'));
    },
  },
  {
    name: 'image: fetched, measured, handed over as a data: URI',
    op: 'image',
    params: (fx) => ({ url: fx.web.url('/img/touch.png') }),
    check: (j, fx) => {
      assert.equal(j.url, fx.web.url('/img/touch.png'));
      assert.deepEqual([j.width, j.height, j.format], [180, 180, 'png']);
      assert.match(j.data_uri, /^data:image\/png;base64,/);
    },
  },
  {
    name: 'redirects: three hops',
    op: 'redirects',
    params: (fx) => ({ url: fx.web.url('/chain/3') }),
    check: (j, fx) => {
      assert.deepEqual(
        j.locations.map((l) => l.location),
        [fx.web.url('/chain/2'), fx.web.url('/chain/1'), fx.web.url('/chain/0')],
      );
    },
  },
  {
    name: 'redirects: none',
    op: 'redirects',
    params: (fx) => ({ url: fx.web.url('/final') }),
    check: (j) => assert.deepEqual(j.locations, []),
  },
  {
    name: 'redirects: a loop stops with an error field',
    op: 'redirects',
    params: (fx) => ({ url: fx.web.url('/loop/a') }),
    check: (j) => assert.deepEqual(j.error, { code: 'redirect_loop' }),
  },
  {
    name: 'link: three hops, HEAD',
    op: 'link',
    params: (fx) => ({ url: fx.web.url('/chain/3') }),
    check: (j, fx) => {
      const link = j as unknown as LinkResult;
      assert.deepEqual([link.status, link.method], [200, 'HEAD']);
      assert.equal(link.locations.length, 3);
      assert.equal(link.final_url, fx.web.url('/chain/0'));
    },
  },
  {
    name: 'link: a fragment the page lacks',
    op: 'link',
    params: (fx) => ({ url: fx.web.url('/og'), fragments: ['nowhere-on-the-page'] }),
    check: (j) => {
      const link = j as unknown as LinkResult;
      assert.deepEqual([link.status, link.method], [200, 'GET']);
      assert.deepEqual(link.missing_fragments, ['nowhere-on-the-page']);
    },
  },
  {
    name: 'unfurl: Open Graph page, with a language',
    op: 'unfurl',
    params: (fx) => ({ url: fx.web.url('/og'), language: 'de-CH, en;q=0.5' }),
    check: (j) => {
      assert.equal(j.page_title, 'The Title');
      assert.equal(j.open_graph['og:image']?.length, 2);
    },
  },
  {
    name: 'unfurl: after redirects',
    op: 'unfurl',
    params: (fx) => ({ url: fx.web.url('/redirect/308') }),
    check: (j, fx) => assert.equal(j.resolved_url, fx.web.url('/final')),
  },
  // Failures.
  {
    name: 'query: empty label',
    op: 'query',
    params: (fx) => ({ host: 'a..example.test', server: fx.dns4.address }),
    code: 'invalid_host',
  },
  {
    name: 'query: label over 63 octets',
    op: 'query',
    params: (fx) => ({ host: `${'x'.repeat(64)}.test`, server: fx.dns4.address }),
    code: 'invalid_host',
  },
  {
    name: 'query: unknown type',
    op: 'query',
    params: (fx) => ({ host: 'example.test', types: ['A', 'BOGUS'], server: fx.dns4.address }),
    code: 'invalid_type',
  },
  {
    name: 'query: server that is not an address',
    op: 'query',
    params: () => ({ host: 'example.test', server: '300.1.1.1' }),
    code: 'invalid_server',
  },
  {
    name: 'domain_keys: server with a bad port',
    op: 'domain_keys',
    params: () => ({ host: 'mail.test', server: '127.0.0.1:99999' }),
    code: 'invalid_server',
  },
  {
    name: 'sender_policy_ranges: no SPF record',
    op: 'sender_policy_ranges',
    params: (fx) => ({ host: 'www.example.test', server: fx.dns4.address }),
    code: 'not_found',
  },
  {
    name: 'tls: a trusted chain, asked by address',
    op: 'tls',
    params: (fx) => ({ host: '127.0.0.1', port: String(fx.tls.port) }),
    check: (j) => {
      assert.equal(j.trusted, true, JSON.stringify(j.problems));
      assert.deepEqual(j.chain[0].ip_addresses, ['127.0.0.1']);
      assert.equal(j.chain.length, 2);
    },
  },
  {
    name: 'tls: a port out of range',
    op: 'tls',
    params: () => ({ host: '127.0.0.1', port: '70000' }),
    code: 'invalid_argument',
  },
  {
    name: 'mta_sts: a domain without an _mta-sts record, so no policy fetched',
    op: 'mta_sts',
    params: (fx) => ({ host: 'example.test', server: fx.dns4.address }),
    check: (j) => {
      assert.equal(j.record, null);
      assert.equal(j.policy, null);
      assert.equal(j.policy_url, 'https://mta-sts.example.test/.well-known/mta-sts.txt');
    },
  },
  {
    name: 'mta_sts: a host that is not a name',
    op: 'mta_sts',
    params: () => ({ host: 'a b' }),
    code: 'invalid_host',
  },
  {
    name: 'whois: unregistered (RDAP 404)',
    op: 'whois',
    params: () => ({ host: 'unregistered.cz' }),
    code: 'not_found',
  },
  {
    name: 'whois: unregistered (port 43 "No match")',
    op: 'whois',
    params: () => ({ host: 'unregistered.com' }),
    code: 'not_found',
  },
  {
    name: 'whois: an IP address',
    op: 'whois',
    params: () => ({ host: '192.0.2.1' }),
    code: 'invalid_host',
  },
  {
    name: 'icons: ftp URL',
    op: 'icons',
    params: () => ({ url: 'ftp://example.test/' }),
    code: 'invalid_url',
  },
  {
    name: 'image: a page that is not an image',
    op: 'image',
    params: (fx) => ({ url: fx.web.url('/img/not-an-image') }),
    code: 'upstream_error',
  },
  {
    name: 'redirects: no URL at all',
    op: 'redirects',
    params: () => ({ url: '' }),
    code: 'invalid_url',
  },
  {
    name: 'link: no URL at all',
    op: 'link',
    params: () => ({ url: '' }),
    code: 'invalid_url',
  },
  {
    name: 'unfurl: URL with a space in the host',
    op: 'unfurl',
    params: () => ({ url: 'http://exa mple.test/' }),
    code: 'invalid_url',
  },
  {
    name: 'unfurl: no page (404)',
    op: 'unfurl',
    params: (fx) => ({ url: fx.web.url('/status/404') }),
    code: 'not_found',
  },
];

type Outcome =
  | { ok: true; json: string }
  | { ok: false; code: string; status: number; exit?: number; body?: string };

function fromError(err: unknown): Outcome {
  if (!(err instanceof LookupError)) throw err;
  return { ok: false, code: err.code, status: err.status };
}

function method(services: EmbeddedServices, op: Operation) {
  const target = services[op.service] as unknown as Record<string, (p: Params) => Promise<unknown>>;
  return (p: Params) => target[op.method].call(target, p);
}

function cliArgs(op: Operation, params: Params): string[] {
  const args = [op.name];
  for (const [name, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : [value]) args.push(`--${name}`, v);
  }
  return args;
}

describe('three ways: engine, HTTP client through the server, command line', function () {
  let fx: Fixtures;
  let rdap: RdapFixture;
  let pki: TestPki;
  let port43: WhoisFixture;
  let server: TestServer;
  let tmp: string;
  let cli: string;
  const engine = new EmbeddedServices({ dnsTimeoutMs: 2000, dnsTries: 1 });
  const savedEnv: Record<string, string | undefined> = {};
  const whoisEnv: Record<string, string> = {};
  const cliRuns = new Map<string, Promise<Outcome>>();
  const CLI_CONCURRENCY = 3;
  const openApi = new OpenApiChecker();

  before(async function () {
    this.timeout(60_000);
    tmp = mkdtempSync(join(tmpdir(), 'hostlens-three-way-'));
    const records = loadFixtureZones();
    const [built, dns4, dns6, web] = await Promise.all([
      buildCli(tmp),
      startDnsServer({ records }),
      startDnsServer({ records, host: '::1' }),
      startWebServer(),
    ]);
    cli = built;
    pki = makeTestPki({ hostile: false });
    fx = { dns4, dns6, web, tls: await serveTls(pki.loopback) };
    rdap = await startRdapServer({
      '/domain/example.cz': { body: RDAP_CZ },
      '/domain/xn--bcher-kva.cz': { body: RDAP_IDN_CZ },
    });
    port43 = await startWhoisServer({
      'domain threeway.com': REGISTRY_COM,
      'threeway.com': REGISTRAR_COM,
    });
    // Only .cz has RDAP here; everything else goes to the loopback port-43 server. Nothing
    // leaves the machine: the bootstrap is a local file naming a loopback service.
    const bootstrap = join(tmp, 'dns.json');
    writeFileSync(bootstrap, JSON.stringify({ version: '1.0', services: [[['cz'], [rdap.base]]] }));
    whoisEnv.HOSTLENS_RDAP_BOOTSTRAP = bootstrap;
    whoisEnv.HOSTLENS_WHOIS_SERVER = port43.address;
    whoisEnv.NODE_EXTRA_CA_CERTS = pki.caFile;
    for (const [k, v] of Object.entries(whoisEnv)) {
      savedEnv[k] = process.env[k];
      process.env[k] = v;
    }
    // blockPrivate off: every fixture is on loopback.
    server = await startTestServer(
      new EmbeddedServices({ dnsTimeoutMs: 2000, dnsTries: 1, blockPrivate: false }),
    );
    // A child process spends most of its time starting up: start every command line run now,
    // a few at a time, so they overlap with the cases before them. Each case awaits its own.
    const slots = Array.from({ length: CLI_CONCURRENCY }, () => Promise.resolve());
    CASES.forEach((c, i) => {
      const op = findOperation(c.op);
      if (!op) return;
      const run = slots[i % CLI_CONCURRENCY].then(() => viaCli(op, c.params(fx)));
      slots[i % CLI_CONCURRENCY] = run.then(
        () => undefined,
        () => undefined,
      );
      void run.catch(() => undefined); // reported by its own case
      cliRuns.set(c.name, run);
    });
  });

  after(async function () {
    for (const [k, v] of Object.entries(savedEnv)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await Promise.all([
      server?.close(),
      fx?.dns4.close(),
      fx?.dns6.close(),
      fx?.web.close(),
      fx?.tls.close(),
      rdap?.close(),
      port43?.close(),
    ]);
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    pki?.close();
  });

  async function viaEngine(op: Operation, params: Params): Promise<Outcome> {
    try {
      return { ok: true, json: JSON.stringify(await method(engine, op)(params)) };
    } catch (err) {
      return fromError(err);
    }
  }

  async function viaClient(op: Operation, params: Params): Promise<Outcome> {
    try {
      const client = server.client as unknown as EmbeddedServices;
      return { ok: true, json: JSON.stringify(await method(client, op)(params)) };
    } catch (err) {
      return fromError(err);
    }
  }

  /** The raw HTTP answer: the body bytes and the status line, not what a client makes of them. */
  async function viaWire(op: Operation, params: Params): Promise<Outcome> {
    const base = op.service === 'domain' ? server.domainBase : server.metaBase;
    const res = await request(`${base}${op.path}${queryString(op, params)}`, {
      headers: { authorization: server.token },
    });
    const body = await res.body.text();
    // Every answer, success or problem, is what GET /openapi.json says it is.
    assert.deepEqual(
      openApi.check(
        `/${op.service}${op.path}`,
        res.statusCode,
        String(res.headers['content-type']),
        JSON.parse(body),
      ),
      [],
      `${op.name} ${res.statusCode} against the OpenAPI document`,
    );
    if (res.statusCode === 200) return { ok: true, json: body };
    assert.equal(res.headers['content-type'], 'application/problem+json');
    const problem = JSON.parse(body) as { code: string; status: number };
    assert.equal(problem.status, res.statusCode);
    return { ok: false, code: problem.code, status: res.statusCode, body };
  }

  function viaCli(op: Operation, params: Params): Promise<Outcome> {
    return new Promise((done, fail) => {
      execFile(
        process.execPath,
        [cli, ...cliArgs(op, params)],
        { env: { ...process.env, ...whoisEnv }, timeout: 15_000, encoding: 'utf8' },
        (err, stdout, stderr) => {
          const exit = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
          if (exit === 0) {
            assert.equal(stderr, '');
            // Not a terminal: one line of compact JSON.
            assert.ok(stdout.endsWith('\n') && stdout.indexOf('\n') === stdout.length - 1);
            done({ ok: true, json: stdout.slice(0, -1) });
            return;
          }
          if (exit !== 1 && exit !== 2) {
            fail(new Error(`CLI exit ${exit}: ${err?.message ?? ''} ${stderr}`));
            return;
          }
          assert.equal(stdout, '');
          const problem = JSON.parse(stderr) as { code: string; status: number };
          done({ ok: false, code: problem.code, status: problem.status, exit, body: stderr });
        },
      );
    });
  }

  it('covers every operation with a success and a failure', function () {
    for (const op of OPERATIONS) {
      assert.ok(
        CASES.some((c) => c.op === op.name && c.check),
        `${op.name} has no success case`,
      );
      assert.ok(
        CASES.some((c) => c.op === op.name && c.code),
        `${op.name} has no failure case`,
      );
    }
  });

  for (const c of CASES) {
    it(`${c.name}`, async function () {
      const op = findOperation(c.op);
      assert.ok(op, c.op);
      const params = c.params(fx);
      const [direct, client, wire, line] = await Promise.all([
        viaEngine(op, params),
        viaClient(op, params),
        viaWire(op, params),
        cliRuns.get(c.name)!,
      ]);
      if (c.check) {
        assert.ok(direct.ok, `engine failed: ${JSON.stringify(direct)}`);
        c.check(JSON.parse(direct.json) as AnyResult, fx);
        assert.deepEqual(client, direct, 'HTTP client differs from the engine');
        assert.deepEqual(wire, direct, 'bytes on the wire differ from the engine');
        assert.deepEqual(line, direct, 'command line differs from the engine');
        return;
      }
      const status = ERROR_STATUS[c.code!];
      assert.deepEqual(direct, { ok: false, code: c.code, status }, 'engine');
      assert.deepEqual(client, { ok: false, code: c.code, status }, 'HTTP client');
      assert.equal(wire.ok, false);
      assert.deepEqual([wire.code, wire.status], [c.code, status], 'HTTP status and code');
      assert.equal(line.ok, false);
      assert.deepEqual(
        [line.code, line.status, line.exit],
        [c.code, status, status === 400 ? 2 : 1],
        'command line code, status and exit',
      );
    });
  }
});
