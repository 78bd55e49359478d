// Every transport pointed at an unroutable, a refusing and a silent address (issue 29): each
// ends in a coded answer within its deadline, nothing throws out of the event loop, and serve
// still answers /healthz afterwards. Runs in a network namespace with only loopback, so the
// unroutable addresses fail at once with ENETUNREACH (as a global IPv6 address does on an
// IPv4-only host) instead of leaving the machine.
import assert from 'node:assert/strict';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server, type Socket } from 'node:net';
import { StreamConnection } from '../../src/engine/dns/stream';
import { EmbeddedServices } from '../../src/services/embedded';
import { startTestServer, type TestServer } from '../support/serve';

const UNROUTABLE = ['192.0.2.1', '[2001:db8::1]', '[::7f00:1]', '[::ffff:192.0.2.1]'];
const REFUSING_PORT = 9; // nothing listens on discard in the namespace
const SILENT_PORT = 9053; // accepts (TCP) or reads (UDP) and never answers

describe('socket errors on every transport are coded answers (network namespace)', function () {
  this.timeout(120_000);
  let serve: TestServer;
  let silentTcp: Server;
  let silentUdp: UdpSocket;
  const held = new Set<Socket>();
  let crashes: unknown[] = [];
  const onCrash = (err: unknown) => crashes.push(err);

  before(async () => {
    process.on('uncaughtException', onCrash);
    silentTcp = createServer((socket) => {
      held.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) =>
      silentTcp.listen({ port: SILENT_PORT, host: '::', ipv6Only: false }, r),
    );
    silentUdp = createSocket({ type: 'udp6', ipv6Only: false });
    await new Promise<void>((r) => silentUdp.bind(SILENT_PORT, '::', r));
    // Unguarded, as the extension and the CLI run: the socket itself must fail cleanly.
    serve = await startTestServer(
      new EmbeddedServices({ blockPrivate: false, dnsTimeoutMs: 400, dnsTries: 1 }),
      { requestTimeoutMs: 8_000 },
    );
  });
  after(async () => {
    process.off('uncaughtException', onCrash);
    await serve?.close();
    for (const s of held) s.destroy();
    await new Promise((r) => silentTcp?.close(r));
    silentUdp?.close();
  });
  beforeEach(() => {
    crashes = [];
  });
  afterEach(async function () {
    assert.deepEqual(crashes, [], 'nothing escaped to the event loop');
    const health = await fetch(`${serve.url}/healthz`);
    assert.equal(health.status, 200, 'serve still answers /healthz');
  });

  /** The answer's codes: the problem's, or every failed type's. Never none, never a crash. */
  async function codes(path: string): Promise<{ status: number; codes: string[]; ms: number }> {
    const started = performance.now();
    const res = await fetch(`${serve.url}${path}`, { headers: { authorization: serve.token } });
    const body = (await res.json()) as {
      code?: string;
      errors?: Array<{ code: string }>;
      domain_keys?: unknown;
    };
    const found = body.code !== undefined ? [body.code] : (body.errors ?? []).map((e) => e.code);
    return { status: res.status, codes: found, ms: performance.now() - started };
  }

  const targets = (port: number): Array<{ kind: string; host: string; port: number }> =>
    [
      ...UNROUTABLE.map((a) => ({ kind: 'unroutable', host: a, port: undefined })),
      { kind: 'refusing', host: '127.0.0.1', port: REFUSING_PORT },
      { kind: 'silent', host: '127.0.0.1', port: SILENT_PORT },
      { kind: 'silent', host: '[::1]', port: SILENT_PORT },
    ].map((t: { kind: string; host: string; port?: number | undefined }) => ({
      ...t,
      port: t.port ?? port,
    }));

  for (const scheme of ['', 'tls://', 'https://']) {
    const name = scheme === '' ? 'UDP' : scheme === 'tls://' ? 'DNS over TLS' : 'DNS over HTTPS';
    it(`${name}: unroutable, refusing and silent nameservers`, async () => {
      for (const t of targets(53)) {
        const server = `${scheme}${t.host}:${t.port}${scheme === 'https://' ? '/dns-query' : ''}`;
        const got = await codes(
          `/domain/query?host=example.com&types=A&server=${encodeURIComponent(server)}`,
        );
        assert.ok(got.codes.length > 0, `${t.kind} ${server}: ${JSON.stringify(got)}`);
        for (const c of got.codes) {
          assert.match(c, /^(upstream_error|upstream_timeout|connection_refused)$/, `${server}`);
        }
        assert.ok(got.ms < 6_000, `${server} took ${got.ms} ms`);
      }
    });
  }

  it('DNS over TCP: a connection to unroutable, refusing and silent addresses fails coded', async () => {
    for (const t of targets(53)) {
      const address = t.host.replace(/^\[|\]$/g, '');
      const connection = new StreamConnection({ address, port: t.port });
      const query = Buffer.alloc(12);
      query.writeUInt16BE(7, 0);
      const timer = setTimeout(() => connection.close(), 500);
      await assert.rejects(connection.ask(7, query), (err: Error & { code?: string }) => {
        assert.match(err.code ?? '', /^(upstream_error|upstream_timeout)$/, `${t.kind} ${address}`);
        return true;
      });
      clearTimeout(timer);
      connection.close();
    }
  });

  it('web: unroutable, refusing and silent origins end coded', async () => {
    for (const t of targets(80)) {
      for (const op of ['redirects', 'unfurl', 'icons']) {
        const url = `http://${t.host}:${t.port}/`;
        const got = await codes(`/meta/${op}?url=${encodeURIComponent(url)}`);
        assert.ok(got.status >= 400, `${op} ${url}: ${JSON.stringify(got)}`);
        assert.match(got.codes[0] ?? '', /^(upstream_error|upstream_timeout|connection_refused)$/);
      }
    }
  });
});
