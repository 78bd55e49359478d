// CAA and TLSA through Knot: a signed hierarchy (test/support/dnssec-hierarchy.ts) whose
// signed zone makes TLSA usable (RFC 7672 section 2.2) and whose unsigned zone does not, a CAA
// set found by climbing the tree (RFC 8659 section 3), each against a loopback TLS server.
import * as assert from 'node:assert/strict';
import { createHash, X509Certificate } from 'node:crypto';
import { inspectTls } from '../../../../src/engine/tls/index';
import { missingTool, startHierarchy, type Hierarchy } from '../../../support/dnssec-hierarchy';
import { makeTestPki, type TestPki } from '../../../support/tls-pki';
import { serveSmtp, serveTls, type Listening } from '../../../support/tls-server';

describe('TLS inspection: CAA and DANE through Knot', function () {
  this.timeout(120_000);
  let pki: TestPki;
  let tls: Listening;
  let smtp: Listening;
  let dns: Hierarchy;

  before(async function () {
    const missing = missingTool();
    if (missing !== undefined) {
      console.log(`      skipped: ${missing} is not installed`);
      this.skip();
    }
    this.timeout(180_000);
    pki = makeTestPki({ hostile: false });
    tls = await serveTls(pki.cases.good);
    smtp = await serveSmtp({ served: pki.cases.good });
    const leaf = new X509Certificate(pki.cases.good.chain);
    const spki = leaf.publicKey.export({ type: 'spki', format: 'der' });
    const spkiSha256 = createHash('sha256').update(spki).digest('hex');
    const tlsa = (label: string, rdata: string) => [
      `${label} IN A 127.0.0.1`,
      `_${tls.port}._tcp.${label} IN TLSA ${rdata}`,
    ];
    dns = await startHierarchy([
      { name: '.', algorithm: 'ECDSAP256SHA256' },
      { name: 'tld.', algorithm: 'ECDSAP256SHA256' },
      {
        name: 'dane.tld.',
        algorithm: 'ECDSAP256SHA256',
        extra: [
          ...tlsa('ee', `3 1 1 ${spkiSha256}`),
          ...tlsa('wrong', `3 1 1 ${'00'.repeat(32)}`),
          // PKIX-EE: usable over HTTPS, not over SMTP (RFC 7672 section 3.1.3)
          ...tlsa('pkix', `1 1 1 ${spkiSha256}`),
          // an MX host: TLSA at _25._tcp.<mx> in real life, at the loopback SMTP port here
          'mx IN A 127.0.0.1',
          `_${smtp.port}._tcp.mx IN TLSA 3 1 1 ${spkiSha256}`,
          'pkixmx IN A 127.0.0.1',
          `_${smtp.port}._tcp.pkixmx IN TLSA 1 1 1 ${spkiSha256}`,
          '@ IN CAA 0 issue "letsencrypt.org"',
          'allowed IN A 127.0.0.1',
          'allowed IN CAA 0 issue "hostlenstest.example"',
        ],
      },
      { name: 'plain.tld.', extra: tlsa('ee', `3 1 1 ${spkiSha256}`) },
    ]);
  });
  after(async () => {
    await tls?.close();
    await smtp?.close();
    await dns?.close();
    pki?.close();
  });

  const inspect = (host: string) =>
    inspectTls(
      { host, port: String(tls.port), server: dns.server },
      { extraCa: [pki.ca], dns: { env: { HOSTLENS_TRUST_ANCHORS: dns.anchorsFile } } },
    );

  it('DANE-EE in a signed zone matching the leaf: match, whatever the name', async () => {
    const result = await inspect('ee.dane.tld');
    assert.equal(result.dane?.status, 'match', JSON.stringify(result.dane));
    assert.equal(result.dane?.dnssec, 'secure');
    assert.ok(!result.problems.some((p) => p.code.startsWith('dane')));
    // the leaf is for good.test: PKIX says no, DANE-EE does not look at names (RFC 7671 5.1)
    assert.equal(result.trusted, false);
  });

  it('a secure TLSA record that matches nothing is dane_mismatch, an error', async () => {
    const result = await inspect('wrong.dane.tld');
    assert.equal(result.dane?.status, 'mismatch');
    const problem = result.problems.find((p) => p.code === 'dane_mismatch');
    assert.equal(problem?.severity, 'error');
  });

  it('PKIX-EE needs the PKIX verdict too: untrusted for this name, so no match', async () => {
    const result = await inspect('pkix.dane.tld');
    assert.equal(result.dane?.status, 'mismatch');
  });

  const viaSmtp = (host: string) =>
    inspectTls(
      { host, port: String(smtp.port), starttls: 'smtp', server: dns.server },
      { extraCa: [pki.ca], dns: { env: { HOSTLENS_TRUST_ANCHORS: dns.anchorsFile } } },
    );

  it('SMTP (RFC 7672): DANE-EE of an MX host matches after STARTTLS, names and PKIX aside', async () => {
    const result = await viaSmtp('mx.dane.tld');
    assert.equal(result.starttls, 'smtp');
    assert.equal(result.dane?.status, 'match', JSON.stringify(result.dane));
    assert.equal(result.dane?.name, `_${smtp.port}._tcp.mx.dane.tld.`);
    assert.ok(!result.problems.some((p) => p.code.startsWith('dane')));
  });

  it('SMTP (RFC 7672 section 3.1.3): PKIX-EE is unusable for an MX host', async () => {
    const result = await viaSmtp('pkixmx.dane.tld');
    assert.equal(result.dane?.status, 'unusable');
    assert.match(
      result.problems.find((p) => p.code === 'dane_unusable')?.message ?? '',
      /RFC 7672 section 3\.1\.3/,
    );
  });

  it('TLSA in an unsigned zone is dane_unusable (RFC 7672 section 2.2), a warning', async () => {
    const result = await inspect('ee.plain.tld');
    assert.equal(result.dane?.status, 'unusable');
    assert.equal(result.dane?.dnssec, 'insecure');
    const problem = result.problems.find((p) => p.code === 'dane_unusable');
    assert.equal(problem?.severity, 'warning');
  });

  it('CAA: the set at dane.tld applies to wrong.dane.tld by climbing, and names another CA', async () => {
    const result = await inspect('wrong.dane.tld');
    const problem = result.problems.find((p) => p.code === 'caa_mismatch');
    assert.match(problem?.message ?? '', /through dane\.tld.*letsencrypt\.org/);
  });

  it('CAA: a set of its own that allows the test CA stops the climb', async () => {
    const result = await inspect('allowed.dane.tld');
    assert.ok(
      !result.problems.some((p) => p.code === 'caa_mismatch'),
      JSON.stringify(result.problems),
    );
    assert.equal(result.dane, undefined, 'no TLSA records, no DANE');
  });
});
