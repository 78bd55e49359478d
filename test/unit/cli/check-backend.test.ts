// hostlens check through a hosted service: --api names the origin `hostlens serve` prints, the
// token comes from HOSTLENS_API_TOKEN; --backend embedded overrides the environment; a missing
// or unsafe service URL and a refused token fail the run (exit 2) instead of every link.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedServices } from '../../../src/services/embedded';
import { startLinkWeb, type LinkWeb } from '../../support/link-web';
import { startTestServer, type TestServer } from '../../support/serve';
import { runCli, type Run } from './run';

const ENV = ['HOSTLENS_API_TOKEN', 'HOSTLENS_DOMAIN_API_URL', 'HOSTLENS_META_API_URL'] as const;

describe('hostlens check --backend / --api', function () {
  this.timeout(30_000);
  let web: LinkWeb;
  let server: TestServer;
  let dir: string;
  let cwd: string;
  const saved: Record<string, string | undefined> = {};

  before(async function () {
    web = await startLinkWeb();
    // The guard on, as a hosted service runs: a loopback link is never requested.
    server = await startTestServer(new EmbeddedServices({ blockPrivate: true }));
    dir = mkdtempSync(join(tmpdir(), 'hostlens-check-backend-'));
    writeFileSync(join(dir, 'README.md'), `See http://127.0.0.1:${web.port}/ok\n`);
    cwd = process.cwd();
    process.chdir(dir);
    for (const k of ENV) saved[k] = process.env[k];
  });

  afterEach(function () {
    for (const k of ENV) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    web.requests.length = 0;
  });

  after(async function () {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
    await server?.close();
    await web?.close();
  });

  const check = (...args: string[]): Promise<Run> => runCli(['check', ...args]);
  const kinds = (run: Run) =>
    (JSON.parse(run.stdout) as { findings: Array<{ kind: string }> }).findings.map((f) => f.kind);

  it('sends every check through the service named by --api, with the token from the environment', async function () {
    process.env.HOSTLENS_API_TOKEN = server.token;
    const run = await check('--api', server.url, '--format', 'json');
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(kinds(run), ['blocked_target']);
    assert.deepEqual(web.requests, []);
    assert.ok(
      server.log.some((line) => line.includes('/meta/link')),
      server.log.join('\n'),
    );
  });

  it('fails the run when the service refuses the token', async function () {
    process.env.HOSTLENS_API_TOKEN = 'not-the-token';
    const run = await check('--api', server.url, '--format', 'json');
    assert.equal(run.code, 2);
    assert.match(run.stderr, /unauthorized/);
    assert.equal(run.stdout, '');
  });

  it('runs the embedded engine with --backend embedded, whatever the environment says', async function () {
    process.env.HOSTLENS_DOMAIN_API_URL = `${server.url}/domain`;
    process.env.HOSTLENS_META_API_URL = `${server.url}/meta`;
    process.env.HOSTLENS_API_TOKEN = server.token;
    const run = await check('--backend', 'embedded', '--format', 'json');
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(kinds(run), []);
    assert.equal(web.requests.length, 1, web.requests.join('\n'));
    // ... and the service with the environment alone
    const remote = await check('--format', 'json');
    assert.deepEqual(kinds(remote), ['blocked_target']);
  });

  it('refuses a remote backend without a service, an http URL off loopback, an unknown backend', async function () {
    const none = await check('--backend', 'remote');
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--backend remote needs --api URL/);
    const plain = await check('--api', 'http://192.0.2.1:8080');
    assert.equal(plain.code, 2);
    assert.match(plain.stderr, /--api must use https/);
    const unknown = await check('--backend', 'cloud');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--backend is embedded or remote/);
    const both = await check('--backend', 'embedded', '--api', server.url);
    assert.equal(both.code, 2);
  });
});
