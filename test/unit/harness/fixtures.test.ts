// The demo's loopback world (test/harness/fixtures.ts, shared with the screenshots): what a
// visitor of `npm run demo` looks up must answer, as an authoritative server would.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { startDemoFixtures, WORKSPACE, type DemoFixtures } from '../../harness/fixtures';
import { EmbeddedServices } from '../../../src/services/embedded';

describe('the demo fixtures (npm run demo)', () => {
  let fixtures: DemoFixtures;
  const services = new EmbeddedServices({ dnsTimeoutMs: 1000, dnsTries: 1 });

  before(async () => {
    fixtures = await startDemoFixtures();
  });

  after(async () => {
    await fixtures.close();
  });

  it('opens the sample workspace with the zone files it serves', () => {
    for (const file of ['example.test.zone', 'shop.test.zone', 'nginx.conf']) {
      assert.ok(existsSync(path.join(WORKSPACE, file)), file);
    }
  });

  it('serves the sample zones, and refuses other names as an authoritative server does', async () => {
    const server = fixtures.nameserver;
    const answer = await services.domain.query({
      host: 'example.test',
      types: ['A', 'MX'],
      server,
    });
    assert.ok(answer.records.some((r) => r.type === 'A' && r.value === '192.0.2.10'));
    assert.ok(answer.records.some((r) => r.type === 'MX'));
    const mail = await services.domain.query({ host: 'mail.test', types: ['TXT'], server });
    assert.ok(mail.records.some((r) => String(r.value).startsWith('v=spf1')));
    await assert.rejects(
      services.domain.query({ host: 'elsewhere.invalid', types: ['A'], server }),
      (err: { code?: string }) => err.code === 'upstream_error' || err.code === 'refused',
    );
  });

  it('answers WHOIS and the web panels on loopback', async () => {
    const card = await fetch(fixtures.site.url('/card'));
    assert.equal(card.status, 200);
    assert.match(await card.text(), /og:title/);
    assert.match(fixtures.env.HOSTLENS_RDAP_BOOTSTRAP, /^http:\/\/127\.0\.0\.1:\d+\//);
    const bootstrap = await fetch(fixtures.env.HOSTLENS_RDAP_BOOTSTRAP);
    assert.equal(bootstrap.status, 200);
  });
});
