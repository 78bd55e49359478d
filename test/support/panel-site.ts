// Loopback fixtures for the panel (integration tests and screenshots): a small web site with
// a hostile page, a social-card page and a redirect chain through every redirect status, and
// an RDAP bootstrap + service answering a few names. Nothing leaves 127.0.0.1.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';
import { startRdapServer, type RdapFixture } from './rdap-server';

export interface PanelSite {
  url(path: string): string;
  /** paths requested so far */
  requests(): string[];
  close(): Promise<void>;
}

const HOSTILE_TITLE = '<script>alert(1)</script> & <img src=x onerror=alert(2)>';

export async function startPanelSite(): Promise<PanelSite> {
  const requested: string[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requested.push(path);
    let m: RegExpExecArray | null;
    const html = (body: string) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    const image = (body: Buffer) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': body.length });
      res.end(body);
    };
    const chain: Record<string, [number, string]> = {
      '/go': [301, '/r/2'],
      '/r/2': [302, '/r/3'],
      '/r/3': [307, '/r/4'],
      '/r/4': [308, '/r/5'],
      '/r/5': [303, '/card'],
      '/loop/a': [302, '/loop/b'],
      '/loop/b': [301, '/loop/a'],
    };
    const hop = chain[path];
    if (hop) {
      res.writeHead(hop[0], { location: hop[1] });
      res.end();
      return;
    }
    if (path === '/hostile') {
      return html(
        `<!doctype html><html><head><title>${escape(HOSTILE_TITLE)}</title>` +
          `<meta property="og:title" content="${escape(HOSTILE_TITLE)}">` +
          `<meta property="og:description" content="${escape('<b onmouseover="x()">bold</b> text')}">` +
          '<meta property="og:image" content="/img/small.png">' +
          '<link rel="icon" href="/img/favicon.png"></head><body></body></html>',
      );
    }
    if (path === '/card') {
      return html(
        '<!doctype html><html><head><title>HostLens fixture article</title>' +
          '<meta name="description" content="A page written for the panel tests.">' +
          '<meta property="og:title" content="Faster DNS look-ups from your editor">' +
          '<meta property="og:description" content="Hover a hostname to see its records, trace redirects and check how a link unfurls before you share it.">' +
          '<meta property="og:site_name" content="HostLens Blog">' +
          '<meta property="og:type" content="article">' +
          '<meta property="og:url" content="/card">' +
          '<meta property="og:image" content="/img/card.png">' +
          '<meta property="og:image:width" content="1200">' +
          '<meta property="og:image:height" content="630">' +
          '<meta name="twitter:card" content="summary_large_image">' +
          '<meta name="twitter:site" content="@hostlens">' +
          '<link rel="icon" href="/img/favicon.png" sizes="32x32">' +
          '<link rel="apple-touch-icon" href="/img/touch.png">' +
          '</head><body></body></html>',
      );
    }
    if (path === '/img/small.png') return image(solidPng(100, 100, ORANGE, BLUE));
    if (path === '/img/card.png') return image(solidPng(1200, 630, BLUE, TEAL));
    if ((m = /^\/img\/logo-(\d+)\.png$/.exec(path))) {
      const size = Math.min(512, Number(m[1]));
      return image(solidPng(size, size, BLUE, TEAL));
    }
    if (path === '/img/favicon.png') return image(solidPng(32, 32, BLUE, TEAL));
    if (path === '/img/touch.png') return image(solidPng(180, 180, BLUE, TEAL));
    if (path === '/img/logo.svg') {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      res.end(LOGO_SVG);
      return;
    }
    if (path === '/brand') {
      return html(
        '<!doctype html><html><head><title>Brand</title>' +
          '<link rel="icon" href="/img/logo-16.png" sizes="16x16">' +
          '<link rel="icon" href="/img/logo-32.png" sizes="32x32">' +
          '<link rel="icon" type="image/svg+xml" href="/img/logo.svg">' +
          '<link rel="apple-touch-icon" href="/img/touch.png">' +
          '<link rel="icon" href="/img/logo-192.png" sizes="192x192">' +
          '<link rel="icon" href="/img/logo-512.png" sizes="512x512">' +
          '<link rel="icon" href="/img/gone.png" sizes="48x48">' +
          '</head><body></body></html>',
      );
    }
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<title>Not here</title>');
  };
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests: () => [...requested],
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export { HOSTILE_TITLE };

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * A real, decodable PNG (unlike the header-only fixtures of web-images.ts): the screenshots
 * show these. A diagonal two-colour gradient with a lighter disc, RGBA.
 */
