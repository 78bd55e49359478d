// One record of a reply as the reader fills it: the fields by meaning, the status words and the
// name servers, and how a value line is read into them (a status list, a name-server line in
// any of the registries' layouts, a bare line under a heading).
import { isSpace as spaceChar, lowerEquals as lowerEqualsOf } from './chars';
import {
  emptyFields as emptyFieldsOf,
  SLOT,
  type FieldValues,
  type RegistrarAction,
  type SectionKind,
} from './keys';

// Bound once: on the per-line path an imported name is a property read through an export
// getter (see reader.ts).
const isSpace = spaceChar;
const STATUS = SLOT.status;
const NS = SLOT.ns;
const DOMAIN = SLOT.domain;
const DNSSEC = SLOT.dnssec;
const REGISTRAR = SLOT.registrar;
const REGISTRAR_URL = SLOT.registrar_url;
const emptyFields = emptyFieldsOf;
const lowerEquals = lowerEqualsOf;

/** A host name, maybe with a final dot. */
export const HOSTISH = /^[a-z0-9_-]+(\.[a-z0-9_-]+)+\.?$/i;

export interface Rec {
  /** the fields' values, each at its SLOT */
  fields: FieldValues;
  status: string[];
  ns: string[];
}

export function emptyRecord(): Rec {
  return { fields: emptyFields(), status: [], ns: [] };
}

export function bareLine(rec: Rec, section: SectionKind, body: string): void {
  if (section === 'ns') {
    // Only a line that starts with a host name is one (prose after the list is not); a list
    // marker ("- ns1.example", YAML) goes first.
    const c = body.charCodeAt(0);
    const item = c === 45 || c === 42 ? body.replace(/^[-*]\s+/, '') : body;
    const first = firstWord(item);
    if (HOSTISH.test(first)) addNs(rec, first);
  } else if (section === 'status') addStatus(rec, body);
  else if (section === 'domain') {
    const m = /^(\S+)\s+is\s+(\w+)/i.exec(body);
    setOnce(rec, DOMAIN, m ? m[1] : body);
    if (m) addStatus(rec, m[2]);
  } else if (section === 'dnssec') setOnce(rec, DNSSEC, body);
  else if (section === 'registrar') {
    if (/^(https?:\/\/|www\.)\S+$/i.test(body)) setOnce(rec, REGISTRAR_URL, body);
    else setOnce(rec, REGISTRAR, body);
  }
}

/**
 * bareLine(rec, 'ns', str.slice(from, to)) for a line of the string being read, its code units
 * u (str's) read in place: no slice, copy or regex per line of a name-server list.
 */
export function bareNsAt(rec: Rec, str: string, u: Uint16Array, from: number, to: number): void {
  let a = from;
  // a list marker and the spaces after it (/^[-*]\s+/)
  const c = u[a];
  if ((c === 45 || c === 42) && a + 1 < to && isSpace(u[a + 1])) {
    a += 2;
    while (a < to && isSpace(u[a])) a++;
  }
  let w = a;
  while (w < to && !isSpace(u[w])) w++;
  // The word has no space, so addNsAt reads no zone line in it: it reads the host as addNs
  // reads a copy of the word.
  if (isHostish(u, a, w)) addNsAt(rec, str, u, a, w);
}

/** HOSTISH.test for the code units u[from, to): two or more labels of [a-z0-9_-], a final dot. */
function isHostish(u: Uint16Array, from: number, to: number): boolean {
  let labels = 0;
  let label = 0;
  for (let i = from; i < to; i++) {
    const c = u[i];
    if (c === 46) {
      // a dot after a dot, or first: an empty label
      if (label === 0) return false;
      labels++;
      label = 0;
    } else if (
      (c >= 97 && c <= 122) ||
      (c >= 65 && c <= 90) ||
      (c >= 48 && c <= 57) ||
      c === 95 ||
      c === 45
    ) {
      label++;
    } else return false;
  }
  // the last label, unless the word ends in the root's dot
  if (label > 0) labels++;
  return labels >= 2;
}

/**
 * The text before the first space (what `split(/\s+/)[0]` gives for a line that does not open
 * with a space, without the array and the other words).
 */
function firstWord(line: string): string {
  let i = 0;
  while (i < line.length && !isSpace(line.charCodeAt(i))) i++;
  return i === line.length ? line : line.slice(0, i);
}

/** A "key: value" inside the registrar's block or section; the value may be empty. */
export function registrarLine(rec: Rec, action: RegistrarAction, value: string): void {
  if (action.overwrite || rec.fields[action.slot] === undefined) rec.fields[action.slot] = value;
}

