// whois(): RDAP first, port 43 when the bootstrap has no service or the RDAP server fails, at the
// registrable domain; the environment variables replace bootstrap and port-43 server.
import assert from 'node:assert/strict';
import { registrableDomain, whois } from '../../../../src/engine/whois/index';
import { startRdapServer } from '../../../support/rdap-server';
import { startWhoisServer, type WhoisFixture } from '../../../support/whois-server';
import { code } from '../../../support/settled';

const DE_REPLY = 'Domain: example.de\r\nNserver: ns1.example.net\r\nStatus: connect\r\n';

describe('whois()', function () {
  let port43: WhoisFixture;
  // Nothing listens on port 1: an unreachable bootstrap.
  const unreachable = 'http://127.0.0.1:1/dns.json';

  before(async function () {
    port43 = await startWhoisServer({ '-T dn,ace example.de': DE_REPLY });
  });
  after(async () => port43.close());

  // Two servers: one for the bootstrap document, one for the RDAP service it names.
  async function withRdap<T>(
    fn: (opts: { rdapBootstrap: string; whoisServer: string }) => Promise<T>,
  ): Promise<T> {
    const service = await startRdapServer({
      '/domain/example.cz': {
        body: {
          objectClassName: 'domain',
          ldhName: 'example.cz',
          handle: 'H1',
          port43: 'whois.nic.cz',
        },
      },
      '/domain/broken.cz': { status: 503, body: {} },
      '/domain/limited.cz': { status: 429, headers: { 'retry-after': '5' }, body: {} },
    });
    const boot = await startRdapServer({
      '/dns.json': { body: { version: '1.0', services: [[['cz'], [service.base]]] } },
    });
    try {
      return await fn({ rdapBootstrap: `${boot.base}dns.json`, whoisServer: port43.address });
    } finally {
      await boot.close();
      await service.close();
    }
  }

  it('uses RDAP when the bootstrap names a service, at the registrable domain', async function () {
    await withRdap(async (opts) => {
      const got = await whois({ host: 'www.Example.CZ.' }, opts);
      assert.equal(got.source, 'rdap');
      assert.equal(got.domain.id, 'H1');
      assert.equal(got.domain.whois_server, 'whois.nic.cz');
    });
  });

  it('falls back to port 43 when the RDAP server fails', async function () {
    await withRdap(async (opts) => {
      port43.queries.length = 0;
      // The loopback port-43 server knows no broken.cz: its "No match" is the answer.
      assert.equal(await code(whois({ host: 'broken.cz' }, opts)), 'not_found');
      assert.deepEqual(port43.queries, ['broken.cz']);
    });
  });

  it('passes RDAP rate limits through', async function () {
    await withRdap(async (opts) => {
      assert.equal(await code(whois({ host: 'limited.cz' }, opts)), 'rate_limited');
    });
  });

  it('uses port 43 for a TLD without RDAP, and when the bootstrap is malformed', async function () {
    const got = await whois(
      { host: 'a.b.example.de' },
      { rdapBootstrap: unreachable, whoisServer: port43.address },
    );
    assert.equal(got.source, 'whois');
    assert.deepEqual(got.domain.status, ['connect']);
    assert.equal(got.domain.whois_server, 'whois.denic.de');
    // An unreachable or missing bootstrap gives the snapshot, which has no .de service.
    const again = await whois(
      { host: 'example.de' },
      { rdapBootstrap: '/nonexistent.json', whoisServer: port43.address },
    );
    assert.equal(again.domain.domain, 'example.de');
  });

  it('honours HOSTLENS_RDAP_BOOTSTRAP and HOSTLENS_WHOIS_SERVER', async function () {
    const saved = { b: process.env.HOSTLENS_RDAP_BOOTSTRAP, s: process.env.HOSTLENS_WHOIS_SERVER };
    try {
      process.env.HOSTLENS_RDAP_BOOTSTRAP = '/nonexistent.json';
      process.env.HOSTLENS_WHOIS_SERVER = port43.address;
      port43.queries.length = 0;
      const got = await whois({ host: 'example.de' }, { refreshBootstrap: false });
      assert.equal(got.source, 'whois');
      assert.deepEqual(port43.queries, ['-T dn,ace example.de']);
      await withRdap(async ({ rdapBootstrap }) => {
        process.env.HOSTLENS_RDAP_BOOTSTRAP = rdapBootstrap;
        assert.equal((await whois({ host: 'example.cz' })).source, 'rdap');
      });
    } finally {
      restore('HOSTLENS_RDAP_BOOTSTRAP', saved.b);
      restore('HOSTLENS_WHOIS_SERVER', saved.s);
    }
  });

  it('refuses IP addresses and bad names, and finds no registration at a public suffix', async function () {
    assert.equal(
      await code(whois({ host: '192.0.2.1' }, { refreshBootstrap: false })),
      'invalid_host',
    );
    assert.equal(
      await code(whois({ host: 'bad..name' }, { refreshBootstrap: false })),
      'invalid_host',
    );
    assert.equal(await code(whois({ host: 'co.uk' }, { refreshBootstrap: false })), 'not_found');
  });

  it('finds the registrable domain through the public suffix list', function () {
    assert.equal(registrableDomain('a.b.example.co.uk'), 'example.co.uk');
    assert.equal(registrableDomain('foo.blogspot.com'), 'blogspot.com');
    assert.equal(registrableDomain('bücher.de'), 'xn--bcher-kva.de');
  });
});

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
