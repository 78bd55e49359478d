import assert from 'node:assert/strict';
import { LookupError } from '../../../../src/contract/errors';
import { bestIcon, icons, sizesAttribute } from '../../../../src/engine/web/icons';
import { fetchImageAsDataUri, measureImage } from '../../../../src/engine/web/image';
import { gif, png } from '../../../support/web-images';
import { startWebServer, type WebFixture } from '../../../support/web-server';

describe('web icons', () => {
  let site: WebFixture;
  let bare: WebFixture;
  before(async () => {
    site = await startWebServer();
    bare = await startWebServer({ favicon: false });
  });
  after(async () => {
    await site.close();
    await bare.close();
  });

  it('finds every linked relation, manifest icons and /favicon.ico, measured from pixels', async () => {
    const result = await icons({ url: site.url('/icons/all') });
    const rows = result.icons.map((i) => [
      i.rel,
      i.url.startsWith('data:') ? 'data:' : i.url.replace(site.origin, ''),
      i.width,
      i.height,
      i.format,
    ]);
    assert.deepEqual(rows, [
      ['manifest', '/img/m-512.png', 512, 512, 'png'],
      ['manifest', '/img/m-192.png', 192, 192, 'png'],
      ['apple-touch-icon', '/img/touch.png', 180, 180, 'png'],
      // Not an image: the sizes attribute stands in, largest of the list.
      ['icon', '/img/not-an-image', 128, 128, undefined],
      ['apple-touch-icon-precomposed', '/img/touch.jpg', 120, 120, 'jpg'],
      ['icon', '/img/sized.svg', 100, 50, 'svg'],
      ['favicon', '/favicon.ico', 64, 64, 'ico'],
      ['icon', '/img/icon.webp', 64, 64, 'webp'],
      ['shortcut icon', '/img/multi.ico', 48, 48, 'ico'],
      // The decoded 32 px wins over the page's sizes="16x16".
      ['icon', '/img/icon-32.png', 32, 32, 'png'],
      ['icon', '/img/anim.gif', 24, 24, 'gif'],
      ['mask-icon', '/img/mask.svg', 16, 16, 'svg'],
      ['icon', 'data:', 3, 3, 'gif'],
      // Declared but answering 404: listed 0 x 0 (its sizes attribute is not believed).
      ['icon', '/img/missing.png', 0, 0, undefined],
    ]);
    const missing = result.icons.find((i) => i.url.includes('missing'));
    assert.deepEqual(missing, {
      rel: 'icon',
      url: site.url('/img/missing.png'),
      height: 0,
      width: 0,
      reason: 'http_error',
      status: 404,
    });
    assert.equal(result.icon_url, site.url('/img/m-512.png'));
    assert.equal(result.canonical_url, site.url('/icons/canonical'));
  });

  it('lists only /favicon.ico for a page that links nothing', async () => {
    const result = await icons({ url: site.url('/icons/none') });
    assert.deepEqual(result, {
      canonical_url: '',
      icon_url: site.url('/favicon.ico'),
      icons: [
        { rel: 'favicon', url: site.url('/favicon.ico'), height: 64, width: 64, format: 'ico' },
      ],
    });
  });

  it('gives an empty list when there is no icon at all', async () => {
    assert.deepEqual(await icons({ url: bare.url('/icons/none') }), {
      canonical_url: '',
      icon_url: '',
      icons: [],
    });
  });

  it('probes at most maxIcons and lists the rest from their sizes attribute', async () => {
    const before = site.requests.filter((r) => r.path.startsWith('/img/n')).length;
    const result = await icons({ url: site.url('/icons/many') }, { limits: { maxIcons: 5 } });
    const probed = site.requests.filter((r) => r.path.startsWith('/img/n')).length - before;
    assert.equal(probed, 5);
    assert.equal(result.icons.length, 30);
    const unprobed = result.icons.find((i) => i.url.endsWith('/img/n29.png'));
    assert.deepEqual(unprobed, {
      rel: 'icon',
      url: site.url('/img/n29.png'),
      height: 30,
      width: 30,
    });
  });

  it('survives a broken manifest', async () => {
    const result = await icons({ url: site.url('/icons/bad-manifest') });
    assert.deepEqual(
      result.icons.map((i) => i.rel),
      ['favicon'],
    );
  });

  it('caps each probed image in bytes, listing one over the cap as 0 x 0 too_large', async () => {
    const url = `${site.url('/icons/link')}?href=/img/huge.png`;
    const result = await icons({ url }, { limits: { maxImageBytes: 64 * 1024 } });
    assert.deepEqual(
      result.icons.map((i) => [i.rel, i.width, i.height, i.reason]),
      [
        ['favicon', 64, 64, undefined],
        ['icon', 0, 0, 'too_large'],
      ],
    );
    assert.equal(result.icons[1].url, site.url('/img/huge.png'));
    assert.equal(result.icon_url, site.url('/favicon.ico'));
  });

  it('follows an icon redirect and keeps the linked URL', async () => {
    const url = `${site.url('/icons/link')}?href=/img/redirected.png`;
    const result = await icons({ url });
    assert.equal(result.icons[0]?.url, site.url('/img/redirected.png'));
    assert.equal(result.icons[0]?.width, 180);
  });

  it('still lists the icons of an error page', async () => {
    const result = await icons({ url: site.url('/status/404') });
    assert.deepEqual(
      result.icons.map((i) => i.rel),
      ['favicon'],
    );
  });

  it('reports a redirect loop as upstream_error', async () => {
    await assert.rejects(
      icons({ url: site.url('/loop/a') }),
      (err: LookupError) => err.code === 'upstream_error',
    );
  });

  it('reads sizes attributes and picks the best icon', () => {
    assert.deepEqual(sizesAttribute('16x16 32X32 any'), { height: 32, width: 32 });
    assert.deepEqual(sizesAttribute('any'), { height: 0, width: 0 });
    const icon = (url: string, width: number, height: number, format?: string) => ({
      rel: 'icon',
      url,
      width,
      height,
      ...(format ? { format } : {}),
    });
    assert.equal(
      bestIcon([
        icon('svg', 512, 512, 'svg'),
        icon('wide', 300, 100, 'png'),
        icon('sq', 64, 64, 'png'),
      ]),
      'sq',
    );
    assert.equal(bestIcon([icon('wide', 30, 10, 'png'), icon('svg', 50, 50, 'svg')]), 'svg');
    // Only a fetched and decoded icon can be the best, whatever its sizes attribute says.
    assert.equal(bestIcon([icon('unknown', 0, 0)]), '');
    assert.equal(bestIcon([icon('unprobed', 512, 512), icon('small', 16, 16, 'ico')]), 'small');
    assert.equal(bestIcon([]), '');
  });

  it('hands images to the panel as data: URIs, and refuses what is not an image', async () => {
    const image = await fetchImageAsDataUri(site.url('/img/touch.png'));
    assert.equal(image.width, 180);
    assert.equal(image.format, 'png');
    assert.equal(image.dataUri, `data:image/png;base64,${png(180, 180).toString('base64')}`);
    await assert.rejects(
      fetchImageAsDataUri(site.url('/img/not-an-image')),
      (err: LookupError) => err.code === 'upstream_error',
    );
    await assert.rejects(
      fetchImageAsDataUri(site.url('/img/missing.png')),
      (err: LookupError) => err.code === 'not_found',
    );
    await assert.rejects(
      fetchImageAsDataUri(site.url('/status/500')),
      (err: LookupError) => err.code === 'upstream_error',
    );
    await assert.rejects(
      fetchImageAsDataUri(site.url('/img/huge.png'), { limits: { maxImageBytes: 32 * 1024 } }),
      (err: LookupError) => err.code === 'response_too_large',
    );
    await assert.rejects(
      fetchImageAsDataUri(site.url('/loop/a')),
      (err: LookupError) => err.code === 'upstream_error',
    );
  });

  it('measures the largest image of an ICO and nothing from non-images', () => {
    assert.equal(measureImage(gif(5, 6))?.height, 6);
    assert.equal(measureImage(Buffer.alloc(0)), undefined);
    assert.equal(measureImage(Buffer.from('GIF89a')), undefined);
  });

  it('never measures a truncated image from the bytes beside it in a shared buffer', () => {
    const pool = Buffer.alloc(64, 0x41);
    pool.write('GIF89a', 8, 'latin1');
    assert.equal(measureImage(pool.subarray(8, 14)), undefined);
    const whole = gif(5, 6);
    const inside = Buffer.concat([Buffer.alloc(3), whole, Buffer.alloc(3, 0xff)]);
    assert.equal(measureImage(inside.subarray(3, 3 + whole.length))?.width, 5);
  });
});
