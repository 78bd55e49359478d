// The zone checks pass an owner whose rows show, from their cells alone, that no check can find
// anything (checks.ts, plainlyClean) without looking at its records. Both ways must give the
// same problems, in the same order: checked here with the shortcut on and off over the same
// rows, on generated zones with every mutation, a root-like zone of delegations and glue, and
// those zones edited at random (lines dropped, doubled, renumbered, moved to other owners; NS,
// CNAME, DNAME, DNSKEY and MX records added), loaded at once and updated edit by edit.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ZoneChecks } from '../../../../src/engine/zone/checks';
import { startOf, ZoneDocument } from '../../../../src/engine/zone/document';
import { parseText } from '../../../../src/engine/zone/entry';
import { RecordRows } from '../../../../src/engine/zone/rows';
import { rootLikeZone } from '../../../bench/zone-signed.bench';
import { seeded } from '../../../support/prng';
import { generateZone as generateTypesZone } from '../../../support/zone-gen';
import { generateZone, MUTATIONS, ORIGIN } from '../../../support/zone-generator';

/** The checks' problems of the rows, with the shortcut and without. */
function bothWays(rows: RecordRows, apex: string | undefined) {
  const plain = new ZoneChecks(rows, apex);
  const full = new ZoneChecks(rows, apex);
  full.plainPath = false;
  plain.load(0, rows.count);
  full.load(0, rows.count);
  return { plain, full };
}

function assertSame(text: string, origin: string): void {
  const { env, start } = startOf({ origin });
  const rows = new RecordRows();
  parseText(text, start, env, rows);
  const { plain, full } = bothWays(rows, env.apex);
  assert.deepEqual(plain.problems(), full.problems(), text);
}

/** A line of the zone changed, as an operator's slip or a later edit would. */
const EDIT = fc.record({
  at: fc.nat(),
  other: fc.nat(),
  kind: fc.constantFrom(
    'drop',
    'double',
    'renumber',
    'repeat-before',
    'move-to-owner',
    'ns-to',
    'cname-at',
    'dname-at',
    'dnskey-at',
    'address-at',
    'target-without-dot',
  ),
});
type Edit = typeof EDIT extends fc.Arbitrary<infer T> ? T : never;

function ownerOf(line: string): string | undefined {
  const m = /^(\S+)\s/.exec(line);
  return m === null || m[1].startsWith('$') ? undefined : m[1];
}

/** The zone's lines with `edits` made, each at a line (and a second line, for owners) of it. */
function edited(text: string, edits: Edit[]): string {
  const lines = text.split('\n');
  const owners = lines.map(ownerOf).filter((o): o is string => o !== undefined);
  for (const { at, other, kind } of edits) {
    const i = at % lines.length;
    const line = lines[i];
    const owner = owners[other % owners.length] ?? '@';
    switch (kind) {
      case 'drop':
        lines.splice(i, 1);
        break;
      case 'double':
        lines.splice(i, 0, line);
        break;
      case 'renumber':
        lines[i] = line.replace(/\b(\d{2,6})\b/, (d) => String(Number(d) + 1));
        break;
      case 'repeat-before':
        if (i > 0) lines.splice(i, 0, lines[i - 1]);
        break;
      case 'move-to-owner':
        if (ownerOf(line) !== undefined) lines[i] = line.replace(/^\S+/, owner);
        break;
      case 'ns-to':
        lines.splice(i, 0, `${ownerOf(line) ?? owner} 3600 IN NS ${owner}`);
        break;
      case 'cname-at':
        lines.splice(i, 0, `${owner} 3600 IN CNAME ${ownerOf(line) ?? '@'}`);
        break;
      case 'dname-at':
        lines.splice(i, 0, `${owner} 3600 IN DNAME elsewhere.test.`);
        break;
      case 'dnskey-at':
        lines.splice(i, 0, `${owner} 3600 IN DNSKEY 256 3 13 AQID`);
        break;
      case 'address-at':
        lines.splice(i, 0, `${owner} 7200 IN A 192.0.2.${other % 256}`);
        break;
      case 'target-without-dot':
        // the origin written out but the final dot left off: the origin comes twice
        lines.splice(i, 0, `${owner} 3600 IN MX 10 mail.${ORIGIN.slice(0, -1)}`);
        break;
    }
  }
  return lines.join('\n');
}

describe('zone checks: owners passed on their cells alone', () => {
  it('give the problems the records give, on generated zones of every mutation', () => {
    for (const mutation of MUTATIONS) {
      for (const seed of [1, 2, 3]) {
        const { text } = generateZone(seeded(seed * 97 + mutation.length), mutation, 8 + seed * 10);
        assertSame(text, ORIGIN);
      }
    }
    for (const seed of [1, 2, 3, 4]) assertSame(generateTypesZone(seed).text, 'diff.test.');
    assertSame(rootLikeZone(80), '.');
  });

  it('give the problems the records give, on zones edited at random', () => {
    const zones = [
      { text: generateZone(seeded(27), 'none', 30).text, origin: ORIGIN },
      { text: rootLikeZone(25), origin: '.' },
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.array(EDIT, { minLength: 1, maxLength: 12 }),
        ({ text, origin }, edits) => assertSame(edited(text, edits), origin),
      ),
      { seed: 2424, numRuns: 300 },
    );
  });

  it('give the problems the records give as a held zone is edited line by line', () => {
    const base = rootLikeZone(12);
    fc.assert(
      fc.property(fc.array(EDIT, { minLength: 1, maxLength: 8 }), (edits) => {
        const document = new ZoneDocument(base, { origin: '.' });
        const { plain, full } = bothWays(document.rows, document.apex);
        for (const edit of edits) {
          // each edit replaces one line of the held text with the lines its change makes
          const lines = base.split('\n');
          const at = edit.at % document.lineCount;
          const replacement = edited(lines[at % lines.length] ?? '', [{ ...edit, at: 0 }]);
          const delta = document.edit(at, Math.min(at + 1, document.lineCount), replacement);
          plain.update(delta);
          full.update(delta);
          assert.deepEqual(plain.problems(), full.problems());
        }
      }),
      { seed: 2427, numRuns: 120 },
    );
  });
});
