// The CAA match (RFC 8659) of the issuing CA: by the registrable domain of the URLs the CA
// publishes in the chain (Authority Information Access), then by the CA's names.
import * as assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import type { DnsRecord } from '../../../../src/contract/shapes';
import { caDomains, checkCaa } from '../../../../src/engine/tls/caa';
import { readCertificate } from '../../../../src/engine/tls/certificate';
import { makeTestPki, type Served, type TestPki } from '../../../support/tls-pki';

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function chainOf(served: Served) {
  return (served.chain.match(PEM) ?? []).map((pem) =>
    readCertificate(Buffer.from(new X509Certificate(pem).raw), Date.now()),
  );
}

const issue = (value: string): DnsRecord => ({ type: 'CAA', flags: 0, tag: 'issue', value });

describe('CAA: the issuing CA against the identifiers allowed', function () {
  this.timeout(60_000);
  let pki: TestPki;
  before(function () {
    this.timeout(120_000);
    pki = makeTestPki({ hostile: false });
  });
  after(() => pki?.close());

  it('reads the registrable domains of the AIA URLs in the chain', () => {
    assert.deepEqual([...caDomains(chainOf(pki.aia))], ['ca-example.test']);
    assert.deepEqual([...caDomains(chainOf(pki.cases.good))], []);
  });

  it('an identifier on the domain the CA publishes its OCSP and issuer URLs on is that CA', () => {
    const set = { owner: 'aia.test', records: [issue('ca-example.test')] };
    assert.equal(checkCaa('aia.test', set, chainOf(pki.aia)), undefined);
    // the same identifier, a chain whose CA publishes no such URL and has another name
    assert.equal(checkCaa('good.test', set, chainOf(pki.cases.good))?.code, 'caa_mismatch');
  });

  it('another identifier is caa_mismatch; the CA name rule still matches without AIA', () => {
    const other = { owner: 'aia.test', records: [issue('other-ca.test; accounturi=x')] };
    assert.match(checkCaa('aia.test', other, chainOf(pki.aia))?.message ?? '', /other-ca\.test/);
    const byName = { owner: 'test', records: [issue('hostlenstest.example')] };
    assert.equal(checkCaa('good.test', byName, chainOf(pki.cases.good)), undefined);
  });
});
