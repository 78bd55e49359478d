// TTLs as BIND and Knot read them: seconds, or units (RFC 2308 section 4 leaves the syntax to
// implementations; both accept 1w2d3h4m5s, any case, each unit at most once in practice).
const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };
export const MAX_TTL = 4294967295;

/** Seconds per unit letter, by lower-case char code. */
function unitSeconds(c: number): number | undefined {
  return UNITS[String.fromCharCode(c | 0x20)];
}

/**
 * Plain seconds (digits only) or units (`1h30m`: digits then a unit letter, repeated; no
 * digits after the last unit). Read by char code: every record's TTL goes through here.
 */
export function parseTtl(text: string): number | undefined {
  const ttl = ttlIn(text, 0, text.length);
  return ttl < 0 ? undefined : ttl;
}

/** parseTtl of text[from, end), or -1 when it is not a TTL (the zone parser reads it in place). */
export function ttlIn(text: string, from: number, end: number): number {
  if (end <= from) return -1;
  let total = 0;
  let value = 0;
  let digits = 0;
  let units = false;
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      value = value * 10 + (c - 0x30);
      digits++;
      continue;
    }
    const unit = c < 0x80 ? unitSeconds(c) : undefined;
    if (unit === undefined || digits === 0) return -1;
    total += value * unit;
    value = 0;
    digits = 0;
    units = true;
  }
  if (digits > 0) {
    if (units) return -1;
    total = value;
  }
  return total <= MAX_TTL ? total : -1;
}

/** Whether a token reads as a TTL (so it is not an owner, class or type). */
export function looksLikeTtl(text: string): boolean {
  const c = text.charCodeAt(0);
  return c >= 0x30 && c <= 0x39 && parseTtl(text) !== undefined;
}
