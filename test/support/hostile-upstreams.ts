// Loopback servers that misbehave on purpose, for the hostile-upstream suite (issue 29): a web
// server written on raw sockets (so it can send what no HTTP library would), a DNS server over
// UDP and TCP, and a port-43 WHOIS server. Each picks its misbehaviour from a keyword in the
// request (a path segment, the first label of the question, the WHOIS query), so one server of
// each kind covers every case.
import { createSocket, type RemoteInfo } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, deflateSync, gzipSync } from 'node:zlib';
import { seeded } from './prng';

export interface HostileFixture {
  /** `127.0.0.1:port` (DNS, WHOIS) or `http://127.0.0.1:port` (web) */
  address: string;
  port: number;
  /** Requests (web paths, DNS names, WHOIS queries) received. */
  seen: string[];
  /** Bytes this server has written so far, all connections together. */
  bytesSent(): number;
  /** Connections still open. */
  open(): number;
  close(): Promise<void>;
}

/** Tracks sockets so close() ends everything, and counts the bytes written. */
function socketPool() {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let sent = 0;
  return {
    add(socket: Socket) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    },
    write(socket: Socket, data: Buffer | string): boolean {
      if (socket.destroyed) return false;
      sent += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
      return socket.write(data);
    },
    /** Writes `next()` every `everyMs` until the socket closes. */
    drip(socket: Socket, everyMs: number, next: () => string) {
      const timer = setInterval(() => {
        if (socket.destroyed) return stop();
        sent += 1;
        socket.write(next());
      }, everyMs);
      const stop = () => {
        clearInterval(timer);
        timers.delete(timer);
      };
      timers.add(timer);
      socket.on('close', stop);
    },
    /** Streams `total` bytes of `fill`, respecting backpressure, then ends (or never ends). */
    stream(socket: Socket, total: number, fill: Buffer, end = true) {
      let left = total;
      const pump = (): void => {
        while (left > 0 && !socket.destroyed) {
          const n = Math.min(left, fill.length);
          left -= n;
          sent += n;
          if (!socket.write(n === fill.length ? fill : fill.subarray(0, n))) {
            socket.once('drain', pump);
            return;
          }
        }
        if (end && !socket.destroyed) socket.end();
      };
      pump();
    },
    bytesSent: () => sent,
    open: () => sockets.size,
    close(server: Server | undefined) {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    },
  };
}

// ---- web -------------------------------------------------------------------------------------

const MB = 1024 * 1024;
const zeros = (n: number) => Buffer.alloc(n);
let bombCache: Record<'gzip' | 'br' | 'deflate', Buffer> | undefined;
/** 64 MB of zeros, compressed to a few tens of KB in each encoding. */
function bombs() {
  bombCache ??= {
    gzip: gzipSync(zeros(64 * MB), { level: 9 }),
    br: brotliCompressSync(zeros(64 * MB), {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 },
    }),
    deflate: deflateSync(zeros(64 * MB), { level: 9 }),
  };
  return bombCache;
}

/** A PNG signature and IHDR that claim `w` x `h` with a wrong checksum and no image data. */
export function lyingPng(w: number, h: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from([0, 0, 0, 13]),
    Buffer.from('IHDR', 'latin1'),
    ihdr,
    Buffer.from([0xde, 0xad, 0xbe, 0xef]), // not the CRC of the chunk
  ]);
}

/**
 * An image of each raster format whose header claims a size with no data behind it: what a
 * size read from headers alone would report, and the image checks refuse.
 */
export const lyingImages: Readonly<
  Record<'png' | 'gif' | 'jpg' | 'webp' | 'bmp' | 'ico' | 'avif', Buffer>
