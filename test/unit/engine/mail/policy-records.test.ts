import assert from 'node:assert/strict';
import { domainKeys } from '../../../../src/engine/mail/dkim';
import { parseMailRecord, type ParsedMailRecord } from '../../../../src/engine/mail/policy-records';
import { mailSetup, type MailRecordResult } from '../../../../src/services/mail';
import { query } from '../../../../src/engine/dns/query';
import { senderPolicyRanges } from '../../../../src/engine/mail/spf';
import { LookupError } from '../../../../src/contract/errors';
import type { DomainService } from '../../../../src/contract/services';
import { startDnsServer, type DnsFixture, type FixtureRecord } from '../../../support/dns-server';

const codes = (r: ParsedMailRecord | null) => r!.problems.map((p) => p.code);

describe('engine/dns/mail-records parsing', () => {
  it('reads a good DMARC record into tags without problems', () => {
    const r = parseMailRecord('dmarc', '_dmarc.example.com', [
      'v=DMARC1; p=reject; sp=quarantine; pct=100; rua=mailto:dmarc@example.com!10m, mailto:x@example.net; adkim=s; aspf=r; fo=0:d',
    ])!;
    assert.equal(r.name, '_dmarc.example.com.');
    assert.equal(r.tags.p, 'reject');
    assert.equal(r.tags.rua, 'mailto:dmarc@example.com!10m, mailto:x@example.net');
    assert.deepEqual(r.problems, []);
  });

  it('flags the usual DMARC mistakes', () => {
    assert.deepEqual(codes(parseMailRecord('dmarc', 'n', ['v=DMARC1; rua=mailto:a@b.example'])), [
      'missing_policy',
    ]);
    const none = parseMailRecord('dmarc', 'n', ['v=DMARC1; p=none; rua=mailto:a@b.example'])!;
    assert.deepEqual(codes(none), ['policy_none']);
    assert.equal(none.problems[0].severity, 'warning');
    assert.deepEqual(
      codes(
        parseMailRecord('dmarc', 'n', [
          'v=DMARC1; p=block; sp=maybe; pct=150; adkim=x; fo=2; ri=soon; rua=mailto:a@; ruf=dmarc@example.com',
        ]),
      ),
      [
        'invalid_policy',
        'invalid_policy',
        'invalid_pct',
        'invalid_alignment',
        'invalid_fo',
        'invalid_ri',
        'invalid_report_uri',
        'invalid_report_uri',
      ],
    );
    assert.deepEqual(codes(parseMailRecord('dmarc', 'n', ['v=DMARC1; p=reject'])), ['no_reports']);
  });

  it('flags several records and a mis-cased version, and ignores other TXT', () => {
    const two = parseMailRecord('dmarc', 'n', [
      'v=DMARC1; p=reject; rua=mailto:a@b.example',
      'v=DMARC1; p=none; rua=mailto:a@b.example',
    ]);
    assert.deepEqual(codes(two), ['several_records']);
    const cased = parseMailRecord('dmarc', 'n', ['v=dmarc1; p=reject; rua=mailto:a@b.example']);
    assert.deepEqual(codes(cased), ['bad_version']);
    assert.equal(parseMailRecord('dmarc', 'n', ['some other text']), null);
    assert.equal(parseMailRecord('dmarc', 'n', []), null);
  });

  it('checks MTA-STS ids', () => {
    assert.deepEqual(codes(parseMailRecord('mta_sts', 'n', ['v=STSv1; id=20240101T0000'])), []);
    assert.deepEqual(codes(parseMailRecord('mta_sts', 'n', ['v=STSv1;'])), ['missing_id']);
    assert.deepEqual(codes(parseMailRecord('mta_sts', 'n', ['v=STSv1; id=2024-01-01'])), [
      'invalid_id',
    ]);
  });

  it('checks TLS-RPT report URIs', () => {
    assert.deepEqual(
      codes(
        parseMailRecord('tls_rpt', 'n', [
          'v=TLSRPTv1; rua=mailto:tls@example.com,https://r.example/tls',
        ]),
      ),
      [],
    );
    assert.deepEqual(codes(parseMailRecord('tls_rpt', 'n', ['v=TLSRPTv1'])), ['missing_rua']);
    assert.deepEqual(codes(parseMailRecord('tls_rpt', 'n', ['v=TLSRPTv1; rua=ftp://x'])), [
      'invalid_report_uri',
    ]);
  });

  it('checks BIMI logo and authority locations', () => {
    assert.deepEqual(
      codes(parseMailRecord('bimi', 'n', ['v=BIMI1; l=https://e.example/logo.svg; a='])),
      [],
    );
    assert.deepEqual(codes(parseMailRecord('bimi', 'n', ['v=BIMI1; l=; a='])), ['declined']);
    assert.deepEqual(
      codes(parseMailRecord('bimi', 'n', ['v=BIMI1; l=http://e.example/l.svg; a=ftp://x'])),
      ['invalid_logo_uri', 'invalid_authority_uri'],
    );
    assert.deepEqual(codes(parseMailRecord('bimi', 'n', ['v=BIMI1'])), ['missing_logo']);
  });
});

