// A zone file held for re-checking as it is edited. It keeps the text of each line, its
// records as rows (rows.ts) and, per entry (a record or a directive, parentheses included),
// where it is, which rows it made and the context it leaves, all in typed arrays: no tokens or
// per-record objects stay alive between edits. An edit re-tokenises and re-parses entries only
// from the edit until the parse falls back in step with the old one (same line, same
// origin/TTL/owner context), and hands the rows that went and came to the checks as a delta.
import { isNameError, parseName } from '../dns/names';
import { tokenizeLine, type LineTokens } from './lexer';
import { EntryReader, sameContext, type Context, type EntryEnv } from './entry';
import { LineStore } from './lines';
import { RecordRows } from './rows';
import type { SourceRange, ZoneProblem, ZoneRecord } from './types';

/** Rows that went and came (ids in the document's rows). */
export interface RecordDelta {
  removed: number[];
  added: number[];
}

export interface DocumentOptions {
  /** the zone apex, absolute ("example.com."); relative names start from it */
  origin?: string;
  /** the file's path, for $INCLUDE relative to it */
  file?: string;
  readInclude?: EntryEnv['readInclude'];
  /** records $INCLUDE and $GENERATE may bring the zone to; default MAX_EXPANDED_RECORDS */
  maxExpandedRecords?: number;
  /** a $TTL in force before the first line (named-checkzone has none) */
  defaultTtl?: number;
}

/** An entry just parsed, before it joins the table. */
interface FreshEntry {
  first: number;
  last: number;
  rowStart: number;
  rowEnd: number;
  ctx: Context;
  problems: ZoneProblem[] | undefined;
}

// The cells of an entry.
const FIRST = 0;
const LAST = 1;
const ROW_START = 2;
const ROW_END = 3;
const ORIGIN = 4; // the context after the entry: names as ids in the rows' names, -1 for none
const LAST_OWNER = 5;
const WIDTH = 6;

/** The entries of a document in line order, as columns; the context's TTLs apart (unsigned). */
class EntryTable {
  cells: Int32Array = new Int32Array(WIDTH * 256);
  /** $TTL and last TTL after each entry, NaN for none */
  ttls: Float64Array = new Float64Array(2 * 256);
  problems: (ZoneProblem[] | undefined)[] = [];
  count = 0;

  first(i: number): number {
    return this.cells[i * WIDTH + FIRST];
  }
  last(i: number): number {
    return this.cells[i * WIDTH + LAST];
  }
  rowStart(i: number): number {
    return this.cells[i * WIDTH + ROW_START];
  }
  rowEnd(i: number): number {
    return this.cells[i * WIDTH + ROW_END];
  }

  ctxOut(i: number, rows: RecordRows): Context {
    const c = this.cells;
    const names = rows.names.text;
    const origin = c[i * WIDTH + ORIGIN];
    const lastOwner = c[i * WIDTH + LAST_OWNER];
    const defaultTtl = this.ttls[2 * i];
    const lastTtl = this.ttls[2 * i + 1];
    return {
      origin: origin === -1 ? undefined : names[origin],
      defaultTtl: Number.isNaN(defaultTtl) ? undefined : defaultTtl,
      lastOwner: lastOwner === -1 ? undefined : names[lastOwner],
      lastTtl: Number.isNaN(lastTtl) ? undefined : lastTtl,
    };
  }

  /** Replaces entries [a, b) with `fresh`. */
  splice(a: number, b: number, fresh: FreshEntry[], rows: RecordRows): void {
    const count = this.count - (b - a) + fresh.length;
    this.ensure(count);
    const shift = fresh.length - (b - a);
    if (shift !== 0) {
      this.cells.copyWithin((b + shift) * WIDTH, b * WIDTH, this.count * WIDTH);
      this.ttls.copyWithin((b + shift) * 2, b * 2, this.count * 2);
    }
    this.problems.splice(a, b - a, ...fresh.map((e) => e.problems));
    for (let k = 0; k < fresh.length; k++) this.set(a + k, fresh[k], rows);
    this.count = count;
  }

