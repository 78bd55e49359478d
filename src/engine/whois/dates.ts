// WHOIS dates come in dozens of registry-specific spellings. Everything is turned into one
// instant, written as ISO 8601 UTC without fractions (the contract's `2024-01-02T03:04:05Z`).
// A spelling that cannot be read is left out rather than guessed. The names it reads (months,
// zones) are in tables/date-names.ts.
import { MONTH_NAMES, ZONE_NAMES as zoneNames } from './tables/date-names';

// Bound once: run from sources transpiled file by file (tsx, mocha), an imported name is read
// through an export getter at every use (see reader.ts); a zone is looked up for most dates.
const ZONE_NAMES = zoneNames;

const MONTHS = new Map<string, number>();
{
  const seen = new Map<string, number>();
  MONTH_NAMES.forEach((names, i) => {
    for (const name of names) {
      MONTHS.set(name, i + 1);
      for (let n = 3; n < name.length; n++) {
        const prefix = name.slice(0, n);
        const was = seen.get(prefix);
        seen.set(prefix, was === undefined || was === i + 1 ? i + 1 : -1);
      }
    }
  });
  for (const [prefix, month] of seen)
    if (month > 0 && !MONTHS.has(prefix)) MONTHS.set(prefix, month);
}

/**
 * MONTHS' names of three ASCII letters, by their letters (a-z as 0-25, packed base 26): what
 * monthNumber answers for such a name, looked up from code units without making a string.
 */
const MONTHS_OF_THREE = new Int8Array(26 * 26 * 26);
for (const [name, month] of MONTHS) {
  if (/^[a-z]{3}$/.test(name))
    MONTHS_OF_THREE[threeLetters(name.charCodeAt(0), name.charCodeAt(1), name.charCodeAt(2))] =
      month;
}

/** Three ASCII letters (either case) as an index of MONTHS_OF_THREE. */
function threeLetters(a: number, b: number, c: number): number {
  return ((a | 32) - 97) * 676 + ((b | 32) - 97) * 26 + ((c | 32) - 97);
}

function monthNumber(name: string): number | undefined {
  // One final dot ("Aug."), cut without a regex: this runs for most dates written with a name.
  const lower = name.toLowerCase();
  return MONTHS.get(lower.endsWith('.') ? lower.slice(0, -1) : lower);
}

// Optional time of day (with an optional 'T', a stray '-T' as some registrars write, and
// fractions), then an optional zone: Z, a zone name, +hh:mm / +hhmm / +hh, or in parentheses
// "(UTC+8)", "(GMT+0:00)", "(JST)".
const TIME = String.raw`(?:-?[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?`;
const ZONE = String.raw`\s*([+-]\d{2}(?::?\d{2})?|[a-z]{1,5})?\s*(?:\((?:UTC|GMT)?\s*([+-]\d{1,2}(?::?\d{2})?)?\)|\(([a-z]{2,5})\))?`;

const ISO_LIKE = new RegExp(String.raw`^(\d{4})-(\d{1,2})-(\d{1,2})${TIME}${ZONE}$`, 'i');
const YMD_DOTS = new RegExp(
  String.raw`^(\d{4})[./]\s*(\d{1,2})[./]\s*(\d{1,2})\.?${TIME}${ZONE}$`,
  'i',
);
const DMY_NUM = new RegExp(String.raw`^(\d{1,2})([./-])(\d{1,2})\2(\d{4})${TIME}${ZONE}$`, 'i');
// A weekday before a date (read, not checked): English, French, Spanish, Portuguese, Italian,
// German and Dutch names and abbreviations. Only these: "before 1 January 1996" is no date.
const WEEKDAY = String.raw`(?:(?:mon|tue|wed|thu|fri|sat|sun|lun|mar|mer|mi[eé]|jeu|jue|ven|vie|sam|s[aá]b|dim|dom|seg|ter|qua|qui|sex|gio|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag)\p{L}*\.?,?\s+)?`;
// "7th November 2003", "23 de agosto de 2012", "3. März 2010", "Friday, 7 Nov 2003 10:00 EAT"
const DMY_TEXT = new RegExp(
  String.raw`^${WEEKDAY}(\d{1,2})(?:st|nd|rd|th|\.)?(?:[-\s/]+|\s+de\s+)(\p{L}+\.?)(?:[-\s,/]+|\s+de\s+)(\d{4})${TIME}${ZONE}$`,
  'iu',
);
// "November 7, 2003", "Nov 7th 2003 10:00 GMT"
const MDY_TEXT = new RegExp(
  String.raw`^${WEEKDAY}(\p{L}+\.?)\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})${TIME}${ZONE}$`,
  'iu',
);
// Year first with a month name: "2001-Aug-23" (TRABIS, with a final dot), "2003 November 7"
const YMD_TEXT = new RegExp(
  String.raw`^(\d{4})[-\s/.]+(\p{L}+)\.?[-\s/.]+(\d{1,2})\.?${TIME}${ZONE}$`,
  'iu',
);
// ctime order, with or without the weekday and zone: "Tue Mar 03 12:00:00 GMT 2020",
// "Mar 25 01:57:22 PDT 2009"
const CTIME =
  /^(?:[a-z]{3}\s+)?([a-z]{3})\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s+(?:([a-z]{1,5})\s+)?(\d{4})$/i;
