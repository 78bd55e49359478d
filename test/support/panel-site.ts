// Loopback fixtures for the panel (integration tests and screenshots): a small web site with
// a hostile page, a social-card page and a redirect chain through every redirect status, and
// an RDAP bootstrap + service answering a few names. Nothing leaves 127.0.0.1.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startRdapServer, type RdapFixture } from './rdap-server';
import { png } from './web-images';

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
    if (path === '/img/small.png') return image(png(100, 100));
    if (path === '/img/card.png') return image(cardPng());
    if (path === '/img/favicon.png') return image(png(32, 32));
    if (path === '/img/touch.png') return image(png(180, 180));
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

/** A 1200×630 PNG (header only, like the other fixtures: the size is what counts). */
function cardPng(): Buffer {
  return png(1200, 630);
}

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
