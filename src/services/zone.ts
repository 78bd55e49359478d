// Zone files for the command line and the editor: checking a file on disk (its $INCLUDEs read
// relative to it), and the incremental session and drift comparison of the engine, so callers
// above the services never reach into engine/ themselves.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { LookupError } from '../contract/errors';
import {
  guessOrigin,
  loadRows,
  printRecords,
  type DocumentOptions,
  type ZoneProblem,
} from '../engine/zone/index';

export {
  ZoneSession,
  guessOrigin,
  checkZone,
  sortProblems,
  type ZoneProblem,
  type ZoneRecord,
  type ZoneFix,
  type SourceRange,
  type Severity,
  type DocumentOptions,
} from '../engine/zone/index';

/** One problem as the command line prints it: 1-based line and column. */
export interface ZoneCheckProblem {
  line: number;
  column: number;
  code: string;
  severity: 'error' | 'warning';
  message: string;
  /** additive: the included file the problem is in, when it is not the checked file */
  file?: string;
}

export interface ZoneCheckResult {
  origin: string | undefined;
  problems: ZoneCheckProblem[];
  /** with `print`: the records loaded, a master-file line each, as named-compilezone -s full writes them (print.ts) */
  records?: string[];
}

/** The largest file an $INCLUDE reads (a whole signed TLD zone is a few hundred MB: not here). */
export const MAX_INCLUDE_BYTES = 64 * 1024 * 1024;

/**
 * Reads an $INCLUDE relative to the including file (as Knot does; BIND uses its directory).
 * Only a regular file of at most MAX_INCLUDE_BYTES: a device (/dev/zero) never ends and a FIFO
 * blocks the reader forever. Opened non-blocking, so opening a FIFO cannot hang either.
 */
export function readIncludeFromDisk(path: string, from: string | undefined) {
  const full = resolve(from === undefined ? process.cwd() : dirname(from), path);
  const fd = openSync(full, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new Error('not a regular file');
    if (info.size > MAX_INCLUDE_BYTES) {
      throw new Error(`larger than ${MAX_INCLUDE_BYTES / 1024 / 1024} MB`);
    }
    return { path: full, text: readFileSync(fd, 'utf8') };
  } finally {
    closeSync(fd);
  }
}

export function readZoneFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new LookupError('invalid_argument', `cannot read ${file}: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

/** The options a file on disk is parsed with: its origin given or guessed, includes from disk. */
export function fileOptions(file: string, text: string, origin?: string): DocumentOptions {
  const zone = origin ?? guessOrigin(text, file);
  if (zone === undefined) {
    throw new LookupError(
      'invalid_argument',
      `cannot tell which zone ${file} is for: give --origin (no $ORIGIN, absolute SOA owner or zone file name)`,
    );
  }
  return { origin: zone, file: resolve(file), readInclude: readIncludeFromDisk };
}

export function checkZoneFile(file: string, origin?: string, print = false): ZoneCheckResult {
  const text = readZoneFile(file);
  const options = fileOptions(file, text, origin);
  const { problems, rows } = loadRows(text, options);
  const result: ZoneCheckResult = {
    origin: options.origin,
    problems: problems.map(toCheckProblem),
  };
  if (print) {
    const records = [];
    for (let row = 0; row < rows.count; row++) records.push(rows.record(row));
    result.records = printRecords(records);
  }
  return result;
}

export function toCheckProblem(p: ZoneProblem): ZoneCheckProblem {
  const out: ZoneCheckProblem = {
    line: p.range.line + 1,
    column: p.range.start + 1,
    code: p.code,
    severity: p.severity,
    message: p.message,
  };
  if (p.file !== undefined) out.file = p.file;
  return out;
}

// Type-only: the comparison itself (zone-drift.ts) loads the DNS transport, which a check of a
// file does not need.
export type { DriftResult, DriftEntry, ServerSerial } from '../engine/zone/drift';

export { nextSerial } from '../engine/zone/serial';
export { TYPES as RECORD_TYPE_INFO } from '../engine/dns/rdata/types';

export { formatZone } from '../engine/zone/format';
