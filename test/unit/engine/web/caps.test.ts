// Size caps on web answers (issue 15): a hostile page must not make an answer unbounded. Each
// page is built here and served on loopback.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { icons, MAX_LISTED_ICONS } from '../../../../src/engine/web/icons';
import { MAX_LOCATION_CHARS, redirects } from '../../../../src/engine/web/redirects';
import { PREVIEW_CAPS, unfurl } from '../../../../src/engine/web/unfurl';
import { request } from 'undici';
import { EmbeddedServices } from '../../../../src/services/embedded';
import { startTestServer } from '../../../support/serve';
import { png } from '../../../support/web-images';

const html = (head: string) => `<!doctype html><html><head>${head}</head><body>x</body></html>`;

const PAGES: Record<string, () => string> = {
  // 10,000 icon links, each claiming to be the largest.
  '/many-icons': () =>
    html(
      Array.from(
        { length: 10_000 },
        (_, i) => `<link rel="icon" href="/i/${i}.png" sizes="4096x4096">`,
      ).join(''),
    ),
  '/few-icons': () => html('<link rel="icon" href="/big.png" sizes="512x512">'),
  '/many-og': () =>
    html(
      `<meta property="og:title" content="${'T'.repeat(5000)}">` +
        Array.from(
          { length: 40_000 },
          (_, i) =>
            `<meta property="og:image" content="/og/${i}.png"><meta property="og:image:width" content="${i}">`,
        ).join('') +
        Array.from(
          { length: 100 },
          (_, i) => `<meta property="og:extra${i}" content="v${i}">`,
        ).join(''),
    ),
  '/small-og': () => html('<meta property="og:image" content="/a.png"><title>t</title>'),
};

describe('web answer caps', () => {
  let server: Server;
  let origin: string;
  const small = png(16, 16);

  before(async () => {
    server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      const page = PAGES[path];
      if (page) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(page());
      } else if (path === '/long-redirect') {
        res.writeHead(302, { location: `/landing?${'q'.repeat(MAX_LOCATION_CHARS + 500)}` });
        res.end();
      } else if (path === '/big.png') {
        // Over a 1 KB cap, and no image anyway.
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(Buffer.alloc(4096, 1));
      } else if (path === '/favicon.ico' || path.startsWith('/i/')) {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(small);
      } else {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(html('<title>landing</title>'));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('lists at most MAX_LISTED_ICONS icons, says truncated, and picks only a decoded one', async () => {
    const result = await icons({ url: `${origin}/many-icons` });
    assert.equal(result.icons.length, MAX_LISTED_ICONS);
    assert.equal(result.truncated, true);
    // The unprobed links claim 4096 px; the best icon is still one that was fetched: 16 px.
    const best = result.icons.find((i) => i.url === result.icon_url);
    assert.ok(best, result.icon_url);
    assert.equal(best.format, 'png');
    assert.equal(best.width, 16);
    assert.ok(JSON.stringify(result).length < 20_000);
  });

  it('says nothing of truncation when nothing was cut', async () => {
    const result = await icons({ url: `${origin}/few-icons` });
    assert.equal('truncated' in result, false);
  });

  it('keeps an icon over the byte cap in the list as 0 x 0 with a reason, never as the best', async () => {
    const result = await icons({ url: `${origin}/few-icons` }, { limits: { maxImageBytes: 1024 } });
    const big = result.icons.find((i) => i.url === `${origin}/big.png`);
    assert.deepEqual(big, {
      rel: 'icon',
      url: `${origin}/big.png`,
      width: 0,
      height: 0,
      reason: 'too_large',
    });
    assert.equal(result.icon_url, `${origin}/favicon.ico`);
  });

  it('lists an inline data: icon over the byte cap the same way', async () => {
    const uri = `data:image/png;base64,${Buffer.alloc(3000, 7).toString('base64')}`;
    PAGES['/data-icon'] = () => html(`<link rel="icon" href="${uri}" sizes="64x64">`);
    const result = await icons({ url: `${origin}/data-icon` }, { limits: { maxImageBytes: 1024 } });
    const inline = result.icons.find((i) => i.url.startsWith('data:'));
    assert.equal(inline?.reason, 'too_large');
    assert.equal(inline?.width, 0);
  });

  it('caps og:image entries, og:* properties and value lengths, and says truncated', async () => {
    const result = await unfurl({ url: `${origin}/many-og` });
    const images = result.open_graph['og:image'] ?? [];
    assert.equal(images.length, PREVIEW_CAPS.images);
    // Sub-properties stay with their own image.
    assert.deepEqual(images[31], { url: `${origin}/og/31.png`, width: '31' });
    const others = Object.keys(result.open_graph).filter((k) => k !== 'og:image');
    assert.equal(others.length, PREVIEW_CAPS.properties);
    assert.equal((result.open_graph['og:title'] as string).length, PREVIEW_CAPS.valueChars);
    assert.equal(result.page_title.length, PREVIEW_CAPS.valueChars);
    assert.equal(result.truncated, true);
    assert.ok(JSON.stringify(result).length < 30_000);
  });

  it('leaves a small preview alone', async () => {
    const result = await unfurl({ url: `${origin}/small-og` });
    assert.equal('truncated' in result, false);
    assert.deepEqual(result.open_graph, { 'og:image': [{ url: `${origin}/a.png` }] });
  });

  it('holds through the real server: /meta/icons and /meta/unfurl stay small', async () => {
    const served = await startTestServer(new EmbeddedServices({ blockPrivate: false }));
    try {
      for (const path of ['/meta/icons?url=', '/meta/unfurl?url=']) {
        const page = path.includes('icons') ? 'many-icons' : 'many-og';
        const res = await request(
          `${served.url}${path}${encodeURIComponent(`${origin}/${page}`)}`,
          {
            headers: { authorization: served.token },
          },
        );
        const body = await res.body.text();
        assert.equal(res.statusCode, 200, body.slice(0, 300));
        assert.ok(body.length < 30_000, `${path}: ${body.length} bytes`);
        assert.equal((JSON.parse(body) as { truncated?: boolean }).truncated, true);
      }
    } finally {
      await served.close();
    }
  });

  it('cuts a hop location longer than a URL may be, and says truncated', async () => {
    const result = await redirects({ url: `${origin}/long-redirect` });
    assert.equal(result.locations.length, 1);
    assert.equal(result.locations[0].location.length, MAX_LOCATION_CHARS);
    assert.equal(result.truncated, true);
    assert.equal(result.final_status_code, 200);
  });
});