// YYYYMMDD, maybe with a time in any compact spelling and a zone: "20140921",
// "20020903000000", "20230303 09:38:55", "20230303T093855Z", "20230303 0938 +0100"
const COMPACT = new RegExp(
  String.raw`^(\d{4})(\d{2})(\d{2})(?:[T\s]?(\d{2}):?(\d{2})(?::?(\d{2})(?:[.,]\d+)?)?)?${ZONE}$`,
  'i',
);
// What may stand around a date in one value and is not part of it: the handle or address of
// who changed it before ("cm@nic.priv.at 20021013", "EIC-UANIC 20120730164230"), a "#serial"
// after, quotes around.
const LEADING_ID = /^(?:\S*@\S+|[a-z0-9]+(?:-[a-z0-9]+)+)\s+(?=\d)/i;
const TRAILING_NOTE = /\s+#\S*$/;

const MAX_DATE_LENGTH = 120;

/**
 * How a reply writes slashed dates, as far as it shows: day first, month first, or not known
 * (then "03/02/2012" is not read: either reading would be a guess).
 */
export type SlashOrder = 'dmy' | 'mdy' | 'unknown';

export function normalizeDate(
  raw: string | undefined,
  order: SlashOrder = 'unknown',
): string | undefined {
  if (raw === undefined) return undefined;
  const n = raw.length;
  const u = unitsOf(raw);
  if (isCanonical(u, n)) return n === 20 ? raw : `${raw.slice(0, 19)}Z`;
  // The common spellings, read in place when the value is one as it stands: no hint, run of
  // spaces or quotes for the clearing below to take off (none of the characters they accept is
  // one). readDate reads them first, and gives the same for the value the clearing leaves.
  // A value they read as no date goes the long way, which may still find one in it.
  if (n <= MAX_DATE_LENGTH) {
    const fast = readIso(u, n) ?? readDayMonthYear(u, n, raw) ?? readNumbers(u, n, order);
    if (fast !== null && fast !== undefined) return fast;
  }
  // "(YYYY-MM-DD)" is a format hint some registries append; trailing dots and spaces are noise.
  // The regexes run only where they can change something: most values have neither a hint
  // nor a run of spaces, and date reading is a good share of the parse time.
  let s = raw.includes('(') ? raw.replace(/\(\s*y{4}-m{2}-d{2}\s*\)/i, '') : raw;
  s = s.trim();
  if (hasOddSpace(s)) s = s.replace(/\s+/g, ' ');
  // No spelling of a date is longer; a longer value is not read (and a hostile one cannot make
  // the readers below backtrack over a megabyte).
  if (s === '' || s.length > MAX_DATE_LENGTH) return undefined;
  const first = s.charCodeAt(0);
  if (first === 34 || first === 39) s = s.replace(/^["']|["']$/g, '');
  const read = readDate(s, order);
  if (read !== undefined || !(LEADING_ID.test(s) || TRAILING_NOTE.test(s))) return read;
  return readDate(s.replace(LEADING_ID, '').replace(TRAILING_NOTE, ''), order);
}

function readDate(s: string, order: SlashOrder): string | undefined {
  // The common spellings are read in place; the regexes below decide everything else.
  const u = unitsOf(s);
  const fast =
    readIso(u, s.length) ?? readDayMonthYear(u, s.length, s) ?? readNumbers(u, s.length, order);
  if (fast !== null) return fast;
  // Each regex below is anchored and opens with a fixed number of digits or with a letter: the
  // digits the value opens with (and the character after them) rule most of them out, and a
  // regex that cannot match is not run. Where several may, they are tried in the same order.
  let lead = 0;
  while (lead < s.length && isDigit(s.charCodeAt(lead))) lead++;
  const after = s.charCodeAt(lead);
  let m: RegExpExecArray | null;
  if (lead === 4) {
    // 2003-11-07 (a spelling readIso left), 2003/11/07, 2003.11.07, 2001-Aug-23, 2003 November 7
    if (after === 45) {
      m = ISO_LIKE.exec(s);
      if (m) return build(+m[1], +m[2], +m[3], m[4], m[5], m[6], m[7], m[8] ?? m[9]);
    } else if (after === 46 || after === 47) {
      m = YMD_DOTS.exec(s);
      if (m) return build(+m[1], +m[2], +m[3], m[4], m[5], m[6], m[7], m[8] ?? m[9]);
    }
    m = YMD_TEXT.exec(s);
    if (m) return build(+m[1], monthNumber(m[2]), +m[3], m[4], m[5], m[6], m[7], m[8] ?? m[9]);
    return undefined;
  }
  if (lead === 1 || lead === 2) {
    // 07/11/2003, 7.11.2003, 07-11-2003; 7 November 2003, 07-Nov-2003 12:00:00 UTC
    if (after === 45 || after === 46 || after === 47) {
      m = DMY_NUM.exec(s);
      if (m) return readDayMonthYearNumbers(m, order);
    }
    m = DMY_TEXT.exec(s);
    if (m) return build(+m[3], monthNumber(m[2]), +m[1], m[4], m[5], m[6], m[7], m[8] ?? m[9]);
    return undefined;
  }
  if (lead >= 8) {
    // 20031107, 20031107120000
    m = COMPACT.exec(s);
    if (m) return build(+m[1], +m[2], +m[3], m[4], m[5], m[6], m[7], m[8] ?? m[9]);
    return undefined;
  }
  if (lead !== 0) return undefined;
  // Friday, 7 Nov 2003; November 7, 2003; Tue Mar 03 12:00:00 GMT 2020
  m = DMY_TEXT.exec(s);
  if (m) return build(+m[3], monthNumber(m[2]), +m[1], m[4], m[5], m[6], m[7], m[8] ?? m[9]);
  m = MDY_TEXT.exec(s);
  if (m) return build(+m[3], monthNumber(m[1]), +m[2], m[4], m[5], m[6], m[7], m[8] ?? m[9]);
  m = CTIME.exec(s);
  if (m) return build(+m[7], monthNumber(m[1]), +m[2], m[3], m[4], m[5], m[6]);
  return undefined;
}

/** A DMY_NUM match as a date, its day and month in the order the reply writes slashed dates. */
function readDayMonthYearNumbers(m: RegExpExecArray, order: SlashOrder): string | undefined {
  const swap = swapsDayMonth(+m[1], +m[3], m[2] === '/', order);
  if (swap === undefined) return undefined;
  return build(+m[4], swap ? +m[1] : +m[3], swap ? +m[3] : +m[1], m[5], m[6], m[7], m[8] ?? m[9]);
}

/**
 * Whether a date written in numbers with the day first ("07/11/2003") is read month first:
 * slashes are the one ambiguous spelling, read as the reply shows it, or as the only reading
 * that is a date; when both are and the reply does not say, not at all (undefined).
 */
function swapsDayMonth(
  day: number,
  month: number,
  slashed: boolean,
  order: SlashOrder,
): boolean | undefined {
  if (slashed && day !== month && day <= 12 && month <= 12) {
    if (order === 'unknown') return undefined;
    return order === 'mdy';
  }
  return slashed && month > 12 && day <= 12;
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
  const offset = offsetMinutes(parenZone ?? zone);
  if (offset === undefined) return undefined;
  return compose(
    year,
    month,
    day,
    hh === undefined ? 0 : +hh,
    mm === undefined ? 0 : +mm,
    ss === undefined ? 0 : +ss,
    offset,
  );
}

/** A calendar date, time of day and zone offset (minutes east of UTC) as ISO 8601 UTC. */
function compose(
  year: number,
  month: number | undefined,
  day: number,
  h: number,
  mi: number,
  se: number,
  offset: number,
): string | undefined {
  if (month === undefined || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  if (h > 24 || mi > 59 || se > 60) return undefined;
  // The common case (UTC, a time that does not roll over) is written directly: a Date and its
  // toISOString cost more than the rest of the reading. Date.UTC reads years 0-99 as 19xx, so
  // those go the long way too.
  if (offset === 0 && year >= 100 && h < 24 && se < 60) {
    if (day > daysInMonth(year, month)) return undefined;
    return isoText(year, month, day, h, mi, se);
  }
  const ms = Date.UTC(year, month - 1, day, h, mi, se);
  if (year >= 100) {
    // Date.UTC has rolled any 24:00 or :60 over; only the zone's shift is left to apply.
    if (day > daysInMonth(year, month)) return undefined;
    const iso = isoFromMs(ms - offset * 60_000);
    if (iso !== undefined) return iso;
  }
  // Date.UTC rolls 31 February over into March; such a date is not a date. Every month has 28
  // days, so only later days need the check.
  if (day > 28) {
    const check = new Date(Date.UTC(year, month - 1, day));
    if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return undefined;
  }
  // toISOString always ends in ".sssZ"; the contract's form has no fractions.
  const iso = new Date(ms - offset * 60_000).toISOString();
  return `${iso.slice(0, -5)}Z`;
}

/**
 * A date value's code units, followed by zeros: the in-place readers below index this copy, not
 * the string. A value is mostly a slice of the reply, whose charCodeAt dispatches on the
 * slice's representation at every call, and the readers read most characters twice. Reused by
 * every value up to its length; a longer one gets its own.
 */
const dateUnits = new Uint16Array(128);

/**
 * Zeros after a value's last unit: a reader peeks up to three past it, where charCodeAt gave
 * NaN; 0 is no character they test for either.
 */
const PAST_END = 4;

function unitsOf(s: string): Uint16Array {
  const n = s.length;
  const u = n + PAST_END <= dateUnits.length ? dateUnits : new Uint16Array(n + PAST_END);
  for (let i = 0; i < n; i++) u[i] = s.charCodeAt(i);
  for (let i = n; i < n + PAST_END; i++) u[i] = 0;
  return u;
}

/**
 * YYYY-MM-DD, then optionally a time ("T", " " or "-T" and HH:MM[:SS[.fff]]) and a zone (Z, ±HH,
 * ±HHMM, ±HH:MM) with nothing between or after: how most registries write dates, read without
 * a regex from the value's code units `u` (its length n). Gives what ISO_LIKE and build() give
 * for it; null for any other spelling.
 */
function readIso(u: Uint16Array, n: number): string | undefined | null {
  if (n < 10 || !digits(u, n, 0, 4) || u[4] !== 45 || !digits(u, n, 5, 2)) return null;
  if (u[7] !== 45 || !digits(u, n, 8, 2)) return null;
  let i = 10;
  let h = 0;
  let mi = 0;
  let se = 0;
  let c = u[i];
  if (c === 84 || c === 32 || (c === 45 && u[i + 1] === 84)) {
    i += c === 45 ? 2 : 1;
    if (!digits(u, n, i, 2) || u[i + 2] !== 58 || !digits(u, n, i + 3, 2)) return null;
    h = num(u, i, i + 2);
    mi = num(u, i + 3, i + 5);
    i += 5;
    if (u[i] === 58) {
      if (!digits(u, n, i + 1, 2)) return null;
      se = num(u, i + 1, i + 3);
      i += 3;
      c = u[i];
      if (c === 46 || c === 44) {
        const from = ++i;
        while (i < n && isDigit(u[i])) i++;
        if (i === from) return null;
      }
    }
  }
  let offset = 0;
  if (i < n) {
    c = u[i];
    if (c === 90) i += 1;
    else if (c === 43 || c === 45) {
      if (!digits(u, n, i + 1, 2)) return null;
      let minutes = num(u, i + 1, i + 3) * 60;
      i += 3;
      if (i < n) {
        if (u[i] === 58) i += 1;
        if (!digits(u, n, i, 2)) return null;
        minutes += num(u, i, i + 2);
        i += 2;
      }
      if (i !== n) return null;
      if (minutes > 14 * 60) return undefined;
      offset = c === 45 ? -minutes : minutes;
    } else return null;
  }
  if (i !== n) return null;
  return compose(num(u, 0, 4), num(u, 5, 7), num(u, 8, 10), h, mi, se, offset);
}

/**
 * "31-Jul-2023" (DD-Mon-YYYY), maybe with a time (" HH:MM" or " HH:MM:SS") and then a zone name
 * (" UTC"), read without a regex from the value's code units `u` (its length n; `s` the value):
 * what DMY_TEXT and build() give for it; null for any other spelling.
 */
function readDayMonthYear(u: Uint16Array, n: number, s: string): string | undefined | null {
  if (n < 11 || !digits(u, n, 0, 2) || u[2] !== 45) return null;
  if (u[6] !== 45 || !digits(u, n, 7, 4)) return null;
  for (let i = 3; i < 6; i++) {
    const c = u[i] | 32;
    if (c < 97 || c > 122) return null;
  }
  let h = 0;
  let mi = 0;
  let se = 0;
  let offset: number | undefined = 0;
  if (n > 11) {
    if (u[11] !== 32 || !digits(u, n, 12, 2) || u[14] !== 58 || !digits(u, n, 15, 2)) return null;
    h = num(u, 12, 14);
    mi = num(u, 15, 17);
    let i = 17;
    if (u[i] === 58) {
      if (!digits(u, n, i + 1, 2)) return null;
      se = num(u, i + 1, i + 3);
      i += 3;
    }
    if (i < n) {
      // a zone name: one to five letters, the last thing in the value
      if (u[i] !== 32 || n - i - 1 < 1 || n - i - 1 > 5) return null;
      for (let k = i + 1; k < n; k++) {
        const c = u[k] | 32;
        if (c < 97 || c > 122) return null;
      }
      offset = offsetMinutes(s.slice(i + 1, n));
      if (offset === undefined) return undefined;
    }
  }
  const month = MONTHS_OF_THREE[threeLetters(u[3], u[4], u[5])];
  return compose(num(u, 7, 11), month === 0 ? undefined : month, num(u, 0, 2), h, mi, se, offset);
}

/**
 * A date in numbers with two-digit day and month: "2004/10/30" or "2008.03.16" (year first, as
 * YMD_DOTS reads it) and "11/08/2008", "22.10.2010" or "11-07-2017" (day first, the separators
 * alike, as DMY_NUM reads it, in the reply's order of slashed dates), maybe with a time
 * (" HH:MM" or " HH:MM:SS"), read without a regex from the value's code units `u` (its length
 * n): what those regexes and build() give for it; null for any other spelling.
 */
function readNumbers(u: Uint16Array, n: number, order: SlashOrder): string | undefined | null {
  if (n < 10) return null;
  let year: number;
  let month: number;
  let day: number;
  const s4 = u[4];
  const s2 = u[2];
  if ((s4 === 46 || s4 === 47) && (u[7] === 46 || u[7] === 47)) {
    if (!digits(u, n, 0, 4) || !digits(u, n, 5, 2) || !digits(u, n, 8, 2)) return null;
    year = num(u, 0, 4);
    month = num(u, 5, 7);
    day = num(u, 8, 10);
  } else if ((s2 === 45 || s2 === 46 || s2 === 47) && u[5] === s2) {
    if (!digits(u, n, 0, 2) || !digits(u, n, 3, 2) || !digits(u, n, 6, 4)) return null;
    const swap = swapsDayMonth(num(u, 0, 2), num(u, 3, 5), s2 === 47, order);
    // an ambiguous slashed date is no date, as DMY_NUM's reading says, when the rest reads
    if (swap === undefined) return n === 10 || readsTime(u, n) ? undefined : null;
    year = num(u, 6, 10);
    day = num(u, swap ? 3 : 0, swap ? 5 : 2);
    month = num(u, swap ? 0 : 3, swap ? 2 : 5);
  } else return null;
  if (n === 10) return compose(year, month, day, 0, 0, 0, 0);
  if (!readsTime(u, n)) return null;
  return compose(
    year,
    month,
    day,
    num(u, 11, 13),
    num(u, 14, 16),
    n === 19 ? num(u, 17, 19) : 0,
    0,
  );
}

/** Whether the value's code units from index 10 are " HH:MM" or " HH:MM:SS", then its end. */
function readsTime(u: Uint16Array, n: number): boolean {
  if (n !== 16 && n !== 19) return false;
  if (u[10] !== 32 || !digits(u, n, 11, 2) || u[13] !== 58 || !digits(u, n, 14, 2)) return false;
  return n === 16 || (u[16] === 58 && digits(u, n, 17, 2));
}

function digits(u: Uint16Array, n: number, from: number, count: number): boolean {
  if (from + count > n) return false;
  for (let i = from; i < from + count; i++) if (!isDigit(u[i])) return false;
  return true;
}

/**
 * Already the contract's form, maybe with fractions ("2024-01-02T03:04:05Z",
 * "2024-01-02T03:04:05.123Z"), as most registries write it: checked in place (the value's code
 * units `u`, its length n), no regex, no Date. Years before 1000 are left to the general reader
 * (Date.UTC reads 0-99 as 19xx).
 */
function isCanonical(u: Uint16Array, n: number): boolean {
  if (n < 20 || u[n - 1] !== 90) return false;
  if (n === 20) {
    if (u[19] !== 90) return false;
  } else {
    if (n === 21 || u[19] !== 46) return false;
    for (let i = 20; i < n - 1; i++) if (!isDigit(u[i])) return false;
  }
  for (let i = 0; i < 19; i++) {
    const c = u[i];
    const want = i === 4 || i === 7 ? 45 : i === 10 ? 84 : i === 13 || i === 16 ? 58 : -1;
    if (want < 0 ? !isDigit(c) : c !== want) return false;
  }
  const year = num(u, 0, 4);
  const month = num(u, 5, 7);
  const day = num(u, 8, 10);
  return (
    year >= 1000 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    num(u, 11, 13) < 24 &&
    num(u, 14, 16) < 60 &&
    num(u, 17, 19) < 60
  );
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function num(u: Uint16Array, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + u[i] - 48;
  return n;
}

/**
 * An instant as "YYYY-MM-DDTHH:MM:SSZ" (what toISOString gives, less the fractions), worked out
 * with integer arithmetic (days to civil date, after Howard Hinnant's days_from_civil inverse);
 * undefined outside years 1000-9999, which toISOString writes differently or not at all.
 */
function isoFromMs(ms: number): string | undefined {
  const secs = Math.floor(ms / 1000);
  const days = Math.floor(secs / 86400);
  const sod = secs - days * 86400;
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 1000 || year > 9999) return undefined;
  const h = Math.floor(sod / 3600);
  const mi = Math.floor((sod % 3600) / 60);
  return isoText(year, month, day, h, mi, sod % 60);
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in a month of the proleptic Gregorian calendar, as Date counts them. */
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return DAYS[month - 1];
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

const fromCharCode = String.fromCharCode;

/**
 * "YYYY-MM-DDTHH:MM:SSZ" for a year of 100 to 9999 (one below 1000 with a leading zero) and
 * fields of two digits, made in one call as a flat string: a template of its eleven parts was
 * most of the cost of reading a plain date.
 */
function isoText(
  year: number,
  month: number,
  day: number,
  h: number,
  mi: number,
  se: number,
): string {
  if (year > 9999) return `${year}-${pad(month)}-${pad(day)}T${pad(h)}:${pad(mi)}:${pad(se)}Z`;
  const hundreds = Math.floor(year / 100);
  const rest = year - hundreds * 100;
  return fromCharCode(
    48 + tens(hundreds),
    48 + ones(hundreds),
    48 + tens(rest),
    48 + ones(rest),
    45,
    48 + tens(month),
    48 + ones(month),
    45,
    48 + tens(day),
    48 + ones(day),
    84,
    48 + tens(h),
    48 + ones(h),
    58,
    48 + tens(mi),
    48 + ones(mi),
    58,
    48 + tens(se),
    48 + ones(se),
    90,
  );
}

function tens(n: number): number {
  return Math.floor(n / 10);
}

function ones(n: number): number {
  return n % 10;
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** True when whitespace other than single spaces between words is left (tabs, doubled spaces). */
function hasOddSpace(s: string): boolean {
  let prevSpace = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (prevSpace) return true;
      prevSpace = true;
    } else if (c <= 13 ? c >= 9 : c >= 160 && /\s/.test(s[i])) {
      return true;
    } else prevSpace = false;
  }
  return false;
}

function offsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined) return 0;
  const named = ZONE_NAMES[zone.toLowerCase()];
  if (named !== undefined) return named;
  const m = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(zone);
  if (!m) return undefined;
  const minutes = +m[2] * 60 + (m[3] === undefined ? 0 : +m[3]);
  if (minutes > 14 * 60) return undefined;
  return m[1] === '-' ? -minutes : minutes;
}
