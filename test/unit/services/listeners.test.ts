// No listener growth (issues 26 and 28): look-ups with many questions in flight leave no
// MaxListenersExceededWarning and no listener on the caller's signal once they end. The cases
// are the reported ones: query --dnssec, an all-types query to a silent nameserver, a full
// unfurl and the icons of a page, the 38-selector DKIM list, zone-diff with unreachable
// nameservers, and serve's dnssec=true request. Fails before the fix: the all-types query
// added one abort listener per type to the caller's signal.
import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffZoneFile } from '../../../src/services/zone-drift';
import { EmbeddedServices } from '../../../src/services/embedded';
import { loadFixtureZones, startDnsServer, type DnsFixture } from '../../support/dns-server';
import { startTestServer } from '../../support/serve';
import { startWebServer, type WebFixture } from '../../support/web-server';

describe('abort listeners of a look-up', function () {
  this.timeout(60_000);
  let dns: DnsFixture;
  let silent: DnsFixture;
  let web: WebFixture;
  let tmp: string;
  const warnings: Error[] = [];
  const onWarning = (w: Error) => warnings.push(w);
  const services = new EmbeddedServices({ dnsTimeoutMs: 300 });

  before(async () => {
    dns = await startDnsServer({ records: loadFixtureZones() });
    silent = await startDnsServer({ records: [], behaviour: () => 'timeout' });
    web = await startWebServer();
    tmp = mkdtempSync(join(tmpdir(), 'hostlens-listeners-'));
    process.on('warning', onWarning);
  });

  after(async () => {
    process.off('warning', onWarning);
    await Promise.all([dns.close(), silent.close(), web.close()]);
    rmSync(tmp, { recursive: true, force: true });
  });

  /** Runs a look-up with a caller's signal; afterwards the signal holds no listener. */
  async function settled(run: (signal: AbortSignal) => Promise<unknown>): Promise<void> {
    const controller = new AbortController();
    warnings.length = 0;
    await run(controller.signal).catch(() => undefined);
    // Warnings are emitted on the next tick.
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(
      warnings.map((w) => `${w.name}: ${w.message}`),
      [],
    );
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
  }

  it('query --dnssec', () =>
    settled((signal) =>
      services.domain.query(
        { host: 'example.test', types: ['A', 'MX', 'TXT'], server: dns.address, dnssec: true },
        { signal },
      ),
    ));

  it('an all-types query to a nameserver that never answers', () =>
    settled((signal) =>
      services.domain.query({ host: 'example.test', server: silent.address }, { signal }),
    ));

  it('the 38-selector DKIM look-up', () =>
    settled((signal) =>
      services.domain.domainKeys({ host: 'example.test', server: dns.address }, { signal }),
    ));

  it('a full unfurl, and the icons of a page', async () => {
    await settled((signal) => services.meta.unfurl({ url: web.url('/og') }, { signal }));
    await settled((signal) => services.meta.icons({ url: web.url('/icons/all') }, { signal }));
  });

  it('zone-diff with nameservers that do not answer', async () => {
    const file = join(tmp, 'db.example.test');
    writeFileSync(
      file,
      [
        '$ORIGIN example.test.',
        '$TTL 300',
        '@ IN SOA ns1 hostmaster 1 3600 600 86400 300',
        ...Array.from({ length: 12 }, (_, i) => `@ IN NS ns${i + 1}`),
        ...Array.from({ length: 12 }, (_, i) => `ns${i + 1} IN A 127.0.0.${i + 2}`),
        'www IN A 192.0.2.1',
        '',
      ].join('\n'),
    );
    await settled((signal) =>
      diffZoneFile(file, { server: silent.address, signal, timeoutMs: 300 }),
    );
  });

  it("serve's default dnssec=true request", async () => {
    const server = await startTestServer(new EmbeddedServices({ dnsTimeoutMs: 300 }), {
      tokens: ['listener-token-0123456789abcdef'],
    });
    try {
      warnings.length = 0;
      const res = await fetch(
        `${server.url}/domain/query?host=example.test&dnssec=true&server=${encodeURIComponent(silent.address)}`,
        { headers: { authorization: 'listener-token-0123456789abcdef' } },
      );
      await res.text();
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(
        warnings.map((w) => w.message),
        [],
      );
    } finally {
      await server.close();
    }
  });
});
