import assert from 'node:assert/strict';
import { LookupError } from '../../../../src/contract/errors';
import { unfurl } from '../../../../src/engine/web/unfurl';
import { startWebServer, type WebFixture } from '../../../support/web-server';

describe('web unfurl', () => {
  let site: WebFixture;
  before(async () => {
    site = await startWebServer();
  });
  after(() => site.close());

  it('fills every field, groups og:image sub-properties and adds twitter and oembed', async () => {
    const result = await unfurl({ url: site.url('/og') });
    assert.deepEqual(result, {
      application_name: 'OG App',
      canonical_url: site.url('/og?canonical=1'),
      page_description: 'A description',
      icon_url: site.url('/favicon.ico'),
      page_keywords: 'one, two',
      resolved_url: site.url('/og'),
      page_title: 'The Title',
      open_graph: {
        'og:title': 'OG title',
        'og:type': 'article',
        'og:site_name': 'Site',
        'og:image': [
          { url: site.url('/assets/one.png'), width: '800', height: '600', alt: 'First' },
          {
            url: 'https://cdn.example/two.jpg',
            type: 'image/jpeg',
            secure_url: 'https://cdn.example/two-s.jpg',
          },
        ],
      },
      twitter: { 'twitter:card': 'summary_large_image', 'twitter:title': 'Tw title' },
      oembed: { json: site.url('/oembed.json?u=1'), xml: site.url('/oembed.xml?u=1') },
    });
  });

  it('falls back to og:title, og:description and og:site_name', async () => {
    const result = await unfurl({ url: site.url('/og-only') });
    assert.equal(result.page_title, 'Only OG');
    assert.equal(result.page_description, 'OG desc');
    assert.equal(result.application_name, 'OG Site');
    assert.equal(result.twitter, undefined);
    assert.equal(result.oembed, undefined);
  });

  it('falls back to twitter:title for the title', async () => {
    assert.equal((await unfurl({ url: site.url('/twitter-only') })).page_title, 'Only Twitter');
  });

  it('keeps every field present, empty, on a bare page', async () => {
    assert.deepEqual(await unfurl({ url: site.url('/bare') }), {
      application_name: '',
      canonical_url: '',
      page_description: '',
      icon_url: site.url('/favicon.ico'),
      page_keywords: '',
      resolved_url: site.url('/bare'),
      page_title: '',
      open_graph: {},
    });
  });

  it('reports the URL after redirects as resolved_url', async () => {
    const result = await unfurl({ url: site.url('/redirect/301') });
    assert.equal(result.resolved_url, site.url('/final'));
    assert.equal(result.page_title, 'Final');
  });

  it('gives empty fields for a resource that is not HTML', async () => {
    const result = await unfurl({ url: site.url('/not-html') });
    assert.equal(result.page_title, '');
    assert.equal(result.icon_url, '');
    assert.deepEqual(result.open_graph, {});
  });

  it('picks up head tags that sloppy pages put early in the body, and stops after', async () => {
    const result = await unfurl({ url: site.url('/sloppy') });
    assert.equal(result.page_title, 'Sloppy');
    assert.equal(result.page_description, 'late description');
    assert.equal(result.page_keywords, '', 'tags past the body budget are not read');
    const svgFirst = await unfurl({ url: site.url('/svg-title-first') });
    assert.equal(svgFirst.page_title, 'Real');
  });

  const charsets: Array<[string, string]> = [
    ['/charset/meta-sjis', '日本語'],
    ['/charset/http-equiv-eucjp', '日本語'],
    ['/charset/header-1251', 'Привет'],
    ['/charset/header-gbk-beats-meta', '中文'],
    ['/charset/bom', 'Grüße'],
    ['/charset/unknown-label', 'café'],
    ['/charset/undeclared-latin1', 'café'],
  ];
  for (const [path, title] of charsets) {
    it(`decodes ${path} in the page's own charset`, async () => {
      assert.equal((await unfurl({ url: site.url(path) })).page_title, title);
    });
  }

  it('answers 404 with not_found and 500 with upstream_error', async () => {
    await assert.rejects(
      unfurl({ url: site.url('/status/404') }),
      (err: LookupError) => err.code === 'not_found',
    );
    await assert.rejects(
      unfurl({ url: site.url('/status/500') }),
      (err: LookupError) => err.code === 'upstream_error',
    );
  });

  it('reports a redirect loop or overflow as upstream_error', async () => {
    await assert.rejects(
      unfurl({ url: site.url('/loop/a') }),
      (err: LookupError) => err.code === 'upstream_error',
    );
    await assert.rejects(
      unfurl({ url: site.url('/chain/21') }),
      (err: LookupError) => err.code === 'upstream_error',
    );
  });

  it('keeps cookies within one chain: a later call starts with none', async () => {
    assert.equal((await unfurl({ url: site.url('/cookie/start') })).page_title, 'Final');
    assert.equal((await unfurl({ url: site.url('/cookie/echo') })).page_title, 'cookie:none');
  });
});
