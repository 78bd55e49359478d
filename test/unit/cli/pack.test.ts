// The command line installs on its own: `npm pack` (its prepack builds the bundles) gives a
// package that `npm install -g` puts into an empty prefix offline, with nothing to fetch, and
// whose `hostlens` then runs with only Node on the PATH: no VS Code, no dev dependencies, no
// node_modules of this checkout within reach.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { loadFixtureZones, startDnsServer, type DnsFixture } from '../../support/dns-server';

const exec = promisify(execFile);
const ROOT = join(__dirname, '..', '..', '..');

/** This process's environment without what an outer `npm run`/`npm test` exported. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'INIT_CWD'),
  );
}

describe('npm pack: the command line as a package of its own', function () {
  this.timeout(180_000);
  let tmp: string;
  let dns: DnsFixture;
  let bin: string;

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'hostlens-pack-'));
    dns = await startDnsServer({ records: loadFixtureZones() });
    const env = { ...cleanEnv(), npm_config_cache: join(tmp, 'cache') };
    await exec('npm', ['pack', '--pack-destination', tmp, '--loglevel=error'], { cwd: ROOT, env });
    const tarball = readdirSync(tmp).find((f) => /^hostlens-.*\.tgz$/.test(f));
    assert.ok(tarball, 'npm pack wrote a tarball');
    const prefix = join(tmp, 'prefix');
    await exec(
      'npm',
      [
        'install',
        '-g',
        '--offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        '--prefix',
        prefix,
        join(tmp, tarball),
      ],
      { cwd: tmp, env },
    );
    bin = join(prefix, 'bin');
  });

  after(async () => {
    await dns?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** hostlens from the install, run from an empty folder with only Node and it on the PATH. */
  function hostlens(...args: string[]) {
    return exec('hostlens', args, {
      cwd: tmp,
      env: { PATH: `${bin}:${dirname(process.execPath)}`, HOME: tmp },
    });
  }

  it('installs a package that needs nothing else at run time', async () => {
    const { stdout } = await hostlens('--version');
    assert.match(stdout, /^\d+\.\d+\.\d+\n$/);
    const installed = join(tmp, 'prefix', 'lib', 'node_modules', 'hostlens');
    assert.deepEqual(
      readdirSync(installed).filter((f) => f === 'node_modules'),
      [],
      'no dependencies installed beside it',
    );
  });

  it('answers a query against the loopback DNS server, as JSON in a pipe and as text', async () => {
    const json = await hostlens('query', 'example.test', 'MX', '--server', dns.address);
    const answer = JSON.parse(json.stdout) as {
      records: Array<{ type: string; value: string; priority: number }>;
      status: string;
    };
    assert.equal(answer.status, 'NOERROR');
    assert.deepEqual(
      answer.records.map((r) => [r.type, r.priority, r.value]),
      [
        ['MX', 10, 'mail.example.test.'],
        ['MX', 20, 'mail2.example.test.'],
      ],
    );
    const text = await hostlens(
      'query',
      'example.test',
      'MX',
      '--server',
      dns.address,
      '--format',
      'text',
    );
    assert.match(text.stdout, /^example\.test\. +(\d+ +)?IN +MX +10 mail\.example\.test\.$/m);
  });
});
