import assert from 'node:assert/strict';
import { LookupError } from '../../../../src/contract/errors';
import { USER_AGENT, WebSession, type WebOptions } from '../../../../src/engine/web/fetcher';
import { unfurl } from '../../../../src/engine/web/unfurl';
import { startWebServer, type WebFixture } from '../../../support/web-server';

const small: WebOptions = {
  limits: { maxBodyBytes: 256 * 1024, headersTimeoutMs: 400, totalTimeoutMs: 1500 },
};

const code = (expected: string) => (err: unknown) => {
  assert.ok(err instanceof LookupError, `expected a LookupError, got ${String(err)}`);
  assert.equal(err.code, expected);
  return true;
};

describe('web fetcher bounds', () => {
  let site: WebFixture;
  before(async () => {
    site = await startWebServer();
  });
  after(() => site.close());

  it('sends a clear User-Agent, and Accept-Language only when a language is given', async () => {
    const without = await unfurl({ url: site.url('/echo') });
    assert.equal(without.page_title, 'lang:none');
    assert.equal(without.page_description, `ua:${USER_AGENT}`);
    const withLanguage = await unfurl({ url: site.url('/echo'), language: 'de-CH, de;q=0.8' });
    assert.equal(withLanguage.page_title, 'lang:de-CH, de;q=0.8');
  });

  it('prepends https:// when the URL has no scheme', async () => {
    // The fixture speaks plain HTTP, so a TLS handshake against it must fail: proof that
    // https was chosen.
    await assert.rejects(
      unfurl({ url: `${site.host}:${site.port}/final` }, small),
      code('upstream_error'),
    );
  });

  for (const encoding of ['gzip', 'br', 'deflate']) {
    it(`decompresses ${encoding}`, async () => {
      const path =
        encoding === 'gzip' ? '/gzip/page' : encoding === 'br' ? '/br/page' : '/deflate/page';
      const result = await unfurl({ url: site.url(path) }, small);
      assert.equal(
        result.page_title,
        { gzip: 'Zipped', br: 'Brotli', deflate: 'Deflated' }[encoding],
      );
    });
  }

  for (const bomb of ['gzip', 'br']) {
    it(`stops a ${bomb} bomb as it inflates (response_too_large)`, async () => {
      const started = process.memoryUsage().rss;
      await assert.rejects(
        unfurl({ url: site.url(`/bomb/${bomb}`) }, small),
        code('response_too_large'),
      );
      assert.ok(
        process.memoryUsage().rss - started < 64 * 1024 * 1024,
        'the bomb was not inflated',
      );
    });
  }

  it('reports a body that does not decompress as upstream_error', async () => {
    await assert.rejects(unfurl({ url: site.url('/corrupt-gzip') }, small), code('upstream_error'));
  });

  it('cuts a 50 MB page off at the byte cap', async () => {
    await assert.rejects(
      unfurl({ url: site.url('/huge/head') }, small),
      code('response_too_large'),
    );
  });

  it('refuses a declared 50 MB body without reading it', async () => {
    await assert.rejects(
      unfurl({ url: site.url('/huge/declared') }, small),
      code('response_too_large'),
    );
  });

  it('reads only the head of a 50 MB page whose head ends early', async () => {
    const result = await unfurl({ url: site.url('/huge/body') }, small);
    assert.equal(result.page_title, 'Huge body');
    assert.equal(result.page_description, 'big');
  });

  it('reports a lying Content-Length as upstream_error', async () => {
    await assert.rejects(unfurl({ url: site.url('/lying-length') }, small), code('upstream_error'));
  });

  it('stops a body that drips within the total time (upstream_timeout)', async () => {
    const started = Date.now();
    await assert.rejects(unfurl({ url: site.url('/drip') }, small), code('upstream_timeout'));
    assert.ok(Date.now() - started < 3000);
  });

  it('gives up on a server that never answers (upstream_timeout)', async () => {
    const started = Date.now();
    await assert.rejects(unfurl({ url: site.url('/hang') }, small), code('upstream_timeout'));
    assert.ok(Date.now() - started < 1500);
  });

  it('refuses oversized response headers (response_too_large)', async () => {
    await assert.rejects(
      unfurl({ url: site.url('/huge-headers') }, small),
      code('response_too_large'),
    );
  });

  it('gives up on a connection that never completes (upstream_timeout)', async () => {
    const connector: NonNullable<WebOptions['connector']> = () => undefined;
    const started = Date.now();
    await assert.rejects(
      unfurl(
        { url: 'http://never.test/' },
        { ...small, connector, limits: { totalTimeoutMs: 300 } },
      ),
      code('upstream_timeout'),
    );
    assert.ok(Date.now() - started < 2000);
  });

  it('reports a refused connection as upstream_error', async () => {
    const closed = await startWebServer();
    const url = closed.url('/final');
    await closed.close();
    await assert.rejects(unfurl({ url }, small), code('upstream_error'));
  });

  it('reports a name that does not resolve as not_found', async () => {
    const lookup = () => Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }));
    await assert.rejects(
      unfurl({ url: 'http://no-such-host.test/' }, { ...small, lookup }),
      code('not_found'),
    );
  });

  it('is cancelled by the caller signal', async () => {
    const controller = new AbortController();
    const pending = unfurl({ url: site.url('/hang') }, { ...small, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(pending, code('cancelled'));
    const already = AbortSignal.abort();
    await assert.rejects(
      unfurl({ url: site.url('/final') }, { signal: already }),
      code('cancelled'),
    );
  });
});

