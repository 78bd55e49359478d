import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { loadZoneFile, startDnsServer, type DnsFixture } from '../../support/dns-server';
import { runCli, type Run } from './run';

function run(...args: string[]): Promise<Run> {
  return runCli(args);
}

function problemCode(r: Run): string {
  return (JSON.parse(r.stderr) as { code: string }).code;
}

describe('hostlens command line', () => {
  let dns: DnsFixture;

  before(async () => {
    dns = await startDnsServer({
      records: [
        ...loadZoneFile(path.join(__dirname, '..', '..', 'fixtures', 'zones', 'example.test.zone')),
        ...loadZoneFile(path.join(__dirname, '..', '..', 'fixtures', 'zones', 'mail.test.zone')),
      ],
    });
  });

  after(() => dns.close());

  it('prints the /query JSON for the seed form and the short form alike', async () => {
    const long = await run(
      'query',
      '--host',
      'example.test',
      '--types',
      'MX',
      '--types',
      'a',
      '--server',
      dns.address,
      '--compact',
    );
    const short = await run(
      'query',
      'example.test',
      'MX',
      'A',
      '--server',
      dns.address,
      '--compact',
    );
    assert.equal(long.code, 0);
    assert.equal(long.stdout, short.stdout);
    const result = JSON.parse(long.stdout) as { records: Array<{ type: string }> };
    assert.deepEqual([...new Set(result.records.map((r) => r.type))], ['MX', 'A']);
  });

  it('pretty-prints on request', async () => {
    const r = await run('query', 'example.test', 'A', '--server', dns.address, '--pretty');
    assert.match(r.stdout, /^\{\n {2}"records": \[/);
  });

  it('runs the extra commands: spf-check and mail', async () => {
    const check = await run(
      'spf-check',
      '--host',
      'mail.test',
      '--ip',
      '198.51.100.9',
      '--server',
      dns.address,
    );
    assert.equal(check.code, 0);
    assert.equal((JSON.parse(check.stdout) as { result: string }).result, 'pass');
    const mail = await run(
      'mail',
      'mail.test',
      '--server',
      dns.address,
      '--selectors',
      'google',
      '--skip-transport',
    );
    assert.equal(mail.code, 0);
    const setup = JSON.parse(mail.stdout) as {
      dkim: { domain_keys: unknown[] };
      dmarc: { tags: { p: string } };
    };
    assert.equal(setup.dkim.domain_keys.length, 1);
    assert.equal(setup.dmarc.tags.p, 'none');
  });

  it('exits 2 with a problem on stderr for bad input', async () => {
    const cases: Array<[string[], string]> = [
      [['query', 'bad..host'], 'invalid_host'],
      [['query', 'example.test', 'BOGUS'], 'invalid_type'],
      [['query', 'example.test', '--server', 'not a server'], 'invalid_server'],
      [['query'], 'invalid_host'],
      [['unfurl'], 'invalid_url'],
      [['unfurl', 'ftp://example.test/'], 'invalid_url'],
      [['query', '--nope', 'x'], 'invalid_argument'],
      [['whois', 'a.test', 'b.test'], 'invalid_argument'],
      [['frobnicate'], 'invalid_argument'],
      [['spf-check', '--host', 'mail.test'], 'invalid_argument'],
      [['spf-check', '--ip', '192.0.2.1'], 'invalid_host'],
      [['mail'], 'invalid_host'],
    ];
    for (const [args, code] of cases) {
      const r = await run(...args);
      assert.equal(r.code, 2, `${args.join(' ')} exits 2`);
      assert.equal(r.stdout, '');
      assert.equal(problemCode(r), code, args.join(' '));
    }
  });

  it('exits 1 with a problem when the look-up fails', async () => {
    const r = await run('sender_policy_ranges', 'mail.example.test', '--server', dns.address);
    assert.equal(r.code, 1);
    assert.equal(problemCode(r), 'not_found');
  });

  it('prints help and the version', async () => {
    const help = await run('help');
    assert.equal(help.code, 0);
    for (const name of [
      'query',
      'domain_keys',
      'sender_policy_ranges',
      'whois',
      'icons',
      'redirects',
      'unfurl',
      'serve',
      'spf-check',
      'mail',
    ]) {
      assert.match(help.stdout, new RegExp(`\\b${name}\\b`));
    }
    assert.equal((await run()).code, 2);
    assert.match((await run('--version')).stdout, /^\d+\.\d+\.\d+\n$/);
  });
});