function setOnce(rec: Rec, slot: number, value: string): void {
  if (rec.fields[slot] === undefined) rec.fields[slot] = value;
}

/**
 * Whether a value for the field would be kept: a list (statuses, name servers) takes every
 * value, any other field its first. The reader asks before it makes the value's string.
 */
export function takesValue(rec: Rec, slot: number): boolean {
  return slot === STATUS || slot === NS || rec.fields[slot] === undefined;
}

/** Sets the field at `slot` (a SLOT) from a value line. */
export function setField(rec: Rec, slot: number, value: string): void {
  if (slot === STATUS || slot === NS) setFieldAt(rec, slot, value, unitsOf(value), 0, value.length);
  else setOnce(rec, slot, value);
}

/**
 * setField for the value str[from, to), whose code units are u[from, to) (the reader's copy of
 * the line). Statuses and name servers are cut from the units: no string is made for the whole
 * value, and the characters are read from the typed copy, not with charCodeAt (which dispatches
 * on the string's representation at each call, and a value slice is one more representation).
 */
export function setFieldAt(
  rec: Rec,
  slot: number,
  str: string,
  u: Uint16Array,
  from: number,
  to: number,
): void {
  if (slot === STATUS) addStatusAt(rec, str, u, from, to);
  else if (slot === NS) addNsAt(rec, str, u, from, to);
  else setOnce(rec, slot, str.slice(from, to));
}

/**
 * A string's code units, for the values that do not come from the reader's copy (a bare line, a
 * zone line's server): in one buffer up to SCRATCH_LIMIT, used by one call at a time.
 */
const SCRATCH_LIMIT = 1024;
const scratchUnits = new Uint16Array(SCRATCH_LIMIT);

function unitsOf(value: string): Uint16Array {
  const n = value.length;
  const units = n <= SCRATCH_LIMIT ? scratchUnits : new Uint16Array(n);
  for (let i = 0; i < n; i++) units[i] = value.charCodeAt(i);
  return units;
}

// Status and name-server values are read in place: most lines hold one item, and splitting,
// lower-casing and testing each with regexes was a good part of the parse time.
function addStatus(rec: Rec, value: string): void {
  addStatusAt(rec, value, unitsOf(value), 0, value.length);
}

/**
 * The statuses of str[from, to): its parts between commas, each trimmed (split(/,\s*\/)), each
 * one's first word lower-cased. One pass: a part's first word is hashed, lower-cased, as it is
 * read, and the rest of the part is only searched for the next comma. A status line is mostly
 * its word and an ICANN URL after it ("clientTransferProhibited https://icann.org/epp#..."):
 * splitting at commas first, then trimming each part and cutting its word, read the word three
 * times and the URL twice.
 */
function addStatusAt(rec: Rec, str: string, u: Uint16Array, from: number, to: number): void {
  let i = from;
  for (;;) {
    while (i < to && isSpace(u[i])) i++;
    const a = i;
    let h = 0;
    let ascii = true;
    for (; i < to; i++) {
      const c = u[i];
      if (c === 44 || isSpace(c)) break;
      if (c >= 128) ascii = false;
      h = Math.imul(h ^ (c >= 65 && c <= 90 ? c + 32 : c), 0x9e3779b1);
    }
    const space = i;
    if (i < to && u[i] !== 44) {
      // A line of a longer string (the reply) is searched natively (see commaAfter); a string
      // that is the line (a value, a rewritten line) with a loop, which ends with it.
      if (to < str.length) i = Math.min(commaAfter(str, i), to);
      else while (i < to && u[i] !== 44) i++;
    }
    // An empty part (nothing but spaces before its comma) is no status.
    if (space > a) {
      let b = i;
      while (b > space && isSpace(u[b - 1])) b--;
      addStatusPart(rec, str, u, a, space, b, h, ascii);
    }
    if (i >= to) return;
    i++;
  }
}

/**
 * One status: the part str[a, b) (trimmed), whose first word ends at `space` (b when it is the
 * whole part), its lower-cased units' hash `h`, and whether all its units are ASCII.
 */
function addStatusPart(
  rec: Rec,
  str: string,
  u: Uint16Array,
  a: number,
  space: number,
  b: number,
  h: number,
  ascii: boolean,
): void {
  // A status of several words that is not "word URL" ("in quarantine", "pending delete",
  // "CLIENT DELETE PROHIBITED", "ok - Normal state.", "pendingDelete / redemptionPeriod") is
  // read as a phrase, from its string: rare, and the fast path below never slices.
  if (space < b && !urlAt(u, space, b)) {
    addStatusPhrase(rec, str.slice(a, b));
    return;
  }
  // Most often the status is its first word, one of a few dozen (EPP's and the registries'):
  // its lower-case string is kept, not made again for every line that names it.
  const token = lowerWord(str, u, a, space, h, ascii);
  if (!rec.status.includes(token)) rec.status.push(token);
}