> = {
  png: lyingPng(2147483647, 2147483647),
  // Logical screen and one image descriptor of 65535 x 65535, an LZW code size, no data.
  gif: Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0]),
    Buffer.from([0x2c, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 8, 0, 0x3b]),
  ]),
  // SOI, APP0 (JFIF), a baseline frame header of 65535 x 65535 with three components, EOI.
  jpg: Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xc0,
    0, 17, 8, 0xff, 0xff, 0xff, 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xff, 0xd9,
  ]),
  // A lossless WebP header of 16384 x 16384 and not one byte of image data.
  webp: Buffer.concat([
    Buffer.from('RIFF', 'latin1'),
    Buffer.from([18, 0, 0, 0]),
    Buffer.from('WEBPVP8L', 'latin1'),
    Buffer.from([5, 0, 0, 0, 0x2f, 0xff, 0xff, 0xff, 0x0f, 0]),
  ]),
  // A BITMAPINFOHEADER of 2147483647 x 2147483647 at 24 bits and no pixel array.
  bmp: (() => {
    const b = Buffer.alloc(54);
    b.write('BM', 0, 'latin1');
    b.writeUInt32LE(54, 10);
    b.writeUInt32LE(40, 14);
    b.writeInt32LE(2147483647, 18);
    b.writeInt32LE(2147483647, 22);
    b.writeUInt16LE(1, 26);
    b.writeUInt16LE(24, 28);
    return b;
  })(),
  // A real AVIF's boxes up to its coded data, with an ispe of 65535 x 65535, and no mdat.
  avif: (() => {
    const real = readFileSync(join(__dirname, '../fixtures/images/opaque.avif'));
    const head = Buffer.from(real.subarray(0, real.indexOf('mdat') - 4));
    head.writeUInt32BE(65535, head.indexOf('ispe') + 8);
    head.writeUInt32BE(65535, head.indexOf('ispe') + 12);
    return head;
  })(),
  // One 256 x 256 entry whose 1 MB of data would start past the end of the file.
  ico: Buffer.from([0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 32, 0, 0, 0, 16, 0, 22, 0, 1, 0]),
};

