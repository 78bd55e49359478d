// The command line forgives what people type: a near miss of an option or a command gets a
// "did you mean", both spellings of a multi-word command run it, a switch does not complete
// file names, and a failed look-up names the nameserver and how long it was waited for.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closedUdpPort } from '../../support/knot';
import { loadFixtureZones, startDnsServer, type DnsFixture } from '../../support/dns-server';
import { runCli } from './run';

function detail(stderr: string): string {
  return (JSON.parse(stderr) as { detail: string }).detail;
}

describe('hostlens: mistakes people make', () => {
  let dns: DnsFixture;
  before(async () => {
    dns = await startDnsServer({ records: loadFixtureZones(['mail.test.zone']) });
  });
  after(() => dns.close());

  it('a mistyped option gets "did you mean", in operations and commands alike', async () => {
    const query = await runCli(['query', 'example.test', '--sever', '127.0.0.1']);
    assert.equal(query.code, 2);
    assert.match(detail(query.stderr), /^Unknown option --sever: did you mean --server\?\n/);
    const spf = await runCli(['spf-check', 'mail.test', '198.51.100.9', '--hleo', 'x.test']);
    assert.equal(spf.code, 2);
    assert.match(detail(spf.stderr), /^Unknown option --hleo: did you mean --helo\?\n/);
    const format = await runCli(['query', 'example.test', '--fromat', 'text']);
    assert.match(detail(format.stderr), /did you mean --format\?/);
    // nothing close: no guess, the usage
    const far = await runCli(['query', 'example.test', '--zzzzzz']);
    assert.match(detail(far.stderr), /^Unknown option --zzzzzz\nusage: hostlens query /);
  });

  it('a mistyped command gets "did you mean"', async () => {
    const r = await runCli(['qeury', 'example.test']);
    assert.equal(r.code, 2);
    assert.match(detail(r.stderr), /Did you mean "query"\?/);
  });

  it('runs multi-word commands by either spelling', async () => {
    const ip = ['--ip', '198.51.100.9', '--server', dns.address];
    const dashed = await runCli(['spf-check', '--host', 'mail.test', ...ip]);
    const underscored = await runCli(['spf_check', '--host', 'mail.test', ...ip]);
    assert.equal(underscored.code, 0, underscored.stderr);
    assert.equal(underscored.stdout, dashed.stdout);
    const keys = ['mail.test', '--selectors', 'google', '--server', dns.address];
    const a = await runCli(['domain_keys', ...keys]);
    const b = await runCli(['domain-keys', ...keys]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.stdout, a.stdout);
    const help = await runCli(['zone_check', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /hostlens zone-check FILE/);
  });

  it('bash completion after --dnssec offers options and types, not file names', async () => {
    const source = (await runCli(['completion', 'bash'])).stdout;
    const r = spawnSync(
      'bash',
      [
        '-c',
        `${source}\nCOMP_WORDS=(hostlens query example.com --dnssec ''); COMP_CWORD=4; _hostlens; echo "\${#COMPREPLY[@]} \${COMPREPLY[*]}"`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    // An empty reply would let bash fall back to file names (complete -o default).
    const [count, ...words] = r.stdout.trim().split(' ');
    assert.ok(Number(count) > 0, r.stdout);
    assert.ok(words.includes('MX') && words.includes('--server'), r.stdout);
  });

  it('a nameserver that refuses is named in the error, once', async () => {
    const server = `127.0.0.1:${await closedUdpPort()}`;
    const r = await runCli(['query', 'example.test', 'A', '--server', server]);
    assert.equal(r.code, 1);
    const text = detail(r.stderr);
    assert.equal(text, `${server} refused the connection`);
    const spf = await runCli(['sender_policy_ranges', 'mail.test', '--server', server]);
    assert.equal(
      detail(spf.stderr),
      `The TXT look-up of mail.test failed: ${server} refused the connection`,
    );
  });
});