export function solidPng(
  width: number,
  height: number,
  from: [number, number, number],
  to: [number, number, number],
): Buffer {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  const r = Math.min(width, height) * 0.3;
  for (let y = 0; y < height; y++) {
    const row = y * (width * 4 + 1);
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      const inDisc = (x - width / 2) ** 2 + (y - height / 2) ** 2 < r * r;
      const o = row + 1 + x * 4;
      for (let c = 0; c < 3; c++) {
        const v = Math.round(from[c] + (to[c] - from[c]) * t);
        raw[o + c] = inDisc ? Math.min(255, v + 70) : v;
      }
      raw[o + 3] = 255;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(6, 9);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const BLUE: [number, number, number] = [20, 90, 200];
const TEAL: [number, number, number] = [10, 160, 150];
const ORANGE: [number, number, number] = [230, 120, 30];
const LOGO_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">' +
    '<rect width="64" height="64" rx="14" fill="#1e5bc6"/>' +
    '<circle cx="32" cy="32" r="16" fill="none" stroke="#fff" stroke-width="6"/>' +
    '<path d="M43 43l10 10" stroke="#fff" stroke-width="6" stroke-linecap="round"/></svg>',
);

export interface RdapSite {
  /** value for HOSTLENS_RDAP_BOOTSTRAP */
  bootstrap: string;
  close(): Promise<void>;
}

const DAY = 86_400_000;

/** RDAP for .com names: hostlens-example.com (expiring in 10 days), limited.com (429), hang.com (never answers); anything else 404. */
export async function startRdapSite(now = Date.now()): Promise<RdapSite> {
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const service: RdapFixture = await startRdapServer({
    '/domain/hostlens-example.com': {
      body: {
        objectClassName: 'domain',
        handle: '2336799_DOMAIN_COM-VRSN',
        ldhName: 'HOSTLENS-EXAMPLE.COM',
        port43: 'whois.verisign-grs.com',
        status: [
          'client delete prohibited',
          'client transfer prohibited',
          'client update prohibited',
          'server hold',
        ],
        nameservers: [
          { objectClassName: 'nameserver', ldhName: 'NS1.EXAMPLE.NET' },
          { objectClassName: 'nameserver', ldhName: 'NS2.EXAMPLE.NET' },
        ],
        secureDNS: { delegationSigned: true },
        events: [
          { eventAction: 'registration', eventDate: iso(now - 3 * 365 * DAY) },
          { eventAction: 'last changed', eventDate: iso(now - 40 * DAY) },
          { eventAction: 'expiration', eventDate: iso(now + 10 * DAY + 3_600_000) },
        ],
        entities: [
          {
            objectClassName: 'entity',
            roles: ['registrar'],
            publicIds: [{ type: 'IANA Registrar ID', identifier: '9999' }],
            vcardArray: [
              'vcard',
              [
                ['version', {}, 'text', '4.0'],
                ['fn', {}, 'text', 'Loopback Registrar, Inc.'],
              ],
            ],
            links: [{ rel: 'about', type: 'text/html', href: 'https://registrar.example/' }],
          },
        ],
      },
    },
    '/domain/limited.com': { status: 429, headers: { 'retry-after': '30' }, body: {} },
    '/domain/hang.com': { hang: true },
  });
  const boot = await startRdapServer({
    '/dns.json': { body: { version: '1.0', services: [[['com'], [service.base]]] } },
  });
  return {
    bootstrap: `${boot.base}dns.json`,
    close: async () => {
      await boot.close();
      await service.close();
    },
  };
}
