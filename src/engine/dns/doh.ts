// DNS over HTTPS (RFC 8484): the query as an application/dns-message POST over HTTP/2. One
// undici client per resolver (and trust) lives for the process, so after the first question
// each one costs a single round trip on a connection that is already up.
import type { LookupAddress } from 'node:dns';
import { Client } from 'undici';
import { ExchangeError, failureOf } from './errors';
import { trustKey } from './stream';
import { checkReply, type Ask, type NameServer, type Reply, type TryEnd } from './transport';
import { encodeQuery } from './wire';

const MAX_CLIENTS = 16;
const MAX_MESSAGE = 65535;
const clients = new Map<string, Client>();
const TRY_ENDED = new ExchangeError('upstream_timeout', 'The try ended');

type HttpsServer = Extract<NameServer, { transport: 'https' }>;

function clientFor(server: HttpsServer, ca: Ask['options']['ca']): Client {
  const url = new URL(server.url);
  const key = `${url.origin}|${server.address}|${trustKey(ca)}`;
  const open = clients.get(key);
  if (open !== undefined && !open.closed && !open.destroyed) return open;
  if (clients.size >= MAX_CLIENTS) {
    const [oldestKey, oldest] = clients.entries().next().value as [string, Client];
    clients.delete(oldestKey);
    void oldest.close().catch(() => undefined);
  }
  // The connection goes to the address resolved (and checked) before, whatever the name
  // resolves to now; the certificate is still verified for the name in the URL.
  const pinned = server.address;
  const family = pinned.includes(':') ? 6 : 4;
  const client = new Client(url.origin, {
    allowH2: true,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 120_000,
    connect: {
      ...(ca !== undefined ? { ca } : {}),
      lookup: (
        _host: string,
        options: { all?: boolean },
        callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
      ) => {
        if (options.all === true) callback(null, [{ address: pinned, family }]);
        else callback(null, pinned, family);
      },
    },
  });
  clients.set(key, client);
  return client;
}

export async function askHttps(ask: Ask, server: HttpsServer, end: TryEnd): Promise<Reply> {
  const cancel = new AbortController();
  // The try has already failed by then (timeout or cancel): this reason goes nowhere.
  end.onEnd(() => cancel.abort(TRY_ENDED));
  const signal = cancel.signal;
  // RFC 8484 section 4.1: ID 0, so identical questions are identical requests.
  const query = encodeQuery(0, ask.name, ask.type, ask.options);
  const url = new URL(server.url);
  let response;
  try {
    response = await clientFor(server, ask.options.ca).request({
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: { 'content-type': 'application/dns-message', accept: 'application/dns-message' },
      body: query,
      signal,
    });
  } catch (err) {
    if (signal.aborted) throw signal.reason as Error;
    throw failureOf(causeOf(err), true);
  }
  const type = String(response.headers['content-type'] ?? '')
    .split(';')[0]
    .trim();
  if (response.statusCode !== 200 || type !== 'application/dns-message') {
    await response.body.dump();
    throw new ExchangeError(
      'upstream_error',
      `The DNS-over-HTTPS server answered HTTP ${response.statusCode}${type ? ` (${type})` : ''}`,
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > MAX_MESSAGE) {
      response.body.destroy();
      throw new ExchangeError('upstream_error', 'The DNS-over-HTTPS answer is too large');
    }
    chunks.push(chunk as Buffer);
  }
  const message = Buffer.concat(chunks);
  if (message.length < 2 || message.readUInt16BE(0) !== 0) {
    throw new ExchangeError('upstream_error', 'The DNS-over-HTTPS answer has the wrong ID');
  }
  return checkReply(message, ask, 'https');
}

// undici wraps the socket's error (a certificate refusal, a refused connection) in its own.
function causeOf(err: unknown): unknown {
  const cause = (err as { cause?: unknown } | null)?.cause;
  const code = (err as { code?: unknown } | null)?.code;
  return cause !== undefined && (code === undefined || code === 'UND_ERR_CONNECT') ? cause : err;
}

/** Closes every DoH connection (tests, and a process that wants to exit at once). */
export async function closeHttpsClients(): Promise<void> {
  const all = [...clients.values()];
  clients.clear();
  await Promise.all(all.map((c) => c.close().catch(() => undefined)));
}
