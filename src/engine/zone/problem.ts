// A problem found on a record: at the record's range (or a part of it), in the record's file.
import type { SourceRange, ZoneProblem, ZoneRecord } from './types';

export function problem(
  code: string,
  severity: 'error' | 'warning',
  message: string,
  r: ZoneRecord,
  range?: SourceRange,
): ZoneProblem {
  const p: ZoneProblem = { code, severity, message, range: range ?? r.range };
  if (r.file !== undefined) p.file = r.file;
  return p;
}
