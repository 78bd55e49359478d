// Every HTTPS connection of the engine (pages, RDAP, redirects) checks the server's name as the
// TLS look-up does, with OpenSSL's rules (certificate-names.ts), not node's: a star inside a
// label names no host.
import assert from 'node:assert/strict';
import { createSecureContext } from 'node:tls';
import { Agent, request } from 'undici';
import { guardedConnector } from '../../../src/engine/agent';
import { makeTestPki, type TestPki } from '../../support/tls-pki';
import { serveHttpsPage, type Listening } from '../../support/tls-server';

describe('engine/agent: the name check of HTTPS connections', function () {
  this.timeout(60_000);
  let pki: TestPki;
  let innerStar: Listening;
  let good: Listening;

  before(async function () {
    this.timeout(120_000);
    pki = makeTestPki({ hostile: false });
    innerStar = await serveHttpsPage(pki.cases.inner_wildcard, '<title>inner</title>');
    good = await serveHttpsPage(pki.cases.good, '<title>good</title>');
  });
  after(async () => {
    await innerStar?.close();
    await good?.close();
    pki?.close();
  });

  /** A GET of https://host:port/ with the test root trusted and every name at 127.0.0.1. */
  async function fetchStatus(host: string, port: number): Promise<number> {
    const agent = new Agent({
      connect: guardedConnector(
        {
          lookup: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
          secureContext: createSecureContext({ ca: pki.ca }),
        },
        undefined,
      ),
    });
    try {
      const response = await request(`https://${host}:${port}/`, { dispatcher: agent });
      await response.body.dump();
      return response.statusCode;
    } finally {
      await agent.close();
    }
  }

  it('fetches from a server whose certificate names the host', async () => {
    assert.equal(await fetchStatus(pki.cases.good.host, good.port), 200);
  });

  it("refuses a star inside a label (w*w.inner.test for wxw.inner.test) with node's code", async () => {
    await assert.rejects(
      fetchStatus(pki.cases.inner_wildcard.host, innerStar.port),
      (err: NodeJS.ErrnoException) =>
        err.code === 'ERR_TLS_CERT_ALTNAME_INVALID' &&
        /the certificate is not for wxw\.inner\.test \(it names DNS:w\*w\.inner\.test\)/.test(
          err.message,
        ),
    );
  });

  it('refuses a certificate for another name', async () => {
    await assert.rejects(
      fetchStatus(pki.cases.good.host, innerStar.port),
      (err: NodeJS.ErrnoException) => err.code === 'ERR_TLS_CERT_ALTNAME_INVALID',
    );
  });
});
