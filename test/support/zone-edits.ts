// Random line edits of a zone file as an editor sends them, for the tests that hold the
// incremental session to a fresh parse of the text after the same edits.
import fc from 'fast-check';
import type { ZoneSession } from '../../src/engine/zone/index';

/** Lines [at, at + remove) replaced by `text` (at taken modulo the line count plus one). */
export interface LineEdit {
  at: number;
  remove: number;
  text: string[];
}

/** One to `maxLength` edits, each removing up to two lines and writing up to three of `line`. */
export function lineEdits(line: fc.Arbitrary<string>, maxLength: number): fc.Arbitrary<LineEdit[]> {
  return fc.array(
    fc.record({
      at: fc.nat(),
      remove: fc.nat({ max: 2 }),
      text: fc.array(line, { maxLength: 3 }),
    }),
    { minLength: 1, maxLength },
  );
}

/** Applies the edits to the session and to `lines`; the file's lines after them. */
export function applyLineEdits(session: ZoneSession, lines: string[], edits: LineEdit[]): string[] {
  for (const e of edits) {
    const from = e.at % (lines.length + 1);
    const to = Math.min(lines.length, from + e.remove);
    if (e.text.length === 0 && to === from) continue;
    session.edit(from, to, e.text.join('\n'));
    lines = [...lines.slice(0, from), ...(e.text.length === 0 ? [''] : e.text), ...lines.slice(to)];
  }
  return lines;
}
