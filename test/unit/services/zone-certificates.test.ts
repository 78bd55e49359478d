// The certificates of a zone file's names (the layer under "Check Certificates of Zone Names"),
// against one loopback TLS server that presents each name's certificate by SNI, the names
// resolved and their CAA records answered by a fixture nameserver: each finding on the line of
// the name's first address record, and nothing for a good certificate or a failed look-up.
import * as assert from 'node:assert/strict';
import { EmbeddedServices } from '../../../src/services/embedded';
import { ZoneSession } from '../../../src/services/zone';
import {
  addressNames,
  checkZoneCertificates,
  MAX_CERTIFICATE_NAMES,
} from '../../../src/services/zone-certificates';
import type { DomainService } from '../../../src/contract/services';
import { startDnsServer, type DnsFixture } from '../../support/dns-server';
import { makeTestPki, type TestPki } from '../../support/tls-pki';
import { serveSilence, type Listening } from '../../support/tls-server';
import { serveZoneTls, ZONE_TLS_PKI, zoneTlsRecords } from '../../support/zone-tls';

const ZONE = `$ORIGIN zone.test.
$TTL 300
@       SOA ns1.elsewhere.test. hostmaster 1 3600 600 86400 300
@       NS  ns1.elsewhere.test.
good    A   127.0.0.1
soon    A   127.0.0.1
old     A   127.0.0.1
soon    AAAA ::1
strict  A   127.0.0.1
*.wild  A   127.0.0.1
mail    MX  10 good
`;

/** The 0-based line the zone text writes `owner`'s first record on. */
function lineOf(owner: string): number {
  return ZONE.split('\n').findIndex((l) => l.startsWith(`${owner} `));
}

describe('certificates of zone names', function () {
  this.timeout(60_000);
  let pki: TestPki;
  let dns: DnsFixture;
  let server: Listening;
  let domain: DomainService;
  const session = new ZoneSession(ZONE, { origin: 'zone.test.' });

  before(async function () {
    this.timeout(120_000);
    pki = makeTestPki(ZONE_TLS_PKI);
    server = await serveZoneTls(pki);
    dns = await startDnsServer({ records: zoneTlsRecords('127.0.0.1') });
    domain = new EmbeddedServices({ extraCa: [pki.ca] });
  });
  after(async () => {
    await server?.close();
    await dns?.close();
    pki?.close();
  });

  it('the names: owners with an address record, once each, at the first, wildcards aside', () => {
    assert.deepEqual(
      addressNames(session).map((n) => [n.host, n.range.line]),
      [
        ['good.zone.test', lineOf('good')],
        ['soon.zone.test', lineOf('soon')],
        ['old.zone.test', lineOf('old')],
        ['strict.zone.test', lineOf('strict')],
      ],
    );
  });

  it("an included file's names are that file's: left out of the open file's", () => {
    const withInclude = new ZoneSession(
      '$ORIGIN zone.test.\n$TTL 300\n$INCLUDE hosts.inc\nlocal A 127.0.0.1\n',
      {
        origin: 'zone.test.',
        file: '/zones/zone.test',
        readInclude: (path) => ({ path: `/zones/${path}`, text: 'inc A 127.0.0.1\n' }),
      },
    );
    assert.ok(withInclude.records().some((r) => r.key === 'inc.zone.test.'));
    assert.deepEqual(
      addressNames(withInclude).map((n) => [n.host, n.range.line]),
      [['local.zone.test', 3]],
    );
  });

  it('expired, expires_soon and caa_mismatch land on their names; a good certificate has none', async () => {
    const checked: string[] = [];
    const check = await checkZoneCertificates(domain, addressNames(session), {
      port: server.port,
      server: dns.address,
      onChecked: (host) => checked.push(host),
    });
    assert.ok(check !== undefined);
    assert.equal(check.checked, 4);
    assert.equal(check.skipped, 0);
    assert.deepEqual(checked.sort(), [
      'good.zone.test',
      'old.zone.test',
      'soon.zone.test',
      'strict.zone.test',
    ]);
    assert.deepEqual(
      check.findings.map((f) => [f.host, f.range.line, f.code]),
      [
        ['soon.zone.test', lineOf('soon'), 'expires_soon'],
        ['old.zone.test', lineOf('old'), 'expired'],
        ['strict.zone.test', lineOf('strict'), 'caa_mismatch'],
      ],
    );
    const caa = check.findings.find((f) => f.code === 'caa_mismatch');
    assert.match(caa?.message ?? '', /letsencrypt\.org/);
    // the owner itself is the range, as written
    const soon = check.findings[0].range;
    assert.deepEqual([soon.start, soon.end], [0, 'soon'.length]);
  });

  it('a name without a TLS server (the port closed) has no finding', async () => {
    const gone = await serveSilence();
    const port = gone.port;
    await gone.close();
    const check = await checkZoneCertificates(domain, addressNames(session), {
      port,
      server: dns.address,
    });
    assert.deepEqual(check?.findings, []);
    assert.equal(check?.checked, 4);
  });

  it(`looks up at most ${MAX_CERTIFICATE_NAMES} names, four at a time, and stops when cancelled`, async () => {
    let open = 0;
    let most = 0;
    const asked: string[] = [];
    const controller = new AbortController();
    const counting: Pick<DomainService, 'tls'> = {
      tls: async (params) => {
        asked.push(params.host);
        most = Math.max(most, ++open);
        await new Promise((resolve) => setTimeout(resolve, 5));
        open--;
        if (asked.length === 50) controller.abort();
        return Promise.reject(new Error('no server'));
      },
    };
    const names = Array.from({ length: MAX_CERTIFICATE_NAMES + 20 }, (_, i) => ({
      host: `n${i}.zone.test`,
      range: { line: i, start: 0, end: 3 },
    }));
    const all = await checkZoneCertificates(counting, names);
    assert.equal(all?.checked, MAX_CERTIFICATE_NAMES);
    assert.equal(all?.skipped, 20);
    assert.equal(asked.length, MAX_CERTIFICATE_NAMES);
    assert.equal(most, 4);
    assert.equal(asked[0], 'n0.zone.test');

    asked.length = 0;
    const cancelled = await checkZoneCertificates(counting, names, { signal: controller.signal });
    assert.equal(cancelled, undefined);
    assert.ok(asked.length < 55, `${asked.length} asked after the abort`);
  });

  it('asks port 443 unless told, through the nameserver given', async () => {
    const params: unknown[] = [];
    const recording: Pick<DomainService, 'tls'> = {
      tls: (p) => {
        params.push(p);
        return Promise.reject(new Error('not here'));
      },
    };
    await checkZoneCertificates(recording, addressNames(session).slice(0, 1), {
      server: '192.0.2.53',
    });
    assert.deepEqual(params, [{ host: 'good.zone.test', port: 443, server: '192.0.2.53' }]);
  });
});
