// The loose ends of issue 15, each against the real server on loopback: malformed HTTP, slow
// headers, requests that expire in the queue, shutdown with requests still running, and
// logging that never takes the server down.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { EventEmitter } from 'node:events';
import { resolve } from 'node:path';
import { Agent, request, type Dispatcher } from 'undici';
import { ERROR_STATUS, type ErrorCode } from '../../../src/contract/errors';
import { serve, type ServeIo } from '../../../src/server/main';
import { FakeServices, FIXED, untilAborted } from '../../support/fake-services';
import { parseRaw, rawExchange, type RawReply } from '../../support/raw-http';
import { startTestServer, type TestServer } from '../../support/serve';

const TOKEN = 'robust-token-0123456789abcdef';

function assertRawProblem(reply: RawReply, code: ErrorCode): void {
  assert.equal(reply.status, ERROR_STATUS[code], reply.text.slice(0, 300));
  assert.equal(reply.headers['content-type'], 'application/problem+json');
  assert.equal(reply.headers.connection, 'close');
  assert.ok(reply.json, 'a JSON body');
  assert.equal(reply.json.code, code);
  assert.equal(reply.json.status, ERROR_STATUS[code]);
  assert.equal(reply.json.type, `https://hostlens.dev/problems/${code}`);
  assert.equal(
    Number(reply.headers['content-length']),
    Buffer.byteLength(reply.text.split('\r\n\r\n')[1]),
  );
  assert.doesNotMatch(reply.text, /\bat .*\.ts:\d+|node:internal|127\.0\.0\.1|HPE_|Parse Error/);
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('server robustness', () => {
  let fake: FakeServices;
  let server: TestServer;
  const agent = new Agent({ connections: 32 });

  beforeEach(async () => {
    fake = new FakeServices();
    server = await startTestServer(fake, { tokens: [TOKEN] });
  });

  afterEach(async () => {
    await server.close();
  });

  after(async () => {
    await agent.close();
  });

  describe('malformed HTTP gets problem+json, never an empty 400 or a drop', () => {
    const auth = `Authorization: ${TOKEN}\r\n`;
    const cases: Array<[string, Array<string | Buffer>, ErrorCode]> = [
      [
        'an unknown method',
        [`BREW /domain/query?host=x.test HTTP/1.1\r\nHost: x\r\n${auth}\r\n`],
        'bad_request',
      ],
      [
        'a 20 KB header',
        [
          `GET /domain/query?host=x.test HTTP/1.1\r\nHost: x\r\n${auth}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        ],
        'request_header_too_large',
      ],
      [
        'a NUL byte in a header value',
        [Buffer.from(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n`, 'latin1')],
        'bad_request',
      ],
      [
        'a NUL byte in the request target',
        [Buffer.from(`GET /domain/query?host=a\0b HTTP/1.1\r\nHost: x\r\n${auth}\r\n`, 'latin1')],
        'bad_request',
      ],
      ['raw NUL bytes instead of a request', [Buffer.alloc(16)], 'bad_request'],
      ['an HTTP/2 preface', ['PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'], 'bad_request'],
      [
        'Transfer-Encoding with Content-Length',
        [
          `GET /domain/query?host=x.test HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
        ],
        'bad_request',
      ],
      [
        'Content-Length with Transfer-Encoding',
        [
          `POST /domain/query?host=x.test HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n`,
        ],
        'bad_request',
      ],
    ];
    for (const [label, chunks, code] of cases) {
      it(`answers ${label} with ${ERROR_STATUS[code]} ${code}`, async () => {
        const reply = await rawExchange(server.url, chunks);
        assertRawProblem(reply, code);
        assert.equal(fake.calls.length, 0);
        assert.ok(
          server.log.some((l) => / - - HPE_/.test(l)),
          server.log.join('\n'),
        );
      });
    }

    it('keeps serving after each of them', async () => {
      for (const [, chunks] of cases) await rawExchange(server.url, chunks);
      const res = await request(`${server.url}/domain/query?host=x.test`, {
        headers: { authorization: TOKEN },
        dispatcher: agent,
      });
      assert.equal(res.statusCode, 200);
      assert.equal(await res.body.text(), JSON.stringify(FIXED.query));
    });
  });

  it('answers a client too slow with its headers 408 request_timeout', async () => {
    await server.close();
    server = await startTestServer(fake, {
      tokens: [TOKEN],
      headersTimeoutMs: 200,
      requestTimeoutMs: 400,
    });
    const drip = Array.from({ length: 40 }, (_, i) =>
      i === 0 ? 'GET /healthz HTTP/1.1\r\n' : 'X-Slow: a\r\n',
    );
    const reply = await rawExchange(server.url, drip, 50);
    assertRawProblem(reply, 'request_timeout');
  });

  it('answers 503 overloaded, not upstream_timeout, when the deadline passes in the queue', async () => {
    await server.close();
    server = await startTestServer(fake, {
      tokens: [TOKEN],
      maxConcurrent: 1,
      requestTimeoutMs: 300,
    });
    // The first call holds the only worker past the deadline of the one queued behind it.
    fake.behaviour.query = () => wait(700).then(() => FIXED.query);
    const ask = () =>
      request(`${server.url}/domain/query?host=x.test`, {
        headers: { authorization: TOKEN },
        dispatcher: agent,
      }).then(async (res) => ({
        status: res.statusCode,
        retryAfter: res.headers['retry-after'],
        body: JSON.parse(await res.body.text()) as { code: string; status: number },
      }));
    const first = ask();
    while (fake.calls.length === 0) await wait(5);
    const queued = await ask();
    assert.equal(queued.status, 503);
    assert.equal(queued.body.code, 'overloaded');
    assert.equal(queued.retryAfter, '1');
    assert.equal(fake.calls.length, 1, 'the queued request never reached the service');
    const running = await first;
    assert.equal(running.status, 504);
    assert.equal(running.body.code, 'upstream_timeout');
    const metrics = await request(`${server.url}/metrics`, {
      headers: { authorization: TOKEN },
      dispatcher: agent,
    }).then((r) => r.body.text());
    assert.match(metrics, /hostlens_refusals_total\{reason="queue_expired"\} 1/);
  });

  describe('shutdown', () => {
    interface Harness {
      io: ServeIo;
      out: string[];
      err: string[];
      signals: EventEmitter;
      listening: Promise<string>;
    }
    function harness(graceMs: number): Harness {
      const out: string[] = [];
      const err: string[] = [];
      const signals = new EventEmitter();
      let onListening!: (url: string) => void;
      const listening = new Promise<string>((r) => (onListening = r));
      return {
        io: { out: (l) => out.push(l), err: (l) => err.push(l), signals, graceMs, onListening },
        out,
        err,
        signals,
        listening,
      };
    }

    it('answers requests still running after the grace period 503 and exits non-zero', async () => {
      // --grace 0.2 overrides the harness's 10 s.
      const h = harness(10_000);
      const slow = new FakeServices();
      slow.behaviour.query = (_p, o) => untilAborted(o.signal);
      const exit = serve(
        { port: 0, graceSeconds: '0.2' },
        { HOSTLENS_TOKENS: TOKEN },
        () => slow,
        h.io,
      );
      const url = await h.listening;
      const inflight = [1, 2].map(() =>
        request(`${url}/domain/query?host=x.test`, {
          headers: { authorization: TOKEN },
          dispatcher: agent,
        }),
      );
      while (slow.calls.length < 2) await wait(5);
      h.signals.emit('SIGTERM');
      for (const pending of inflight) {
        const res = await pending;
        assert.equal(res.statusCode, 503);
        assert.equal(res.headers['content-type'], 'application/problem+json');
        assert.equal(res.headers['retry-after'], '1');
        const body = JSON.parse(await res.body.text()) as { code: string };
        assert.equal(body.code, 'overloaded');
      }
      assert.equal(await exit, 1);
      assert.ok(
        slow.calls.every((c) => c.signal?.aborted),
        'the work was cancelled',
      );
      assert.match(h.err.join('\n'), /2 request\(s\) cut after the grace period/);
    });

    it('exits 0 when every running request finished within the grace period', async () => {
      const h = harness(2000);
      const quick = new FakeServices();
      quick.behaviour.query = async () => {
        await wait(100);
        return FIXED.query;
      };
      const exit = serve({ port: 0 }, { HOSTLENS_TOKENS: TOKEN }, () => quick, h.io);
      const url = await h.listening;
      const pending = request(`${url}/domain/query?host=x.test`, {
        headers: { authorization: TOKEN },
        dispatcher: agent,
      });
      while (quick.calls.length === 0) await wait(5);
      h.signals.emit('SIGTERM');
      const res = await pending;
      assert.equal(res.statusCode, 200);
      await res.body.text();
      assert.equal(await exit, 0);
    });

    it('finishes a request running at close() with Connection: close, then closes', async () => {
      let release!: () => void;
      fake.behaviour.query = async () => {
        await new Promise<void>((r) => (release = r));
        return FIXED.query;
      };
      const { port } = new URL(server.url);
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString()));
      const closedSocket = new Promise<void>((r) => socket.on('close', () => r()));
      await new Promise<void>((r) => socket.once('connect', () => r()));
      socket.write(
        `GET /domain/query?host=x.test HTTP/1.1\r\nHost: x\r\nAuthorization: ${TOKEN}\r\n\r\n`,
      );
      while (fake.calls.length === 0) await wait(5);
      const closing = server.close();
      await wait(20);
      release();
      await closedSocket;
      await closing;
      const answer = parseRaw(text);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.connection, 'close');
      assert.deepEqual(answer.json, FIXED.query);
    });
  });

  it('keeps serving when the reader of its standard output goes away (| head -1)', async function () {
    this.timeout(30_000);
    const script = resolve(__dirname, '../../support/serve-child.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, HOSTLENS_TOKENS: TOKEN, HOSTLENS_TEST_QUERY_MS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let errText = '';
    child.stderr.on('data', (d: Buffer) => (errText += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      // Read the first line, then close the pipe as `head -1` does.
      const firstLine = await new Promise<string>((done) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) done(out.split('\n')[0]);
        });
      });
      child.stdout.destroy();
      const url: string | undefined = /listening on (\S+)/.exec(firstLine)?.[1];
      assert.ok(url, firstLine);
      // Every request logs a line to the closed pipe; the first ones raise EPIPE.
      for (let i = 0; i < 20; i++) {
        const res: Dispatcher.ResponseData = await request(`${url}/domain/query?host=x.test`, {
          headers: { authorization: TOKEN },
          dispatcher: agent,
        });
        assert.equal(res.statusCode, 200);
        await res.body.text();
        await wait(10);
      }
      assert.equal(child.exitCode, null, `the server died: ${errText}`);
      child.kill('SIGTERM');
      assert.equal(await exited, 0, errText);
      assert.doesNotMatch(errText, /EPIPE|Unhandled|Error:/);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
