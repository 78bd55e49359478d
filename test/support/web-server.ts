// A loopback web site for the web engine tests: every redirect status, loops, long chains,
// cookie-gated redirects, icon pages, charsets, compression bombs, a 50 MB page, lying and
// dripping bodies, a server that never answers, error pages.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants as zlibConstants, deflateSync, gzipSync } from 'node:zlib';
import { gif, ico, jpeg, png, svg, webp } from './web-images';

export interface WebFixture {
  origin: string;
  port: number;
  host: string;
  url(path: string): string;
  /** request log: path and headers of every request received */
  requests: Array<{ path: string; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

export interface WebFixtureOptions {
  host?: string;
  /** serve /favicon.ico (default true) */
  favicon?: boolean;
}

const page = (head: string, body = '<p>Hello</p>') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

let bombs: { gzip: Buffer; br: Buffer } | undefined;
function compressionBombs() {
  // 16 MB of zeros shrink to a few KB: far past any cap the tests set once inflated.
  const zeros = Buffer.alloc(16 * 1024 * 1024);
  bombs ??= {
    gzip: gzipSync(zeros, { level: 6 }),
    br: brotliCompressSync(zeros, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } }),
  };
  return bombs;
}

// "日本語" in Shift_JIS and EUC-JP, "中文" in GBK, "Привет" in windows-1251.
const SJIS = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]);
const EUCJP = Buffer.from([0xc6, 0xfc, 0xcb, 0xdc, 0xb8, 0xec]);
const GBK = Buffer.from([0xd6, 0xd0, 0xce, 0xc4]);
const CP1251 = Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]);

