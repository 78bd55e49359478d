// A loopback server that answers for any host name: every socket the engine opens is routed
// to it (through the injectable connector), and it dispatches on the Host header and path.
// Used to replay corpus pages and recorded sessions without any network.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { WebOptions } from '../../src/engine/web/fetcher';

export type ReplayHandler = (
  host: string,
  target: string,
  req: IncomingMessage,
  res: ServerResponse,
) => void;

export interface ReplayServer {
  port: number;
  /** pass as WebOptions.connector: every origin lands on this server */
  connector: NonNullable<WebOptions['connector']>;
  close(): Promise<void>;
}

export async function startReplayServer(handler: ReplayHandler): Promise<ReplayServer> {
  const server = createServer((req, res) => {
    try {
      handler((req.headers.host ?? '').toLowerCase(), req.url ?? '/', req, res);
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    connector: (_options, callback) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => callback(null, socket));
      socket.once('error', (err) => callback(err, null));
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
