// Loopback ports for the servers the tests start (knotd, redis-server). They are taken below
// the kernel's ephemeral range: a port from that range can at any moment become the local
// port of some client socket of the same run (an outbound TCP connection, a UDP question),
// and a server then fails to bind it ("address already in use", seen in CI with knotd).
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A loopback port below the ephemeral range on which both UDP and TCP are free right now. */
export async function freeServicePort(): Promise<number> {
  for (;;) {
    const port = portBelowEphemeral();
    if ((await udpFree(port)) && (await tcpFree(port))) return port;
  }
}

/**
 * A loopback UDP port nothing listens on, below the kernel's ephemeral range: a port taken
 * from that range can be handed straight back to the client's own socket, which then asks
 * itself (and reads its query as a malformed answer) instead of meeting a closed port.
 */
export async function closedUdpPort(): Promise<number> {
  for (;;) {
    const port = portBelowEphemeral();
    if (await udpFree(port)) return port;
  }
}

function portBelowEphemeral(): number {
  return 1024 + Math.floor(Math.random() * (ephemeralLow() - 1024));
}

function udpFree(port: number): Promise<boolean> {
  const socket = createSocket('udp4');
  return new Promise((resolve) => {
    socket.once('error', () => resolve(false)); // the failed socket is already closed
    socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
  });
}

function tcpFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The kernel's lowest ephemeral port (Linux), or the usual 32768 where it cannot be read. */
function ephemeralLow(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (Number.isInteger(low) && low > 2048) return low;
  } catch {
    // not Linux: fall through
  }
  return 32768;
}
