// What bounds a whole WHOIS look-up: the address guard on every RDAP redirect in server mode,
// one deadline over bootstrap, RDAP, registry and referrals, and the operator's bootstrap taken
// as given. Loopback servers only.
import assert from 'node:assert/strict';
import { whois } from '../../../../src/engine/whois/index';
import { lookupRdap } from '../../../../src/engine/whois/rdap';
import { createGuardedAgent } from '../../../../src/engine/agent';
import { EmbeddedServices } from '../../../../src/services/embedded';
import { startRdapServer, type RdapFixture } from '../../../support/rdap-server';
import { startWhoisServer, type WhoisFixture } from '../../../support/whois-server';
import { code } from '../../../support/settled';

const DOMAIN = { objectClassName: 'domain', ldhName: 'example.cz', handle: 'H1' };

const REGISTRY = [
  'Domain Name: EXAMPLE.COM',
  'Registrar WHOIS Server: whois.registrar.test',
  'Creation Date: 1995-08-14T04:00:00Z',
  'Registrar: Registry Copy Of Registrar',
  'Name Server: A.IANA-SERVERS.NET',
  '',
].join('\r\n');

describe('whois bounds: RDAP redirects in server mode', function () {
  let target: RdapFixture;
  let base: RdapFixture;
  let boot: RdapFixture;
  const opts = (): { rdapBootstrap: string; whoisServer: string } => ({
    rdapBootstrap: `${boot.base}dns.json`,
    // Nothing listens on port 1: a port-43 fallback would be upstream_error, never an answer.
    whoisServer: '127.0.0.1:1',
  });

  before(async function () {
    target = await startRdapServer({
      '/domain/example.cz': { body: DOMAIN },
      // a second hop, from an allowed address to a link-local one (cloud metadata)
      '/hop/metadata.cz': {
        status: 302,
        headers: { location: 'http://169.254.169.254/domain/metadata.cz' },
      },
    });
    const there = (path: string) => ({
      status: 302,
      headers: { location: `${target.base}${path}` },
    });
    base = await startRdapServer({
      '/domain/moved.cz': there('domain/example.cz'),
      '/domain/chain.cz': there('hop/metadata.cz'),
      '/domain/ipv6.cz': { status: 307, headers: { location: 'http://[::1]:9/domain/x' } },
      '/domain/named.cz': {
        status: 301,
        headers: { location: `http://localhost:${new URL(target.base).port}/domain/example.cz` },
      },
    });
    boot = await startRdapServer({
      '/dns.json': { body: { version: '1.0', services: [[['cz'], [base.base]]] } },
    });
  });
  after(async () => {
    await Promise.all([target.close(), base.close(), boot.close()]);
  });

  it('follows a redirect to a private address outside server mode', async function () {
    const got = await whois({ host: 'moved.cz' }, opts());
    assert.equal(got.source, 'rdap');
    assert.equal(got.domain.id, 'H1');
  });

  it('refuses every redirect to a loopback, link-local or private target in server mode', async function () {
    for (const host of ['moved.cz', 'ipv6.cz', 'named.cz', 'chain.cz']) {
      assert.equal(
        await code(whois({ host }, { ...opts(), blockPrivate: true })),
        'blocked_target',
        host,
      );
    }
  });

  it('checks each hop: an allowed first hop does not let the second through', async function () {
    const allowCidrs = ['127.0.0.0/8'];
    const got = await whois({ host: 'moved.cz' }, { ...opts(), blockPrivate: true, allowCidrs });
    assert.equal(got.domain.id, 'H1');
    assert.equal(
      await code(whois({ host: 'chain.cz' }, { ...opts(), blockPrivate: true, allowCidrs })),
      'blocked_target',
    );
  });

  it('guards lookupRdap through its redirect dispatcher, and the base itself is not refused', async function () {
    const agent = createGuardedAgent();
    try {
      assert.equal(
        await code(lookupRdap('moved.cz', base.base, { redirectDispatcher: agent })),
        'blocked_target',
      );
      // The base comes from the operator's bootstrap: a loopback base is theirs to choose.
      assert.equal(
        await code(lookupRdap('unknown.cz', base.base, { redirectDispatcher: agent })),
        'not_found',
      );
    } finally {
      await agent.destroy();
    }
  });

  it('is on in the embedded services of server mode, off in the editor', async function () {
    const saved = process.env.HOSTLENS_RDAP_BOOTSTRAP;
    const savedServer = process.env.HOSTLENS_WHOIS_SERVER;
    process.env.HOSTLENS_RDAP_BOOTSTRAP = `${boot.base}dns.json`;
    process.env.HOSTLENS_WHOIS_SERVER = '127.0.0.1:1';
    try {
      const server = new EmbeddedServices({ blockPrivate: true });
      assert.equal(await code(server.whois({ host: 'moved.cz' })), 'blocked_target');
      const editor = new EmbeddedServices();
      assert.equal((await editor.whois({ host: 'moved.cz' })).domain.id, 'H1');
    } finally {
      restore('HOSTLENS_RDAP_BOOTSTRAP', saved);
      restore('HOSTLENS_WHOIS_SERVER', savedServer);
    }
  });
});

