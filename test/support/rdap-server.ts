// Loopback RDAP server for tests: routes are exact paths ("/domain/example.com",
// "/dns.json") answering a status, a JSON body (or raw text) and headers.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface RdapRoute {
  status?: number;
  /** serialised as JSON unless it is a string */
  body?: unknown;
  headers?: Record<string, string>;
  /** never answer (for timeouts) */
  hang?: boolean;
  /** stream this many bytes of JSON-ish filler with no content-length */
  hugeBytes?: number;
}

export interface RdapFixture {
  /** "http://127.0.0.1:port/" */
  base: string;
  requests: string[];
  close(): Promise<void>;
}

export async function startRdapServer(routes: Record<string, RdapRoute>): Promise<RdapFixture> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    const route = routes[path];
    if (route === undefined) {
      send(res, 404, { errorCode: 404, title: 'Not Found' }, {});
      return;
    }
    if (route.hang) return;
    if (route.hugeBytes !== undefined) {
      res.writeHead(200, { 'content-type': 'application/rdap+json' });
      const chunk = Buffer.alloc(64 * 1024, ' ');
      let left = route.hugeBytes;
      const pump = (): void => {
        while (left > 0) {
          left -= chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      pump();
      return;
    }
    send(res, route.status ?? 200, route.body ?? {}, route.headers ?? {});
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('no address');
  return {
    base: `http://127.0.0.1:${addr.port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string>,
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/rdap+json', ...headers });
  res.end(text);
}
