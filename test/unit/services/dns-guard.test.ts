// The DNS `server` parameter in server mode passes the same address guard as web fetches:
// private, loopback, link-local (with or without a zone id), CGNAT and metadata addresses,
// given as such, by a name or behind tls:// and https://, are 403 blocked_target and nothing
// is sent to them; --allow-private (blockPrivate off) or an allowed range lets them through.
import assert from 'node:assert/strict';
import { EmbeddedServices } from '../../../src/services/embedded';
import { loadFixtureZones, startDnsServer, type DnsFixture } from '../../support/dns-server';
import { startTestServer, type TestServer } from '../../support/serve';

describe('services: the DNS server parameter behind the address guard', () => {
  let dns: DnsFixture;
  let guarded: TestServer;
  let open: TestServer;
  let allowed: TestServer;

  before(async () => {
    dns = await startDnsServer({ records: loadFixtureZones() });
    const engine = { dnsTimeoutMs: 1000, dnsTries: 1 };
    guarded = await startTestServer(new EmbeddedServices({ ...engine, blockPrivate: true }));
    open = await startTestServer(new EmbeddedServices({ ...engine, blockPrivate: false }));
    allowed = await startTestServer(
      new EmbeddedServices({ ...engine, blockPrivate: true, allowCidrs: ['127.0.0.1/32'] }),
    );
  });
  after(async () => {
    await Promise.all([guarded, open, allowed].map((s) => s?.close()));
    await dns?.close();
  });

  async function get(server: TestServer, path: string, params: Record<string, string>) {
    const query = new URLSearchParams(params).toString();
    const res = await fetch(`${server.url}/domain/${path}?${query}`, {
      headers: { authorization: server.token },
    });
    return { status: res.status, body: (await res.json()) as { code?: string } };
  }

  const blocked = () => [
    dns.address,
    `localhost:${dns.port}`,
    '10.0.0.53',
    '192.168.1.1:53',
    '172.16.0.1',
    '100.64.0.1',
    '169.254.169.254',
    '[::1]:53',
    'fe80::1',
    '[fe80::1%eth0]:53',
    'fd00::53',
    '[::ffff:127.0.0.1]:53',
    '0.0.0.0',
    `tls://127.0.0.1:${dns.port}`,
    `https://127.0.0.1:${dns.port}/dns-query`,
    `https://localhost:${dns.port}/dns-query`,
  ];

  it('refuses every private or special nameserver with 403 blocked_target, asking nothing', async () => {
    for (const server of blocked()) {
      for (const path of ['query', 'domain_keys', 'sender_policy_ranges']) {
        const reply = await get(guarded, path, { host: 'example.test', server });
        assert.equal(reply.status, 403, `${path} ${server}: ${JSON.stringify(reply.body)}`);
        assert.equal(reply.body.code, 'blocked_target', `${path} ${server}`);
      }
    }
    assert.equal(dns.queries.length, 0, 'no question reached the loopback nameserver');
  });

  it('answers through the same nameserver with --allow-private, or when its range is allowed', async () => {
    for (const server of [open, allowed]) {
      const reply = await get(server, 'query', {
        host: 'example.test',
        types: 'NS',
        server: dns.address,
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
    }
    const stillBlocked = await get(allowed, 'query', { host: 'example.test', server: '10.0.0.1' });
    assert.equal(stillBlocked.status, 403);
  });

  it('a malformed server stays a 400 invalid_server, guarded or not', async () => {
    const reply = await get(guarded, 'query', { host: 'example.test', server: 'http://1.1.1.1' });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.code, 'invalid_server');
  });
});
