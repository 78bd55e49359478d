import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { WebPool } from '../../../../src/engine/web/pool';

// The engine's web connection pool: a connection that has just answered takes the next request
// at once, at most N connections an origin, and a request that finds a connection the server
// closed without saying so is sent again on a new one (GET and HEAD only).
describe('web connection pool', function () {
  let server: Server;
  let origin: string;
  let connections = 0;
  let open = 0;
  let mostOpen = 0;

  before(async function () {
    server = createHttpServer((req, res) => {
      open++;
      mostOpen = Math.max(mostOpen, open);
      const answer = () => {
        open--;
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(req.method === 'HEAD' ? undefined : `${req.url}`);
      };
      if (req.url === '/slow') setTimeout(answer, 30);
      else answer();
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  beforeEach(function () {
    connections = 0;
    mostOpen = 0;
  });

  after(function () {
    server.closeAllConnections();
    server.close();
  });

  it('sends each next request on the connection that has just answered, with no turn between', async function () {
    const pool = new WebPool({}, 8);
    try {
      for (let i = 0; i < 10; i++) {
        const method = i % 2 === 0 ? 'HEAD' : 'GET';
        // (reset: false, as the engine sends HEADs: undici otherwise closes after each)
        const { statusCode, body } = await pool.request({
          origin,
          path: `/${i}`,
          method,
          reset: false,
        });
        assert.equal(statusCode, 200);
        // a GET's body is read to its end: its connection is free once the last byte is in
        if (method === 'GET') assert.equal(await body.text(), `/${i}`);
        else await body.dump();
      }
      assert.equal(connections, 1);
    } finally {
      await pool.close();
    }
  });

  it('opens at most its connections an origin and sends the rest as they come free', async function () {
    const pool = new WebPool({}, 2);
    try {
      const answers = await Promise.all(
        Array.from({ length: 5 }, async () => {
          const { statusCode, body } = await pool.request({ origin, path: '/slow', method: 'GET' });
          await body.dump();
          return statusCode;
        }),
      );
      assert.deepEqual(answers, [200, 200, 200, 200, 200]);
      assert.equal(connections, 2);
      assert.equal(mostOpen, 2);
    } finally {
      await pool.close();
    }
  });

  it('lets close() finish what waits for a connection, while destroy() ends it', async function () {
    const pool = new WebPool({}, 1);
    const first = pool.request({ origin, path: '/slow', method: 'GET' });
    const waiting = pool.request({ origin, path: '/slow', method: 'GET' });
    await pool.close();
    for (const answer of await Promise.all([first, waiting])) {
      assert.equal(answer.statusCode, 200);
      await answer.body.dump();
    }
    await assert.rejects(pool.request({ origin, path: '/', method: 'GET' }), {
      code: 'UND_ERR_CLOSED',
    });

    const doomed = new WebPool({}, 1);
    const running = doomed.request({ origin, path: '/slow', method: 'GET' });
    const queued = doomed.request({ origin, path: '/slow', method: 'GET' });
    await doomed.destroy();
    await assert.rejects(running);
    await assert.rejects(queued, { code: 'UND_ERR_DESTROYED' });
  });

  describe('a server that drops a kept connection when the next request comes', function () {
    let dropping: ReturnType<typeof createTcpServer>;
    let droppingOrigin: string;
    const received: string[] = [];

    before(async function () {
      // Each connection answers its first request as HTTP/1.1 kept alive, then is closed
      // without an answer when the next one arrives (a server that closed it as it came).
      dropping = createTcpServer((socket: Socket) => {
        let head = '';
        let answered = false;
        socket.on('data', (chunk: Buffer) => {
          head += chunk.toString('latin1');
          const end = head.indexOf('\r\n\r\n');
          if (end < 0) return;
          const [method, path] = head.split(' ');
          head = head.slice(end + 4).replace(/^x/, ''); // a POST's one-byte body
          received.push(`${method} ${path}`);
          if (answered) return void socket.destroy();
          answered = true;
          const body = method === 'HEAD' ? '' : path;
          socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${path.length}\r\n\r\n${body}`);
        });
      });
      await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
      droppingOrigin = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}`;
    });

    beforeEach(function () {
      received.length = 0;
    });

    after(function () {
      dropping.close();
    });

    it('sends a GET or HEAD that met the closed connection again, on a new one', async function () {
      const pool = new WebPool({}, 8);
      try {
        for (const [method, path] of [
          ['GET', '/a'],
          ['HEAD', '/b'],
          ['GET', '/c'],
        ] as const) {
          const { statusCode, body } = await pool.request({
            origin: droppingOrigin,
            path,
            method,
            reset: false,
          });
          assert.equal(statusCode, 200);
          if (method === 'GET') assert.equal(await body.text(), path);
          else await body.dump();
        }
        // each after the first met a kept connection that was dropped, then a new one
        assert.deepEqual(received, ['GET /a', 'HEAD /b', 'HEAD /b', 'GET /c', 'GET /c']);
      } finally {
        await pool.close();
      }
    });

    it('does not send a POST twice', async function () {
      const pool = new WebPool({}, 8);
      try {
        const first = await pool.request({ origin: droppingOrigin, path: '/a', method: 'GET' });
        await first.body.dump();
        await assert.rejects(
          pool.request({ origin: droppingOrigin, path: '/p', method: 'POST', body: 'x' }),
          { code: 'UND_ERR_SOCKET' },
        );
        assert.deepEqual(received, ['GET /a', 'POST /p']);
      } finally {
        await pool.close();
      }
    });
  });
});
