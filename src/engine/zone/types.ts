// Shapes shared by the zone-file parser, its checks and the drift comparison. Positions are
// zero-based (line, and UTF-16 column as editors count them); `end` is exclusive.

export type Severity = 'error' | 'warning';

export interface SourceRange {
  line: number;
  start: number;
  /** last line of the range (a parenthesised entry spans several); same as `line` when absent */
  endLine?: number;
  end: number;
}

/** A machine-readable edit that resolves a problem: replace `range` with `replacement`. */
export interface ZoneFix {
  title: string;
  range: SourceRange;
  replacement: string;
}

export interface ZoneProblem {
  code: string;
  severity: Severity;
  message: string;
  range: SourceRange;
  /** the file the problem is in when it is not the checked file itself ($INCLUDE) */
  file?: string;
  fix?: ZoneFix;
}

/**
 * One resource record as loaded, with where it came from. The parser gives every record all
 * the fields below, those that do not apply set to undefined (one object shape for them all).
 */
export interface ZoneRecord {
  /** absolute owner in presentation form, as written (escapes kept), with a trailing dot */
  owner: string;
  /** owner folded to lower case: the key for comparisons */
  key: string;
  ttl: number;
  type: string;
  typeCode: number;
  /** the record data in canonical presentation form (names absolute, numbers decimal) */
  data: string;
  /** the record data in canonical wire form (names uncompressed and lower case), hex */
  wire: string;
  /** the name a NS, MX, SRV, CNAME or DNAME record points at (lower-case key) */
  target?: string;
  /** where the record's target name was written, for fixes that rewrite it */
  targetRange?: SourceRange;
  range: SourceRange;
  ownerRange?: SourceRange;
  ttlRange?: SourceRange;
  typeRange: SourceRange;
  file?: string;
  /** SOA fields, for the serial lens and the drift's serial comparison */
  serial?: number;
  serialRange?: SourceRange;
}
