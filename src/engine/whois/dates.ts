// WHOIS dates come in dozens of registry-specific spellings. Everything is turned into one
// instant, written as ISO 8601 UTC without fractions (the contract's `2024-01-02T03:04:05Z`).
// A spelling that cannot be read is left out rather than guessed.

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

// Optional time of day (with an optional 'T', a stray '-T' as some registrars write, and
// fractions), then an optional zone: Z, UTC/GMT, +hh:mm / +hhmm / +hh, or "(UTC+8)" / "(GMT+0:00)".
const TIME = String.raw`(?:-?[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?`;
const ZONE = String.raw`\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?\s*(?:\((?:UTC|GMT)?\s*([+-]\d{1,2}(?::?\d{2})?)?\))?`;

const ISO_LIKE = new RegExp(String.raw`^(\d{4})-(\d{1,2})-(\d{1,2})${TIME}${ZONE}$`, 'i');
const YMD_DOTS = new RegExp(
  String.raw`^(\d{4})[./]\s*(\d{1,2})[./]\s*(\d{1,2})\.?${TIME}${ZONE}$`,
  'i',
);
const DMY_NUM = new RegExp(String.raw`^(\d{1,2})([./-])(\d{1,2})\2(\d{4})${TIME}${ZONE}$`, 'i');
const DMY_TEXT = new RegExp(
  String.raw`^(?:[a-z]{3},?\s+)?(\d{1,2})[-\s]([a-z]{3})[a-z]*\.?[-\s,]+(\d{4})${TIME}${ZONE}$`,
  'i',
);
const MDY_TEXT = new RegExp(
  String.raw`^(?:[a-z]{3},?\s+)?([a-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})${TIME}${ZONE}$`,
  'i',
);
// "Tue Mar 03 12:00:00 GMT 2020" (ctime order, used by a few registrars)
const CTIME =
  /^[a-z]{3}\s+([a-z]{3})\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s+(?:[a-z]{3,4}\s+)?(\d{4})$/i;

export function normalizeDate(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  // "(YYYY-MM-DD)" is a format hint some registries append; trailing dots and spaces are noise.
  const s = raw
    .replace(/\(\s*y{4}-m{2}-d{2}\s*\)/i, '')
    .trim()
    .replace(/\s+/g, ' ');
  if (s === '') return undefined;
  let m = ISO_LIKE.exec(s);
  if (m) return build(+m[1], +m[2], +m[3], m[4], m[5], m[6], m[7], m[8]);
  m = YMD_DOTS.exec(s);
  if (m) return build(+m[1], +m[2], +m[3], m[4], m[5], m[6], m[7], m[8]);
  m = DMY_NUM.exec(s);
  if (m) {
    let day = +m[1];
    let month = +m[3];
    // Slashes are the one ambiguous spelling: read day first unless that cannot be a date.
    if (m[2] === '/' && month > 12 && day <= 12) [day, month] = [month, day];
    return build(+m[4], month, day, m[5], m[6], m[7], m[8], m[9]);
  }
  m = DMY_TEXT.exec(s);
  if (m) return build(+m[3], MONTHS[m[2].toLowerCase()], +m[1], m[4], m[5], m[6], m[7], m[8]);
  m = MDY_TEXT.exec(s);
  if (m) return build(+m[3], MONTHS[m[1].toLowerCase()], +m[2], m[4], m[5], m[6], m[7], m[8]);
  m = CTIME.exec(s);
  if (m) return build(+m[6], MONTHS[m[1].toLowerCase()], +m[2], m[3], m[4], m[5], 'Z');
  return undefined;
}

function build(
  year: number,
  month: number | undefined,
  day: number,
  hh?: string,
  mm?: string,
  ss?: string,
  zone?: string,
  parenZone?: string,
): string | undefined {
  if (month === undefined || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const h = hh === undefined ? 0 : +hh;
  const mi = mm === undefined ? 0 : +mm;
  const se = ss === undefined ? 0 : +ss;
  if (h > 24 || mi > 59 || se > 60) return undefined;
  const offset = offsetMinutes(parenZone ?? zone);
  if (offset === undefined) return undefined;
  const ms = Date.UTC(year, month - 1, day, h, mi, se);
  // Date.UTC rolls 31 February over into March; such a date is not a date.
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return undefined;
  return new Date(ms - offset * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function offsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || /^(z|utc|gmt)$/i.test(zone)) return 0;
  const m = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(zone);
  if (!m) return undefined;
  const minutes = +m[2] * 60 + (m[3] === undefined ? 0 : +m[3]);
  if (minutes > 14 * 60) return undefined;
  return m[1] === '-' ? -minutes : minutes;
}
