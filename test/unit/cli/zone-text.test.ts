// zone-check and zone-diff for people: on a terminal (or with --format text) one
// `file:line:col: severity: message` line per finding, as compilers and named-checkzone print
// them, so editors and terminals can jump to the line; JSON when piped or asked.
import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseZone, startDnsServer, type DnsFixture } from '../../support/dns-server';
import { runCli } from './run';

const HEAD =
  '$TTL 3600\n@ IN SOA ns1 hostmaster 1 3600 600 86400 300\n@ IN NS ns1\nns1 IN A 192.0.2.1\n';
const TTY = { stdoutIsTTY: true, columns: 100 };

describe('hostlens zone-check and zone-diff as text', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostlens-zone-text-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('zone-check prints file:line:col: severity: message lines on a terminal', async () => {
    const path = file(
      'bad.zone',
      `${HEAD}www  A 192.0.2.300\na 60 A 192.0.2.1\na 90 A 192.0.2.2\n`,
    );
    const r = await runCli(['zone-check', path, '--origin', 'example.com', '--no-color'], TTY);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(
      lines[0],
      `${path}:5:8: error: A: "192.0.2.300" is not an IPv4 address [bad-address]`,
    );
    assert.match(lines[1], new RegExp(`^${path}:7:\\d+: warning: .* \\[ttl-mismatch\\]$`));
    assert.equal(lines.at(-1), '1 error, 1 warning');
  });

  it('zone-check --print writes the records before the findings, with problems or without', async () => {
    // no $TTL and an SOA without one: the SOA minimum for every record, and a warning (issue 27)
    const path = file(
      'minimum.zone',
      '@ SOA ns1 hm 1 3600 600 86400 120\n@ NS ns1\nns1 A 192.0.2.1\n',
    );
    const r = await runCli(
      ['zone-check', path, '--origin', 'example.com', '--print', '--no-color'],
      TTY,
    );
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.match(lines[0], /^example\.com\.\s+120 IN SOA\s+ns1\.example\.com\. /);
    assert.match(lines[2], /^ns1\.example\.com\.\s+120 IN A\s+192\.0\.2\.1$/);
    assert.equal(lines[3], '');
    assert.match(lines[4], new RegExp(`^${path}:1:3: warning: .*SOA minimum 120.* \\[no-ttl\\]$`));
    assert.equal(lines.at(-1), '0 errors, 1 warning');
  });

  it('zone-check prints text with --format text when piped, and JSON with --json on a terminal', async () => {
    const path = file('clean.example.zone', HEAD);
    const text = await runCli(['zone-check', path, '--origin', 'example.com', '--format', 'text']);
    assert.equal(text.code, 0);
    assert.equal(text.stdout, `${path}: no problems (zone example.com.)\n`);
    const json = await runCli(['zone-check', path, '--origin', 'example.com', '--json'], TTY);
    assert.deepEqual(JSON.parse(json.stdout), { problems: [] });
  });

  describe('zone-diff', () => {
    let dns: DnsFixture;
    const LIVE = `${HEAD}www IN A 192.0.2.10\nliveonly IN A 192.0.2.99\n`;
    before(async () => {
      dns = await startDnsServer({ records: parseZone(LIVE, 'drift.test') });
    });
    after(() => dns.close());

    it('prints 1-based file:line:col lines, each server serial and the count in words', async () => {
      // line 5 differs in data, line 6 is only in the file
      const path = file(
        'drift.test.zone',
        `${HEAD}www IN A 192.0.2.11\nfileonly IN A 192.0.2.98\n`,
      );
      const r = await runCli(['zone-diff', path, '--server', dns.address, '--no-color'], TTY);
      assert.equal(r.code, 1, r.stderr);
      const lines = r.stdout.trimEnd().split('\n');
      assert.deepEqual(lines, [
        `${path}:5:1: warning: www.drift.test. A differs at ${dns.address}: file 3600 192.0.2.11, live 3600 192.0.2.10`,
        `${path}:6:1: warning: fileonly.drift.test. A 3600 192.0.2.98 is not served by ${dns.address}`,
        `${dns.address}: serial 1 (query)`,
        '2 differences from the live zone',
      ]);
    });

    it('JSON when piped: the drift lines are 1-based', async () => {
      const path = file(
        'drift2.test.zone',
        `$ORIGIN drift.test.\n${HEAD}www IN A 192.0.2.10\nx A 192.0.2.7\n`,
      );
      const r = await runCli(['zone-diff', path, '--server', dns.address]);
      assert.equal(r.code, 1, r.stderr);
      const { drift } = JSON.parse(r.stdout) as { drift: Array<{ name: string; line: number }> };
      assert.deepEqual(
        drift.map((d) => [d.name, d.line]),
        [['x.drift.test.', 7]],
      );
    });

    it('says one difference in the singular, and a match in words', async () => {
      const one = file(
        'one.zone',
        `$ORIGIN drift.test.\n${HEAD}www IN A 192.0.2.10\nx A 192.0.2.7\n`,
      );
      const r1 = await runCli(['zone-diff', one, '--server', dns.address, '--format', 'text']);
      assert.equal(r1.stdout.trimEnd().split('\n').at(-1), '1 difference from the live zone');
      const same = file('same.zone', `$ORIGIN drift.test.\n${HEAD}www IN A 192.0.2.10\n`);
      const r2 = await runCli(['zone-diff', same, '--server', dns.address, '--format', 'text']);
      assert.equal(r2.code, 0, r2.stdout);
      assert.equal(r2.stdout.trimEnd().split('\n').at(-1), 'matches the live zone');
    });
  });
});
