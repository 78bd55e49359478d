import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, interceptors, type Dispatcher } from 'undici';
import { ERROR_STATUS, LookupError, type ErrorCode } from '../../../src/contract/errors';
import {
  checkBaseUrl,
  HttpServices,
  isLoopbackHost,
  queryString,
} from '../../../src/services/http';
import { findOperation, OPERATIONS } from '../../../src/contract/operations';
import { FakeServices, FIXED, untilAborted, type MethodName } from '../../support/fake-services';
import { startTestServer, type TestServer } from '../../support/serve';

const TOKEN = 'client-token-0123456789-secret';

/** A bare loopback server whose answer each test scripts; records what arrived. */
interface RawServer {
  url: string;
  seen: IncomingMessage[];
  close(): Promise<void>;
}

async function rawServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<RawServer> {
  const seen: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function client(
  base: string,
  extra: Partial<ConstructorParameters<typeof HttpServices>[0]> = {},
): HttpServices {
  return new HttpServices({
    domainApiBaseUrl: `${base}/domain`,
    metaApiBaseUrl: `${base}/meta`,
    token: () => TOKEN,
    timeoutMs: 5000,
    ...extra,
  });
}

async function lookupError(promise: Promise<unknown>, code: ErrorCode): Promise<LookupError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof LookupError, `not a LookupError: ${String(err)}`);
    assert.equal(err.code, code, err.detail);
    assert.ok(!err.message.includes(TOKEN) && !err.detail.includes(TOKEN), 'token in the error');
    return err;
  }
  assert.fail(`expected ${code}`);
}

const CALLS: Record<MethodName, (s: HttpServices) => Promise<unknown>> = {
  query: (s) => s.query({ host: 'example.test', types: ['A', 'mx'], server: '192.0.2.53:5353' }),
  domainKeys: (s) => s.domainKeys({ host: 'example.test', selectors: ['s1', 's2'] }),
  senderPolicyRanges: (s) => s.senderPolicyRanges({ host: 'example.test' }),
  whois: (s) => s.whois({ host: 'bücher.test' }),
  tls: (s) =>
    s.tls({ host: 'mx.example.test', port: '587', starttls: 'smtp', server: '192.0.2.53' }),
  mtaSts: (s) => s.mtaSts({ host: 'example.test', server: '192.0.2.53' }),
  icons: (s) => s.icons({ url: 'site.test/a b?c=d&e' }),
  redirects: (s) => s.redirects({ url: 'https://site.test/', language: 'de-CH, en;q=0.5' }),
  unfurl: (s) => s.unfurl({ url: 'site.test' }),
  image: (s) => s.image({ url: 'https://images.test/a b.png' }),
  link: (s) =>
    s.link({ url: 'https://site.test/#x', fragments: ['x', 'y z'], server: '192.0.2.53' }),
};

const SENT: Record<MethodName, Record<string, unknown>> = {
  query: { host: 'example.test', types: ['A', 'mx'], server: '192.0.2.53:5353' },
  domainKeys: { host: 'example.test', selectors: ['s1', 's2'] },
  senderPolicyRanges: { host: 'example.test' },
  whois: { host: 'bücher.test' },
  tls: { host: 'mx.example.test', port: '587', starttls: 'smtp', server: '192.0.2.53' },
  mtaSts: { host: 'example.test', server: '192.0.2.53' },
  icons: { url: 'site.test/a b?c=d&e' },
  redirects: { url: 'https://site.test/', language: 'de-CH, en;q=0.5' },
  unfurl: { url: 'site.test' },
  image: { url: 'https://images.test/a b.png' },
  link: { url: 'https://site.test/#x', fragments: ['x', 'y z'], server: '192.0.2.53' },
};

