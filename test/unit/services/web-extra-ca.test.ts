// Pages are fetched under the TLS look-ups' extra CAs (hostlens.tls.caFiles): a site under a
// user's private CA unfurls with them, and fails as untrusted without them.
import assert from 'node:assert/strict';
import { EmbeddedServices } from '../../../src/services/embedded';
import { LookupError } from '../../../src/contract/errors';
import { makeTestPki, type TestPki } from '../../support/tls-pki';
import { serveHttpsPage, type Listening } from '../../support/tls-server';

describe('web fetches and the extra CAs', function () {
  this.timeout(60_000);
  let pki: TestPki;
  let site: Listening;
  const page = '<html><head><title>Private CA page</title></head><body></body></html>';

  before(async function () {
    this.timeout(120_000);
    pki = makeTestPki({ hostile: false });
    site = await serveHttpsPage(pki.loopback, page);
  });
  after(async () => {
    await site?.close();
    pki?.close();
  });

  it('unfurls a page whose chain ends at an extra CA', async () => {
    const services = new EmbeddedServices({ extraCa: [pki.ca] });
    const result = await services.unfurl({ url: `https://127.0.0.1:${site.port}/` });
    assert.equal(result.page_title, 'Private CA page');
  });

  it('refuses the same page without the extra CA, with a coded error', async () => {
    for (const services of [new EmbeddedServices(), new EmbeddedServices({ extraCa: [] })]) {
      await assert.rejects(
        services.unfurl({ url: `https://127.0.0.1:${site.port}/` }),
        (err: unknown) => err instanceof LookupError && err.code === 'upstream_error',
      );
    }
  });
});
