// With `hostlens serve` in front (guard on), the check goes through the HTTP client: a link to a
// loopback or private address is a blocked_target finding, and the site never sees a request.
import assert from 'node:assert/strict';
import { EmbeddedServices } from '../../../../src/services/embedded';
import { checkTexts } from '../../../../src/services/check/index';
import { startLinkWeb, type LinkWeb } from '../../../support/link-web';
import { startTestServer, type TestServer } from '../../../support/serve';

describe('checkTexts() through hostlens serve with the address guard on', function () {
  this.timeout(20_000);
  let web: LinkWeb;
  let server: TestServer;

  before(async function () {
    web = await startLinkWeb();
    server = await startTestServer(new EmbeddedServices({ blockPrivate: true }));
  });
  after(async function () {
    await server?.close();
    await web?.close();
  });

  it('reports a link to a loopback address as blocked_target, never a request', async function () {
    const url = `http://127.0.0.1:${web.port}/ok`;
    const report = await checkTexts(
      server.client,
      [{ file: '/work/README.md', text: `See ${url} and [this](http://[::1]:${web.port}/)` }],
      { cwd: '/work' },
    );
    assert.deepEqual(
      report.findings.map((f) => [f.kind, f.severity, f.line, f.column, f.target]),
      [
        ['blocked_target', 'warning', 1, 5, url],
        ['blocked_target', 'warning', 1, 5 + url.length + 12, `http://[::1]:${web.port}/`],
      ],
    );
    assert.deepEqual(web.requests, []);
  });
});
