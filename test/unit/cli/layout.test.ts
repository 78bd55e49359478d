// Columns and folding of text output, colour codes included.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { columns, fold, labelled } from '../../../src/cli/text/layout';
import { makeStyle, stripAnsi, visibleLength } from '../../../src/cli/text/style';

const paint = makeStyle(true);

describe('text layout', () => {
  it('aligns columns by printed width, ignoring colour codes', () => {
    const lines = columns(
      [
        [paint.red('a'), '1', 'x'],
        ['bbb', '22', 'y'],
      ],
      ['left', 'right'],
    );
    assert.deepEqual(lines.map(stripAnsi), ['a     1  x', 'bbb  22  y']);
  });

  it('folds at spaces with a hanging indent, never losing or reordering a word', () => {
    const word = fc.stringMatching(/^[a-z]{1,12}$/);
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 30, max: 100 }),
        fc.integer({ min: 0, max: 12 }),
        (words, width, indent) => {
          const line = words.map((w, i) => (i % 3 === 0 ? paint.yellow(w) : w)).join(' ');
          const folded = fold(line, width, indent);
          for (const [i, part] of folded.entries()) {
            // a continuation keeps 20 columns of text even when the indent eats the width
            assert.ok(visibleLength(part) <= Math.max(width, indent + 20), `line ${i} fits`);
            if (i > 0) assert.ok(part.startsWith(' '.repeat(indent)), 'hanging indent');
          }
          assert.deepEqual(stripAnsi(folded.join(' ')).split(/\s+/).filter(Boolean), words);
        },
      ),
      { seed: 16, numRuns: 300 },
    );
  });

  it('never folds when the width is unknown, and continues a tree prefix', () => {
    const long = 'word '.repeat(50).trim();
    assert.deepEqual(fold(long, Infinity, 4), [long]);
    const folded = fold(`│   ${long}`, 40, '│     ');
    assert.ok(folded.length > 1);
    for (const line of folded.slice(1)) assert.match(line, /^│ {5}word/);
  });

  it('folds label and value rows under the value column', () => {
    const rows = [
      [
        'Status',
        'clientHold — Taken out of DNS by the registrar (often unpaid, unverified or disputed).',
      ],
      ['DNSSEC', 'signed'],
    ];
    assert.deepEqual(labelled(rows, 50), [
      'Status  clientHold — Taken out of DNS by the',
      '        registrar (often unpaid, unverified or',
      '        disputed).',
      'DNSSEC  signed',
    ]);
  });
});