/** Whether the first word after the spaces from u[from] (before `to`) is an http(s) URL. */
function urlAt(u: Uint16Array, from: number, to: number): boolean {
  let i = from;
  while (i < to && isSpace(u[i])) i++;
  return i + 7 <= to && lowerEquals(u, i, 'http') && (u[i + 4] === 58 || (u[i + 4] | 32) === 115);
}

/**
 * The statuses of a part of several words. The contract writes a status in lower case without
 * spaces ("clienttransferprohibited"), so an EPP status spelt out in words ("CLIENT DELETE
 * PROHIBITED", "pending delete") is its EPP name, and a registry's own phrase ("in quarantine",
 * SIDN) is kept whole ("inquarantine"), never cut to its first word ("in"). Statuses listed
 * with " / " are each one; a remark after one (in brackets, after " - ", a URL) is no part of
 * it. A sentence (it ends with a full stop, or has more than four words, or a word that is not
 * letters: "Registered until expiry date.", Nominet; "OK-UNTIL 20140903121852") is its first
 * word, unless that word says there is none.
 */
function addStatusPhrase(rec: Rec, part: string): void {
  for (const piece of part.split(STATUS_LIST)) {
    const bare = piece.replace(STATUS_NOTE, '').replace(STATUS_REMARK, '').trim();
    if (bare === '') continue;
    const words = bare.split(SPACES);
    const phrase =
      words.length <= 4 && !bare.endsWith('.') && words.every((w) => STATUS_WORD.test(w));
    const token = (phrase ? words.join('') : words[0]).toLowerCase();
    // A sentence that opens with "no" says there is none (Nominet: "No registration status
    // listed."): its first word is no status.
    if (!phrase && (token === 'no' || token === 'none')) continue;
    if (!rec.status.includes(token)) rec.status.push(token);
  }
}

const STATUS_LIST = /\s+\/\s+/;
/** " - " and what follows it: a note on the status ("ok - Normal state.") */
const STATUS_NOTE = /\s+-(?:\s.*)?$/;
/** a remark in brackets, or a URL */
const STATUS_REMARK = /\s*\([^)]*\)|\s+https?:\/\/\S*/gi;
const STATUS_WORD = /^\p{L}[\p{L}_-]*$/u;
const SPACES = /\s+/;

// The next comma of the string last searched, found natively and kept: the rest of a status
// after its word (an ICANN URL, sixty characters) is searched for a comma, which a loop over
// its code units did at ten instructions a character. A search may run past the line, to the
// reply's next comma or its end; lines are read in order, so one search serves every status
// line up to the comma it found, and the reply is searched once, not once per line. Only the
// reply's lines are searched so (addStatusAt): a value or rewritten line read between two of
// them does not take the place of the reply's search, which would then start again.
let commaText = '';
let commaSearched = 0;
let commaFound = 0;

/** Where the first comma of str at or after `from` is; str.length when there is none. */
function commaAfter(str: string, from: number): number {
  // Strings compare by content: a different string with the same text has its commas where
  // this one has them.
  if (str !== commaText || from < commaSearched || commaFound < from) {
    const at = str.indexOf(',', from);
    commaText = str;
    commaSearched = from;
    commaFound = at < 0 ? str.length : at;
  }
  return commaFound;
}

// Status words met lately, lower-cased, by a hash of their lower-cased code units: a hit costs
// the hash and a compare, where a slice and toLowerCase made two strings. Only ASCII words are
// kept (lower-casing them is adding 32 to a capital), up to WORD_MAX units; each kept string is
// a copy of its own, never a slice that would keep its reply alive. A kept word's units are
// also kept, one byte each, in wordUnits at WORD_MAX times its slot: the compare reads bytes
// from a typed array, not the string's characters.
const WORD_BITS = 9;
const WORD_MAX = 48;
const lowerWords: Array<string | undefined> = new Array<string | undefined>(1 << WORD_BITS).fill(
  undefined,
);
const wordUnits = new Uint8Array(WORD_MAX << WORD_BITS);

/**
 * str.slice(from, to).toLowerCase(), for the word str[from, to) (code units u), whose
 * lower-cased units hash to `h` as addStatusAt hashes them; `ascii` when all its units are.
 */
