import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { HeadExtractor, extractHead, type HeadMeta } from '../../../../src/engine/web/html';
import { tagEnd } from '../../../../src/engine/web/html-feed';
import { htmlCorpusPresent, loadHtmlCorpus } from '../../../support/html-corpus';

function streamed(html: string, cuts: number[]): HeadMeta {
  const extractor = new HeadExtractor();
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    if (extractor.write(html.slice(at, cut))) break;
    at = cut;
  }
  if (!extractor.finished) extractor.write(html.slice(at));
  return extractor.end();
}

const plain = (m: HeadMeta) => ({ ...m, names: [...m.names], twitter: [...m.twitter] });

const PIECES = [
  '<title>T &amp; t</title>',
  '<meta name="description" content="d">',
  '<meta property="og:title" content="o">',
  '<link rel="icon" href="/i.png">',
  "<script>var a = \"<meta name='keywords' content='no'>\"; if (a < b) {}</script>",
  '<style>a > b { color: red } </style>',
  '<!-- <link rel="icon" href="/commented.png"> -->',
  '<svg><title>svg</title><path d="M0"/></svg>',
  '<SCRIPT type="x">a</SCRIPT >',
  '<div class="a>b">x</div>',
  '<p>some text</p>',
];

describe('web html feed (skipping raw text, body mode)', () => {
  it('gives the same result however the document is split into chunks', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }),
        fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }),
        fc.array(fc.nat(2000), { maxLength: 8 }),
        (head, body, cuts) => {
          const html = `<html><head>${head.join('')}</head><body>${body.join('')}</body></html>`;
          assert.deepEqual(
            plain(
              streamed(
                html,
                cuts.map((c) => c % (html.length + 1)),
              ),
            ),
            plain(extractHead(html)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never takes markup inside scripts, styles, comments or svg for tags', () => {
    const head = extractHead(
      `<html><head>${PIECES.slice(4, 9).join('')}<title>real</title></head><body></body></html>`,
    );
    assert.equal(head.title, 'real');
    assert.deepEqual(head.links, []);
    assert.equal(head.names.get('keywords'), undefined);
  });

  it('reads corpus pages identically in random chunks', function () {
    if (!htmlCorpusPresent()) this.skip();
    const pages = loadHtmlCorpus().filter((_, i) => i % 12 === 0);
    for (const page of pages) {
      const html = readFileSync(page.file, 'latin1');
      const cuts = Array.from({ length: 40 }, (_, i) =>
        Math.floor((((i * 7919) % 997) / 997) * html.length),
      );
      assert.deepEqual(plain(streamed(html, cuts)), plain(extractHead(html)), page.id);
    }
  });

  it('hands script and style tags over bare only between tags, never inside text or a tag', () => {
    const after = '<meta name="description" content="d"></head></html>';
    const plainTags = extractHead(
      `<html><head><script type="module" src="/m.js" async></script><style media="x">a{}</style>${after}`,
    );
    assert.equal(plainTags.names.get('description'), 'd');
    // Inside a title the tag is text, and the title shows it as written.
    const inTitle = extractHead(`<html><head><title>a <script src="x.js"> b</title>${after}`);
    assert.equal(inTitle.title, 'a <script src="x.js">');
    // Inside another tag's attribute value it is part of that value.
    const inValue = extractHead(
      `<html><head><link rel="icon" href="<script defer src=a.js>"></script>${after}`,
    );
    assert.equal(inValue.links[0]?.href, '<script defer src=a.js></script><meta name=');
    // A '>' inside a quoted attribute value does not end the tag, as in the tokenizer.
    const inQuotes = extractHead(`<html><head><script src="a>b"></script>${after}`);
    assert.equal(inQuotes.names.get('description'), 'd');
  });

  it('keeps a tag whose quoted value holds a ">", in body mode and across chunks', () => {
    const page =
      '<html><head><title>T</title></head><body><p>x</p>' +
      '<meta name="description" content="Home > Shop > Shoes"><p>y</p></body></html>';
    assert.equal(extractHead(page).names.get('description'), 'Home > Shop > Shoes');
    for (const size of [1, 7, 50]) {
      const extractor = new HeadExtractor();
      for (let i = 0; i < page.length; i += size) extractor.write(page.slice(i, i + size));
      assert.equal(
        extractor.end().names.get('description'),
        'Home > Shop > Shoes',
        `chunks of ${size}`,
      );
    }
  });

  it('finds the end of a start tag outside quoted values, in linear time', () => {
    assert.equal(tagEnd('<meta content="a>b">', 5), 20);
    assert.equal(tagEnd("<meta content = 'a>b' x>", 5), 24);
    // A quote that does not begin a value is an ordinary character.
    assert.equal(tagEnd('<meta a"b>c">', 5), 10);
    assert.equal(tagEnd('<meta content="a>b', 5), -1);
    const hostile = `<meta ${'a="x" '.repeat(20000)}b="unclosed`;
    const started = performance.now();
    assert.equal(tagEnd(hostile, 5), -1);
    assert.ok(performance.now() - started < 200);
  });
});
