import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseDocument, DomUtils } from 'htmlparser2';
import { extractHead, HeadExtractor } from '../../../../src/engine/web/html';

// The head parser reads with htmlparser2's decodeEntities off and decodes only what it keeps
// (entities.ts); the reference is htmlparser2's own DOM, which decodes as it parses.
const refs = [
  '&amp;',
  '&amp',
  '&quot;',
  '&lt',
  '&notin;',
  '&not',
  '&#x41;',
  '&#65',
  '&#0;',
  '&',
  '&amp=',
  '&ampx',
];
const value = fc
  .array(
    fc.oneof(fc.constantFrom(...refs), fc.constantFrom('a', ' ', '"', "'", '=', ';', '<', '>')),
    {
      maxLength: 12,
    },
  )
  .map((parts) => parts.join(''));

function dom(html: string) {
  return parseDocument(html, { decodeEntities: true });
}

describe('web entities: decoded where read, as htmlparser2 decodes them', () => {
  it('decodes attribute values in every quoting as the DOM does', () => {
    fc.assert(
      fc.property(value, fc.constantFrom('"', "'", ''), (raw, quote) => {
        // Only values that can stand in that quoting.
        if (quote !== '' && raw.includes(quote)) return;
        if (quote === '' && (raw === '' || /[\s>"'`=<]/.test(raw[0]) || /[\s>]/.test(raw))) return;
        const html = `<html><head><meta name="x" content=${quote}${raw}${quote}></head></html>`;
        const meta = DomUtils.getElementsByTagName('meta', dom(html))[0];
        assert.equal(extractHead(html).names.get('x'), meta?.attribs.content);
      }),
      { numRuns: 3000 },
    );
  });

  it('decodes titles, closed or cut by the end of the document, as the DOM does', () => {
    fc.assert(
      fc.property(value, fc.boolean(), (raw, closed) => {
        if (/<\/title/i.test(raw)) return;
        const html = `<html><head><title>${raw}${closed ? '</title></head><body></body>' : ''}`;
        const title = DomUtils.getElementsByTagName('title', dom(html))[0];
        const expected = DomUtils.textContent(title).replace(/\s+/g, ' ').trim();
        assert.equal(extractHead(html).title, expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('counts body text decoded, even when a reference straddles two writes', () => {
    // A second <title> in the body is body text: its non-blank characters, decoded as the
    // title's own state decodes them ('<&amp;' stays as written there), count toward the 512
    // that end the read. Cut anywhere around the reference, the meta after it is read exactly
    // when the decoded count stays under 512.
    for (const ref of ['&amp;', '<&amp;', '&am', '&amp;&amp;', '&not', '&notin;']) {
      for (let letters = 505; letters <= 511; letters += 1) {
        const before = `<html><head><title>t</title></head><body><title>${'y'.repeat(letters)}`;
        const html = `${before}${ref}${' '.repeat(80)}</title><meta name="late" content="z">`;
        const title = DomUtils.getElementsByTagName('title', dom(html))[1];
        const counted = DomUtils.textContent(title).replace(/\s+/g, '').length;
        for (let cut = before.length - 1; cut <= before.length + ref.length + 70; cut += 1) {
          const extractor = new HeadExtractor();
          if (!extractor.write(html.slice(0, cut))) extractor.write(html.slice(cut));
          assert.equal(
            extractor.end().names.get('late'),
            counted < 512 ? 'z' : undefined,
            `${ref} after ${letters} letters, cut at ${cut - before.length}`,
          );
        }
      }
    }
  });

  it('reads CR LF and a lone CR in a value as LF, and keeps a CR written as a reference', () => {
    const description = (html: string): string | undefined =>
      extractHead(html).names.get('description');
    assert.equal(
      description('<meta name="description" content="one\r\ntwo\rthree">'),
      'one\ntwo\nthree',
    );
    assert.equal(
      description('<meta name="description" content="one&#13;two &amp;\r\n">'),
      'one\rtwo &\n',
    );
  });
});
