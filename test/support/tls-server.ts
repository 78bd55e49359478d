// Loopback TLS endpoints for the TLS inspection's tests: a server presenting a given chain
// (security level 0, so weak keys and SHA-1 chains can be served at all), an SMTP server with
// or without STARTTLS, an https page, and hostile ones: garbage instead of a handshake,
// silence.
import { randomBytes } from 'node:crypto';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { createSecureContext, createServer, TLSSocket } from 'node:tls';
import type { Served } from './tls-pki';

export interface Listening {
  port: number;
  /** connections accepted so far */
  connections(): number;
  close(): Promise<void>;
}

function track(
  server: Server,
): Listening & { listen(port?: number, host?: string): Promise<void> } {
  const sockets = new Set<Socket>();
  let count = 0;
  server.on('connection', (s: Socket) => {
    count++;
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  return {
    port: 0,
    connections: () => count,
    listen(port = 0, host = '127.0.0.1') {
      return new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          this.port = (server.address() as { port: number }).port;
          resolve();
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const LEVEL_0 = 'DEFAULT:@SECLEVEL=0';

export async function serveTls(served: Served): Promise<Listening> {
  const server = createServer({
    cert: served.chain,
    key: served.key,
    ciphers: LEVEL_0,
    ALPNProtocols: ['h2', 'http/1.1'],
  });
  server.on('tlsClientError', () => undefined);
  server.on('secureConnection', (s) => s.end());
  const t = track(server);
  await t.listen();
  return t;
}

/**
 * One listener for many names, SNI picking each one's chain (the first for a client that names
 * none or another), on `host`:`port` (loopback, any free port, unless told). All chains must
 * be on keys of one type: node's SNI does not switch an EC context to an RSA key.
 */
export async function serveTlsByName(
  byName: Readonly<Record<string, Served>>,
  { host = '127.0.0.1', port = 0 }: { host?: string; port?: number } = {},
): Promise<Listening> {
  const context = (served: Served) => ({ cert: served.chain, key: served.key, ciphers: LEVEL_0 });
  const contexts = new Map(
    Object.entries(byName).map(([name, served]) => [name, createSecureContext(context(served))]),
  );
  const [first] = Object.values(byName);
  const server = createServer({
    ...context(first),
    SNICallback: (name, done) => done(null, contexts.get(name.toLowerCase())),
  });
  server.on('tlsClientError', () => undefined);
  server.on('secureConnection', (s) => s.end());
  const t = track(server);
  await t.listen(port, host);
  return t;
}

/** Answers every connection with random bytes, then closes it. */
export async function serveGarbage(bytes = 4096): Promise<Listening> {
  const server = createTcpServer((s) => s.end(randomBytes(bytes)));
  const t = track(server);
  await t.listen();
  return t;
}

/** Accepts connections and never sends a byte. */
export async function serveSilence(): Promise<Listening> {
  const server = createTcpServer(() => undefined);
  const t = track(server);
  await t.listen();
  return t;
}

export interface SmtpOptions {
  /** offer STARTTLS in the EHLO reply (default true) */
  starttls?: boolean;
  /** the chain presented after STARTTLS */
  served?: Served;
  /** the greeting's code (default 220) */
  greeting?: number;
  /** what the server saw, line by line */
  log?: string[];
}

/** A minimal SMTP server: greeting, EHLO, STARTTLS (RFC 3207), QUIT. */
export async function serveSmtp(options: SmtpOptions): Promise<Listening> {
  const context = options.served
    ? createSecureContext({ cert: options.served.chain, key: options.served.key, ciphers: LEVEL_0 })
    : undefined;
  const server = createTcpServer((socket) => {
    socket.write(`${options.greeting ?? 220} mx.test ESMTP ready\r\n`);
    if ((options.greeting ?? 220) !== 220) return void socket.end();
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        options.log?.push(line);
        const verb = line.split(' ')[0].toUpperCase();
        if (verb === 'EHLO') {
          const ext = ['250-mx.test greets you', '250-PIPELINING', '250-SIZE 10240000'];
          if (options.starttls !== false) ext.push('250-STARTTLS');
          socket.write([...ext, '250 8BITMIME', ''].join('\r\n'));
        } else if (verb === 'STARTTLS' && context) {
          socket.off('data', onData);
          socket.write('220 2.0.0 go ahead\r\n', () => {
            const tls = new TLSSocket(socket, { isServer: true, secureContext: context });
            tls.on('error', () => undefined);
            tls.on('secure', () => tls.end());
          });
          return;
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
        } else {
          socket.write('502 5.5.1 not here\r\n');
        }
      }
    };
    socket.on('data', onData);
  });
  const t = track(server);
  await t.listen();
  return t;
}

/** An https site presenting `served`'s chain, answering every path with `html`. */
export async function serveHttpsPage(served: Served, html: string): Promise<Listening> {
  const server = createHttpsServer({ cert: served.chain, key: served.key }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  server.on('tlsClientError', () => undefined);
  const t = track(server);
  await t.listen();
  return t;
}
