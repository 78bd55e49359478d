// The guard suite (issue 29), run inside a network namespace with only loopback (`npm run
// test:netns`: `unshare -rn`, then `ip link set lo up`). Trap servers listen on every loopback
// address (IPv4 and IPv6 wildcard, dual-stack) on fixed ports; a guarded serve is asked to reach
// them by every address form through every operation, by WHOIS referrals and RDAP bases, and
// through a cache shared with an unguarded instance. Every answer must be 403 blocked_target and
// no trap may see a single connection or datagram.
import assert from 'node:assert/strict';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server, type Socket } from 'node:net';
import { EmbeddedServices } from '../../src/services/embedded';
import { startDnsServer, loadFixtureZones, type DnsFixture } from '../support/dns-server';
import { startRdapServer, type RdapFixture } from '../support/rdap-server';
import { startRedisServer, type RedisFixture } from '../support/redis-server';
import { startTestServer, type TestServer } from '../support/serve';
import { startWhoisServer, type WhoisFixture } from '../support/whois-server';

/** Trap ports: the service ports a caller would aim at, and one unprivileged one. */
const TCP_PORTS = [43, 53, 80, 443, 853, 8053];
const UDP_PORTS = [53, 8053];
const TRAP = 8053;

interface Traps {
  hits: string[];
  close(): Promise<void>;
}

async function startTraps(): Promise<Traps> {
  const hits: string[] = [];
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  const udp: UdpSocket[] = [];
  for (const port of TCP_PORTS) {
    const server = createServer((socket) => {
      hits.push(`tcp ${socket.remoteAddress ?? '?'} -> ${socket.localAddress ?? '?'}:${port}`);
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.destroy();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host: '::', ipv6Only: false }, resolve);
    });
    servers.push(server);
  }
  for (const port of UDP_PORTS) {
    const socket = createSocket({ type: 'udp6', ipv6Only: false });
    socket.on('message', (_m, from) => hits.push(`udp ${from.address} -> :${port}`));
    await new Promise<void>((resolve) => socket.bind(port, '::', resolve));
    udp.push(socket);
  }
  return {
    hits,
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
      for (const s of udp) s.close();
    },
  };
}

/** Loopback in every spelling a caller might try, for host positions (URLs, servers). */
const LOOPBACK_FORMS = [
  '127.0.0.1',
  '127.1.2.3',
  '2130706433',
  '0x7f.1',
  '0177.0.0.1',
  'localhost',
  '0.0.0.0',
  '[::]',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[::7f00:1]',
  '[::127.0.0.1]',
  '[64:ff9b::7f00:1]',
  '[2002:7f00:1::]',
];

interface Answer {
  status: number;
  code?: string;
}

