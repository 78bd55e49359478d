// `hostlens tls --ca-file`: a CA named on the command line is trusted besides the system's;
// without it the same chain is untrusted (exit 1); a file that is no CA is a coded error (2).
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTestPki, type TestPki } from '../../support/tls-pki';
import { serveTls, type Listening } from '../../support/tls-server';
import { runCli } from './run';

describe('hostlens tls --ca-file', function () {
  this.timeout(60_000);
  let pki: TestPki;
  let server: Listening;
  before(async function () {
    this.timeout(120_000);
    pki = makeTestPki({ hostile: false });
    server = await serveTls(pki.loopback);
  });
  after(async () => {
    await server?.close();
    pki?.close();
  });

  it('trusts the named CA: exit 0; without it: untrusted, exit 1', async () => {
    const target = `127.0.0.1:${server.port}`;
    const trusted = await runCli(['tls', target, '--ca-file', pki.caFile]);
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.equal((JSON.parse(trusted.stdout) as { trusted: boolean }).trusted, true);
    const plain = await runCli(['tls', target]);
    assert.equal(plain.code, 1, plain.stderr);
    assert.equal((JSON.parse(plain.stdout) as { trusted: boolean }).trusted, false);
  });

  it('a file that cannot be read or holds no certificate is invalid_argument, exit 2', async () => {
    const notPem = join(pki.dir, 'not.pem');
    writeFileSync(notPem, 'hello');
    for (const file of [join(pki.dir, 'missing.pem'), notPem]) {
      const run = await runCli(['tls', `127.0.0.1:${server.port}`, '--ca-file', file]);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /invalid_argument/);
    }
  });
});
