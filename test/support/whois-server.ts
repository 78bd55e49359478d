// Loopback port-43 WHOIS server for tests. Each query line is looked up in `replies` (exact
// query text, e.g. "domain example.com"); the reply is written and the socket closed, unless the
// reply asks for a special behaviour.
import { createServer, type Server, type Socket } from 'node:net';

export type WhoisReply =
  | string
  | Buffer
  | { kind: 'hang' } // accepts the query and never answers or closes
  | { kind: 'huge'; bytes: number } // streams that many bytes, then closes
  | { kind: 'close' }; // closes without a byte

export interface WhoisFixture {
  /** "127.0.0.1:port" for HOSTLENS_WHOIS_SERVER / whoisServer */
  address: string;
  /** every query line received, in order */
  queries: string[];
  close(): Promise<void>;
}

export async function startWhoisServer(
  replies: Record<string, WhoisReply>,
  fallback: WhoisReply = 'No match for this query.\r\n',
): Promise<WhoisFixture> {
  const queries: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      const end = buffered.indexOf('\r\n');
      if (end < 0) return;
      const query = buffered.slice(0, end);
      buffered = '';
      queries.push(query);
      answer(socket, replies[query] ?? fallback);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('no address');
  return {
    address: `127.0.0.1:${addr.port}`,
    queries,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function answer(socket: Socket, reply: WhoisReply): void {
  if (typeof reply === 'string' || Buffer.isBuffer(reply)) {
    socket.end(reply);
    return;
  }
  if (reply.kind === 'hang') return;
  if (reply.kind === 'close') {
    socket.end();
    return;
  }
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let left = reply.bytes;
  const pump = (): void => {
    while (left > 0) {
      const n = Math.min(left, chunk.length);
      left -= n;
      if (!socket.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
        socket.once('drain', pump);
        return;
      }
    }
    socket.end();
  };
  pump();
}
