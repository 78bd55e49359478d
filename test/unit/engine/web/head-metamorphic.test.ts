// Metamorphic checks of the head reader: every UTF-8 page of ../shared/corpus/html-meta,
// rewritten in ways HTML says change nothing (tag and attribute names in capitals, single
// quotes, "/>" on void elements, a newline between a tag's attributes, CR LF line ends), must
// give the preview the page itself gives. Before these checks a description written on
// several lines kept its CRs when the page was served with CR LF line ends, where a browser
// reads LF (HTML, "preprocessing the input stream").
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { extractFromBytes } from '../../../../src/engine/web/page';
import { previewFromHead } from '../../../../src/engine/web/unfurl';
import { htmlCorpusPresent, loadHtmlCorpus } from '../../../support/html-corpus';

const HEAD_TAG = /<(\/?)(meta|title|link|head|base)\b/gi;
const ATTRIBUTES = /<(meta|link)\b([^>]*)>/gi;

const REWRITES: Record<string, (html: string) => string> = {
  'tag names in capitals': (h) =>
    h.replace(HEAD_TAG, (_m, slash: string, tag: string) => `<${slash}${tag.toUpperCase()}`),
  'attribute names in capitals': (h) =>
    h.replace(
      ATTRIBUTES,
      (_m, tag: string, attrs: string) =>
        `<${tag}${attrs.replace(/\b(name|property|content|rel|href)=/gi, (a) => a.toUpperCase())}>`,
    ),
  'single quotes': (h) =>
    h.replace(
      ATTRIBUTES,
      (_m, tag: string, attrs: string) => `<${tag}${attrs.replace(/="([^"']*)"/g, "='$1'")}>`,
    ),
  '"/>" on void elements': (h) => h.replace(/<(meta|link)\b([^>]*?)\s*\/?>/gi, '<$1$2 />'),
  'a newline between attributes': (h) => h.replace(/<(meta|link)\s+/gi, '<$1\n  '),
  'CR LF line ends': (h) => h.replace(/\r?\n/g, '\r\n'),
};

function preview(bytes: Buffer, contentType: string, url: string): unknown {
  return previewFromHead(extractFromBytes(bytes, contentType), new URL(url), '');
}

describe('head reader: rewrites that change nothing HTML means', function () {
  it('previews every corpus page rewritten as it previews the page', function () {
    if (!htmlCorpusPresent()) {
      console.log('      skipped: ../shared/corpus/html-meta absent');
      this.skip();
    }
    const broken: string[] = [];
    let pages = 0;
    for (const page of loadHtmlCorpus()) {
      const bytes = readFileSync(page.file);
      const html = bytes.toString('utf8');
      // only pages that are UTF-8 already: a rewrite is encoded back as UTF-8
      if (!Buffer.from(html, 'utf8').equals(bytes)) continue;
      pages += 1;
      const base = preview(bytes, page.contentType, page.url);
      for (const [name, rewrite] of Object.entries(REWRITES)) {
        const got = preview(Buffer.from(rewrite(html), 'utf8'), page.contentType, page.url);
        if (!isDeepStrictEqual(got, base)) broken.push(`${name}: ${page.corpus} ${page.id}`);
      }
    }
    console.log(
      `      ${pages} pages x ${Object.keys(REWRITES).length} rewrites, ${broken.length} read differently`,
    );
    assert.deepEqual(broken, []);
  });
});