  /** Appends one entry (the first parse of a document). */
  push(e: FreshEntry, rows: RecordRows): void {
    this.ensure(this.count + 1);
    this.problems.push(e.problems);
    this.set(this.count++, e, rows);
  }

  private set(i: number, e: FreshEntry, rows: RecordRows): void {
    const c = this.cells;
    const base = i * WIDTH;
    c[base + FIRST] = e.first;
    c[base + LAST] = e.last;
    c[base + ROW_START] = e.rowStart;
    c[base + ROW_END] = e.rowEnd;
    c[base + ORIGIN] = e.ctx.origin === undefined ? -1 : rows.names.id(e.ctx.origin);
    c[base + LAST_OWNER] = e.ctx.lastOwner === undefined ? -1 : rows.names.id(e.ctx.lastOwner);
    this.ttls[2 * i] = e.ctx.defaultTtl ?? Number.NaN;
    this.ttls[2 * i + 1] = e.ctx.lastTtl ?? Number.NaN;
  }

  private ensure(count: number): void {
    if (count * WIDTH <= this.cells.length) return;
    const size = Math.max(count, this.cells.length / WIDTH) * 2;
    const cells = new Int32Array(size * WIDTH);
    cells.set(this.cells);
    this.cells = cells;
    const ttls = new Float64Array(size * 2);
    ttls.set(this.ttls);
    this.ttls = ttls;
  }

  /** Moves entry i and what it holds by `delta` lines. */
  shift(i: number, delta: number, rows: RecordRows): void {
    const base = i * WIDTH;
    this.cells[base + FIRST] += delta;
    this.cells[base + LAST] += delta;
    rows.shiftLines(this.cells[base + ROW_START], this.cells[base + ROW_END], delta);
    const problems = this.problems[i];
    if (problems !== undefined) shiftProblems(problems, delta);
  }

