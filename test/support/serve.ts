// Starts `hostlens serve`'s server on a loopback port over any Services, with a fresh token and
// an HTTP client pointed at it: the client → server → services leg of the three-way tests.
import { randomBytes } from 'node:crypto';
import { startServer, type ServerOptions } from '../../src/server/server';
import { HttpServices } from '../../src/services/http';
import type { Services } from '../../src/contract/services';

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  domainBase: string;
  metaBase: string;
  token: string;
  /** An HTTP client already holding the token. */
  client: HttpServices;
  /** Every access-log line so far. */
  log: string[];
  close(): Promise<void>;
}

export async function startTestServer(
  services: Services,
  options: Partial<Omit<ServerOptions, 'services'>> = {},
): Promise<TestServer> {
  const token = `test-${randomBytes(16).toString('hex')}`;
  const log: string[] = [];
  const server = await startServer({
    // Generous by default so table tests never trip the limiter; tests of it pass their own.
    rateLimit: { perMinute: 1_000_000, burst: 10_000 },
    port: 0,
    host: '127.0.0.1',
    log: (line) => log.push(line),
    ...options,
    tokens: options.tokens ?? [token],
    services,
  });
  const domainBase = `${server.url}/domain`;
  const metaBase = `${server.url}/meta`;
  const client = new HttpServices({
    domainApiBaseUrl: domainBase,
    metaApiBaseUrl: metaBase,
    token: () => token,
    timeoutMs: 10_000,
  });
  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    domainBase,
    metaBase,
    token,
    client,
    log,
    close() {
      closing ??= client
        .close()
        .then(() => server.close(1_000))
        .then(() => undefined);
      return closing;
    },
  };
}
