export type DetectedKind = 'hostname' | 'ip' | 'url' | 'email';

export type Detected = {
  kind: DetectedKind;
  /** Exactly `line.slice(start, end)`. */
  text: string;
  /**
   * What to look up: the lower-case hostname without trailing dot (a leading "*." kept, a
   * zone-relative name completed with the origin), the IP address (no brackets, port or
   * zone id), the URL as written, or for an e-mail address its lower-case domain.
   */
  value: string;
  /** UTF-16 offsets into the line, end exclusive. */
  start: number;
  end: number;
};

export interface DetectContext {
  /** VS Code language id; code languages only look inside strings and comments. */
  languageId?: string;
  /** For zone files: the $ORIGIN in effect at this line, e.g. "example.com." */
  origin?: string;
}

export type Span = { start: number; end: number };
