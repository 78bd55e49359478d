// The hostile-upstream suite of issue 29: `hostlens serve` with the real engine behind it, aimed
// at loopback web, DNS, WHOIS and TLS servers that misbehave on purpose (compression bombs,
// slow drips, 1 MB headers, 200 MB bodies, garbage, endless streams, lying images), and at
// fuzzed requests of its own. Every case must end in its coded answer within its deadline, the
// memory of the process must stay bounded while they run, and the server must still answer
// /healthz afterwards.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { ERROR_STATUS, type ErrorCode } from '../../../src/contract/errors';
import { EmbeddedServices } from '../../../src/services/embedded';
import { FakeServices } from '../../support/fake-services';
import {
  startHostileDns,
  startHostileWeb,
  startHostileWhois,
  type HostileFixture,
} from '../../support/hostile-upstreams';
import { startTestServer, type TestServer } from '../../support/serve';

const MB = 1024 * 1024;
/** The server's deadline for one request; every case must be answered well within it. */
const DEADLINE_MS = 8000;
/** Slack on top of the deadline for answering and the loaded CI machine. */
const SLACK_MS = 3000;

/** The bound of every URL-valued field of an answer, the same as a hop's `location`. */
const MAX_URL_CHARS = 8192;

/** Every string field of an answer whose name says it holds a URL, with its path. */
function urlFields(value: unknown, path = ''): Array<[string, string]> {
  if (Array.isArray(value)) return value.flatMap((v, i) => urlFields(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) =>
    typeof v === 'string'
      ? /url$|location$/i.test(key)
        ? [[`${path}.${key}`, v] as [string, string]]
        : []
      : urlFields(v, `${path}.${key}`),
  );
}

interface Outcome {
  status: number;
  contentType: string;
  json: Record<string, unknown>;
  ms: number;
}

const agent = new Agent({ connections: 64, headersTimeout: 30_000, bodyTimeout: 30_000 });

async function ask(server: TestServer, path: string): Promise<Outcome> {
  const started = performance.now();
  const res = await request(`${server.url}${path}`, {
    headers: { authorization: server.token },
    dispatcher: agent,
  });
  const text = await res.body.text();
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = { unparsed: text.slice(0, 200) };
  }
  return {
    status: res.statusCode,
    contentType: String(res.headers['content-type']),
    json,
    ms: performance.now() - started,
  };
}

const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

