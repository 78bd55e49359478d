// The one-shot parser's shortcuts (scanEntry's clean entries, plain-record.ts's plain shapes)
// against the full lexer, which takes none: the tests of each shortcut compare both parses.
import assert from 'node:assert/strict';
import { startOf } from '../../src/engine/zone/document';
import { parseText } from '../../src/engine/zone/entry';
import { RecordRows } from '../../src/engine/zone/rows';

/** Every record (as JSON) and problem a parse of `text` gives, with or without the shortcuts. */
export function parsed(text: string, origin: string, fullLexer: boolean) {
  const { env, start } = startOf({ origin });
  const rows = new RecordRows();
  const { problems, ctx } = parseText(text, start, env, rows, { fullLexer });
  const records = [];
  for (let row = 0; row < rows.count; row++) records.push(JSON.stringify(rows.record(row)));
  return { problems, records, ctx };
}

/** Asserts that the shortcuts and the full lexer give the same rows, problems and context. */
export function assertSameParse(text: string, origin: string): void {
  const fast = parsed(text, origin, false);
  const full = parsed(text, origin, true);
  assert.deepEqual(fast.records, full.records, text);
  assert.deepEqual(fast.problems, full.problems, text);
  assert.deepEqual(fast.ctx, full.ctx, text);
}