  /** Entry indexes [0, count) whose `test` holds from some index on: the first such. */
  lowerBound(atOrAfter: (i: number) => boolean): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (atOrAfter(mid)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

export class ZoneDocument {
  private lines: LineStore;
  private entries = new EntryTable();
  private readonly env: EntryEnv;
  private readonly start: Context;
  /** the records; replaced by a compact copy when dead rows outnumber live ones */
  rows = new RecordRows();

  constructor(text: string, options: DocumentOptions = {}) {
    const { env, start } = startOf(options);
    this.env = env;
    this.start = start;
    this.lines = new LineStore(text);
    this.parseFrom(
      0,
      this.start,
      () => false,
      (e) => this.entries.push(e, this.rows),
    );
  }

  get apex(): string | undefined {
    return this.env.apex;
  }

  get lineCount(): number {
    return this.lines.length;
  }

  /** Every live row, in document order. */
  rowIds(): number[] {
    const out: number[] = [];
    const { entries } = this;
    for (let i = 0; i < entries.count; i++) {
      for (let r = entries.rowStart(i); r < entries.rowEnd(i); r++) out.push(r);
    }
    return out;
  }

  records(): ZoneRecord[] {
    return this.rowIds().map((row) => this.rows.record(row));
  }

  /**
   * The records of the checked file (not of included ones) whose extent meets lines
   * [from, to], in file order: the entries there are found by binary search, so a question at
   * a position costs the records on its lines, not one object per record of the zone.
   */
  recordsOnLines(from: number, to: number): ZoneRecord[] {
    const { entries, rows } = this;
    const out: ZoneRecord[] = [];
    let i = entries.lowerBound((e) => entries.last(e) >= from);
    for (; i < entries.count && entries.first(i) <= to; i++) {
      for (let r = entries.rowStart(i); r < entries.rowEnd(i); r++) {
        if (rows.inTopFile(r) && rows.line(r) <= to && rows.endLine(r) >= from) {
          out.push(rows.record(r));
        }
      }
    }
    return out;
  }

  /** The records of any of the type codes, in file order. */
  recordsOfTypes(codes: readonly number[]): ZoneRecord[] {
    return this.recordsWhere((row) => codes.includes(this.rows.typeCode(row)));
  }

  /** The records whose target (NS, MX, CNAME, SRV…) is the name `key` (lower case), in file order. */
  recordsPointingAt(key: string): ZoneRecord[] {
    const id = this.rows.names.find(key);
    return id === -1 ? [] : this.recordsWhere((row) => this.rows.target(row) === id);
  }

  /** The records of the checked file written over more than one line, in file order. */
  multiLineRecords(): ZoneRecord[] {
    const { rows } = this;
    return this.recordsWhere((row) => rows.inTopFile(row) && rows.endLine(row) !== rows.line(row));
  }

  /** The live rows for which `test` holds, each made a record; the others stay cells. */
  private recordsWhere(test: (row: number) => boolean): ZoneRecord[] {
    const { entries, rows } = this;
    const out: ZoneRecord[] = [];
    for (let i = 0; i < entries.count; i++) {
      for (let r = entries.rowStart(i); r < entries.rowEnd(i); r++) {
        if (test(r)) out.push(rows.record(r));
      }
    }
    return out;
  }

  /** Problems of syntax and of single records, in line order. */
  problems(): ZoneProblem[] {
    const out: ZoneProblem[] = [];
    for (const list of this.entries.problems)
      if (list !== undefined) for (const p of list) out.push(p);
    return out;
  }

  /**
   * Replaces lines [from, to) with the lines of `text` (a single line edit is
   * `edit(n, n + 1, newLine)`) and returns the rows that went and came.
   */
  edit(from: number, to: number, text: string): RecordDelta & { shiftFrom: number; shift: number } {
    const { entries, rows } = this;
    const inserted = splitLines(text);
    const delta = inserted.length - (to - from);
    this.lines.splice(from, to, inserted);
    // The first entry that reaches the edit or the line before it (an entry whose "(" was
    // never closed runs to the end of the file and takes in lines added after it).
    let a = entries.lowerBound((i) => entries.last(i) >= from - 1);
    const ctx = a > 0 ? entries.ctxOut(a - 1, rows) : this.start;
    const restart = a < entries.count ? Math.min(entries.first(a), from) : from;
    const editedEnd = from + inserted.length; // first unedited line, new numbering
    // Old entries wholly after the edit, and where they start now.
    let b = entries.lowerBound((i) => entries.first(i) >= to);
    if (b < a) a = b;
    let inStep = false;
    const resync = (first: number, ctxNow: Context): boolean => {
      while (b < entries.count && entries.first(b) + delta < first) b++;
      inStep =
        first >= editedEnd &&
        b < entries.count &&
        entries.first(b) + delta === first &&
        sameContext(b > 0 ? entries.ctxOut(b - 1, rows) : this.start, ctxNow);
      return inStep;
    };
    const fresh: FreshEntry[] = [];
    this.parseFrom(restart, ctx, resync, (e) => fresh.push({ ...e, ctx: { ...e.ctx } }));
    // Parsed to the end without falling in step: every old entry from `a` on is replaced.
    if (!inStep) b = entries.count;
    const removed: number[] = [];
    for (let i = a; i < b; i++) {
      for (let r = entries.rowStart(i); r < entries.rowEnd(i); r++) {
        rows.kill(r);
        removed.push(r);
      }
    }
    if (delta !== 0) for (let i = b; i < entries.count; i++) entries.shift(i, delta, rows);
    entries.splice(a, b, fresh, rows);
    const added: number[] = [];
    for (const e of fresh) for (let r = e.rowStart; r < e.rowEnd; r++) added.push(r);
    return { removed, added, shiftFrom: to, shift: delta };
  }

  /** Whether the dead rows of past edits outnumber the live ones. */
  get wasteful(): boolean {
    return this.rows.dead > 4096 && this.rows.dead > this.rows.count - this.rows.dead;
  }

  /**
   * Copies the live rows into a new table, in document order, and the lines into one text (the
   * edited lines' strings go); callers re-index the rows.
   */
  compact(): void {
    const { entries } = this;
    const table = this.rows.compacted(this.rowIds());
    // the rows come in entry order: each entry's are the next ones
    let next = 0;
    for (let i = 0; i < entries.count; i++) {
      const base = i * WIDTH;
      const length = entries.rowEnd(i) - entries.rowStart(i);
      entries.cells[base + ROW_START] = next;
      entries.cells[base + ROW_END] = next + length;
      next += length;
      // the context's names are ids in the old names: carried over by their text
      for (const cell of [ORIGIN, LAST_OWNER]) {
        const id = entries.cells[base + cell];
        if (id !== -1) entries.cells[base + cell] = table.names.id(this.rows.names.text[id]);
      }
    }
    this.rows = table;
    this.lines = this.lines.rebased();
  }

  /**
   * Parses entries from line `from` in context `ctxIn`, tokenising each line as it comes to it
   * (only the lines of the entry at hand are held), until `inStep` says the parse is back in
   * step with the old one. `emit` gets each entry, its context live (copied by a caller that
   * keeps it).
   */
  private parseFrom(
    from: number,
    ctxIn: Context,
    inStep: (first: number, ctx: Context) => boolean,
    emit: (entry: FreshEntry) => void,
  ): void {
    const reader = new EntryReader(this.env, ctxIn, this.rows);
    const { lines } = this;
    const pending: LineTokens[] = [];
    let i = from;
    while (i < lines.length) {
      const head = tokenizeLine(lines.get(i));
      if (head.tokens.length === 0 && head.error === undefined) {
        i++;
        continue;
      }
      if (inStep(i, reader.ctx)) break;
      // The entry runs to the line that closes its parentheses (or to the end of the text).
      pending.length = 0;
      pending.push(head);
      let depth = parenthesisDepth(head, 0);
      let last = i;
      while (depth > 0 && last + 1 < lines.length) {
        const next = tokenizeLine(lines.get(++last));
        pending.push(next);
        depth = parenthesisDepth(next, depth);
      }
      const rowStart = this.rows.count;
      const problems = reader.read(pending, i, last, i);
      emit({ first: i, last, rowStart, rowEnd: this.rows.count, ctx: reader.ctx, problems });
      i = last + 1;
    }
  }
}

function parenthesisDepth(line: LineTokens, depth: number): number {
  for (const t of line.tokens) {
    if (t.kind === 'open') depth++;
    else if (t.kind === 'close') depth = Math.max(0, depth - 1);
  }
  return depth;
}

/** Moves the problems of the checked file by `delta` lines (each range object once). */
export function shiftProblems(problems: Iterable<ZoneProblem>, delta: number): void {
  const moved = new Set<SourceRange>();
  const move = (r: SourceRange) => {
    if (moved.has(r)) return;
    moved.add(r);
    r.line += delta;
    if (r.endLine !== undefined) r.endLine += delta;
  };
  for (const p of problems) {
    if (p.file !== undefined) continue;
    move(p.range);
    if (p.fix !== undefined) move(p.fix.range);
  }
}

/** The environment and context a document's first line is parsed in. */
export function startOf(options: DocumentOptions): { env: EntryEnv; start: Context } {
  const apex = options.origin === undefined ? undefined : absolute(options.origin);
  return {
    env: {
      apex: apex === undefined ? undefined : keyOf(apex),
      file: options.file,
      fileLabel: undefined,
      readInclude: options.readInclude,
      includeDepth: 0,
      ...(options.maxExpandedRecords !== undefined
        ? { maxExpandedRecords: options.maxExpandedRecords }
        : {}),
    },
    start: {
      origin: apex,
      defaultTtl: options.defaultTtl,
      lastOwner: undefined,
      lastTtl: undefined,
    },
  };
}

function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

function absolute(name: string): string {
  return name.endsWith('.') ? name : `${name}.`;
}

/** An absolute name's key, the form records' keys are compared in (`\065` is `a`). */
function keyOf(name: string): string {
  const parsed = parseName(name, undefined);
  return isNameError(parsed) ? name.toLowerCase() : parsed.key;
}
