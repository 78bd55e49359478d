// The SPF tree on the command line marks a problem that makes receivers answer permerror as an
// error (as spf-check reports it), not as a warning.
import * as assert from 'node:assert/strict';
import { loadFixtureZones, startDnsServer, type DnsFixture } from '../../support/dns-server';
import { runCli } from './run';

describe('hostlens SPF tree: errors and warnings', () => {
  let dns: DnsFixture;
  before(async () => {
    dns = await startDnsServer({ records: loadFixtureZones(['mail.test.zone']) });
  });
  after(() => dns.close());

  for (const command of ['sender_policy_ranges', 'mail']) {
    it(`${command}: a missing include target is an error, ptr a warning`, async () => {
      const r = await runCli([command, 'mail.test', '--server', dns.address, '--format', 'text']);
      assert.equal(r.code, 0, r.stderr);
      const lines = r.stdout.split('\n');
      const gone = lines.find((l) => l.includes('include:gone.mail.test:'));
      assert.match(gone ?? '', /✗ include:gone\.mail\.test: gone\.mail\.test has no SPF record/);
      assert.match(lines.find((l) => l.includes('ptr:')) ?? '', /⚠ ptr: /);
    });
  }

  it('spf-check calls the same policy permerror', async () => {
    const r = await runCli(['spf-check', 'mail.test', '203.0.113.99', '--server', dns.address]);
    assert.equal((JSON.parse(r.stdout) as { result: string }).result, 'permerror');
  });
});
