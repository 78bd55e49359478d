import assert from 'node:assert/strict';
import fc from 'fast-check';
import { detectAt, detectInLine, MAX_SCANNED_CHARS } from '../../../src/detect/index';

// Lines built from the pieces detection cares about, so the generator reaches the tricky
// paths (dots, colons, @, brackets, quotes, keys) far more often than random Unicode would.
const piece = fc.oneof(
  fc.constantFrom(
    'example.com',
    'www.example.org',
    '*.',
    '.',
    '..',
    ':',
    '::',
    '@',
    '/',
    '//',
    'https://',
    'http://[',
    ']',
    '(',
    ')',
    '[',
    '](',
    '"',
    "'",
    '`',
    ';',
    '#',
    '$ORIGIN ',
    '@ IN NS ',
    ' IN A ',
    'server_name ',
    'host: ',
    '192.0.2.1',
    '2001:db8::1',
    'fe80::',
    '%eth0',
    '1.2.3',
    'münchen',
    'xn--',
    '-',
    '_',
    '\\',
    '\t',
    ' ',
    'package.json',
    'mailto:',
    'localhost',
    '{',
    '}',
    '.test',
    'ip6:',
    '0',
    '255',
    '999',
    'a',
    'ß',
    '😀',
    '\u0301',
  ),
  fc.string({ maxLength: 6 }),
);
const line = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));
const context = fc.record(
  {
    languageId: fc.constantFrom(
      'plaintext',
      'markdown',
      'typescript',
      'python',
      'yaml',
      'dns-zone',
      'terraform',
      'hosts',
    ),
    origin: fc.constantFrom('example.com.', 'example.com', '.', 'sub.example.test.'),
  },
  { requiredKeys: [] },
);

describe('detect: properties', () => {
  it('never throws; ranges are in the line, ordered, non-overlapping and match the text', () => {
    fc.assert(
      fc.property(line, context, (text, ctx) => {
        const found = detectInLine(text, ctx);
        let previousEnd = 0;
        for (const d of found) {
          assert.ok(d.start >= previousEnd, 'ordered and non-overlapping');
          assert.ok(d.start < d.end && d.end <= text.length, 'inside the line');
          assert.equal(d.text, text.slice(d.start, d.end));
          assert.ok(d.value.length > 0);
          assert.ok(['hostname', 'ip', 'url', 'email'].includes(d.kind));
          previousEnd = d.end;
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('detectAt returns an item of detectInLine that covers the cursor', () => {
    fc.assert(
      fc.property(line, fc.nat(200), context, (text, character, ctx) => {
        const hit = detectAt(text, character, ctx);
        if (hit === undefined) return;
        assert.ok(hit.start <= character && character <= hit.end);
        assert.ok(detectInLine(text, ctx).some((d) => d.start === hit.start && d.end === hit.end));
      }),
      { numRuns: 500 },
    );
  });

  it('values of host names are lower case without a trailing dot', () => {
    fc.assert(
      fc.property(line, context, (text, ctx) => {
        for (const d of detectInLine(text, ctx)) {
          if (d.kind !== 'hostname' && d.kind !== 'email') continue;
          assert.equal(d.value, d.value.toLowerCase());
          assert.ok(!d.value.endsWith('.'));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('stops searching a minified line after the cap, quickly', () => {
    const chunk = 'x=a.b.c("https://example.com/a");';
    const long = chunk.repeat(Math.ceil((MAX_SCANNED_CHARS * 3) / chunk.length));
    const started = performance.now();
    const found = detectInLine(long, { languageId: 'javascript' });
    const elapsed = performance.now() - started;
    assert.ok(found.length > 100);
    assert.ok(found.every((d) => d.end <= MAX_SCANNED_CHARS));
    assert.ok(elapsed < 1000, `${elapsed} ms`);
  });

  it('a long line without dots is linear, not quadratic', () => {
    const started = performance.now();
    assert.deepEqual(detectInLine('a'.repeat(MAX_SCANNED_CHARS)), []);
    assert.deepEqual(detectInLine(`${'ab+'.repeat(6000)}@`), []);
    assert.ok(performance.now() - started < 1000);
  });
});
