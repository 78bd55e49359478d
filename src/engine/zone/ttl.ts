// TTLs as BIND and Knot read them: seconds, or units (RFC 2308 section 4 leaves the syntax to
// implementations; both accept 1w2d3h4m5s, any case, each unit at most once in practice).
const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };
export const MAX_TTL = 4294967295;

export function parseTtl(text: string): number | undefined {
  if (/^\d+$/.test(text)) {
    const v = Number(text);
    return v <= MAX_TTL ? v : undefined;
  }
  if (!/^(?:\d+[smhdwSMHDW])+$/.test(text)) return undefined;
  let total = 0;
  for (const m of text.matchAll(/(\d+)([smhdwSMHDW])/g)) {
    total += Number(m[1]) * UNITS[m[2].toLowerCase()];
  }
  return total <= MAX_TTL ? total : undefined;
}

/** Whether a token reads as a TTL (so it is not an owner, class or type). */
export function looksLikeTtl(text: string): boolean {
  const c = text.charCodeAt(0);
  return c >= 0x30 && c <= 0x39 && parseTtl(text) !== undefined;
}
