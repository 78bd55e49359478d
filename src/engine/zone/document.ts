// A zone file held for re-checking as it is edited. Tokens are cached per line, entries
// (records and directives, parentheses included) are re-parsed only from the edit until the
// parse falls back in step with the old one (same line, same origin/TTL/owner context), and
// the records that changed are handed on as a delta for the checks' indexes.
import { tokenizeLine, type LineTokens } from './lexer';
import { forEachEntry, parseEntry, sameContext, type Context, type EntryEnv } from './entry';
import type { SourceRange, ZoneProblem, ZoneRecord } from './types';

interface Entry {
  first: number;
  last: number;
  ctxIn: Context;
  ctxOut: Context;
  records: ZoneRecord[];
  problems: ZoneProblem[];
  ranges: SourceRange[];
}

export interface RecordDelta {
  removed: ZoneRecord[];
  added: ZoneRecord[];
}

export interface DocumentOptions {
  /** the zone apex, absolute ("example.com."); relative names start from it */
  origin?: string;
  /** the file's path, for $INCLUDE relative to it */
  file?: string;
  readInclude?: EntryEnv['readInclude'];
  /** a $TTL in force before the first line (named-checkzone has none) */
  defaultTtl?: number;
}

export class ZoneDocument {
  private lines: LineTokens[] = [];
  private entries: Entry[] = [];
  private readonly env: EntryEnv;
  private readonly start: Context;

  constructor(text: string, options: DocumentOptions = {}) {
    const { env, start } = startOf(options);
    this.env = env;
    this.start = start;
    this.lines = splitLines(text).map(tokenizeLine);
    this.entries = this.parseFrom(0, this.start, () => false);
  }

  get apex(): string | undefined {
    return this.env.apex;
  }

  get lineCount(): number {
    return this.lines.length;
  }

  records(): ZoneRecord[] {
    const out: ZoneRecord[] = [];
    for (const e of this.entries) for (const r of e.records) out.push(r);
    return out;
  }

  /** Problems of syntax and of single records, in line order. */
  problems(): ZoneProblem[] {
    const out: ZoneProblem[] = [];
    for (const e of this.entries) for (const p of e.problems) out.push(p);
    return out;
  }

  /**
   * Replaces lines [from, to) with the lines of `text` (a single line edit is
   * `edit(n, n + 1, newLine)`) and returns the records that went and came.
   */
  edit(from: number, to: number, text: string): RecordDelta {
    const inserted = splitLines(text).map(tokenizeLine);
    const delta = inserted.length - (to - from);
    this.lines.splice(from, to - from, ...inserted);
    // The first entry that reaches the edit or the line before it (an entry whose "(" was
    // never closed runs to the end of the file and takes in lines added after it).
    let a = lowerBound(this.entries, (e) => e.last >= from - 1);
    const ctx = a > 0 ? this.entries[a - 1].ctxOut : this.start;
    const restart = a < this.entries.length ? Math.min(this.entries[a].first, from) : from;
    const editedEnd = from + inserted.length; // first unedited line, new numbering
    // Old entries wholly after the edit, and where they start now.
    let b = lowerBound(this.entries, (e) => e.first >= to);
    if (b < a) a = b;
    let inStep = false;
    const resync = (first: number, ctxNow: Context): boolean => {
      while (b < this.entries.length && this.entries[b].first + delta < first) b++;
      const old = this.entries[b];
      inStep =
        first >= editedEnd &&
        old !== undefined &&
        old.first + delta === first &&
        sameContext(old.ctxIn, ctxNow);
      return inStep;
    };
    const fresh = this.parseFrom(restart, ctx, resync);
    // Parsed to the end without falling in step: every old entry from `a` on is replaced.
    if (!inStep) b = this.entries.length;
    const removed = this.entries.slice(a, b);
    if (delta !== 0) for (let i = b; i < this.entries.length; i++) shift(this.entries[i], delta);
    this.entries.splice(a, b - a, ...fresh);
    return {
      removed: removed.flatMap((e) => e.records),
      added: fresh.flatMap((e) => e.records),
    };
  }

  /** The text of every line, for callers that want to re-read a range. */
  private parseFrom(
    from: number,
    ctxIn: Context,
    inStep: (first: number, ctx: Context) => boolean,
  ): Entry[] {
    const out: Entry[] = [];
    let ctx = ctxIn;
    forEachEntry(this.lines, from, (first, last) => {
      if (inStep(first, ctx)) return false;
      const parsed = parseEntry(this.lines, first, last, ctx, this.env);
      out.push({
        first,
        last,
        ctxIn: ctx,
        ctxOut: parsed.ctx,
        records: parsed.records,
        problems: parsed.problems,
        ranges: parsed.ranges,
      });
      ctx = parsed.ctx;
      return true;
    });
    return out;
  }
}

/** The environment and context a document's first line is parsed in. */
export function startOf(options: DocumentOptions): { env: EntryEnv; start: Context } {
  const apex = options.origin === undefined ? undefined : absolute(options.origin);
  return {
    env: {
      apex: apex?.toLowerCase(),
      file: options.file,
      fileLabel: undefined,
      readInclude: options.readInclude,
      includeDepth: 0,
    },
    start: {
      origin: apex,
      defaultTtl: options.defaultTtl,
      lastOwner: undefined,
      lastTtl: undefined,
    },
  };
}

function shift(entry: Entry, delta: number): void {
  entry.first += delta;
  entry.last += delta;
  for (const r of entry.ranges) {
    r.line += delta;
    if (r.endLine !== undefined) r.endLine += delta;
  }
}

function lowerBound<T>(items: T[], atOrAfter: (item: T) => boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (atOrAfter(items[mid])) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

function absolute(name: string): string {
  return name.endsWith('.') ? name : `${name}.`;
}