/** A TLS "server" that accepts and then misbehaves at the first byte of the handshake. */
async function startHostileTls(kind: 'hang' | 'garbage' | 'endless-record'): Promise<{
  port: number;
  close(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    if (kind === 'garbage') socket.end(Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'.repeat(64)));
    if (kind === 'endless-record') {
      // A handshake record header that promises 16 KB, then bytes that never make sense.
      socket.write(Buffer.from([0x16, 0x03, 0x03, 0x40, 0x00]));
      const timer = setInterval(() => socket.write(Buffer.alloc(512, 0x41)), 20);
      socket.on('close', () => clearInterval(timer));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('hostile upstreams through hostlens serve (issue 29)', function () {
  this.timeout(60_000);
  let web: HostileFixture;
  let dns: HostileFixture;
  let whois: HostileFixture;
  let tls: Array<Awaited<ReturnType<typeof startHostileTls>>>;
  let server: TestServer;
  let tmp: string;
  const saved: Record<string, string | undefined> = {};
  const outcomes = new Map<string, Outcome | Error>();
  let peakRss = 0;
  let baseRss = 0;

  // [label, path, expected code (or 200), deadline]
  type Case = [string, () => string, ErrorCode | 200];
  const cases: Case[] = [
    // web, through unfurl, icons and redirects
    [
      'a gzip bomb',
      () => `/meta/unfurl${q({ url: `${web.address}/bomb-gzip` })}`,
      'response_too_large',
    ],
    [
      'a brotli bomb',
      () => `/meta/unfurl${q({ url: `${web.address}/bomb-br` })}`,
      'response_too_large',
    ],
    [
      'a deflate bomb',
      () => `/meta/unfurl${q({ url: `${web.address}/bomb-deflate` })}`,
      'response_too_large',
    ],
    [
      'a bomb as an image',
      () => `/meta/image${q({ url: `${web.address}/bomb-gzip/x.png` })}`,
      'response_too_large',
    ],
    [
      'a body that drips',
      () => `/meta/unfurl${q({ url: `${web.address}/drip-body` })}`,
      'upstream_timeout',
    ],
    [
      'headers that drip',
      () => `/meta/redirects${q({ url: `${web.address}/drip-headers` })}`,
      'upstream_timeout',
    ],
    [
      '1 MB of response headers',
      () => `/meta/unfurl${q({ url: `${web.address}/headers-1mb` })}`,
      'response_too_large',
    ],
    [
      'a 200 MB page',
      () => `/meta/unfurl${q({ url: `${web.address}/body-200mb` })}`,
      'response_too_large',
    ],
    [
      'a page that never ends',
      () => `/meta/icons${q({ url: `${web.address}/endless` })}`,
      'response_too_large',
    ],
    [
      'garbage instead of HTTP',
      () => `/meta/unfurl${q({ url: `${web.address}/garbage` })}`,
      'upstream_error',
    ],
    [
      'a server that never answers',
      () => `/meta/unfurl${q({ url: `${web.address}/hang` })}`,
      'upstream_timeout',
    ],
    [
      'a connection closed at once',
      () => `/meta/redirects${q({ url: `${web.address}/reset` })}`,
      'upstream_error',
    ],
    [
      'redirects for ever',
      () => `/meta/unfurl${q({ url: `${web.address}/redirect-forever/0` })}`,
      'upstream_error',
    ],
    ['a 12 KB Location', () => `/meta/redirects${q({ url: `${web.address}/long-location` })}`, 200],
    [
      'a 100 KB canonical URL',
      () => `/meta/unfurl${q({ url: `${web.address}/canonical-100k` })}`,
      200,
    ],
    [
      'icons that lie or explode',
      () => `/meta/icons${q({ url: `${web.address}/lying-icons` })}`,
      200,
    ],
    [
      'a PNG that lies about its size',
      () => `/meta/image${q({ url: `${web.address}/lying-png/a.png` })}`,
      'upstream_error',
    ],
    ...(['gif', 'jpg', 'webp', 'bmp', 'ico', 'avif'] as const).map((format): Case => [
      `${/^[aeio]/.test(format) ? 'an' : 'a'} ${format.toUpperCase()} that lies about its size`,
      () => `/meta/image${q({ url: `${web.address}/lying-image/${format}` })}`,
      'upstream_error',
    ]),
    // DNS, through query (one try of 800 ms, then TCP where the answer is truncated)
    ...(
      [
        ['silent', 'upstream_timeout'],
        ['garbage', 'upstream_timeout'],
        ['wrongid', 'upstream_timeout'],
        ['short', 'upstream_error'],
        ['loop', 'upstream_error'],
        ['count', 'upstream_error'],
        ['tcphang', 'upstream_timeout'],
        ['tcpdrip', 'upstream_timeout'],
        ['tcphuge', 'upstream_timeout'],
      ] as const
    ).map(([label, code]): Case => [
      `a nameserver that answers "${label}"`,
      () => `/domain/query${q({ host: `${label}.hostile.test`, types: 'A', server: dns.address })}`,
      code,
    ]),
    // WHOIS port 43
    ...(
      [
        ['endless', 'response_too_large'],
        ['drip', 'upstream_timeout'],
        ['hang', 'upstream_timeout'],
        ['binary', 'upstream_error'],
        ['longline', 'response_too_large'],
      ] as const
    ).map(([label, code]): Case => [
      `a WHOIS server that answers "${label}"`,
      () => `/domain/whois${q({ host: `${label}-hostile.com` })}`,
      code,
    ]),
    // TLS
    ...(['hang', 'garbage', 'endless-record'] as const).map((kind, i): Case => [
      `a TLS server that answers "${kind}"`,
      () => `/domain/tls${q({ host: '127.0.0.1', port: String(tls[i].port) })}`,
      kind === 'hang' ? 'upstream_timeout' : 'upstream_error',
    ]),
  ];

  before(async function () {
    this.timeout(120_000);
    tmp = mkdtempSync(join(tmpdir(), 'hostlens-hostile-'));
    [web, dns, whois] = await Promise.all([
      startHostileWeb(),
      startHostileDns(),
      startHostileWhois(),
    ]);
    tls = await Promise.all([
      startHostileTls('hang'),
      startHostileTls('garbage'),
      startHostileTls('endless-record'),
    ]);
    // Nothing leaves the machine: no RDAP service, every port-43 query to the hostile server.
    const bootstrap = join(tmp, 'dns.json');
    writeFileSync(bootstrap, JSON.stringify({ version: '1.0', services: [] }));
    const env = { HOSTLENS_RDAP_BOOTSTRAP: bootstrap, HOSTLENS_WHOIS_SERVER: whois.address };
    for (const [k, v] of Object.entries(env)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    // Guarded as in production, with loopback opened the way an operator would (--allow-cidr).
    server = await startTestServer(
      new EmbeddedServices({
        dnsTimeoutMs: 800,
        dnsTries: 1,
        blockPrivate: true,
        allowCidrs: ['127.0.0.0/8'],
      }),
      { requestTimeoutMs: DEADLINE_MS, maxConcurrent: 64 },
    );
    baseRss = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 10);
    // All at once: the server meets every misbehaviour together, as it would under attack.
    await Promise.all(
      cases.map(async ([label, path]) => {
        try {
          outcomes.set(label, await ask(server, path()));
        } catch (err) {
          outcomes.set(label, err as Error);
        }
      }),
    );
    clearInterval(sampler);
  });

  after(async () => {
    await server?.close();
    await Promise.all([
      web?.close(),
      dns?.close(),
      whois?.close(),
      ...(tls ?? []).map((t) => t.close()),
    ]);
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(tmp, { recursive: true, force: true });
  });

  for (const [label, , expected] of cases) {
    it(`${label}: ${expected === 200 ? '200 with bounded fields' : expected}, within the deadline`, () => {
      const outcome = outcomes.get(label);
      assert.ok(outcome, 'answered');
      if (outcome instanceof Error) assert.fail(`no answer: ${outcome.message}`);
      assert.ok(outcome.ms < DEADLINE_MS + SLACK_MS, `answered in ${Math.round(outcome.ms)} ms`);
      if (expected === 200) {
        assert.equal(outcome.status, 200, JSON.stringify(outcome.json).slice(0, 300));
        for (const [path, value] of urlFields(outcome.json)) {
          assert.ok(value.length <= MAX_URL_CHARS, `${path} has ${value.length} characters`);
        }
        return;
      }
      assert.equal(outcome.contentType, 'application/problem+json');
      assert.equal(outcome.json.code, expected, JSON.stringify(outcome.json).slice(0, 300));
      assert.equal(outcome.status, ERROR_STATUS[expected]);
    });
  }

  it('chooses no icon from images that only claim a size, nor from a bomb', () => {
    const outcome = outcomes.get('icons that lie or explode');
    assert.ok(outcome && !(outcome instanceof Error));
    assert.equal(outcome.json.icon_url, '');
    const icons = outcome.json.icons as Array<{ url: string; width: number; height: number }>;
    for (const icon of icons) assert.ok(icon.width < 65536, `${icon.url}: ${icon.width}`);
  });

  it('keeps memory bounded while every case runs at once', () => {
    // 200 MB pages, 64 MB bombs and endless streams were on offer; the caps keep each to a
    // few MB. The bound leaves room for the heap's own growth under 40 requests at once.
    const grewMb = (peakRss - baseRss) / MB;
    assert.ok(grewMb < 128, `resident memory grew ${grewMb.toFixed(0)} MB`);
    assert.ok(web.bytesSent() < 100 * MB, `read ${(web.bytesSent() / MB).toFixed(0)} MB of web`);
  });

  it('answers /healthz afterwards, and nothing is left open upstream', async () => {
    const res = await request(`${server.url}/healthz`, { dispatcher: agent });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(await res.body.json(), { status: 'ok' });
    // Every connection to a drip, a hang or an endless stream was closed by the engine.
    for (let i = 0; i < 40 && web.open() + dns.open() + whois.open() > 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual([web.open(), dns.open(), whois.open()], [0, 0, 0]);
  });
});

// ---- fuzzed requests ---------------------------------------------------------------------------

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends one raw request and reads one whole response (by its Content-Length), or until the
 * server closes; rejects when nothing complete arrives within `ms`.
 */
function exchangeOnce(port: number, bytes: Buffer, ms: number): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `no complete answer in ${ms} ms; got ${JSON.stringify(received.toString('latin1').slice(0, 200))}`,
        ),
      );
    }, ms);
    const parse = (final: boolean) => {
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) {
        if (final) finish({ status: 0, headers: {}, body: text });
        return;
      }
      const lines = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const at = line.indexOf(':');
        if (at > 0) headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
      }
      const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(lines[0])?.[1] ?? 0);
      const length = Number(headers['content-length'] ?? NaN);
      const body = received.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1'));
      if (Number.isFinite(length) && body.length >= length) {
        finish({ status, headers, body: body.subarray(0, length).toString('utf8') });
      } else if (final) finish({ status, headers, body: body.toString('utf8') });
    };
    const finish = (answer: RawAnswer) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      parse(false);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => parse(true));
    socket.on('connect', () => socket.write(bytes));
  });
}