function lowerWord(
  str: string,
  u: Uint16Array,
  from: number,
  to: number,
  h: number,
  ascii: boolean,
): string {
  const n = to - from;
  if (n > WORD_MAX || !ascii) return str.slice(from, to).toLowerCase();
  const mixed = Math.imul(h ^ n, 0x9e3779b1);
  const slot = Math.imul(mixed ^ (mixed >>> 16), 0x85ebca6b) >>> (32 - WORD_BITS);
  const kept = lowerWords[slot];
  const base = slot * WORD_MAX;
  if (kept !== undefined && kept.length === n) {
    let i = 0;
    while (i < n) {
      const c = u[from + i];
      if ((c >= 65 && c <= 90 ? c + 32 : c) !== wordUnits[base + i]) break;
      i++;
    }
    if (i === n) return kept;
  }
  const word = lowerCopy(u, from, to);
  lowerWords[slot] = word;
  for (let i = 0; i < n; i++) wordUnits[base + i] = word.charCodeAt(i);
  return word;
}

/** The ASCII code units u[from, to), capitals lower-cased, as a string of its own. */
function lowerCopy(u: Uint16Array, from: number, to: number): string {
  let word = '';
  for (let i = from; i < to; i++) {
    const c = u[i];
    word += String.fromCharCode(c >= 65 && c <= 90 ? c + 32 : c);
  }
  return word;
}

const ZONE_NS = /\sNS\s+(\S+)/;

export function addNs(rec: Rec, value: string): void {
  addNsAt(rec, value, unitsOf(value), 0, value.length);
}

/** The name server of str[from, to) (code units u), as addNs reads a value. */
export function addNsAt(rec: Rec, str: string, u: Uint16Array, from: number, to: number): void {
  // A zone-file line ("example.pt NS ns1.example.net.") names the server after "NS": where the
  // value's first "NS" follows a space, the server is the word after " NS ".
  let ns = from;
  while (ns + 1 < to && !(u[ns] === 78 && u[ns + 1] === 83)) ns++;
  let host: string | undefined;
  if (ns > from && ns + 1 < to && isSpace(u[ns - 1])) {
    const value = str.slice(from, to);
    const zoneLine = ZONE_NS.exec(value);
    host = zoneLine
      ? firstHost(zoneLine[1], unitsOf(zoneLine[1]), 0, zoneLine[1].length)
      : firstHost(str, u, from, to);
  } else host = firstHost(str, u, from, to);
  if (host !== undefined && !rec.ns.includes(host)) rec.ns.push(host);
}

/**
 * The first host name among the words of str[from, to) (code units u; split at whitespace and
 * commas), lower case and without its trailing dot: two or more labels of [a-z0-9_-], not an
 * address. Glue addresses and "[OK]" markers travel on the same line; only host names count.
 * One pass per word; a word with characters beyond ASCII (where lower-casing can change a
 * character's class) goes to the regexes.
 */
function firstHost(str: string, u: Uint16Array, from: number, to: number): string | undefined {
  let i = from;
  while (i < to) {
    let c = u[i];
    if (c === 44 || isSpace(c)) {
      i++;
      continue;
    }
    let j = i;
    let dots = 0;
    let label = 0;
    let lastLabel = 0;
    let letters = false;
    let upper = false;
    let ok = true;
    let ascii = true;
    for (; j < to; j++) {
      c = u[j];
      if (c === 44 || isSpace(c)) break;
      if (c >= 128) ascii = false;
      if (!ok || !ascii) continue;
      if (c === 46) {
        if (label === 0) ok = false;
        dots += 1;
        lastLabel = label;
        label = 0;
      } else {
        label += 1;
        if (c >= 97 && c <= 122) letters = true;
        else if (c >= 65 && c <= 90) letters = upper = true;
        else if (c === 95 || c === 45) letters = true;
        else if (c < 48 || c > 57) ok = false;
      }
    }
    if (!ascii) {
      const host = slowHost(str.slice(i, j));
      if (host !== undefined) return host;
    } else if (ok) {
      // One trailing dot (the root) is dropped: "ns1.example.com." is ns1.example.com.
      let end = j;
      if (label === 0) {
        end = j - 1;
        dots -= 1;
        label = lastLabel;
      }
      if (dots > 0 && label > 0 && letters) {
        const host = str.slice(i, end);
        return upper ? host.toLowerCase() : host;
      }
    }
    i = j;
  }
  return undefined;
}

function slowHost(part: string): string | undefined {
  let host = part.toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (!/^[a-z0-9_-]+(\.[a-z0-9_-]+)+$/.test(host) || /^[\d.]+$/.test(host)) return undefined;
  return host;
}