async function ask(server: TestServer, path: string): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: server.token } });
  const body = (await res.json()) as { code?: string };
  return { status: res.status, ...(body.code !== undefined ? { code: body.code } : {}) };
}

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe('guard suite: a guarded serve connects to no loopback form (network namespace)', function () {
  this.timeout(120_000);
  let traps: Traps;
  let guarded: TestServer;

  before(async () => {
    traps = await startTraps();
    guarded = await startTestServer(
      new EmbeddedServices({ blockPrivate: true, dnsTimeoutMs: 500, dnsTries: 1 }),
    );
  });
  after(async () => {
    await guarded?.close();
    await traps?.close();
  });
  afterEach(function () {
    assert.deepEqual(traps.hits, [], `${this.currentTest?.title ?? ''}: the traps were reached`);
  });

  it('sees a trap hit when something does connect (the traps work)', async () => {
    const { connect } = await import('node:net');
    for (const host of ['127.0.0.1', '::1', '127.9.9.9']) {
      await new Promise<void>((resolve) => {
        const socket = connect(TRAP, host, () => socket.end());
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
      });
    }
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(traps.hits.length, 3, traps.hits.join('\n'));
    traps.hits.length = 0;
  });

  for (const form of LOOPBACK_FORMS) {
    it(`refuses ${form} as a nameserver on every DNS transport and operation`, async () => {
      for (const server of [
        `${form}`,
        `${form}:${TRAP}`,
        `tls://${form}:${TRAP}`,
        `https://${form}:${TRAP}/dns-query`,
      ]) {
        for (const op of ['query', 'domain_keys', 'sender_policy_ranges']) {
          const answer = await ask(guarded, `/domain/${op}?${q({ host: 'example.com', server })}`);
          // A nameserver must be an address or a host name: the legacy numeric spellings
          // (2130706433, 0x7f.1, 0177.0.0.1) are refused as such, before any look-up, except
          // in an https:// URL, which the URL parser reads as 127.0.0.1.
          const expected =
            /^(\d+|0x.*|0\d.*)$/.test(form) && !server.startsWith('https:')
              ? { status: 400, code: 'invalid_server' }
              : { status: 403, code: 'blocked_target' };
          assert.deepEqual(answer, expected, `${op} ${server}`);
        }
      }
    });

    it(`refuses ${form} as a URL in every web operation`, async () => {
      for (const url of [
        `http://${form}:${TRAP}/`,
        `https://${form}:${TRAP}/`,
        `http://${form}/`,
      ]) {
        for (const op of ['redirects', 'icons', 'unfurl', 'image', 'link']) {
          const answer = await ask(guarded, `/meta/${op}?${q({ url })}`);
          assert.deepEqual(answer, { status: 403, code: 'blocked_target' }, `${op} ${url}`);
        }
      }
    });
  }
});

describe('guard suite: WHOIS referrals and RDAP (network namespace)', function () {
  this.timeout(60_000);
  let traps: Traps;
  let registry: WhoisFixture;
  let boot: RdapFixture;
  let allowing: TestServer;
  let strict: TestServer;
  const saved = {
    whois: process.env.HOSTLENS_WHOIS_SERVER,
    rdap: process.env.HOSTLENS_RDAP_BOOTSTRAP,
  };
  // Forms of loopback other than 127.0.0.1, which the allowing instance lets through.
  const referrals = [
    '127.0.0.2',
    '[::1]',
    '[::ffff:127.0.0.2]',
    '[::7f00:2]',
    '[64:ff9b::7f00:2]',
    '[2002:7f00:2::]',
    '0.0.0.0',
  ];
  // TLDs whose registry the bundled table knows (every query goes to the fixture registry).
  const WHOIS_TLDS = ['org', 'info', 'nl', 'fr', 'io', 'se', 'no'];
  const tldOf = (i: number) => `t${String.fromCharCode(97 + i)}`;

  before(async () => {
    traps = await startTraps();
    const replies: Record<string, string> = {};
    referrals.forEach((form, i) => {
      replies[`example.${WHOIS_TLDS[i]}`] = [
        `Domain Name: EXAMPLE.${WHOIS_TLDS[i].toUpperCase()}`,
        `Registrar WHOIS Server: ${form}:43`,
        'Creation Date: 1995-08-14T04:00:00Z',
        '',
      ].join('\r\n');
    });
    registry = await startWhoisServer(replies);
    boot = await startRdapServer({
      '/dns.json': {
        body: {
          version: '1.0',
          services: referrals.map((form, i) => [[`r${tldOf(i)}`], [`http://${form}:${TRAP}/`]]),
        },
      },
    });
    const engine = { dnsTimeoutMs: 500, dnsTries: 1, blockPrivate: true };
    allowing = await startTestServer(
      new EmbeddedServices({ ...engine, allowCidrs: ['127.0.0.1/32'] }),
    );
    strict = await startTestServer(new EmbeddedServices(engine));
  });
  after(async () => {
    process.env.HOSTLENS_WHOIS_SERVER = saved.whois;
    process.env.HOSTLENS_RDAP_BOOTSTRAP = saved.rdap;
    if (saved.whois === undefined) delete process.env.HOSTLENS_WHOIS_SERVER;
    if (saved.rdap === undefined) delete process.env.HOSTLENS_RDAP_BOOTSTRAP;
    await Promise.all([allowing, strict, registry, boot].map((s) => s?.close()));
    await traps?.close();
  });
  afterEach(function () {
    assert.deepEqual(traps.hits, [], `${this.currentTest?.title ?? ''}: the traps were reached`);
  });

  it('answers from the registry and never follows a referral to a loopback form', async () => {
    process.env.HOSTLENS_WHOIS_SERVER = registry.address;
    process.env.HOSTLENS_RDAP_BOOTSTRAP = '';
    for (let i = 0; i < referrals.length; i++) {
      const res = await fetch(`${allowing.url}/domain/whois?host=example.${WHOIS_TLDS[i]}`, {
        headers: { authorization: allowing.token },
      });
      const body = (await res.json()) as { raw?: string; domain?: { whois_server?: string } };
      assert.equal(res.status, 200, referrals[i]);
      assert.match(body.raw ?? '', /Registrar WHOIS Server/);
    }
  });

  it('refuses a port-43 server at a loopback address without the operator allowing it', async () => {
    process.env.HOSTLENS_WHOIS_SERVER = `127.0.0.1:43`;
    process.env.HOSTLENS_RDAP_BOOTSTRAP = '';
    const answer = await ask(strict, '/domain/whois?host=example.org');
    assert.deepEqual(answer, { status: 403, code: 'blocked_target' });
  });

  it('refuses every RDAP base at a loopback form, and a bootstrap at one', async () => {
    process.env.HOSTLENS_WHOIS_SERVER = `127.0.0.1:${TRAP}`;
    process.env.HOSTLENS_RDAP_BOOTSTRAP = `${boot.base}dns.json`;
    for (let i = 0; i < referrals.length; i++) {
      const answer = await ask(allowing, `/domain/whois?host=example.r${tldOf(i)}`);
      assert.deepEqual(answer, { status: 403, code: 'blocked_target' }, referrals[i]);
    }
    const before = boot.requests.length;
    const answer = await ask(strict, '/domain/whois?host=example.rta');
    assert.deepEqual(answer, { status: 403, code: 'blocked_target' });
    assert.equal(boot.requests.length, before, 'the strict instance never fetched the bootstrap');
  });
});

