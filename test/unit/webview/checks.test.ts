import assert from 'node:assert/strict';
import type { UnfurlResult } from '../../../src/contract/shapes';
import type { ImageSlot, PreviewView } from '../../../src/protocol';
import { cardText, previewChecks } from '../../../src/webview/checks';

function view(data: Partial<UnfurlResult>, image?: ImageSlot): PreviewView {
  return {
    kind: 'preview',
    seq: 1,
    status: 'ready',
    target: 'https://a.example/p',
    at: 0,
    data: {
      application_name: '',
      canonical_url: '',
      page_description: '',
      icon_url: '',
      page_keywords: '',
      resolved_url: 'https://a.example/p',
      page_title: '',
      open_graph: {},
      ...data,
    },
    ...(image ? { image } : {}),
  };
}
const png = (width: number, height: number): ImageSlot => ({
  dataUri: 'data:image/png;base64,',
  width,
  height,
  format: 'png',
});
const texts = (v: PreviewView, level: string) =>
  previewChecks(v)
    .filter((c) => c.level === level)
    .map((c) => c.text)
    .join('\n');

describe('preview checks', () => {
  it('fails a page with nothing to show', () => {
    const fails = texts(view({}), 'fail');
    assert.match(fails, /No title at all/);
    assert.match(fails, /No description at all/);
    assert.match(fails, /No og:image/);
  });

  it('warns on fallbacks, long text, a small-ish image and missing twitter:card', () => {
    const v = view(
      {
        page_title: 'x'.repeat(61),
        page_description: 'y'.repeat(161),
        open_graph: { 'og:image': [{ url: 'https://a.example/i.png' }] },
      },
      png(800, 418),
    );
    const warns = texts(v, 'warn');
    assert.match(warns, /No og:title/);
    assert.match(warns, /Title is 61 characters/);
    assert.match(warns, /Description is 161 characters/);
    assert.match(warns, /1200×630 is recommended/);
    assert.match(warns, /No twitter:card/);
    assert.match(warns, /No favicon/);
  });

  it('fails an image under 200 px and one that did not load', () => {
    const og = { 'og:image': [{ url: 'https://a.example/i.png' }] };
    assert.match(texts(view({ open_graph: og }, png(199, 300)), 'fail'), /under 200×200/);
    assert.match(
      texts(view({ open_graph: og }, { code: 'not_found', message: 'gone' }), 'fail'),
      /could not be loaded: gone/,
    );
  });

  it('passes a complete card and prefers og: text', () => {
    const v = view(
      {
        page_title: 'Page',
        icon_url: 'https://a.example/f.ico',
        canonical_url: 'https://a.example/p',
        open_graph: {
          'og:title': 'OG',
          'og:description': 'Desc',
          'og:site_name': 'Site',
          'og:image': [{ url: 'https://a.example/i.png' }],
        },
        twitter: { 'twitter:card': 'summary_large_image' },
      },
      png(1200, 630),
    );
    assert.deepEqual(
      previewChecks(v).map((c) => c.level),
      ['pass', 'pass', 'pass'],
    );
    assert.deepEqual(cardText(v), { title: 'OG', description: 'Desc', siteName: 'Site' });
  });
});