describe('web session stop', () => {
  it('gives a signal first asked for after a cancel already aborted, as cancelled', () => {
    const outer = new AbortController();
    const session = new WebSession({ signal: outer.signal });
    try {
      outer.abort();
      assert.ok(session.signal.aborted);
      assert.ok(code('cancelled')(session.signal.reason));
    } finally {
      session.close();
    }
  });

  it('aborts a signal asked for before the deadline when the deadline passes', async () => {
    const session = new WebSession({ limits: { totalTimeoutMs: 30 } });
    try {
      const signal = session.signal;
      assert.equal(signal.aborted, false);
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      assert.ok(code('upstream_timeout')(signal.reason));
    } finally {
      session.close();
    }
  });

  it('ends a HEAD chain at the deadline, and a cancel before it stays a cancel', async () => {
    const site = await startWebServer();
    const outer = new AbortController();
    const session = new WebSession({ signal: outer.signal, limits: { totalTimeoutMs: 100 } });
    try {
      const started = Date.now();
      const pending = session.follow(new URL(site.url('/hang')), { accept: '*/*', method: 'HEAD' });
      setTimeout(() => outer.abort(), 20);
      await assert.rejects(pending, code('cancelled'));
      assert.ok(Date.now() - started < 90, `ended after ${Date.now() - started} ms`);
      await new Promise((resolve) => setTimeout(resolve, 120));
      assert.ok(code('cancelled')(session.signal.reason));
      await assert.rejects(
        session.follow(new URL(site.url('/final')), { accept: '*/*', method: 'HEAD' }),
        code('cancelled'),
      );
    } finally {
      session.close();
      await site.close();
    }
  });

  it('ends a HEAD chain waiting on a server that never answers at the deadline', async () => {
    const site = await startWebServer();
    const session = new WebSession({ limits: { totalTimeoutMs: 100 } });
    try {
      const started = Date.now();
      await assert.rejects(
        session.follow(new URL(site.url('/hang')), { accept: '*/*', method: 'HEAD' }),
        code('upstream_timeout'),
      );
      assert.ok(Date.now() - started < 1000, `ended after ${Date.now() - started} ms`);
    } finally {
      session.close();
      await site.close();
    }
  });
});
