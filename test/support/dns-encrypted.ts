// Loopback DNS-over-TLS (RFC 7858) and DNS-over-HTTPS (RFC 8484) fronts for the fixture DNS
// server, with certificates made at test time by openssl (nothing secret is committed): a
// test CA, a server certificate it signs for `dns.test`, `localhost` and 127.0.0.1, and a
// self-signed certificate for the same names that nobody trusts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import { connect as tcpConnect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createServer as createTlsServer,
  type Server as TlsServer,
  type TLSSocket,
} from 'node:tls';

export interface TestPki {
  ca: string;
  key: string;
  cert: string;
  /** a self-signed certificate for the same names, trusted by no one */
  untrustedKey: string;
  untrustedCert: string;
}

const NAMES = 'subjectAltName=DNS:dns.test,DNS:localhost,IP:127.0.0.1';

/** Makes a CA and the certificates; openssl must be installed (Debian: openssl). */
export function makeTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'hostlens-pki-'));
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  try {
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    ssl(
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=HostLens test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign',
    );
    ssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=dns.test');
    writeFileSync(join(dir, 'ext.cnf'), `${NAMES}\nextendedKeyUsage=serverAuth\n`);
    ssl(
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      '2',
      '-extfile',
      'ext.cnf',
    );
    ssl(
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'self.key',
      '-out',
      'self.pem',
      '-days',
      '2',
      '-subj',
      '/CN=dns.test',
      '-addext',
      NAMES,
    );
    const read = (f: string) => readFileSync(join(dir, f), 'utf8');
    return {
      ca: read('ca.pem'),
      key: read('server.key'),
      cert: read('server.pem'),
      untrustedKey: read('self.key'),
      untrustedCert: read('self.pem'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function opensslAvailable(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Asks the fixture server one DNS message over TCP and returns its reply. */
function forward(port: number, host: string, message: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect({ port, host });
    let buffered = Buffer.alloc(0);
    socket.on('connect', () => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(message.length, 0);
      socket.write(Buffer.concat([length, message]));
    });
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        socket.destroy();
        resolve(buffered.subarray(2, 2 + buffered.readUInt16BE(0)));
      }
    });
    socket.on('error', reject);
  });
}

export interface EncryptedFront {
  port: number;
  /** connections (TLS sessions) accepted */
  readonly connections: number;
  /** DoH: the HTTP version of each request */
  httpVersions: string[];
  close(): Promise<void>;
}

interface Upstream {
  host: string;
  port: number;
}

export interface FrontOptions {
  key: string;
  cert: string;
  /** DoH: answer every request with this status instead (error handling tests) */
  status?: number;
}

/** DNS over TLS in front of `upstream`: framed messages in, framed replies out. */
export async function startDotFront(
  upstream: Upstream,
  tls: FrontOptions,
): Promise<EncryptedFront> {
  let connections = 0;
  const sockets = new Set<TLSSocket>();
  const server: TlsServer = createTlsServer({ key: tls.key, cert: tls.cert }, (socket) => {
    socket.setNoDelay(true);
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const message = buffered.subarray(2, 2 + buffered.readUInt16BE(0));
        buffered = buffered.subarray(2 + message.length);
        void forward(upstream.port, upstream.host, Buffer.from(message)).then((reply) => {
          const length = Buffer.alloc(2);
          length.writeUInt16BE(reply.length, 0);
          if (!socket.destroyed) socket.write(Buffer.concat([length, reply]));
        });
      }
    });
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    httpVersions: [],
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** DNS over HTTPS in front of `upstream`, at /dns-query: POST bodies and GET ?dns=. */
export async function startDohFront(
  upstream: Upstream,
  tls: FrontOptions,
): Promise<EncryptedFront> {
  let connections = 0;
  const httpVersions: string[] = [];
  const server: Http2SecureServer = createSecureServer({
    key: tls.key,
    cert: tls.cert,
    allowHTTP1: true,
  });
  const sessions = new Set<{ destroy(): void }>();
  // No Nagle: HEADERS and DATA go out as separate writes, and a delayed ACK would hold the
  // second for 40 ms, a delay no real resolver adds.
  server.on('secureConnection', (socket: TLSSocket) => {
    socket.setNoDelay(true);
    connections++;
  });
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  server.on('tlsClientError', () => undefined);
  server.on('request', (req, res) => {
    httpVersions.push(req.httpVersion);
    const url = new URL(req.url ?? '/', 'https://dns.test');
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (tls.status !== undefined || url.pathname !== '/dns-query') {
        res.writeHead(tls.status ?? 404, { 'content-type': 'text/plain' });
        res.end('no');
        return;
      }
      const fromGet = url.searchParams.get('dns');
      const message =
        req.method === 'GET' && fromGet !== null
          ? Buffer.from(fromGet, 'base64url')
          : Buffer.concat(chunks);
      void forward(upstream.port, upstream.host, message).then((reply) => {
        res.writeHead(200, {
          'content-type': 'application/dns-message',
          'content-length': String(reply.length),
        });
        res.end(reply);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    httpVersions,
    close: async () => {
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
