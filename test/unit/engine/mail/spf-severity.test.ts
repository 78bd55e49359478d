// The SPF tree and check_host agree on what breaks a policy: a problem the tree calls an
// error is one that makes check_host answer permerror (RFC 7208 sections 4.5, 4.6, 4.6.4,
// 5.2, 6.1), and a policy whose tree has only warnings evaluates to a real result. An include
// of a name that does not exist is such an error, wherever it is shown.
import assert from 'node:assert/strict';
import { senderPolicyRanges } from '../../../../src/engine/mail/spf';
import { checkHost } from '../../../../src/engine/mail/spf-check';
import { startDnsServer, type DnsFixture, type FixtureRecord } from '../../../support/dns-server';

const txt = (name: string, text: string): FixtureRecord => ({ name, type: 'TXT', data: [text] });
const a = (name: string, address: string): FixtureRecord => ({ name, type: 'A', data: address });

const RECORDS: FixtureRecord[] = [
  txt('gone.test', 'v=spf1 ip4:192.0.2.1 include:nothere.test -all'),
  txt('notspf.test', 'v=spf1 include:txtonly.test -all'),
  txt('txtonly.test', 'google-site-verification=abc'),
  txt('redirgone.test', 'v=spf1 redirect=nothere.test'),
  txt('several.test', 'v=spf1 -all'),
  txt('several.test', 'v=spf1 ip4:192.0.2.1 -all'),
  txt('syntax.test', 'v=spf1 ip4:999.1.1.1 -all'),
  txt('loop.test', 'v=spf1 include:loop2.test -all'),
  txt('loop2.test', 'v=spf1 include:loop.test -all'),
  txt(
    'eleven.test',
    `v=spf1 ${Array.from({ length: 11 }, (_, i) => `a:h${i}.eleven.test`).join(' ')} -all`,
  ),
  ...Array.from({ length: 11 }, (_, i) => a(`h${i}.eleven.test`, `192.0.2.${i + 1}`)),
  txt('voids.test', 'v=spf1 a:v1.voids.test a:v2.voids.test a:v3.voids.test -all'),
  // warnings only: unwise, but check_host gives a result
  txt('ptr.test', 'v=spf1 ptr ip4:192.0.2.1 -all'),
  txt('passall.test', 'v=spf1 +all'),
  txt('fine.test', 'v=spf1 include:inner.test -all'),
  txt('inner.test', 'v=spf1 ip4:192.0.2.0/24 ip4:198.51.100.0/24 -all'),
];

describe('engine/mail SPF problems: errors are what check_host calls permerror', () => {
  let dns: DnsFixture;
  before(async () => {
    dns = await startDnsServer({ records: RECORDS });
  });
  after(() => dns.close());

  const options = { timeoutMs: 500, tries: 1 };

  it('an include of a name that does not exist is an error, as check_host has it', async () => {
    const root = await senderPolicyRanges({ host: 'gone.test', server: dns.address }, options);
    const problem = root.problems?.find((p) => p.code === 'missing_include_target');
    assert.equal(problem?.severity, 'error');
    const checked = await checkHost(
      { ip: '203.0.113.250', domain: 'gone.test', server: dns.address },
      options,
    );
    assert.equal(checked.result, 'permerror');
  });

  for (const domain of [
    'gone.test',
    'notspf.test',
    'redirgone.test',
    'several.test',
    'syntax.test',
    'loop.test',
    'eleven.test',
    'voids.test',
    'ptr.test',
    'passall.test',
    'fine.test',
  ]) {
    it(`${domain}: an error in the tree exactly when check_host gives permerror`, async () => {
      const root = await senderPolicyRanges({ host: domain, server: dns.address }, options).catch(
        () => undefined,
      );
      // several.test: the tree itself refuses a host with several SPF records? then it has none
      const problems = root?.problems ?? [];
      assert.ok(
        problems.every((p) => p.severity === 'error' || p.severity === 'warning'),
        JSON.stringify(problems),
      );
      const errors = problems.filter((p) => p.severity === 'error').map((p) => p.code);
      const checked = await checkHost(
        { ip: '203.0.113.250', domain, server: dns.address },
        options,
      );
      assert.equal(
        checked.result === 'permerror',
        errors.length > 0,
        `${domain}: check_host ${checked.result}, tree errors ${JSON.stringify(errors)}`,
      );
    });
  }
});
