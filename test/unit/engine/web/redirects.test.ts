import assert from 'node:assert/strict';
import { LookupError } from '../../../../src/contract/errors';
import { redirects } from '../../../../src/engine/web/redirects';
import { startWebServer, type WebFixture } from '../../../support/web-server';

describe('web redirects', () => {
  let site: WebFixture;
  before(async () => {
    site = await startWebServer();
  });
  after(() => site.close());

  for (const status of [301, 302, 303, 307, 308]) {
    it(`records a ${status} hop with its exact status and absolute location`, async () => {
      const result = await redirects({ url: site.url(`/redirect/${status}`) });
      assert.deepEqual(result.locations, [{ status_code: status, location: site.url('/final') }]);
      assert.equal(result.final_url, site.url('/final'));
      assert.equal(result.final_status_code, 200);
      assert.equal(result.error, undefined);
    });
  }

  it('gives {"locations": []} plus the final status when there is no redirect', async () => {
    const result = await redirects({ url: site.url('/final') });
    assert.deepEqual(result, {
      locations: [],
      final_url: site.url('/final'),
      final_status_code: 200,
    });
  });

  it('resolves relative, dot-relative and protocol-relative Location headers', async () => {
    const relative = await redirects({ url: site.url('/dot-relative/a/b') });
    assert.equal(relative.locations[0]?.location, site.url('/dot-relative/c?x=1'));
    const protocolRelative = await redirects({ url: site.url('/protocol-relative') });
    assert.deepEqual(protocolRelative.locations, [
      { status_code: 302, location: site.url('/final') },
    ]);
    const absolute = await redirects({ url: site.url('/absolute') });
    assert.deepEqual(absolute.locations, [{ status_code: 301, location: site.url('/final') }]);
  });

  it('stops a loop with redirect_loop and the hops so far', async () => {
    const result = await redirects({ url: site.url('/loop/a') });
    assert.deepEqual(result, {
      locations: [
        { status_code: 302, location: site.url('/loop/b') },
        { status_code: 301, location: site.url('/loop/a') },
      ],
      error: { code: 'redirect_loop' },
    });
    const self = await redirects({ url: site.url('/self') });
    assert.equal(self.error?.code, 'redirect_loop');
    assert.equal(self.locations.length, 1);
  });

  it('follows 20 hops and stops at the 21st with too_many_redirects', async () => {
    const twenty = await redirects({ url: site.url('/chain/20') });
    assert.equal(twenty.locations.length, 20);
    assert.equal(twenty.final_url, site.url('/chain/0'));
    assert.equal(twenty.error, undefined);
    const before = site.requests.length;
    const result = await redirects({ url: site.url('/chain/21') });
    assert.equal(result.error?.code, 'too_many_redirects');
    assert.equal(result.locations.length, 21);
    assert.equal(result.locations[20]?.location, site.url('/chain/0'));
    assert.equal(site.requests.length - before, 21, 'the 21st target is never requested');
  });

  it('honours a smaller redirect limit', async () => {
    const result = await redirects({ url: site.url('/chain/3') }, { limits: { maxRedirects: 2 } });
    assert.equal(result.error?.code, 'too_many_redirects');
  });

  it('keeps cookies set during the chain, and only for that chain', async () => {
    const result = await redirects({ url: site.url('/cookie/start') });
    assert.deepEqual(
      result.locations.map((h) => h.status_code),
      [302, 303],
    );
    assert.equal(result.final_url, site.url('/final'));
    const check = site.requests.filter((r) => r.path === '/cookie/check').at(-1);
    assert.equal(check?.headers.cookie, 'gate=open');
    // A new chain starts with an empty jar: without the cookie the gate sends it round.
    const fresh = await redirects({ url: site.url('/cookie/check') });
    assert.deepEqual(
      fresh.locations.map((h) => h.location),
      [site.url('/cookie/start'), site.url('/cookie/check'), site.url('/final')],
    );
  });

  it('reports a meta refresh on the final page without following it', async () => {
    const result = await redirects({ url: site.url('/refresh') });
    assert.deepEqual(result.locations, []);
    assert.deepEqual(result.meta_refresh, { delay: 5, url: site.url('/final') });
    assert.equal(result.final_url, site.url('/refresh'));
  });

  it('reports 404 and 500 as the final status', async () => {
    assert.equal((await redirects({ url: site.url('/status/404') })).final_status_code, 404);
    assert.equal((await redirects({ url: site.url('/status/500') })).final_status_code, 500);
  });

  it('stops at a Location that is not http or https', async () => {
    const result = await redirects({ url: site.url('/to-ftp') });
    assert.deepEqual(result.locations, [
      { status_code: 301, location: 'ftp://example.invalid/file' },
    ]);
    assert.equal(result.final_status_code, 301);
  });

  it('refuses URLs the contract does not take', async () => {
    for (const url of [
      'ftp://x.test/',
      'javascript:alert(1)',
      '',
      `https://x.test/${'a'.repeat(8200)}`,
    ]) {
      await assert.rejects(redirects({ url }), (err: LookupError) => err.code === 'invalid_url');
    }
  });

  it('rejects a language that cannot be a header', async () => {
    await assert.rejects(
      redirects({ url: site.url('/final'), language: 'en\r\nX-Evil: 1' }),
      (err: LookupError) => err.code === 'invalid_argument',
    );
  });
});