const head = (status: string, headers: Record<string, string | number>) =>
  `HTTP/1.1 ${status}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;

const html = (inner: string) => `<!doctype html><html><head>${inner}</head><body>x</body></html>`;

/**
 * The web behaviours, by the path's first segment:
 *   /bomb-gzip /bomb-br /bomb-deflate  64 MB of zeros compressed, as the page (or an icon)
 *   /drip-body      headers, then one byte of body every 100 ms, for ever
 *   /drip-headers   the status line, then one header byte every 100 ms, for ever
 *   /headers-1mb    1 MB of header lines before the body
 *   /body-200mb     a 200 MB page (declared and sent)
 *   /endless        a chunked page that never ends
 *   /garbage        random bytes instead of HTTP
 *   /hang           never answers;  /reset: closes at once
 *   /redirect-forever/N  redirects to N+1, for ever
 *   /long-location  a 12 KB Location (under the header cap, over a URL field's)
 *   /canonical-100k a page whose canonical and og:url are 100 KB URLs
 *   /lying-icons    a page whose icons are lying headers of every raster format and a bomb
 *   /lying-png      the PNG that claims 2147483647 x 2147483647
 *   /lying-image/F  lyingImages[F]: a GIF, JPEG, WebP, BMP, ICO or AVIF header with no data
 */
export async function startHostileWeb(): Promise<HostileFixture> {
  const pool = socketPool();
  const seen: string[] = [];
  bombs();
  const random = seeded(29);
  let origin = '';
  const server = createServer((socket) => {
    pool.add(socket);
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      if (!buffered.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.resume();
      const target = /^[A-Z]+ (\S+)/.exec(buffered)?.[1] ?? '/';
      seen.push(target);
      respond(socket, target);
    };
    socket.on('data', onData);
  });

  const respond = (socket: Socket, target: string): void => {
    const path = target.split('?')[0];
    const segment = path.split('/')[1] ?? '';
    const send = (status: string, headers: Record<string, string | number>, body: Buffer) => {
      pool.write(socket, head(status, { ...headers, 'content-length': body.length }));
      pool.write(socket, body);
      socket.end();
    };
    const page = (inner: string) =>
      send('200 OK', { 'content-type': 'text/html; charset=utf-8' }, Buffer.from(html(inner)));
    switch (segment) {
      case 'bomb-gzip':
      case 'bomb-br':
      case 'bomb-deflate': {
        const encoding = segment.slice(5) as 'gzip' | 'br' | 'deflate';
        const type = path.endsWith('.png') ? 'image/png' : 'text/html';
        return send(
          '200 OK',
          { 'content-type': type, 'content-encoding': encoding },
          bombs()[encoding],
        );
      }
      case 'drip-body':
        pool.write(socket, head('200 OK', { 'content-type': 'text/html' }));
        pool.write(socket, '<html><head><title>');
        return pool.drip(socket, 100, () => 'a');
      case 'drip-headers':
        pool.write(socket, 'HTTP/1.1 200 OK\r\nX-Slow: ');
        return pool.drip(socket, 100, () => 'a');
      case 'headers-1mb': {
        const line = `X-Padding: ${'a'.repeat(1000)}\r\n`;
        pool.write(socket, 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n');
        return pool.stream(socket, 1024 * line.length, Buffer.from(line.repeat(64)), false);
      }
      case 'body-200mb':
        pool.write(
          socket,
          head('200 OK', { 'content-type': 'text/html', 'content-length': 200 * MB }),
        );
        pool.write(socket, '<html><head><title>Big</title><script>');
        return pool.stream(socket, 200 * MB, Buffer.alloc(64 * 1024, 'a'));
      case 'endless': {
        pool.write(
          socket,
          head('200 OK', { 'content-type': 'text/html', 'transfer-encoding': 'chunked' }),
        );
        const chunk = Buffer.from(`10000\r\n${'b'.repeat(0x10000)}\r\n`);
        return pool.stream(socket, Number.MAX_SAFE_INTEGER, chunk, false);
      }
      case 'garbage': {
        const bytes = Buffer.from(Array.from({ length: 4096 }, () => Math.floor(random() * 256)));
        pool.write(socket, bytes);
        return void socket.end();
      }
      case 'hang':
        return;
      case 'reset':
        return void socket.destroy();
      case 'redirect-forever': {
        const n = Number(path.split('/')[2] ?? 0);
        return send('302 Found', { location: `/redirect-forever/${n + 1}` }, Buffer.alloc(0));
      }
      case 'long-location':
        return send(
          '301 Moved Permanently',
          { location: `/landing?${'q'.repeat(12_000)}` },
          Buffer.alloc(0),
        );
      case 'canonical-100k': {
        const long = `${origin}/c?${'c'.repeat(100_000)}`;
        return page(
          `<title>Long</title><link rel="canonical" href="${long}"><meta property="og:url" content="${long}">`,
        );
      }
      case 'lying-icons':
        return page(
          '<title>Icons</title><link rel="icon" href="/lying-png/a.png" sizes="16x16">' +
            Object.keys(lyingImages)
              .map((f) => `<link rel="icon" href="/lying-image/${f}">`)
              .join('') +
            '<link rel="apple-touch-icon" href="/bomb-gzip/b.png">',
        );
      case 'lying-png':
        return send('200 OK', { 'content-type': 'image/png' }, lyingPng(2147483647, 2147483647));
      case 'lying-image': {
        const format = path.split('/')[2] as keyof typeof lyingImages;
        const bytes = Object.hasOwn(lyingImages, format) ? lyingImages[format] : undefined;
        if (!bytes) return send('404 Not Found', {}, Buffer.alloc(0));
        return send('200 OK', { 'content-type': `image/${format}` }, bytes);
      }
      default:
        return page('<title>Plain</title>');
    }
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  return {
    address: origin,
    port,
    seen,
    bytesSent: pool.bytesSent,
    open: pool.open,
    close: () => pool.close(server),
  };
}

// ---- DNS -------------------------------------------------------------------------------------

/** The question's name (lower case) of a DNS message, or undefined when it does not parse. */
function questionName(msg: Buffer): { name: string; end: number } | undefined {
  const labels: string[] = [];
  let at = 12;
  while (at < msg.length) {
    const len = msg[at];
    if (len === 0) return { name: labels.join('.').toLowerCase(), end: at + 5 };
    if (len > 63) return undefined;
    labels.push(msg.subarray(at + 1, at + 1 + len).toString('latin1'));
    at += 1 + len;
  }
  return undefined;
}

/** The query echoed back as a response header with these flags and counts, and `tail` after. */
function reply(
  query: Buffer,
  options: { tc?: boolean; id?: number; ancount?: number; rcode?: number },
  tail = Buffer.alloc(0),
): Buffer {
  const q = questionName(query);
  const question = query.subarray(12, q?.end ?? 12);
  const header = Buffer.alloc(12);
  header.writeUInt16BE(options.id ?? query.readUInt16BE(0), 0);
  header[2] = 0x80 | (query[2] & 0x01) | (options.tc ? 0x02 : 0); // QR, RD echoed, TC
  header[3] = 0x80 | (options.rcode ?? 0); // RA
  header.writeUInt16BE(q ? 1 : 0, 4);
  header.writeUInt16BE(options.ancount ?? 0, 6);
  return Buffer.concat([header, question, tail]);
}

/** An A record whose owner is a compression pointer to itself. */
const POINTER_LOOP = (() => {
  const rr = Buffer.alloc(16);
  rr.writeUInt16BE(0xc000 | 0, 0); // patched to its own offset when sent
  rr.writeUInt16BE(1, 2);
  rr.writeUInt16BE(1, 4);
  rr.writeUInt32BE(300, 6);
  rr.writeUInt16BE(4, 10);
  rr.set([127, 0, 0, 1], 12);
  return rr;
})();

/**
 * DNS behaviours, by the first label of the question:
 *   silent    never answers;         garbage   random bytes
 *   wrongid   a reply with another ID;  short  a reply cut inside its header
 *   loop      an answer whose name is a compression pointer to itself
 *   count     a header that claims 65535 answers and holds none
 *   tcphang   TC over UDP; over TCP, accepts and never answers
 *   tcpdrip   TC over UDP; over TCP, a length of 65535 and one byte every 100 ms
 *   tcphuge   TC over UDP; over TCP, a length prefix of 65535 then garbage, then more
 *   ttlN      an A record 127.0.0.1 with TTL N
 *   (anything else) an A record 127.0.0.1 with TTL 4294967295
 */
export async function startHostileDns(): Promise<HostileFixture> {
  const pool = socketPool();
  const seen: string[] = [];
  const random = seeded(53);
  const udp = createSocket('udp4');
  const garbage = (n: number) =>
    Buffer.from(Array.from({ length: n }, () => Math.floor(random() * 256)));

  const answerFor = (query: Buffer, over: 'udp' | 'tcp'): Buffer | undefined => {
    const q = questionName(query);
    const label = q?.name.split('.')[0] ?? '';
    seen.push(`${over} ${q?.name ?? '?'}`);
    const tcpOnly = label.startsWith('tcp');
    if (over === 'udp' && tcpOnly) return reply(query, { tc: true });
    switch (label) {
      case 'silent':
        return undefined;
      case 'garbage':
        return garbage(300);
      case 'wrongid':
        return reply(query, { id: (query.readUInt16BE(0) + 1) & 0xffff, ancount: 0 });
      case 'short':
        return reply(query, {}).subarray(0, 7);
      case 'loop': {
        const base = reply(query, { ancount: 1 });
        const rr = Buffer.from(POINTER_LOOP);
        rr.writeUInt16BE(0xc000 | base.length, 0);
        return Buffer.concat([base, rr]);
      }
      case 'count':
        return reply(query, { ancount: 65535 });
      default: {
        const rr = Buffer.alloc(16);
        rr.writeUInt16BE(0xc00c, 0);
        rr.writeUInt16BE(1, 2);
        rr.writeUInt16BE(1, 4);
        const ttl = /^ttl(\d+)$/.exec(label);
        rr.writeUInt32BE(ttl ? Number(ttl[1]) >>> 0 : 4294967295, 6);
        rr.writeUInt16BE(4, 10);
        rr.set([127, 0, 0, 1], 12);
        return reply(query, { ancount: 1 }, rr);
      }
    }
  };

  udp.on('message', (msg: Buffer, from: RemoteInfo) => {
    const answer = msg.length >= 12 ? answerFor(msg, 'udp') : undefined;
    if (answer) udp.send(answer, from.port, from.address);
  });
  const tcp = createServer((socket) => {
    pool.add(socket);
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length < 2 || buffered.length < 2 + buffered.readUInt16BE(0)) return;
      const query = buffered.subarray(2, 2 + buffered.readUInt16BE(0));
      buffered = Buffer.alloc(0);
      const label = questionName(query)?.name.split('.')[0] ?? '';
      if (label === 'tcphang') return void seen.push(`tcp ${label}`);
      if (label === 'tcpdrip') {
        seen.push(`tcp ${label}`);
        pool.write(socket, Buffer.from([0xff, 0xff]));
        return pool.drip(socket, 100, () => 'x');
      }
      if (label === 'tcphuge') {
        seen.push(`tcp ${label}`);
        const frame = Buffer.concat([Buffer.from([0xff, 0xff]), garbage(65535)]);
        return pool.stream(socket, 64 * frame.length, frame, false);
      }
      const answer = answerFor(query, 'tcp');
      if (!answer) return;
      const length = Buffer.alloc(2);
      length.writeUInt16BE(answer.length);
      pool.write(socket, Buffer.concat([length, answer]));
    });
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  const port = (tcp.address() as AddressInfo).port;
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(port, '127.0.0.1', resolve);
  });
  return {
    address: `127.0.0.1:${port}`,
    port,
    seen,
    bytesSent: pool.bytesSent,
    open: pool.open,
    close: async () => {
      udp.close();
      await pool.close(tcp);
    },
  };
}

// ---- WHOIS (port 43) ---------------------------------------------------------------------------

/**
 * WHOIS behaviours, by the first label of the queried domain:
 *   endless  streams for ever;   drip  one byte every 100 ms, for ever
 *   hang     never answers;      binary  random bytes (NULs included), then closes
 *   longline one 8 MB line, then closes
 *   (anything else) "No match"
 */
export async function startHostileWhois(): Promise<HostileFixture> {
  const pool = socketPool();
  const seen: string[] = [];
  const random = seeded(43);
  const server = createServer((socket) => {
    pool.add(socket);
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      const end = buffered.indexOf('\r\n');
      if (end < 0) return;
      const query = buffered.slice(0, end).trim();
      buffered = '';
      seen.push(query);
      const label = (query.split(/\s+/).at(-1) ?? '').split(/[.-]/)[0].toLowerCase();
      switch (label) {
        case 'endless':
          return pool.stream(socket, Number.MAX_SAFE_INTEGER, Buffer.alloc(64 * 1024, 'w'), false);
        case 'drip':
          pool.write(socket, 'Domain Name: ');
          return pool.drip(socket, 100, () => 'd');
        case 'hang':
          return;
        case 'binary': {
          const bytes = Array.from({ length: 64 * 1024 }, () => Math.floor(random() * 256));
          pool.write(socket, Buffer.from(bytes));
          return void socket.end();
        }
        case 'longline':
          return pool.stream(socket, 8 * MB, Buffer.alloc(64 * 1024, 'l'));
        default:
          pool.write(socket, 'No match for this query.\r\n');
          return void socket.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    address: `127.0.0.1:${port}`,
    port,
    seen,
    bytesSent: pool.bytesSent,
    open: pool.open,
    close: () => pool.close(server),
  };
}
