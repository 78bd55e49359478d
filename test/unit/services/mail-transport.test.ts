// The mail set-up's transport part over any DomainService: STARTTLS on port 25 of each MX
// host through the `tls` operation, the MTA-STS policy through `mta_sts`, and the verdict per
// MX host that weighs DANE (RFC 7672) and MTA-STS (RFC 8461) together.
import * as assert from 'node:assert/strict';
import { LookupError } from '../../../src/contract/errors';
import type { MtaStsResult, TlsResult } from '../../../src/contract/shapes';
import { mailSetup, mxVerdict } from '../../../src/services/mail';
import { EmbeddedServices } from '../../../src/services/embedded';
import { FakeServices, FIXED } from '../../support/fake-services';
import { startDnsServer } from '../../support/dns-server';

describe('services/mail transport', () => {
  it('asks STARTTLS of each MX host on the default port (25), and the MTA-STS policy', async () => {
    const fake = new FakeServices();
    const setup = await mailSetup(fake.domain, 'Example.TEST', { server: '192.0.2.53' });
    const tlsCalls = fake.calls.filter((c) => c.method === 'tls').map((c) => c.params);
    assert.deepEqual(tlsCalls, [
      { host: 'mail.example.test', starttls: 'smtp', server: '192.0.2.53' },
    ]);
    assert.deepEqual(
      fake.calls.filter((c) => c.method === 'mtaSts').map((c) => c.params),
      [{ host: 'example.test', server: '192.0.2.53' }],
    );
    assert.ok(Array.isArray(setup.transport));
    assert.deepEqual(setup.transport, [
      { host: 'mail.example.test', preference: 10, tls: FIXED.tls },
    ]);
    assert.deepEqual(setup.mta_sts_policy, FIXED.mtaSts);
  });

  it('the null MX (RFC 7505) has no transport; a failed MX look-up is an error entry', async () => {
    const fake = new FakeServices();
    fake.behaviour.query = (p) =>
      Promise.resolve(
        (p.types as string[]).includes('MX')
          ? { records: [{ type: 'MX', value: '.', priority: 0 }], status: 'NOERROR' }
          : { records: [], status: 'NOERROR' },
      );
    assert.deepEqual((await mailSetup(fake.domain, 'example.test')).transport, []);
    fake.behaviour.query = () => Promise.reject(new LookupError('upstream_timeout', 'slow'));
    const failed = await mailSetup(fake.domain, 'example.test');
    assert.deepEqual(failed.transport, { error: { code: 'upstream_timeout', message: 'slow' } });
  });

  it('one MX host failing leaves the others; a failed policy is its own error', async () => {
    const fake = new FakeServices();
    fake.behaviour.tls = () => Promise.reject(new LookupError('upstream_error', 'refused'));
    fake.behaviour.mtaSts = () => Promise.reject(new LookupError('upstream_timeout', 'late'));
    const setup = await mailSetup(fake.domain, 'example.test');
    assert.deepEqual(setup.transport, [
      {
        host: 'mail.example.test',
        preference: 10,
        tls: { error: { code: 'upstream_error', message: 'refused' } },
      },
    ]);
    assert.deepEqual(setup.mta_sts_policy, {
      error: { code: 'upstream_timeout', message: 'late' },
    });
  });

  it('the embedded engine asks the MX records once for the transport and the MTA-STS policy', async () => {
    // No address for the MX host or the policy host: both fail at once, with no connection.
    const dns = await startDnsServer({
      records: [
        { name: 'example.test', type: 'MX', data: { preference: 10, exchange: 'mx.example.test' } },
        { name: '_mta-sts.example.test', type: 'TXT', data: ['v=STSv1; id=1'] },
      ],
    });
    try {
      const setup = await mailSetup(new EmbeddedServices(), 'example.test', {
        server: dns.address,
      });
      const mx = dns.queries.filter((q) => q.type === 'MX' && q.name === 'example.test');
      assert.equal(mx.length, 1, JSON.stringify(dns.queries));
      // both used that one answer
      assert.ok(Array.isArray(setup.transport));
      assert.deepEqual(
        setup.transport.map((t) => t.host),
        ['mx.example.test'],
      );
      const policy = setup.mta_sts_policy;
      assert.ok(policy !== undefined && !('error' in policy), JSON.stringify(policy));
      assert.equal(policy.record, 'v=STSv1; id=1');
      assert.deepEqual(
        policy.problems.map((p) => p.code),
        ['policy_unavailable'],
      );
    } finally {
      await dns.close();
    }
  });

  describe('mxVerdict', () => {
    const tls = (extra: Partial<TlsResult>): TlsResult => ({ ...FIXED.tls, ...extra });
    const policy = (mode: string): MtaStsResult => ({
      ...FIXED.mtaSts,
      policy: { ...FIXED.mtaSts.policy, mode },
    });
    const selfSigned = {
      trusted: false,
      problems: [{ code: 'self_signed' as const, severity: 'error' as const, message: 'x' }],
    };
    const daneMatch = {
      dane: {
        status: 'match' as const,
        name: '_25._tcp.mx.',
        dnssec: 'secure' as const,
        records: [],
      },
    };

    it('a trusted certificate without problems is ok; a warning is a warning', () => {
      assert.deepEqual(mxVerdict(tls({}), policy('enforce')), { level: 'ok' });
      const soon = tls({
        problems: [{ code: 'expires_soon', severity: 'warning', message: 'x' }],
      });
      assert.equal(mxVerdict(soon, policy('enforce')).level, 'warning');
    });
    it('a self-signed certificate is an error, unless DANE matches (RFC 7672 section 3.1)', () => {
      assert.equal(mxVerdict(tls(selfSigned), policy('testing')).level, 'error');
      const dane = mxVerdict(tls({ ...selfSigned, ...daneMatch }), policy('testing'));
      assert.equal(dane.level, 'ok');
      assert.match(dane.note ?? '', /RFC 7672/);
    });
    it('an enforced MTA-STS policy still needs PKIX when DANE matches (RFC 8461 section 4.2)', () => {
      const verdict = mxVerdict(tls({ ...selfSigned, ...daneMatch }), policy('enforce'));
      assert.equal(verdict.level, 'error');
      assert.match(verdict.note ?? '', /MTA-STS/);
    });
    it('a DANE mismatch, no STARTTLS and a failed look-up are errors', () => {
      const mismatch = tls({
        dane: { ...daneMatch.dane, status: 'mismatch' },
        problems: [{ code: 'dane_mismatch', severity: 'error', message: 'x' }],
      });
      assert.equal(mxVerdict(mismatch, policy('none')).level, 'error');
      const none = tls({
        trusted: false,
        chain: [],
        problems: [{ code: 'no_starttls', severity: 'error', message: 'x' }],
      });
      assert.equal(mxVerdict(none, policy('none')).level, 'error');
      const failed = { error: { code: 'upstream_timeout' as const, message: 'x' } };
      assert.equal(mxVerdict(failed, failed).level, 'error');
    });
  });
});
