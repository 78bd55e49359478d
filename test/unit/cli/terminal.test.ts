// Where the output goes decides its form: text (in colour) on a terminal, the unchanged JSON
// of the HTTP API when piped. Checked in this process with a described terminal, and once for
// real under a pseudo-terminal made by script(1).
import * as assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { renderText } from '../../../src/cli/text/index';
import { makeGlyphs, makeStyle } from '../../../src/cli/text/style';
import { mailSetup } from '../../../src/services/mail';
import { EmbeddedServices } from '../../../src/services/embedded';
import { loadFixtureZones, startDnsServer, type DnsFixture } from '../../support/dns-server';
import { PIPE, runCli } from './run';

const ESC = '\u001b[';
const ROOT = join(__dirname, '..', '..', '..');
const TTY = { stdoutIsTTY: true, stderrIsTTY: true };

describe('hostlens output on a terminal and in a pipe', () => {
  let dns: DnsFixture;
  before(async () => {
    dns = await startDnsServer({ records: loadFixtureZones() });
  });
  after(() => dns.close());

  it('prints text on a terminal and JSON in a pipe by default', async () => {
    const args = ['query', 'example.test', 'A', '--server', dns.address];
    const onTerminal = await runCli(args, TTY);
    assert.match(onTerminal.stdout, /^example\.test\. +3600 +IN +.*A.* +192\.0\.2\.10$/m);
    const piped = await runCli(args);
    assert.doesNotThrow(() => JSON.parse(piped.stdout));
    assert.equal(piped.stdout.split('\n').length, 2, 'one line of JSON');
  });

  it('pipes the same JSON, byte for byte, as the engine answers', async () => {
    const services = new EmbeddedServices({});
    const server = dns.address;
    const cases: Array<[string[], Promise<unknown>]> = [
      [
        ['query', 'example.test', 'MX', 'TXT', '--server', server],
        services.query({ host: 'example.test', types: ['MX', 'TXT'], server }),
      ],
      [
        ['sender_policy_ranges', 'mail.test', '--server', server],
        services.senderPolicyRanges({ host: 'mail.test', server }),
      ],
      [
        ['domain_keys', 'mail.test', '--selectors', 'google', '--server', server],
        services.domainKeys({ host: 'mail.test', selectors: ['google'], server }),
      ],
      [
        ['mail', 'mail.test', '--server', server, '--skip-transport'],
        mailSetup(services, 'mail.test', { server, transport: false }),
      ],
    ];
    for (const [args, expected] of cases) {
      const want = `${JSON.stringify(await expected)}\n`;
      assert.equal((await runCli(args)).stdout, want, args.join(' '));
      assert.equal((await runCli([...args, '--compact'], TTY)).stdout, want, 'as --compact did');
      assert.equal((await runCli([...args, '--json'])).stdout, want, '--json in a pipe');
    }
  });

  it('honours --format, --json, --pretty and --compact wherever they stand', async () => {
    const base = ['query', 'example.test', 'A', '--server', dns.address];
    const pretty = await runCli([...base, '--format', 'json'], TTY);
    assert.match(pretty.stdout, /^\{\n {2}"records": \[/, 'JSON on a terminal stays indented');
    assert.match((await runCli(['query', '--json', ...base.slice(1)], TTY)).stdout, /^\{\n/);
    assert.match((await runCli([...base, '--pretty'])).stdout, /^\{\n/);
    const text = await runCli([...base, '--format=text']);
    assert.match(text.stdout, /;; status: NOERROR, 2 records\n$/);
    assert.ok(!text.stdout.includes(ESC), 'no colour in a pipe, even as text');
  });

  it('colours only a terminal, never with NO_COLOR or --no-color', async () => {
    const args = ['query', 'example.test', 'A', '--server', dns.address];
    assert.ok((await runCli(args, TTY)).stdout.includes(ESC));
    // no-color.org: an empty NO_COLOR does not count
    assert.ok((await runCli(args, { ...TTY, env: { NO_COLOR: '' } })).stdout.includes(ESC));
    for (const [extra, env] of [
      [[], { NO_COLOR: '1' }],
      [['--no-color'], {}],
      [[], { TERM: 'dumb' }],
    ] as const) {
      const r = await runCli([...args, ...extra], { ...TTY, env });
      assert.match(r.stdout, /IN +A +192\.0\.2\.10/);
      assert.ok(!r.stdout.includes(ESC), JSON.stringify({ extra, env }));
    }
    const failed = await runCli(['query', 'bad..host'], { ...TTY, env: { NO_COLOR: '1' } });
    assert.match(failed.stderr, /^hostlens: invalid_host: /);
    assert.ok(!failed.stderr.includes(ESC));
  });

  it('reports errors as one line on a terminal and as problem JSON in a pipe', async () => {
    const onTerminal = await runCli(['whois'], { ...TTY, env: { NO_COLOR: '1' } });
    assert.equal(onTerminal.code, 2);
    assert.match(onTerminal.stderr, /^hostlens: invalid_host: --host is required\nusage: /);
    const piped = await runCli(['whois']);
    assert.equal((JSON.parse(piped.stderr) as { code: string }).code, 'invalid_host');
    // a bad --format is itself reported in the format chosen otherwise
    const badFormat = await runCli(['whois', 'example.test', '--format', 'yaml'], {
      ...TTY,
      env: { NO_COLOR: '1' },
    });
    assert.equal(badFormat.code, 2);
    assert.equal(
      badFormat.stderr,
      'hostlens: invalid_argument: --format takes "text" or "json", not "yaml"\n',
    );
    const badFormatJson = await runCli(['whois', 'example.test', '--json', '--format'], TTY);
    assert.equal((JSON.parse(badFormatJson.stderr) as { code: string }).code, 'invalid_argument');
  });

  it('draws with ASCII only when asked', async () => {
    const r = await runCli(
      ['sender_policy_ranges', 'mail.test', '--server', dns.address, '--ascii', '--format', 'text'],
      { ...TTY, env: { NO_COLOR: '1' } },
    );
    assert.match(r.stdout, /^`-- gone\.mail\.test/m);
    assert.ok(/^[\x00-\x7f]*$/.test(r.stdout), 'ASCII only');
  });

  it('folds long lines to the width of the terminal, under their column', async () => {
    const args = ['mail', 'mail.test', '--server', dns.address, '--skip-transport'];
    const wide = await runCli(args, { ...TTY, env: { NO_COLOR: '1' } });
    const narrow = await runCli(args, { ...TTY, columns: 72, env: { NO_COLOR: '1' } });
    const dmarcLines = (out: string) => out.split('\n').filter((l) => /^ {11}/.test(l));
    assert.ok(
      wide.stdout.split('\n').some((l) => l.length > 72),
      'the fixture has long lines',
    );
    for (const line of narrow.stdout.split('\n'))
      if (!line.includes('v=spf1') && !line.includes('._domainkey.'))
        assert.ok([...line].length <= 72, `folded: ${line}`);
    assert.ok(
      dmarcLines(narrow.stdout).some((l) => /^ {13}\S/.test(l)),
      'hanging indent',
    );
    const piped = await runCli([...args, '--format', 'text'], { columns: 72 });
    assert.equal(piped.stdout, wide.stdout, 'piped text is never folded');
  });

  it('falls back to pretty JSON for a command without a text renderer', () => {
    const context = {
      style: makeStyle(false),
      glyphs: makeGlyphs(false),
      now: PIPE.now(),
      width: Infinity,
      params: {},
    };
    assert.equal(renderText('zone_check_someday', { ok: true }, context), '{\n  "ok": true\n}');
  });

  describe('under a real pseudo-terminal (script)', function () {
    this.timeout(60_000);
    const hasScript = spawnSync('script', ['--version']).status === 0;

    function underScript(args: string[], env: Record<string, string>) {
      const command = [process.execPath, '--import', 'tsx', 'src/cli/bin.ts', ...args]
        .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
        .join(' ');
      const childEnv: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm-256color', ...env };
      if (!('NO_COLOR' in env)) delete childEnv.NO_COLOR;
      return promisify(execFile)('script', ['-qec', command, '/dev/null'], {
        cwd: ROOT,
        env: childEnv,
      });
    }

    before(function () {
      if (!hasScript) {
        console.log('      (skipped: script(1) from util-linux is not installed)');
        this.skip();
      }
    });

    it('defaults to coloured text, and to plain text with NO_COLOR', async () => {
      const args = ['query', 'example.test', 'MX', '--server', dns.address];
      const coloured = await underScript(args, {});
      assert.ok(coloured.stdout.includes(ESC), 'colour on a terminal');
      assert.match(coloured.stdout, /IN .*MX.* 10 mail\.example\.test\./);
      const plain = await underScript(args, { NO_COLOR: '1' });
      assert.ok(!plain.stdout.includes(ESC));
      assert.match(plain.stdout, /^example\.test\. +(\d+ +)?IN +MX +10 mail\.example\.test\.\r?$/m);
    });

    it('still prints the JSON of the API in a pipe', async () => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [
          '--import',
          'tsx',
          'src/cli/bin.ts',
          'query',
          'example.test',
          'MX',
          '--server',
          dns.address,
        ],
        { cwd: ROOT },
      );
      assert.equal(
        stdout,
        `${JSON.stringify(await new EmbeddedServices({}).query({ host: 'example.test', types: ['MX'], server: dns.address }))}\n`,
      );
    });
  });
});
