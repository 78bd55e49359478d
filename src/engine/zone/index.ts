// The zone-file engine: parse, check, and keep checking as the text changes.
import { basename } from 'node:path';
import { startOf, ZoneDocument, type DocumentOptions, type RecordDelta } from './document';
import { ZoneChecks } from './checks';
import { tokenizeLine } from './lexer';
import { parseText } from './entry';
import { RecordRows, roomFor } from './rows';
import { typeCode } from '../dns/rdata/types';
import type { ZoneProblem, ZoneRecord } from './types';

export type { ZoneProblem, ZoneRecord, ZoneFix, SourceRange, Severity } from './types';
export type { DocumentOptions, RecordDelta } from './document';

/**
 * A zone file and its problems, updated edit by edit. The document holds the records (as rows)
 * and the checks index those same rows: there is no second copy of the zone.
 */
export class ZoneSession {
  readonly document: ZoneDocument;
  private checks: ZoneChecks;

  constructor(text: string, options: DocumentOptions = {}) {
    this.document = new ZoneDocument(text, options);
    this.checks = new ZoneChecks(this.document.rows, this.document.apex);
    this.checks.load(0, this.document.rows.count);
  }

  /** Replaces lines [from, to) with `text` and re-checks what that can affect. */
  edit(from: number, to: number, text: string): RecordDelta {
    const delta = this.document.edit(from, to, text);
    if (this.document.wasteful) {
      // Rows of past edits outnumber the live ones: copied compact and indexed afresh.
      this.document.compact();
      this.checks = new ZoneChecks(this.document.rows, this.document.apex);
      this.checks.load(0, this.document.rows.count);
    } else {
      this.checks.update(delta);
    }
    return delta;
  }

  /** Every record, each an object made for the caller, in file order. */
  records(): ZoneRecord[] {
    return this.document.records();
  }

  /** The records of an owner (a lower-case key), made for the caller. */
  recordsAt(key: string): ZoneRecord[] {
    return this.checks.recordsAt(key);
  }

  // The narrow questions an editor asks: each makes records only of the rows it answers with,
  // not one object per record of the zone (records() does that, for callers that need all).

  /** The records of the file itself (not of its includes) that meet lines [from, to], in file order. */
  recordsOnLines(from: number, to: number): ZoneRecord[] {
    return this.document.recordsOnLines(from, to);
  }

  /** The records of the types named (mnemonics), in file order. */
  recordsOfTypes(...types: string[]): ZoneRecord[] {
    const codes = types.map((t) => typeCode(t)).filter((c) => c !== undefined);
    return this.document.recordsOfTypes(codes);
  }

  /** The records that point at the name `key` (lower case) as their target, in file order. */
  recordsPointingAt(key: string): ZoneRecord[] {
    return this.document.recordsPointingAt(key);
  }

  /** The records of the file itself written over more than one line, in file order. */
  multiLineRecords(): ZoneRecord[] {
    return this.document.multiLineRecords();
  }

  /** Syntax and record problems, then the zone's, in position order. */
  problems(): ZoneProblem[] {
    return sortProblems([...this.document.problems(), ...this.checks.problems()]);
  }
}

export function sortProblems(problems: ZoneProblem[]): ZoneProblem[] {
  return problems.sort(
    (a, b) =>
      (a.file ?? '').localeCompare(b.file ?? '') ||
      a.range.line - b.range.line ||
      a.range.start - b.range.start,
  );
}

/**
 * One-shot: every problem of a zone text, the same list a ZoneSession gives. It parses with
 * the same entry parser but keeps no per-line tokens or entries for re-checks, so a large file
 * makes far less long-lived garbage.
 */
export function checkZone(text: string, options: DocumentOptions = {}): ZoneProblem[] {
  return loadRows(text, options).problems;
}

/** One-shot, as checkZone: the problems, and the records as loaded. */
export function loadZone(
  text: string,
  options: DocumentOptions = {},
): { problems: ZoneProblem[]; records: ZoneRecord[] } {
  const { problems, rows } = loadRows(text, options);
  const records: ZoneRecord[] = [];
  for (let row = 0; row < rows.count; row++) records.push(rows.record(row));
  return { problems, records };
}

/** One-shot: the problems, and the records as rows (no object per record). */
export function loadRows(
  text: string,
  options: DocumentOptions = {},
): { problems: ZoneProblem[]; rows: RecordRows } {
  const { env, start } = startOf(options);
  const rows = new RecordRows(roomFor(text.length));
  const parsed = parseText(text, start, env, rows);
  const checks = new ZoneChecks(rows, env.apex);
  checks.load(0, rows.count);
  return { problems: sortProblems([...parsed.problems, ...checks.problems()]), rows };
}

export { printRecords } from './print';

/**
 * The zone a file is for when no origin is given: its first $ORIGIN before any record, else
 * the absolute owner of its SOA, else the file name ("example.com.zone", "db.example.com").
 */
export function guessOrigin(text: string, fileName?: string): string | undefined {
  for (const line of text.split(/\r?\n/, 2000)) {
    const { tokens, leadingBlank } = tokenizeLine(line);
    if (tokens.length === 0) continue;
    const head = tokens[0].text;
    if (/^\$ORIGIN$/i.test(head) && tokens[1]?.text.endsWith('.')) return tokens[1].text;
    if (head.startsWith('$')) continue;
    // The first record decides: an SOA with an absolute owner names the zone.
    if (!leadingBlank && head.endsWith('.') && tokens.some((t) => /^SOA$/i.test(t.text))) {
      return head;
    }
    break;
  }
  if (fileName === undefined) return undefined;
  const name = basename(fileName)
    .replace(/^db\./i, '')
    .replace(/\.(zone|db|txt)$/i, '');
  return /^[A-Za-z0-9_.-]+$/.test(name) && name.includes('.') ? `${name}.` : undefined;
}