const txt = (name: string, text: string): FixtureRecord => ({ name, type: 'TXT', data: [text] });

describe('engine/dns/mail-records mailSetup', () => {
  let dns: DnsFixture;
  let service: DomainService;
  const opts = { timeoutMs: 300, tries: 1 };

  before(async () => {
    dns = await startDnsServer({
      records: [
        txt('shop.test', 'v=spf1 ip4:192.0.2.0/24 -all'),
        txt('_dmarc.shop.test', 'v=DMARC1; p=none; rua=mailto:d@shop.test'),
        txt('_mta-sts.shop.test', 'v=STSv1; id=abc123'),
        txt('_smtp._tls.shop.test', 'v=TLSRPTv1; rua=mailto:tls@shop.test'),
        txt('default._bimi.shop.test', 'v=BIMI1; l=https://shop.test/logo.svg'),
        txt('google._domainkey.shop.test', 'v=DKIM1; p='),
        txt('bare.test', 'nothing to see'),
      ],
      behaviour: (q) => (q.name === '_dmarc.broken.test' ? 'servfail' : undefined),
    });
    // The embedded engine over the fixture, as the embedded service wires it.
    service = {
      query: (p, o) => query(p, { ...opts, ...o }),
      domainKeys: (p, o) => domainKeys(p, { ...opts, ...o }),
      senderPolicyRanges: (p, o) => senderPolicyRanges(p, { ...opts, ...o }),
      whois: () => Promise.reject(new LookupError('not_found', 'not used here')),
      tls: () => Promise.reject(new LookupError('not_found', 'not used here')),
      mtaSts: () => Promise.reject(new LookupError('not_found', 'not used here')),
    };
  });
  after(() => dns.close());

  const parsed = (r: MailRecordResult): ParsedMailRecord => {
    assert.ok(r !== null && !('error' in r));
    return r;
  };

  it('gathers SPF, DKIM, DMARC, MTA-STS, TLS-RPT and BIMI at once', async () => {
    const setup = await mailSetup(service, 'Shop.Test.', { server: dns.address });
    assert.equal(setup.host, 'shop.test');
    assert.ok(!('error' in setup.spf));
    assert.equal(setup.spf.policy, 'v=spf1 ip4:192.0.2.0/24 -all');
    assert.ok(!('error' in setup.dkim));
    assert.equal(setup.dkim.domain_keys[0].public_key, '');
    assert.deepEqual(codes(parsed(setup.dmarc)), ['policy_none']);
    assert.equal(parsed(setup.mta_sts).tags.id, 'abc123');
    assert.deepEqual(parsed(setup.tls_rpt).problems, []);
    assert.equal(parsed(setup.bimi).tags.l, 'https://shop.test/logo.svg');
  });

  it('reports what is missing or failing per part, never failing the whole', async () => {
    const bare = await mailSetup(service, 'bare.test', { server: dns.address, selectors: ['s1'] });
    assert.deepEqual(bare.spf, {
      error: { code: 'not_found', message: 'bare.test has no SPF record' },
    });
    assert.deepEqual(bare.dkim, { domain_keys: [] });
    assert.equal(bare.dmarc, null);
    assert.equal(bare.bimi, null);
    const broken = await mailSetup(service, 'broken.test', { server: dns.address });
    assert.ok(broken.dmarc !== null && 'error' in broken.dmarc);
    assert.equal(broken.dmarc.error.code, 'upstream_error');
  });

  it('rejects an invalid host and honours cancellation', async () => {
    await assert.rejects(mailSetup(service, 'a..b'), (e: LookupError) => e.code === 'invalid_host');
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      mailSetup(service, 'shop.test', { server: dns.address, signal: ac.signal }),
      (e: LookupError) => e.code === 'cancelled',
    );
  });
});