describe('whois bounds: one deadline for the whole look-up', function () {
  let port43: WhoisFixture;
  let rdap: RdapFixture;
  let boot: RdapFixture;

  before(async function () {
    port43 = await startWhoisServer({
      // the registry answers at once and refers to a registrar that never does
      'domain example.com': REGISTRY,
      'example.com': { kind: 'hang' },
      'domain slow.com': { kind: 'hang' },
      'slow.cz': { kind: 'hang' },
    });
    rdap = await startRdapServer({ '/domain/slow.cz': { hang: true } });
    boot = await startRdapServer({
      '/dns.json': { body: { version: '1.0', services: [[['cz'], [rdap.base]]] } },
    });
  });
  after(async () => {
    await Promise.all([port43.close(), rdap.close(), boot.close()]);
  });

  // Each server alone may take 10 s; the look-up as a whole is given far less. The mocha
  // timeout (not a timed assertion) catches a look-up that is not cut.
  const bounded = { timeoutMs: 10_000, totalTimeoutMs: 400, refreshBootstrap: false };

  it('keeps the registry answer when the registrar is still talking at the deadline', async function () {
    this.timeout(5000);
    const got = await whois({ host: 'example.com' }, { ...bounded, whoisServer: port43.address });
    assert.equal(got.source, 'whois');
    assert.equal(got.domain.domain, 'example.com');
    assert.equal(got.registrar.name, 'Registry Copy Of Registrar');
  });

  it('is upstream_timeout when the registry has not answered by then', async function () {
    this.timeout(5000);
    assert.equal(
      await code(whois({ host: 'slow.com' }, { ...bounded, whoisServer: port43.address })),
      'upstream_timeout',
    );
  });

  it('does not fall back to port 43 once the deadline has passed in RDAP', async function () {
    this.timeout(5000);
    port43.queries.length = 0;
    const got = await code(
      whois(
        { host: 'slow.cz' },
        { ...bounded, rdapBootstrap: `${boot.base}dns.json`, whoisServer: port43.address },
      ),
    );
    assert.equal(got, 'upstream_timeout');
    assert.deepEqual(port43.queries, []);
  });

  it('still reports cancellation as cancelled', async function () {
    const ac = new AbortController();
    const pending = whois(
      { host: 'slow.com' },
      { ...bounded, totalTimeoutMs: 10_000, whoisServer: port43.address, signal: ac.signal },
    );
    setTimeout(() => ac.abort(), 50);
    assert.equal(await code(pending), 'cancelled');
  });
});

describe('whois bounds: the operator bootstrap as given', function () {
  let port43: WhoisFixture;
  let boot: RdapFixture;
  const COM = 'Domain Name: EXAMPLE.COM\r\nName Server: NS1.EXAMPLE.NET\r\n';

  before(async function () {
    port43 = await startWhoisServer({ 'domain example.com': COM });
    boot = await startRdapServer({
      '/dns.json': { body: { version: '1.0', services: [[['cz'], ['http://127.0.0.1:1/']]] } },
    });
  });
  after(async () => {
    await Promise.all([port43.close(), boot.close()]);
  });

  it('an empty HOSTLENS_RDAP_BOOTSTRAP means port 43 even for a TLD the snapshot serves', async function () {
    const saved = process.env.HOSTLENS_RDAP_BOOTSTRAP;
    try {
      for (const empty of ['', '  ']) {
        process.env.HOSTLENS_RDAP_BOOTSTRAP = empty;
        // refreshBootstrap stays on: the empty setting must win over IANA's live file too.
        const got = await whois({ host: 'example.com' }, { whoisServer: port43.address });
        assert.equal(got.source, 'whois');
        assert.deepEqual(got.domain.name_servers, ['ns1.example.net']);
      }
    } finally {
      restore('HOSTLENS_RDAP_BOOTSTRAP', saved);
    }
  });

  it('a bootstrap without the TLD sends it to port 43, not to the bundled snapshot', async function () {
    const got = await whois(
      { host: 'example.com' },
      { rdapBootstrap: `${boot.base}dns.json`, whoisServer: port43.address },
    );
    assert.equal(got.source, 'whois');
  });
});

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