describe('fuzzed requests against hostlens serve (issue 29)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let port: number;

  before(async () => {
    server = await startTestServer(new FakeServices(), {
      headersTimeoutMs: 1000,
      requestTimeoutMs: 2000,
    });
    port = Number(new URL(server.url).port);
  });

  after(async () => {
    await server.close();
  });

  const token = () => server.token;
  const printable = fc.string({
    unit: fc.constantFrom(..."abcxyz019-._~%/?&=:;@[]!$'()*+, ".split('')),
    maxLength: 40,
  });
  const anyByte = fc.string({ unit: 'binary', maxLength: 40 });
  const methods = fc.oneof(
    fc.constantFrom(
      'GET',
      'HEAD',
      'POST',
      'PUT',
      'DELETE',
      'OPTIONS',
      'TRACE',
      'CONNECT',
      'PATCH',
      'PROPFIND',
    ),
    fc.string({ unit: fc.constantFrom(...'ABCXYZ-'.split('')), minLength: 1, maxLength: 8 }),
  );
  const paths = fc.oneof(
    fc.constantFrom(
      '/healthz',
      '/openapi.json',
      '/metrics',
      '/domain/query',
      '/meta/unfurl',
      '/domain/whois',
      '*',
      'example.test:443',
    ),
    printable.map((s) => `/${s}`),
    fc
      .tuple(
        fc.constantFrom('/domain/query', '/domain/domain_keys', '/meta/icons', '/meta/link'),
        printable,
      )
      .map(([route, query]) => `${route}?${query}`),
    anyByte,
  );
  const headerLines = fc.array(
    fc.oneof(
      fc
        .tuple(
          fc.constantFrom(
            'Host',
            'Content-Length',
            'Transfer-Encoding',
            'Connection',
            'Expect',
            'Upgrade',
            'Authorization',
            'X-Any',
          ),
          printable,
        )
        .map(([name, value]) => `${name}: ${value}`),
      anyByte,
    ),
    { maxLength: 5 },
  );
  const requests = fc.record({
    method: methods,
    path: paths,
    version: fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9', ''),
    host: fc.boolean(),
    authorized: fc.boolean(),
    headers: headerLines,
    body: fc.oneof(fc.constant(''), anyByte),
  });

  it('answers every fuzzed request with a status line, and every refusal as problem+json with a code', async () => {
    await fc.assert(
      fc.asyncProperty(requests, async (r) => {
        const lines = [
          `${r.method} ${r.path} ${r.version}`.trimEnd(),
          ...(r.host ? ['Host: fuzz.test'] : []),
          ...(r.authorized ? [`Authorization: Bearer ${token()}`] : []),
          ...r.headers,
          'Connection: close',
        ];
        const bytes = Buffer.from(`${lines.join('\r\n')}\r\n\r\n${r.body}`, 'latin1');
        const answer = await exchangeOnce(port, bytes, 5000);
        assert.ok(
          answer.status >= 200 && answer.status < 600,
          `a status line (${answer.body.slice(0, 80)})`,
        );
        if (answer.status >= 400) {
          assert.equal(
            answer.headers['content-type'],
            'application/problem+json',
            `status ${answer.status}`,
          );
          if (r.method === 'HEAD') return; // the same headers, and no body
          const problem = JSON.parse(answer.body) as { code: string; status: number };
          assert.ok(Object.hasOwn(ERROR_STATUS, problem.code), problem.code);
          assert.equal(problem.status, answer.status);
        }
      }),
      { seed: 2929, numRuns: 1000 },
    );
    const res = await request(`${server.url}/healthz`);
    assert.equal(res.statusCode, 200);
    await res.body.dump();
  });

  it('answers a request with no Host header with problem+json (even /healthz)', async () => {
    for (const target of ['/healthz', '/domain/query?host=x.test']) {
      const answer = await exchangeOnce(
        port,
        Buffer.from(`GET ${target} HTTP/1.1\r\nConnection: close\r\n\r\n`),
        5000,
      );
      assert.equal(answer.status, 400);
      assert.equal(answer.headers['content-type'], 'application/problem+json');
      assert.equal((JSON.parse(answer.body) as { code: string }).code, 'bad_request');
    }
  });

  it('answers CONNECT with problem+json instead of dropping the connection', async () => {
    const answer = await exchangeOnce(
      port,
      Buffer.from(
        `CONNECT example.test:443 HTTP/1.1\r\nHost: example.test:443\r\nAuthorization: ${token()}\r\n\r\n`,
      ),
      5000,
    );
    assert.equal(answer.status, 405);
    assert.equal(answer.headers['content-type'], 'application/problem+json');
    assert.equal((JSON.parse(answer.body) as { code: string }).code, 'method_not_allowed');
  });
});
