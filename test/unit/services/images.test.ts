// Images for the panel: fetched within caps, measured, handed over as data: URIs, and
// anything that is not an image refused (so no page markup reaches the webview).
import assert from 'node:assert/strict';
import type { CallOptions } from '../../../src/contract/services';
import { EmbeddedServices } from '../../../src/services/embedded';
import { panelImage, panelImages } from '../../../src/services/images';
import { FakeServices } from '../../support/fake-services';
import { png } from '../../support/web-images';
import { startWebServer, type WebFixture } from '../../support/web-server';

const embedded = new EmbeddedServices();
const fetchPanelImage = (url: string, signal?: AbortSignal) =>
  panelImage(embedded.meta, url, signal ? { signal } : {});
const fetchPanelImages = (urls: string[], call?: CallOptions) =>
  panelImages(embedded.meta, urls, call);

describe('panel images', function () {
  let web: WebFixture;
  before(async () => {
    web = await startWebServer();
  });
  after(async () => web.close());

  it('hands an image over as a data: URI with its decoded size', async () => {
    const slot = await fetchPanelImage(web.url('/img/touch.png'));
    assert.ok('dataUri' in slot);
    assert.match(slot.dataUri, /^data:image\/png;base64,/);
    assert.deepEqual([slot.width, slot.height, slot.format], [180, 180, 'png']);
  });

  it('refuses HTML, missing images and oversized ones with a reason', async () => {
    const html = await fetchPanelImage(web.url('/img/not-an-image'));
    assert.ok('code' in html && html.code === 'upstream_error');
    const missing = await fetchPanelImage(web.url('/img/missing.png'));
    assert.ok('code' in missing && missing.code === 'not_found');
    const huge = await fetchPanelImage(web.url('/img/huge.png'));
    assert.ok('code' in huge && huge.code === 'response_too_large', JSON.stringify(huge));
  });

  it('re-encodes inline data: images and refuses inline non-images', async () => {
    const inline = `data:text/plain;base64,${png(5, 7).toString('base64')}`;
    const slot = await fetchPanelImage(inline);
    assert.ok('dataUri' in slot);
    assert.match(slot.dataUri, /^data:image\/png;base64,/);
    assert.equal(slot.height, 7);
    const text = await fetchPanelImage('data:text/html,<script>alert(1)</script>');
    assert.ok('code' in text && text.code === 'upstream_error');
  });

  it('fetches several at once, each URL once', async () => {
    const urls = [
      web.url('/img/icon-32.png'),
      web.url('/img/anim.gif'),
      web.url('/img/icon-32.png'),
    ];
    const slots = await fetchPanelImages(urls);
    assert.deepEqual(Object.keys(slots).sort(), [urls[0], urls[1]].sort());
    assert.equal(web.requests.filter((r) => r.path === '/img/icon-32.png').length, 1);
  });

  it('asks the meta service for every non-inline image (the remote backend fetches them)', async () => {
    const fake = new FakeServices();
    const inline = `data:image/png;base64,${png(2, 3).toString('base64')}`;
    const slots = await panelImages(fake.meta, ['https://images.example/a.png', inline]);
    assert.deepEqual(
      fake.calls.map((c) => [c.method, c.params.url]),
      [['image', 'https://images.example/a.png']],
    );
    const fetched = slots['https://images.example/a.png'];
    assert.ok(fetched !== undefined && 'dataUri' in fetched);
    assert.match(fetched.dataUri, /^data:image\/png;base64,/);
  });

  it('passes cancellation through', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(fetchPanelImage(web.url('/img/touch.png'), controller.signal), {
      code: 'cancelled',
    });
  });
});