describe('guard suite: the cache shared with an unguarded instance (network namespace)', function () {
  this.timeout(60_000);
  let redis: RedisFixture;
  let dns: DnsFixture;
  let open: TestServer;
  let guarded: TestServer;

  before(async () => {
    redis = await startRedisServer();
    dns = await startDnsServer({ records: loadFixtureZones() });
    const shared = { redisUrl: redis.url, cache: true };
    const engine = { dnsTimeoutMs: 500, dnsTries: 1 };
    open = await startTestServer(new EmbeddedServices({ ...engine, blockPrivate: false }), {
      ...shared,
      cacheScope: 'open',
    });
    guarded = await startTestServer(new EmbeddedServices({ ...engine, blockPrivate: true }), {
      ...shared,
      cacheScope: 'guarded',
    });
  });
  after(async () => {
    await Promise.all([open, guarded].map((s) => s?.close()));
    await dns?.close();
    await redis?.close();
  });

  it('serves the guarded instance nothing the unguarded one fetched from a private address', async () => {
    const path = `/domain/query?${q({ host: 'example.test', types: 'A', server: dns.address })}`;
    let cached = false;
    for (let i = 0; i < 20 && !cached; i++) {
      assert.equal((await ask(open, path)).status, 200);
      await new Promise((r) => setTimeout(r, 50));
      cached = /hostlens_cache_lookups_total\{result="hit"\} [1-9]/.test(
        await (
          await fetch(`${open.url}/metrics`, { headers: { authorization: open.token } })
        ).text(),
      );
    }
    assert.ok(cached, 'the unguarded instance answers from the cache');
    const before = dns.queries.length;
    assert.deepEqual(await ask(guarded, path), { status: 403, code: 'blocked_target' });
    assert.equal(dns.queries.length, before);
  });
});
