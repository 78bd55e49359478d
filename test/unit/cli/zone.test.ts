import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './run';

// in this process, stdout and stderr captured, as through a pipe
const run = (...args: string[]) => runCli(args);

const HEAD =
  '$TTL 3600\n@ IN SOA ns1 hostmaster 1 3600 600 86400 300\n@ IN NS ns1\nns1 IN A 192.0.2.1\n';

describe('hostlens zone-check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostlens-zone-cli-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('exits 0 with no problems for a clean zone (origin from the file name)', async () => {
    const r = await run('zone-check', file('example.com.zone', HEAD));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { problems: [] });
  });

  it('--print adds the records in canonical form, RFC 3597 data of a known type in its usual form', async () => {
    const r = await run(
      'zone-check',
      file('print.zone', `${HEAD}www 60 TYPE1 \\# 4 C0000202\nWWW TXT "a\\"b" c\n`),
      '--origin',
      'example.com',
      '--print',
    );
    assert.equal(r.code, 0, r.stderr);
    const { records } = JSON.parse(r.stdout) as { records: string[] };
    assert.deepEqual(records, [
      'example.com. 3600 IN SOA ns1.example.com. hostmaster.example.com. 1 3600 600 86400 300',
      'example.com. 3600 IN NS ns1.example.com.',
      'ns1.example.com. 3600 IN A 192.0.2.1',
      'www.example.com. 60 IN A 192.0.2.2',
      'WWW.example.com. 3600 IN TXT "a\\"b" "c"',
    ]);
    const diff = await run('zone-diff', file('print2.zone', HEAD), '--print');
    assert.equal(diff.code, 2);
    assert.match(diff.stderr, /--print is for zone-check/);
  });

  it('exits 1 on an error, with line, column, code, severity and message', async () => {
    const r = await run(
      'zone-check',
      file('bad.zone', `${HEAD}www  A 192.0.2.300\n`),
      '--origin',
      'example.com',
    );
    assert.equal(r.code, 1);
    const { problems } = JSON.parse(r.stdout) as { problems: Record<string, unknown>[] };
    assert.deepEqual(problems, [
      {
        line: 5,
        column: 8,
        code: 'bad-address',
        severity: 'error',
        message: 'A: "192.0.2.300" is not an IPv4 address',
      },
    ]);
  });

  it('exits 0 when there are only warnings', async () => {
    const r = await run(
      'zone-check',
      file('warn.zone', `${HEAD}a 60 A 192.0.2.1\na 90 A 192.0.2.2\n`),
      '--origin',
      'example.com.',
    );
    assert.equal(r.code, 0);
    const { problems } = JSON.parse(r.stdout) as { problems: { code: string; severity: string }[] };
    assert.deepEqual(
      problems.map((p) => [p.code, p.severity]),
      [['ttl-mismatch', 'warning']],
    );
  });

  it('reads $INCLUDE relative to the file and names the included file in its problems', async () => {
    mkdirSync(join(dir, 'parts'), { recursive: true });
    file('parts/hosts.inc', 'ok A 192.0.2.5\nbroken AAAA nope\n');
    const r = await run(
      'zone-check',
      file('inc.zone', `${HEAD}$INCLUDE parts/hosts.inc\n`),
      '--origin',
      'example.com',
    );
    assert.equal(r.code, 1);
    const { problems } = JSON.parse(r.stdout) as { problems: { line: number; file?: string }[] };
    assert.equal(problems.length, 1);
    assert.equal(problems[0].line, 2);
    assert.equal(problems[0].file, join(dir, 'parts', 'hosts.inc'));
  });

  it('exits 2 on bad usage: no file, two files, unknown flag, unreadable file, unknown origin', async () => {
    for (const args of [
      [],
      ['a.zone', 'b.zone'],
      ['--bogus', 'a.zone'],
      [join(dir, 'missing.zone'), '--origin', 'example.com'],
      [file('zonefile', HEAD)],
    ]) {
      const r = await run('zone-check', ...args);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal((JSON.parse(r.stderr) as { code: string }).code, 'invalid_argument');
    }
  });
});
