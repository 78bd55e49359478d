// Find host names, IP addresses, URLs and e-mail addresses in a line of text, for hovers and
// "look up at cursor". Pure: no VS Code, no I/O. The rules are documented where they live:
// hostname.ts (what counts as a host name), contexts.ts (code, configs, Markdown links),
// scan.ts (prose and punctuation), zone.ts (zone files).
import { scanLine } from './scan';
import type { DetectContext, Detected } from './types';
import { detectZoneLine } from './zone';

export type { DetectContext, Detected, DetectedKind } from './types';
export { zoneOriginAt } from './zone';
export {
  looksLikeZoneFile,
  originFromFileName,
  isZoneFileNameCandidate,
  ZONE_FIRST_LINE_PATTERN,
} from './zone-file';

/** Beyond this many characters (minified files) a line is not searched further. */
export const MAX_SCANNED_CHARS = 20_000;

export function detectInLine(line: string, context: DetectContext = {}): Detected[] {
  const text = line.length > MAX_SCANNED_CHARS ? line.slice(0, MAX_SCANNED_CHARS) : line;
  if (context.languageId === 'dns-zone') return detectZoneLine(text, context.origin);
  return scanLine(text, context.languageId);
}

/**
 * The item under the cursor: `character` may be anywhere from its first character to just
 * after its last (where the cursor sits after typing it); inside wins over just-after.
 */
export function detectAt(
  line: string,
  character: number,
  context: DetectContext = {},
): Detected | undefined {
  const items = detectInLine(line, context);
  return (
    items.find((d) => d.start <= character && character < d.end) ??
    items.find((d) => d.end === character)
  );
}
