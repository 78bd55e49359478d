// A TCP link with added latency, in user space (no netem here): every chunk crosses after half
// the round trip, and nothing the client sends crosses before one whole round trip after the
// accept, as if the TCP handshake had taken it (data cannot go before SYN, SYN-ACK).
import { connect, createServer, type Socket } from 'node:net';

export interface LatencyProxy {
  port: number;
  connections(): number;
  close(): Promise<void>;
}

export async function startLatencyProxy(
  target: { host: string; port: number },
  rttMs: number,
): Promise<LatencyProxy> {
  const half = rttMs / 2;
  const sockets = new Set<Socket>();
  let count = 0;
  const server = createServer((client) => {
    count++;
    const accepted = Date.now();
    const upstream = connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    const relay = (from: Socket, to: Socket, notBefore: number) => {
      from.on('data', (chunk: Buffer) => {
        const at = Math.max(Date.now() + half, notBefore);
        setTimeout(() => to.write(chunk), at - Date.now());
      });
      from.on('end', () => setTimeout(() => to.end(), half));
    };
    // the client's first bytes could leave only after SYN, SYN-ACK: one round trip, then half
    relay(client, upstream, accepted + rttMs + half);
    relay(upstream, client, 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