function bytesPage(headBefore: string, title: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<!doctype html><html><head>${headBefore}<title>`, 'latin1'),
    title,
    Buffer.from('</title></head><body><p>x</p></body></html>', 'latin1'),
  ]);
}

const ICON_PAGE = page(
  [
    '<title>Icons</title>',
    '<link rel="canonical" href="/icons/canonical">',
    '<link rel="icon" href="/img/icon-32.png" sizes="16x16">',
    '<link rel="shortcut icon" href="/img/multi.ico">',
    '<link rel="apple-touch-icon" href="/img/touch.png">',
    '<link rel="apple-touch-icon-precomposed" href="/img/touch.jpg">',
    '<link rel="mask-icon" href="/img/mask.svg" color="#000">',
    '<link rel="icon" type="image/svg+xml" href="/img/sized.svg">',
    '<link rel="icon" href="/img/anim.gif">',
    '<link rel="icon" href="/img/icon.webp">',
    '<link rel="icon" href="/img/missing.png" sizes="99x99">',
    '<link rel="icon" href="/img/not-an-image" sizes="64x64 128x128">',
    '<link rel="icon" href="data:image/gif;base64,' + gif(3, 3).toString('base64') + '">',
    '<link rel="manifest" href="/manifest.json">',
  ].join(''),
);

export async function startWebServer(options: WebFixtureOptions = {}): Promise<WebFixture> {
  const host = options.host ?? '127.0.0.1';
  const requests: WebFixture['requests'] = [];
  const pending = new Set<ServerResponse>();
  compressionBombs();
  let origin = '';

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    const path = url.pathname;
    requests.push({ path: `${path}${url.search}`, headers: req.headers });
    const html = (body: string | Buffer, status = 200, type = 'text/html; charset=utf-8') => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    const redirect = (status: number, location: string, extra: Record<string, string> = {}) => {
      res.writeHead(status, { location, ...extra });
      res.end();
    };
    const image = (body: Buffer, type: string) => {
      res.writeHead(200, { 'content-type': type, 'content-length': body.length });
      res.end(body);
    };

    let m: RegExpExecArray | null;
    if ((m = /^\/redirect\/(\d{3})$/.exec(path))) return redirect(Number(m[1]), '/final');
    if (path === '/absolute') return redirect(301, `${origin}/final`);
    if (path === '/protocol-relative')
      return redirect(302, `//${url.host === 'fixture' ? req.headers.host : url.host}/final`);
    if (path === '/dot-relative/a/b') return redirect(302, '../c?x=1');
    if (path === '/redirect-to') return redirect(302, url.searchParams.get('target') ?? '/final');
    if (path === '/to-ftp') return redirect(301, 'ftp://example.invalid/file');
    if (path === '/loop/a') return redirect(302, '/loop/b');
    if (path === '/loop/b') return redirect(301, '/loop/a');
    if (path === '/self') return redirect(307, '/self');
    if ((m = /^\/chain\/(\d+)$/.exec(path))) {
      const n = Number(m[1]);
      return n === 0 ? html(page('<title>End of chain</title>')) : redirect(302, `/chain/${n - 1}`);
    }
    if (path === '/cookie/start')
      return redirect(302, '/cookie/check', { 'set-cookie': 'gate=open; Path=/cookie; HttpOnly' });
    if (path === '/cookie/check') {
      return /(?:^|;\s*)gate=open/.test(req.headers.cookie ?? '')
        ? redirect(303, '/final')
        : redirect(302, '/cookie/start');
    }
    if (path === '/cookie/echo')
      return html(page(`<title>cookie:${req.headers.cookie ?? 'none'}</title>`));
    if (path === '/final') return html(page('<title>Final</title>'));
    if (path === '/refresh') {
      return html(
        page('<title>Moving</title><meta http-equiv="Refresh" content="5; URL=\'/final\'">'),
      );
    }
    if (path === '/echo') {
      const lang = req.headers['accept-language'] ?? 'none';
      return html(
        page(
          `<title>lang:${lang}</title><meta name="description" content="ua:${req.headers['user-agent'] ?? ''}">`,
        ),
      );
    }
    if (path === '/og') {
      return html(
        page(
          [
            '<base href="/assets/">',
            '<title>  The   Title </title>',
            '<meta name="description" content="A description">',
            '<meta name="keywords" content="one, two">',
            '<meta name="application-name" content="OG App">',
            '<link rel="canonical" href="/og?canonical=1">',
            '<meta property="og:title" content="OG title">',
            '<meta property="og:type" content="article">',
            '<meta property="og:image" content="one.png">',
            '<meta property="og:image:width" content="800">',
            '<meta property="og:image:height" content="600">',
            '<meta property="og:image:alt" content="First">',
            '<meta property="og:image" content="https://cdn.example/two.jpg">',
            '<meta property="og:image:url" content="https://cdn.example/two.jpg">',
            '<meta property="og:image:type" content="image/jpeg">',
            '<meta property="og:image:secure_url" content="https://cdn.example/two-s.jpg">',
            '<meta property="og:site_name" content="Site">',
            '<meta name="twitter:card" content="summary_large_image">',
            '<meta property="twitter:title" content="Tw title">',
            '<link rel="alternate" type="application/json+oembed" href="/oembed.json?u=1">',
            '<link rel="alternate" type="text/xml+oembed" href="/oembed.xml?u=1">',
            '<link rel="icon" href="/img/icon-32.png">',
          ].join(''),
        ),
      );
    }
    if (path === '/og-only') {
      return html(
        page(
          '<meta property="og:title" content="Only OG"><meta property="og:description" content="OG desc"><meta property="og:site_name" content="OG Site">',
        ),
      );
    }
    if (path === '/twitter-only')
      return html(page('<meta name="twitter:title" content="Only Twitter">'));
    if (path === '/bare') return html(page(''));
    if (path === '/not-html') return image(png(10, 10), 'image/png');
    if (path === '/sloppy') {
      return html(
        '<html><head><title>Sloppy</title></head><body><svg><title>not the title</title></svg>' +
          '<div>x</div><link rel="icon" href="/img/icon-32.png"><meta name="description" content="late description">' +
          '<p>' +
          'word '.repeat(14000) +
          '</p><meta name="keywords" content="too late"></body></html>',
      );
    }
    if (path === '/svg-title-first') {
      return html(
        '<html><head></head><body><svg><title>icon</title></svg><title>Real</title><p>x</p></body></html>',
      );
    }
    if (path === '/icons/all') return html(ICON_PAGE);
    if (path === '/icons/link') {
      const href = (url.searchParams.get('href') ?? '').replace(/[<>"&]/g, '');
      return html(page(`<link rel="icon" href="${href}">`));
    }
    if (path === '/icons/none') return html(page('<title>No icons</title>'));
    if (path === '/icons/many') {
      const links = Array.from(
        { length: 30 },
        (_, i) => `<link rel="icon" href="/img/n${i}.png" sizes="${i + 1}x${i + 1}">`,
      );
      return html(page(links.join('')));
    }
    if (path === '/manifest.json') {
      return html(
        JSON.stringify({
          name: 'x',
          icons: [
            { src: 'img/m-192.png', sizes: '192x192' },
            { src: '/img/m-512.png', sizes: '512x512' },
            { nope: 1 },
          ],
        }),
        200,
        'application/manifest+json',
      );
    }
    if (path === '/icons/bad-manifest')
      return html(page('<link rel="manifest" href="/bad-manifest.json">'));
    if (path === '/bad-manifest.json') return html('{not json', 200, 'application/json');
    if (path === '/favicon.ico') {
      if (options.favicon === false) return html('not found', 404);
      return image(ico([16, 32, 64]), 'image/x-icon');
    }
    if ((m = /^\/img\/n(\d+)\.png$/.exec(path)))
      return image(png(Number(m[1]) + 1, Number(m[1]) + 1), 'image/png');
    if (path === '/img/icon-32.png') return image(png(32, 32), 'image/png');
    if (path === '/img/multi.ico') return image(ico([16, 48, 32]), 'image/x-icon');
    if (path === '/img/touch.png') return image(png(180, 180), 'image/png');
    if (path === '/img/touch.jpg') return image(jpeg(120, 120), 'image/jpeg');
    if (path === '/img/mask.svg') return image(svg('viewBox="0 0 16 16"'), 'image/svg+xml');
    if (path === '/img/sized.svg') return image(svg('width="100" height="50"'), 'image/svg+xml');
    if (path === '/img/anim.gif') return image(gif(24, 24), 'image/gif');
    if (path === '/img/icon.webp') return image(webp(64, 64), 'image/webp');
    if (path === '/img/not-an-image') return html('<html>soft 404</html>');
    if (path === '/img/m-192.png') return image(png(192, 192), 'image/png');
    if (path === '/img/m-512.png') return image(png(512, 512), 'image/png');
    if (path === '/img/redirected.png') return redirect(301, '/img/touch.png');
    if (path === '/img/huge.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return streamBytes(res, pending, png(4, 4), 50 * 1024 * 1024);
    }

    if (path === '/charset/meta-sjis')
      return html(bytesPage('<meta charset="Shift_JIS">', SJIS), 200, 'text/html');
    if (path === '/charset/http-equiv-eucjp') {
      return html(
        bytesPage('<meta http-equiv="Content-Type" content="text/html; charset=euc-jp">', EUCJP),
        200,
        'text/html',
      );
    }
    if (path === '/charset/header-1251')
      return html(bytesPage('', CP1251), 200, 'text/html; charset=windows-1251');
    if (path === '/charset/header-gbk-beats-meta') {
      return html(bytesPage('<meta charset="utf-8">', GBK), 200, 'text/html; charset=GBK');
    }
    if (path === '/charset/bom') {
      const body = Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(page('<title>Grüße</title>'), 'utf8'),
      ]);
      return html(body, 200, 'text/html; charset=iso-8859-1');
    }
    if (path === '/charset/unknown-label')
      return html(
        bytesPage('<meta charset="x-no-such-charset">', Buffer.from('caf\xe9', 'latin1')),
        200,
        'text/html; charset=bogus',
      );
    if (path === '/charset/undeclared-latin1')
      return html(bytesPage('', Buffer.from('caf\xe9', 'latin1')), 200, 'text/html');

    if (path === '/bomb/gzip' || path === '/bomb/br') {
      const br = path.endsWith('br');
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': br ? 'br' : 'gzip' });
      return res.end(br ? compressionBombs().br : compressionBombs().gzip);
    }
    if (path === '/gzip/page') {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      return res.end(gzipSync(page('<title>Zipped</title>')));
    }
    if (path === '/br/page') {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br' });
      return res.end(brotliCompressSync(page('<title>Brotli</title>')));
    }
    if (path === '/deflate/page') {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'deflate' });
      return res.end(deflateSync(page('<title>Deflated</title>')));
    }
    if (path === '/corrupt-gzip') {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      return res.end(Buffer.from('this is not gzip at all'));
    }
    if (path === '/huge/head') {
      // 50 MB inside the head: nothing lets the parser stop early, so only the cap can.
      res.writeHead(200, { 'content-type': 'text/html' });
      return streamBytes(
        res,
        pending,
        Buffer.from('<html><head><title>Huge</title><script>'),
        50 * 1024 * 1024,
      );
    }
    if (path === '/huge/body') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return streamBytes(
        res,
        pending,
        Buffer.from(page('<title>Huge body</title><meta name="description" content="big">', '<p>')),
        50 * 1024 * 1024,
      );
    }
    if (path === '/huge/declared') {
      res.writeHead(200, {
        'content-type': 'text/html',
        'content-length': String(50 * 1024 * 1024),
      });
      return streamBytes(res, pending, Buffer.alloc(0), 50 * 1024 * 1024);
    }
    if (path === '/huge-headers') {
      res.writeHead(200, { 'content-type': 'text/html', 'x-padding': 'a'.repeat(64 * 1024) });
      return res.end(page('<title>Big headers</title>'));
    }
    if (path === '/lying-length') {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': '100000' });
      res.write('<html><head><title>Liar</title>');
      // Ends the connection well short of the declared length.
      setTimeout(() => res.socket?.destroy(), 20);
      return undefined;
    }
    if (path === '/drip') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><head><script>');
      pending.add(res);
      const timer = setInterval(() => res.write('a'), 50);
      res.on('close', () => {
        clearInterval(timer);
        pending.delete(res);
      });
      return undefined;
    }
    if (path === '/hang') {
      pending.add(res);
      res.on('close', () => pending.delete(res));
      return undefined;
    }
    if (path === '/status/404') return html(page('<title>Not here</title>'), 404);
    if (path === '/status/500') return html(page('<title>Broken</title>'), 500);
    return html(page('<title>Unknown fixture path</title>'), 404);
  };

  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    origin,
    port,
    host,
    url: (path: string) => `${origin}${path}`,
    requests,
    close: async () => {
      for (const res of pending) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes `prefix` then filler up to `total` bytes, honouring backpressure (never allocated whole). */
function streamBytes(
  res: ServerResponse,
  pending: Set<ServerResponse>,
  prefix: Buffer,
  total: number,
): void {
  const filler = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  pending.add(res);
  res.on('close', () => pending.delete(res));
  const pump = () => {
    if (sent === 0 && prefix.length > 0) {
      res.write(prefix);
      sent += prefix.length;
    }
    while (sent < total && !res.destroyed) {
      const piece = filler.subarray(0, Math.min(filler.length, total - sent));
      sent += piece.length;
      if (!res.write(piece)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}
