import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { HeadExtractor, extractHead, type HeadMeta } from '../../../../src/engine/web/html';
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
    // The feed cuts a start tag at its first '>', even inside quotes (a known limit); such a
    // tag goes as written, so the parser reads on inside the value exactly as before.
    const cutInQuotes = extractHead(`<html><head><script src="a>b"></script>${after}`);
    assert.equal(cutInQuotes.names.get('description'), undefined);
  });
});