describe('HttpServices', () => {
  describe('through the real server', () => {
    let fake: FakeServices;
    let server: TestServer;

    beforeEach(async () => {
      fake = new FakeServices();
      server = await startTestServer(fake);
    });

    afterEach(() => server.close());

    for (const op of OPERATIONS) {
      it(`${op.name}: same JSON as the service, deep and byte for byte`, async () => {
        const viaHttp = await CALLS[op.method](server.client);
        const flat = { ...fake.domain, ...fake.meta } as unknown as HttpServices;
        const direct = await CALLS[op.method](flat);
        assert.deepEqual(viaHttp, direct);
        assert.equal(JSON.stringify(viaHttp), JSON.stringify(direct));
        assert.equal(JSON.stringify(viaHttp), JSON.stringify(FIXED[op.method]));
        assert.deepEqual(fake.calls[0].params, SENT[op.method], 'parameters arrive intact');
      });
    }

    it('serves as both Services members', async () => {
      assert.deepEqual(await server.client.domain.whois({ host: 'x.test' }), FIXED.whois);
      assert.deepEqual(await server.client.meta.unfurl({ url: 'x.test' }), FIXED.unfurl);
    });

    const codes = Object.keys(ERROR_STATUS) as ErrorCode[];
    for (const code of codes) {
      it(`brings the service's ${code} back as the same code and detail`, async () => {
        fake.behaviour.query = () => Promise.reject(new LookupError(code, `detail of ${code}`));
        const err = await lookupError(server.client.query({ host: 'example.test' }), code);
        assert.equal(err.detail, `detail of ${code}`);
      });
    }

    it('brings rate_limited back with its Retry-After', async () => {
      fake.behaviour.whois = () =>
        Promise.reject(new LookupError('rate_limited', 'slow down', { retryAfter: 12 }));
      const err = await lookupError(server.client.whois({ host: 'x.test' }), 'rate_limited');
      assert.equal(err.retryAfter, 12);
    });

    it('reports a wrong token as unauthorized', async () => {
      const wrong = new HttpServices({
        domainApiBaseUrl: server.domainBase,
        metaApiBaseUrl: server.metaBase,
        token: async () => Promise.resolve('not-the-token-0123456789'),
      });
      try {
        await lookupError(wrong.query({ host: 'x.test' }), 'unauthorized');
        await lookupError(wrong.unfurl({ url: 'x.test' }), 'unauthorized');
      } finally {
        await wrong.close();
      }
    });

    it('reports a base URL with the wrong path as not_found', async () => {
      const lost = client(`${server.url}/v9`, { token: () => server.token });
      try {
        await lookupError(lost.query({ host: 'x.test' }), 'not_found');
      } finally {
        await lost.close();
      }
    });

    it('accepts base URLs with a trailing slash', async () => {
      const slash = new HttpServices({
        domainApiBaseUrl: `${server.domainBase}/`,
        metaApiBaseUrl: `${server.metaBase}//`,
        token: () => server.token,
      });
      try {
        assert.deepEqual(await slash.query({ host: 'x.test' }), FIXED.query);
        assert.deepEqual(await slash.icons({ url: 'x.test' }), FIXED.icons);
      } finally {
        await slash.close();
      }
    });

    it('cancels a call in flight, and the server cancels the work', async () => {
      fake.behaviour.query = (_p, o) => untilAborted(o.signal);
      const controller = new AbortController();
      const call = server.client.query({ host: 'x.test' }, { signal: controller.signal });
      while (fake.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
      controller.abort();
      await lookupError(call, 'cancelled');
      const serverSignal = fake.calls[0].signal!;
      for (let i = 0; i < 100 && !serverSignal.aborted; i++)
        await new Promise((r) => setTimeout(r, 10));
      assert.equal(serverSignal.aborted, true);
    });
  });

  describe('on the wire', () => {
    let raw: RawServer | undefined;
    afterEach(async () => {
      await raw?.close();
      raw = undefined;
    });

    it('sends GET, repeated names for arrays and the bare token', async () => {
      raw = await rawServer((_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end('{"records":[]}');
      });
      const s = client(raw.url, { token: () => `  ${TOKEN}\n` });
      try {
        await s.query({ host: 'example.test', types: ['A', 'MX'] });
        await s.unfurl({ url: 'site.test/a b?c=1' });
      } finally {
        await s.close();
      }
      assert.equal(raw.seen[0].method, 'GET');
      assert.equal(raw.seen[0].url, '/domain/query?host=example.test&types=A&types=MX');
      assert.equal(raw.seen[0].headers.authorization, TOKEN);
      assert.equal(raw.seen[1].url, '/meta/unfurl?url=site.test%2Fa+b%3Fc%3D1');
    });

    it('builds query strings from the operations table', () => {
      const query = findOperation('query')!;
      assert.equal(queryString(query, { host: 'h', types: [] }), '?host=h');
      assert.equal(queryString(query, { host: 'h', server: undefined }), '?host=h');
      assert.equal(queryString(query, { host: 'h', types: ['A'], extra: 'x' }), '?host=h&types=A');
    });

    it('gives a non-JSON error body a clear message with the status', async () => {
      raw = await rawServer((_req, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html><body>Bad gateway from the proxy</body></html>');
      });
      const s = client(raw.url);
      try {
        const err = await lookupError(s.whois({ host: 'x.test' }), 'upstream_error');
        assert.match(err.detail, /domain service answered HTTP 502: <html><body>Bad gateway/);
      } finally {
        await s.close();
      }
    });

    it('maps statuses of bodies without a known code', async () => {
      const statuses: [number, string, ErrorCode][] = [
        [401, 'text/plain', 'unauthorized'],
        [403, 'application/json', 'blocked_target'],
        [404, 'text/plain', 'not_found'],
        [429, 'text/plain', 'rate_limited'],
        [500, 'application/problem+json', 'upstream_error'],
        [503, 'text/plain', 'upstream_error'],
        [504, 'text/plain', 'upstream_timeout'],
      ];
      let next = 0;
      raw = await rawServer((_req, res) => {
        const [status, type] = statuses[next++];
        res.writeHead(status, { 'content-type': type, 'retry-after': '3' });
        res.end(type.includes('json') ? '{"code":"no_such_code"}' : '');
      });
      const s = client(raw.url);
      try {
        for (const [status, , code] of statuses) {
          const err = await lookupError(s.query({ host: 'x.test' }), code);
          assert.match(err.detail, new RegExp(`HTTP ${status}`));
          assert.equal(err.retryAfter, 3);
        }
      } finally {
        await s.close();
      }
    });

    it('refuses a success body that is not a JSON object', async () => {
      const bodies = ['<html>', '[1,2]', 'null', ''];
      let next = 0;
      raw = await rawServer((_req, res) => res.end(bodies[next++]));
      const s = client(raw.url);
      try {
        for (let i = 0; i < bodies.length; i++) {
          const err = await lookupError(s.icons({ url: 'x.test' }), 'upstream_error');
          assert.match(err.detail, /web metadata service .*not a JSON object/);
        }
      } finally {
        await s.close();
      }
    });

    it('never puts the token in an error, even when the server echoes it', async () => {
      let json = false;
      raw = await rawServer((req, res) => {
        json = !json;
        const echoed = `bad token ${req.headers.authorization ?? ''} rejected`;
        res.writeHead(json ? 400 : 500, {
          'content-type': json ? 'application/problem+json' : 'text/plain',
        });
        res.end(json ? JSON.stringify({ code: 'invalid_argument', detail: echoed }) : echoed);
      });
      const s = client(raw.url);
      try {
        const a = await lookupError(s.query({ host: 'x.test' }), 'invalid_argument');
        assert.equal(a.detail, 'bad token [token] rejected');
        const b = await lookupError(s.query({ host: 'x.test' }), 'upstream_error');
        assert.match(b.detail, /bad token \[token\] rejected/);
      } finally {
        await s.close();
      }
    });

    for (const [label, dispatcher] of [
      ['its own agent', undefined],
      [
        'a dispatcher that follows redirects',
        new Agent().compose(interceptors.redirect({ maxRedirections: 5 })),
      ],
    ] as [string, Dispatcher | undefined][]) {
      it(`never follows a redirect (${label})`, async () => {
        const elsewhere = await rawServer((_req, res) => res.end('{"records":[]}'));
        raw = await rawServer((_req, res) => {
          res.writeHead(302, { location: `${elsewhere.url}/steal` });
          res.end();
        });
        const s = client(raw.url, dispatcher ? { dispatcher } : {});
        try {
          const err = await lookupError(s.query({ host: 'x.test' }), 'upstream_error');
          assert.match(err.detail, /redirect \(HTTP 302\)/);
          assert.equal(elsewhere.seen.length, 0, 'the token went to another origin');
        } finally {
          await s.close();
          await dispatcher?.close();
          await elsewhere.close();
        }
      });
    }

    it('caps the response size, declared or streamed', async () => {
      let chunked = false;
      raw = await rawServer((_req, res) => {
        chunked = !chunked;
        const body = `{"records":[],"pad":"${'x'.repeat(5000)}"}`;
        if (!chunked) res.setHeader('content-length', Buffer.byteLength(body));
        res.end(body);
      });
      const s = client(raw.url, { maxResponseBytes: 1000 });
      try {
        await lookupError(s.query({ host: 'x.test' }), 'response_too_large');
        await lookupError(s.query({ host: 'x.test' }), 'response_too_large');
      } finally {
        await s.close();
      }
    });

    it('times out a silent service as upstream_timeout', async () => {
      raw = await rawServer(() => undefined);
      const s = client(raw.url, { timeoutMs: 150 });
      try {
        const started = Date.now();
        await lookupError(s.query({ host: 'x.test' }), 'upstream_timeout');
        assert.ok(Date.now() - started < 3000);
      } finally {
        await s.close();
      }
    });

    it('reports an unreachable service as upstream_error naming its origin', async () => {
      raw = await rawServer(() => undefined);
      const url = raw.url;
      await raw.close();
      raw = undefined;
      const s = client(url);
      try {
        const err = await lookupError(s.query({ host: 'x.test' }), 'upstream_error');
        assert.match(err.detail, new RegExp(`domain service at ${url} \\(ECONNREFUSED\\)`));
      } finally {
        await s.close();
      }
    });
  });

  describe('before sending', () => {
    // Any request reaching this dispatcher fails the test.
    const sent: string[] = [];
    const tripwire = {
      request(opts: { origin?: unknown; path: string }) {
        sent.push(`${String(opts.origin)}${opts.path}`);
        return Promise.reject(new Error('must not send'));
      },
      close: () => Promise.resolve(),
    } as unknown as Dispatcher;

    afterEach(() => assert.deepEqual(sent.splice(0), []));

    const refused: [string, RegExp][] = [
      ['http://api.example.test', /must use https \(http is allowed only for loopback hosts\)/],
      ['http://10.0.0.1:8787', /must use https/],
      ['http://[2001:db8::1]', /must use https/],
      ['http://localhost.example.test', /must use https/],
      ['ftp://127.0.0.1', /must be an https URL/],
      ['https://user:pass@api.example.test', /user name or password/],
      ['https://api.example.test/?a=b', /query or fragment/],
      ['not a url', /not a valid URL/],
    ];
    for (const [base, message] of refused) {
      it(`refuses ${base} as a base URL`, async () => {
        const s = client(base, { dispatcher: tripwire });
        const err = await lookupError(s.query({ host: 'x.test' }), 'invalid_argument');
        assert.match(err.detail, message);
        await lookupError(s.unfurl({ url: 'x.test' }), 'invalid_argument');
      });
    }

    it('allows http only for loopback hosts', () => {
      for (const host of [
        '127.0.0.1',
        '127.8.9.10',
        '[::1]',
        '::1',
        'localhost',
        'LOCALHOST',
        '[::ffff:127.0.0.1]',
      ]) {
        assert.equal(isLoopbackHost(host), true, host);
      }
      for (const host of [
        '128.0.0.1',
        '10.0.0.1',
        '[::2]',
        'localhost.example.test',
        'example.test',
        '0.0.0.0',
      ]) {
        assert.equal(isLoopbackHost(host), false, host);
      }
      assert.equal(checkBaseUrl('http://[::1]:8787/domain/', 'x').href, 'http://[::1]:8787/domain');
      assert.equal(
        checkBaseUrl('https://api.example.test/d', 'x').href,
        'https://api.example.test/d',
      );
    });

    it('refuses to call without a token, or with one a header cannot carry', async () => {
      for (const token of [undefined, '', '  ', 'line\r\nbreak', 'tökén-0123456789abcdef']) {
        const s = client('http://127.0.0.1:9', { dispatcher: tripwire, token: () => token });
        await lookupError(s.whois({ host: 'x.test' }), 'unauthorized');
      }
      const failing = client('http://127.0.0.1:9', {
        dispatcher: tripwire,
        token: () => Promise.reject(new Error('keychain locked')),
      });
      await lookupError(failing.whois({ host: 'x.test' }), 'unauthorized');
    });

    it('does not send when the signal has already fired', async () => {
      const controller = new AbortController();
      controller.abort();
      const s = client('http://127.0.0.1:9', { dispatcher: tripwire });
      await lookupError(s.query({ host: 'x.test' }, { signal: controller.signal }), 'cancelled');
    });
  });
});
