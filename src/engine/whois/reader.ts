// The reply reader: one generic "key: value" walk that understands sections (indented blocks
// and bare headings such as "Registrar" or "Name servers"), with the few spellings that cannot
// be read that way handled before the walk. Text in, records out; build.ts makes the result.
//
// Speed: the walk reads the reply in place, one pass, by offsets. A line becomes a string only
// when it is rewritten (tabs, "Record expires on") or its text is needed (a key, a heading, a
// value the record keeps); comments, rulers and the values of keys nobody reads never do. The
// walk reads characters from a copy of the reply's UTF-16 code units, not with charCodeAt (see
// scan.ts); a rewritten line gets a copy of its own.
import {
  codeUnits as codeUnitsOf,
  isSpace as spaceChar,
  lowerEquals as lowerEqualsOf,
} from './chars';
import {
  FACT_ACTION_SHIFT as factActionShift,
  FACT_CONTACT_BLOCK as factContactBlock,
  FACT_DOMAIN_KEY as factDomainKey,
  FACT_NS_KEY as factNsKey,
  FACT_REGISTRAR_KEY as factRegistrarKey,
  FACT_SECTION_MASK as factSectionMask,
  FACT_SECTION_SHIFT as factSectionShift,
  FACT_SLOT_MASK as factSlotMask,
  hasReadings as hasReadingsOf,
  keyFactsAt,
  keyInfo,
  mayBeField,
  NO_SLOT as noSlot,
  REGISTRAR_ACTIONS,
  SECTION_KINDS,
  SLOT,
  type RegistrarAction,
  type SectionKind,
} from './keys';
import {
  addNsAt as addNsAtTo,
  bareLine as bareLineOf,
  bareNsAt as bareNsAtOf,
  emptyRecord as emptyRecordOf,
  HOSTISH as HOST_NAME,
  registrarLine as registrarLineOf,
  setField as setFieldOf,
  setFieldAt as setFieldAtOf,
  takesValue as takesValueOf,
  type Rec,
} from './record';
import { PAST_END as pastEnd, scanReply as scanReplyOf, type Scan } from './scan';

// The per-line look-ups, bound once. Transpiled file by file to CommonJS (tsx, mocha), every
// use of an imported name is a property read through an export getter; on a path taken for
// every line of every reply that measured several per cent of the parse.
const lookUpKey = keyInfo;
const hasReadings = hasReadingsOf;
const emptyRecord = emptyRecordOf;
const scanReply = scanReplyOf;
const PAST_END = pastEnd;
const lookUpFactsAt = keyFactsAt;
const mayBeFieldKey = mayBeField;
/** The characters String.prototype.trim removes, so offsets agree with trim() exactly. */
const isSpace = spaceChar;
const lowerEquals = lowerEqualsOf;
const codeUnits = codeUnitsOf;
const addNsAt = addNsAtTo;
const bareLine = bareLineOf;
const bareNsAt = bareNsAtOf;
const registrarLine = registrarLineOf;
const setField = setFieldOf;
const setFieldAt = setFieldAtOf;
const takesValue = takesValueOf;
const HOSTISH = HOST_NAME;
const NO_SLOT = noSlot;
const DOMAIN = SLOT.domain;
const REGISTRAR = SLOT.registrar;
const STATUS = SLOT.status;
const NS = SLOT.ns;
const SECTIONS = SECTION_KINDS;
const ACTIONS = REGISTRAR_ACTIONS;
const FACT_ACTION_SHIFT = factActionShift;
const FACT_CONTACT_BLOCK = factContactBlock;
const FACT_DOMAIN_KEY = factDomainKey;
const FACT_NS_KEY = factNsKey;
const FACT_REGISTRAR_KEY = factRegistrarKey;
const FACT_SECTION_MASK = factSectionMask;
const FACT_SECTION_SHIFT = factSectionShift;
const FACT_SLOT_MASK = factSlotMask;

// A key's facts (keys.ts packs them in one integer), read.
/** the SLOT of the field the key fills; NO_SLOT for none */
function slotOf(facts: number): number {
  return (facts & FACT_SLOT_MASK) - 1;
}
/** the section a heading with the key's text opens */
function sectionOf(facts: number): SectionKind | undefined {
  return SECTIONS[(facts & FACT_SECTION_MASK) >> FACT_SECTION_SHIFT];
}
/** how a line with the key reads inside a registrar block or section */
function actionOf(facts: number): RegistrarAction | undefined {
  return ACTIONS[facts >>> FACT_ACTION_SHIFT];
}

/**
 * A rewritten line's code units (one line at a time; in one buffer up to LINE_LIMIT), copied
 * character by character: a Buffer.write costs more than that on a line of a few dozen.
 */
const LINE_LIMIT = 1024;
const lineUnitsBuffer = new Uint16Array(LINE_LIMIT + PAST_END);

function lineUnitsOf(line: string): Uint16Array {
  const n = line.length;
  if (n > LINE_LIMIT) return codeUnits(line, PAST_END);
  const units = lineUnitsBuffer;
  for (let i = 0; i < n; i++) units[i] = line.charCodeAt(i);
  for (let i = n; i < n + PAST_END; i++) units[i] = 0;
  return units;
}

/**
 * The code units of "key: value" for the key u[kb, ke) (with its indent before it) and the value
 * u[vb, ve), copied from `u` into the line buffer (the new string's characters are not read).
 */
function keyValueUnits(
  u: Uint16Array,
  kb: number,
  ke: number,
  vb: number,
  ve: number,
): Uint16Array {
  const units = lineUnitsBuffer;
  let j = 0;
  for (let i = kb; i < ke; i++) units[j++] = u[i];
  units[j++] = 58;
  units[j++] = 32;
  for (let i = vb; i < ve; i++) units[j++] = u[i];
  for (let i = 0; i < PAST_END; i++) units[j++] = 0;
  return units;
}

/** The records of a reply (usually one; a new one where a second domain block starts). */
export function readRecords(text: string): Rec[] {
  return readScanned(scanReply(text));
}

/**
 * readRecords on a reply already scanned (scan.ts), whose copy and line ends the classifier
 * reads after the walk. The walk reads every character it looks at from the scan's code units:
 * charCodeAt dispatches on the string's representation at each call, and the walk meets
 * several (the reply one-byte or two-byte, rewritten lines); a typed array is read directly.
 */
export function readScanned(scan: Scan): Rec[] {
  return new Reader(scan).read();
}

/** The indent of a line from `from` to its text at `b` (a tab counts four). */
function indentOf(u: Uint16Array, from: number, b: number): number {
  let n = 0;
  for (let i = from; i < b; i++) {
    const c = u[i];
    if (c === 32) n += 1;
    else if (c === 9) n += 4;
    else break;
  }
  return n;
}

/**
 * The least indent (indentOf) of the non-blank lines whose ends are given; 0 as soon as a line
 * starts at the margin, which in most replies the first one does.
 */
function leastIndent(u: Uint16Array, lineEnds: Int32Array, lineCount: number): number {
  let least = Infinity;
  let start = 0;
  for (let k = 0; k < lineCount; k++) {
    const end = lineEnds[k];
    const c = u[start];
    if (c !== 32 && c !== 9 && c !== 13 && start < end) return 0;
    let b = start;
    while (b < end && isSpace(u[b])) b++;
    if (b < end) least = Math.min(least, indentOf(u, start, b));
    start = end + 1;
  }
  return least === Infinity ? 0 : least;
}

/** Where the value after a key's colon starts: past spaces, and past a doubled colon. */
function valueStart(u: Uint16Array, colon: number, e: number): number {
  let v = colon + 1;
  while (v < e && isSpace(u[v])) v++;
  if (v < e && u[v] === 58) {
    v++;
    while (v < e && isSpace(u[v])) v++;
  }
  return v;
}

/**
 * The value str[v, e) of a "key: value" line. One slice: the value's start is found in the code
 * units, not by trimming a slice (which made a second string for every value).
 */
function valueText(str: string, v: number, e: number): string {
  return str.slice(v, e);
}

/** Whether u[from, e) is one YAML tag: "!" and a word (no space) up to the line's end. */
function isYamlTag(u: Uint16Array, from: number, e: number): boolean {
  if (e - from < 2) return false;
  for (let i = from + 1; i < e; i++) if (isSpace(u[i])) return false;
  return true;
}

/** Whether u[b, e) starts a YAML document: "---" alone, or before a space ("--- !Domain"). */
function isYamlStart(u: Uint16Array, b: number, e: number): boolean {
  return e - b >= 3 && u[b + 1] === 45 && u[b + 2] === 45 && (e === b + 3 || isSpace(u[b + 3]));
}

/** A ruler between blocks (---, ===, ___) carries nothing. */
function isRuler(u: Uint16Array, from: number, end: number): boolean {
  if (end - from < 3) return false;
  for (let i = from; i < end; i++) {
    const c = u[i];
    if (c !== 45 && c !== 61 && c !== 95) return false;
  }
  return true;
}

// key, then a dot leader (". . . ." or "....", maybe after a "#") or a run of 2+ spaces, then value
const COLUMNS = /^([^\s.#][^.#]{0,58}?)\s*(?:#?\s*(?:\.\s?){3,}|#|\s{2,})\s*(\S.*)$/;

/**
 * Where the first run of two spaces, ". ." / ".." leader or "#" in u[from, to) starts (a
 * columns line's gap), or -1.
 */
function gapIn(units: Uint16Array, from: number, to: number): number {
  // Each character is read once, and carried as the next one's predecessor: this runs over
  // the first 64 characters of most colon-less lines that start like a key.
  let p = units[from];
  for (let i = from + 1; i < to; i++) {
    const c = units[i];
    if (c === 35) return i;
    if ((c === 32 && p === 32) || (c === 46 && (p === 46 || p === 32))) return i - 1;
    p = c;
  }
  return -1;
}

/**
 * JPRS's "[Domain Name]   EXAMPLE.JP" (also "a. [Domain Name]"); "[ notice ]" is a banner. Read
 * in place as /^(?:[a-z]\.\s*)?\[(\S[^\]]{0,59})\]\s*(.*)$/i reads the line u[b, e) (a regex
 * and a slice of every such line were a tenth of reading a JPRS reply): fills `out` with the
 * key's start and end and the value's start, and returns whether the line is one.
 */
function bracketed(u: Uint16Array, b: number, e: number, out: Int32Array): boolean {
  let q = b;
  const c = u[b] | 32;
  if (c >= 97 && c <= 122 && u[b + 1] === 46) {
    q = b + 2;
    while (q < e && isSpace(u[q])) q++;
  }
  if (q >= e - 2 || u[q] !== 91 || isSpace(u[q + 1])) return false;
  // the key: one character that is not a space (a "]" too), then up to 59 that are not "]"
  let ke = q + 2;
  while (ke < e && ke < q + 61 && u[ke] !== 93) ke++;
  if (ke >= e || u[ke] !== 93) return false;
  let vb = ke + 1;
  while (vb < e && isSpace(u[vb])) vb++;
  // "." stops at a line terminator, and "$" is the line's end: a value with one is no match
  for (let i = vb; i < e; i++) {
    const v = u[i];
    if (v === 10 || v === 13 || v === 0x2028 || v === 0x2029) return false;
  }
  out[0] = q + 1;
  out[1] = ke;
  out[2] = vb;
  return true;
}

/** What bracketed and tabbedKey find: a key's start and end, a value's start. */
const spans = new Int32Array(3);

/** A bracketed line's key and value (what `bracketed` finds in it), for tests. */
export function bracketedLine(line: string): { key: string; value: string } | undefined {
  if (!bracketed(codeUnits(line, PAST_END), 0, line.length, spans)) return undefined;
  return { key: line.slice(spans[0], spans[1]), value: line.slice(spans[2]) };
}

// "Record created on 22-Apr-2003", "Record last updated on Mon Apr 19 21:47:14 2010": no colon
// after the key (and the time's colons must not split it).
const RECORD_ON = /^record (expires|created|changed|updated|last updated|modified) on [^:]/i;

/**
 * The one line form the offset reader does not read as is: SWITCH (.ch/.li) separates key and
 * value with a tab and no colon (a host name followed by its address is a value line, not a
 * key), and TWNIC and MONIC write "Record expires on <date>" without a colon.
 */
/**
 * Whether the line u[b, e) (text from b; e trimmed) is one rewrite() makes "key: value" by its
 * tab, read in place as /^(\s*)(\S[^\t:]*?)\t+(.+)$/ and the test of its key: fills `out` with
 * the key's end and the value's start.
 */
function tabbedKey(u: Uint16Array, b: number, e: number, out: Int32Array): boolean {
  // the key: from its first character (not a space) to the first tab, with no ":" or "."
  let t = b;
  if (u[t] === 58 || u[t] === 46) return false;
  for (t = b + 1; t < e; t++) {
    const c = u[t];
    if (c === 9) break;
    if (c === 58 || c === 46) return false;
  }
  if (t >= e) return false;
  let vb = t;
  while (vb < e && u[vb] === 9) vb++;
  if (vb >= e) return false;
  // "." stops at a line terminator, and "$" is the line's end
  for (let i = vb; i < e; i++) {
    const c = u[i];
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) return false;
  }
  out[1] = t;
  out[2] = vb;
  return true;
}

/** A tabbed line's key and value as tabbedKey reads them (for tests). */
export function tabbedLine(line: string): { key: string; value: string } | undefined {
  let b = 0;
  while (b < line.length && isSpace(line.charCodeAt(b))) b++;
  let e = line.length;
  while (e > b && isSpace(line.charCodeAt(e - 1))) e--;
  if (!tabbedKey(codeUnits(line, PAST_END), b, e, spans)) return undefined;
  return { key: line.slice(b, spans[1]), value: line.slice(spans[2], e) };
}

function rewrite(line: string): string {
  const body = line.trimStart();
  if (line.includes('\t')) {
    const tab = /^(\s*)(\S[^\t:]*?)\t+(.+)$/.exec(line);
    if (tab && !/[:.]/.test(tab[2])) line = keyValue(tab[1] + tab[2], tab[3]);
  }
  const first = body.charCodeAt(0);
  if ((first === 82 || first === 114) && RECORD_ON.test(body)) {
    const rec = /^(\s*)(record [a-z ]+? on)\s+(.+)$/i.exec(line);
    if (rec) line = keyValue(rec[1] + rec[2], rec[3]);
  }
  return line;
}

/** "key: value" (a template literal: the walk reads the line's code units, not the string). */
function keyValue(key: string, value: string): string {
  return `${key}: ${value}`;
}

/** Where "Key-Name:" or "Key;I:" from `from` ends in a colon, or -1: a class-prefixed key. */
function classedKey(u: Uint16Array, from: number, e: number): number {
  for (let i = from; i < e && i < from + 40; i++) {
    const c = u[i];
    if (c === 58) return i > from ? i : -1;
    if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 59)) return -1;
  }
  return -1;
}

/** The text before the colon starts with a host name and a space: a host line, not a key. */
function hostFirst(str: string, u: Uint16Array, b: number, colon: number): boolean {
  let i = b;
  while (i < colon && !isSpace(u[i])) i++;
  return i < colon && HOSTISH.test(str.slice(b, i));
}

/**
 * Where the key of a starred line ("** Domain Name: x", "*** Registrar:") starts, when the text
 * after the stars is a key the table knows (a field or a heading) followed by a colon; else -1:
 * the line is a comment or a banner, as any other starred line.
 */
function starredKey(text: string, u: Uint16Array, b: number, e: number): number {
  let k = b;
  while (k < e && u[k] === 42) k++;
  if (k === b || k >= e || !isSpace(u[k])) return -1;
  while (k < e && isSpace(u[k])) k++;
  const colon = text.indexOf(':', k);
  if (colon < 0 || colon >= e || colon - k > 60) return -1;
  let end = colon;
  while (end > k && isSpace(u[end - 1])) end--;
  if (end === k) return -1;
  const facts = lookUpFactsAt(text, k, end, u);
  return (facts & (FACT_SLOT_MASK | FACT_SECTION_MASK)) !== 0 ? k : -1;
}

/** One pass over a reply, keeping the walk's state between lines. */
class Reader {
  private readonly records: Rec[] = [];
  private rec = emptyRecord();
  private section: SectionKind | undefined = undefined;
  /** indent of the line that opened the section */
  private indent = -1;
  /** a bare heading (no colon) holds until a blank line or another heading */
  private sticky = false;
  /**
   * RIPE-style object block (AFNIC, RU): contact objects are skipped, the registrar's is read.
   * A host object (isHostObjectKey) is skipped as a contact is: it is not the domain's.
   */
  private block: 'contact' | 'registrar' | undefined = undefined;
  private atBlockStart = true;
  /** a colon heading followed by bare lines (NASK's "REGISTRAR:" block) keeps its inline keys */
  private bare = false;
  /** the field (its SLOT) and indent of the last top-level "key: value", for continuation lines */
  private lastField = NO_SLOT;
  /** the field (its SLOT) a key line without a value names; the lines below it are its value */
  private sectionField = NO_SLOT;
  private lastIndent = 0;
  /**
   * The least indent of the reply's lines: indents are read from it, so a reply whose every
   * line is indented (as Nominet's are, and as a client may print one) opens its blocks and
   * headings at depth 0 as one written at the margin does.
   */
  private baseIndent = 0;
  /** a YAML document started ("--- #YAML:1.0", SMALLREGISTRY): its keys may carry tags */
  private yaml = false;
  // Next ':' and tab at or after the last place asked about. Lines are read in order, so each
  // search starts where the previous one may stop: the whole reply is scanned once, not once
  // per line (indexOf alone would rescan a long colon-free stretch from every line in it).
  private colonAt = -1;
  private tabAt = -1;
  /** the line being read is a rewritten copy, not a stretch of the reply */
  private rewritten = false;
  /** the reply's code units (the scan's) */
  private readonly units: Uint16Array;
  /** the code units of the string being read: the reply's, or a rewritten line's */
  private lineUnits: Uint16Array;

  /** The facts (keys.ts) of the key str[from, to) of the string being read. */
  private keyAt(str: string, from: number, to: number): number {
    return lookUpFactsAt(str, from, to, this.lineUnits);
  }

  private readonly text: string;

  constructor(private readonly scan: Scan) {
    this.text = scan.text;
    this.units = this.lineUnits = scan.units;
  }

  read(): Rec[] {
    const { lineEnds, lineCount } = this.scan;
    const text = this.text;
    const u = this.units;
    this.baseIndent = leastIndent(u, lineEnds, lineCount);
    let start = 0;
    // Each line is settled here as far as its first characters allow, and only a line that may
    // hold data goes on to line(): a call per line (two, through a method of its own for this
    // part) cost as much as trimming it.
    for (let k = 0; k < lineCount; k++, start = lineEnds[k - 1] + 1) {
      let e = lineEnds[k];
      let b = start;
      while (e > start && isSpace(u[e - 1])) e--;
      while (b < e && isSpace(u[b])) b++;
      if (b === e) {
        this.blank();
        continue;
      }
      // A RIPE-style contact object ("person:", "nic-hdl:" opening a block) is skipped whole, up
      // to the next blank line: line() returns for each of its lines whatever they hold (only a
      // block's first line can open one, and a blank line ends it), so they are not read at all.
      if (this.block === 'contact') continue;
      const first = u[b];
      // %, #, * and ">>>" open comments and banners; but "** Domain Name: x" and "** Domain
      // Servers:" (TRABIS, .tr) are starred keys and headings: read when the key is one.
      if (first === 42) {
        const key = starredKey(text, u, b, e);
        if (key >= 0) this.line(text, key, key, e);
        continue;
      }
      if (first === 37 || first === 35) continue;
      if (first === 62 && text.startsWith('>>>', b)) continue;
      // Rulers between blocks carry nothing; dropping them keeps headings next to their values.
      // "---" or "--- #YAML:1.0" starts a YAML document (SMALLREGISTRY): its keys may carry tags
      if (first === 45 && isYamlStart(u, b, e)) {
        this.yaml = true;
        continue;
      }
      if ((first === 45 || first === 61 || first === 95) && isRuler(u, b, e)) continue;
      if ((first === 91 || (u[b + 1] === 46 && u[b + 3] === 91)) && bracketed(u, b, e, spans)) {
        this.keyValueLine(text, spans[0], spans[0], spans[1], spans[2], e);
        continue;
      }
      // A cheap superset of the lines rewrite() may change; it decides exactly.
      const recordLike = (first === 82 || first === 114) && u[b + 6] === 32;
      if (recordLike || this.tabBefore(start, e)) this.rewritable(start, b, e, recordLike);
      else this.line(text, start, b, e);
    }
    this.records.push(this.rec);
    return this.records;
  }

  /** A line that has a tab, or may be "Record expires on ...": u[start, e), its text from b. */
  private rewritable(start: number, b: number, e: number, recordLike: boolean): void {
    const text = this.text;
    // "Key<tab>value" (most lines with a tab) is read in place as rewrite() writes it.
    if (!recordLike && tabbedKey(this.units, b, e, spans)) {
      this.keyValueLine(text, start, b, spans[1], spans[2], e);
      return;
    }
    const raw = text.slice(start, e);
    const line = rewrite(raw);
    // Unchanged, the line is read in place like any other (a slice is one more string
    // representation for the walk's character reads to meet).
    if (line === raw) {
      this.line(text, start, b, e);
      return;
    }
    let lb = 0;
    while (lb < line.length && isSpace(line.charCodeAt(lb))) lb++;
    this.rewrittenLine(line, lb);
  }

  /** Reads `line`, a rewritten copy of a line (not a stretch of the reply), its text from `b`. */
  private rewrittenLine(line: string, b: number): void {
    // A line rewritten again (a columns line inside a rewritten one) gets its own copy.
    this.readRewritten(line, b, this.rewritten ? codeUnits(line, PAST_END) : lineUnitsOf(line));
  }

  /**
   * Reads str[start, ke) and str[vb, ve) of the string being read as the line "key: value" (a
   * bracketed, tabbed or columns line), its key from kb (an indent from start to kb is kept).
   */
  private keyValueLine(
    str: string,
    start: number,
    kb: number,
    ke: number,
    vb: number,
    ve: number,
  ): void {
    const kv = keyValue(str.slice(start, ke), str.slice(vb, ve));
    const fits = !this.rewritten && kv.length <= LINE_LIMIT;
    const u = fits ? keyValueUnits(this.lineUnits, start, ke, vb, ve) : codeUnits(kv, PAST_END);
    this.readRewritten(kv, kb - start, u);
  }

  private readRewritten(line: string, b: number, units: Uint16Array): void {
    const wasRewritten = this.rewritten;
    const wasUnits = this.lineUnits;
    this.rewritten = true;
    this.lineUnits = units;
    this.line(line, 0, b, line.length);
    this.rewritten = wasRewritten;
    this.lineUnits = wasUnits;
  }

  private slashAt = -1;
  private parenAt = -1;

  /** hasReadings, with the next '/' and '(' found once for the whole reply (as colonAt is). */
  private readingsIn(str: string, from: number, to: number): boolean {
    if (this.rewritten) return hasReadings(str, from, to);
    // A bilingual key has a spaced slash ("Estado / Status"); "State/Province" does not.
    // The slash is looked for, not " /": spaces are everywhere in a reply, and a two-character
    // search stops at each one; slashes are rare.
    if (this.slashAt < from) {
      const text = this.text;
      let at = text.indexOf('/', from + 1);
      while (at >= 0 && this.units[at - 1] !== 32) at = text.indexOf('/', at + 1);
      this.slashAt = at < 0 ? text.length : at - 1;
    }
    if (this.parenAt < from) {
      const at = this.text.indexOf('(', from);
      this.parenAt = at < 0 ? this.text.length : at;
    }
    return this.slashAt < to || this.parenAt < to;
  }

  private tabBefore(from: number, end: number): boolean {
    if (this.tabAt < from) {
      const t = this.text.indexOf('\t', from);
      this.tabAt = t < 0 ? this.text.length : t;
    }
    return this.tabAt < end;
  }

  private colonFrom(str: string, from: number): number {
    if (this.rewritten) {
      // A rewritten line is short, and its string may be a rope: its code units are searched.
      const u = this.lineUnits;
      for (let i = from; i < str.length; i++) if (u[i] === 58) return i;
      return -1;
    }
    if (this.colonAt < from) {
      const c = this.text.indexOf(':', from);
      this.colonAt = c < 0 ? this.text.length : c;
    }
    return this.colonAt;
  }

  /** The colon that splits "key: value": the first one not part of "://", within 100 characters. */
  private keyColon(str: string, b: number, e: number): number {
    const u = this.lineUnits;
    let from = b;
    for (;;) {
      const c = this.colonFrom(str, from);
      if (c <= b || c >= e || c - b > 100) return -1;
      if (u[c + 1] === 47 && u[c + 2] === 47) {
        from = c + 1;
        continue;
      }
      return c;
    }
  }

  private blank(): void {
    if (this.sticky) this.section = undefined;
    this.block = undefined;
    this.atBlockStart = true;
    this.lastField = NO_SLOT;
  }

  /** A non-blank line of `str` from `start` to `e`, its text (after the indent) from `b`. */
  private line(str: string, start: number, bodyStart: number, e: number): void {
    const u = this.lineUnits;
    let b = bodyStart;
    const blockStart = this.atBlockStart;
    this.atBlockStart = false;
    const indent = b === start ? 0 : indentOf(u, start, b) - this.baseIndent;
    let colon = this.keyColon(str, b, e);
    if (colon < 0) {
      this.bareText(str, b, e, indent);
      return;
    }
    // "domain:Created:20090324": an object class before the key (.ma). The key is the second.
    const next = u[colon + 1];
    if (next >= 65 && next <= 90) {
      const second = classedKey(u, colon + 1, e);
      if (second > 0) {
        b = colon + 1;
        colon = second;
      }
    }
    // A YAML tag after the key ("registrar: !Registrar", "registrant: !Contact": SMALLREGISTRY's
    // YAML replies) types the block below it: the key is a heading, and the tag no value.
    if (this.yaml && isSpace(next)) {
      let v = colon + 1;
      while (v < e && isSpace(u[v])) v++;
      if (u[v] === 33 && isYamlTag(u, v, e)) e = colon + 1;
    }
    // The key ends before the spaces and any dot leader before its colon ("Server Name.....:").
    let k = colon;
    while (k > b && (isSpace(u[k - 1]) || u[k - 1] === 46)) k--;
    // Whether a value follows: where the line ends in a character that is neither a space nor a
    // colon, something does (most lines); otherwise the value's start is looked for. The start
    // itself is found only for the lines read past the tests below: the lines they settle are
    // often padded to a column ("Registrant Name:          ..."), thirty spaces to step over.
    const last = u[e - 1];
    const hasValue =
      e > colon + 1 && last !== 58 && !isSpace(last) ? true : valueStart(u, colon, e) < e;
    let section = this.section;
    let nested =
      section !== undefined &&
      (this.sticky || indent > this.indent || (this.bare && section === 'registrar'));
    // In a name-server list, "ns2.example.ch [2001:db8::12]" is a host and its address.
    if (section === 'ns' && indent >= this.indent && hostFirst(str, u, b, colon)) {
      this.bareText(str, b, e, indent);
      return;
    }
    // A contact section ends where the domain's own data resumes at its depth ("Registrant:"
    // with the domain name, dates and servers indented below it, as EENet and NIC.VE write).
    if (nested && section === 'contact' && this.block === undefined && mayBeFieldKey(u, b, k)) {
      if ((this.keyAt(str, b, k) & FACT_DOMAIN_KEY) !== 0) {
        this.section = section = undefined;
        this.sticky = false;
        nested = false;
      }
    }
    // Lines whose key cannot change anything are settled before the key is looked up: inside a
    // contact object or section, and top-level keys that cannot be a field. Only the first line
    // of a block can open one, so it is always looked up.
    const opensBlock = blockStart && hasValue;
    const hostObject = opensBlock && isHostObjectKey(u, b, k);
    if (!(hostObject || (opensBlock && indent === 0)) && this.block !== 'registrar') {
      if (this.block === 'contact') return;
      if (nested && section === 'contact') {
        if (!hasValue) this.lastField = NO_SLOT;
        return;
      }
      if (!nested && hasValue && !mayBeFieldKey(u, b, k) && !this.readingsIn(str, b, k)) {
        this.section = undefined;
        this.sticky = false;
        this.lastField = NO_SLOT;
        this.lastIndent = indent;
        return;
      }
    }
    // The value starts past the spaces after the colon (and a second colon: "Key: :" is empty).
    // Found here, not by looking for the line's next colon: that search stopped at every colon
    // of every value (times, URLs), one native call each.
    const v = valueStart(u, colon, e);
    const facts = this.keyAt(str, b, k);
    const rec = this.rec;
    if (hostObject) this.block = 'contact';
    else if (opensBlock && indent === 0) {
      if ((facts & FACT_CONTACT_BLOCK) !== 0) this.block = 'contact';
      else if (
        (facts & FACT_REGISTRAR_KEY) !== 0 &&
        rec.fields[REGISTRAR] === valueText(str, v, e)
      ) {
        this.block = 'registrar';
      }
    }
    if (this.block === 'contact') return;
    if (this.block === 'registrar') {
      const action = actionOf(facts);
      if (action) registrarLine(rec, action, valueText(str, v, e));
      return;
    }
    if (!hasValue) {
      const opens = sectionOf(facts);
      // An empty field inside a list or block ("Primary Server Netaddress..: ") leaves it open.
      if (nested && this.sticky && opens === undefined && section !== 'other') {
        this.lastField = NO_SLOT;
        return;
      }
      if (!(nested && section === 'contact')) {
        this.section = opens ?? 'other';
        this.sectionField = opens === undefined ? slotOf(facts) : NO_SLOT;
        this.indent = indent;
        // "Registrar:" holds the lines below it at its own depth too ("name:", "url:"), up to a
        // blank line or the next heading, as the Estonian and RIPE-like replies write it.
        this.sticky = opens === 'registrar' && indent === 0;
        this.bare = false;
      }
      this.lastField = NO_SLOT;
      return;
    }
    if (nested) {
      if (section === 'contact') return;
      if (section === 'registrar') {
        const action = actionOf(facts);
        if (action) registrarLine(rec, action, valueText(str, v, e));
        return;
      }
      if (section === 'ns' && (facts & FACT_NS_KEY) !== 0) {
        addNsAt(rec, str, u, v, e);
        return;
      }
    } else {
      this.section = undefined;
      this.sticky = false;
    }
    const field = slotOf(facts);
    this.lastField = field;
    this.lastIndent = indent;
    if (field === NO_SLOT) return;
    // A second "Domain Name" starts the registrar's copy of the record (thin registries).
    if (field === DOMAIN && rec.fields[DOMAIN] !== undefined) {
      this.records.push(rec);
      this.rec = emptyRecord();
    }
    if (takesValue(this.rec, field)) {
      setFieldAt(this.rec, field, str, u, v, e);
    }
  }

  /** A line without "key:" is a heading, a continuation, or a value inside the current section. */
  private bareText(str: string, b: number, e: number, indent: number): void {
    if (this.block !== undefined) return;
    const inContact = this.section === 'contact' && (this.sticky || indent > this.indent);
    // Inside a contact section only a line at the heading's own depth may be the next heading
    // ("Billing Contact" ... "Nameservers"); deeper lines are the contact's, not looked up.
    const mayHead = !inContact || indent <= this.indent;
    const heading = e - b <= 40 && mayHead ? sectionOf(this.keyAt(str, b, e)) : undefined;
    if (heading === undefined && !inContact && this.columns(str, b, e)) return;
    if (heading !== undefined) {
      this.section = heading;
      this.sectionField = NO_SLOT;
      this.indent = indent;
      this.sticky = true;
      this.bare = false;
      this.lastField = NO_SLOT;
      return;
    }
    if (this.lastField !== NO_SLOT && indent > this.lastIndent && this.section === undefined) {
      if (this.lastField === NS || this.lastField === STATUS) {
        setField(this.rec, this.lastField, str.slice(b, e));
      }
      return;
    }
    if (this.section === undefined || indent < this.indent) return;
    this.bare = true;
    if (this.section === 'other') {
      if (this.sectionField !== NO_SLOT) setField(this.rec, this.sectionField, str.slice(b, e));
      return;
    }
    const section = this.section;
    if (section === 'ns') bareNsAt(this.rec, str, this.lineUnits, b, e);
    // bareLine keeps nothing of a contact's or the dates' lines: no slice is made for them.
    else if (section !== 'contact' && section !== 'dates')
      bareLine(this.rec, section, str.slice(b, e));
  }

  /**
   * A colon-less "key value" line: a dot leader ("Nom de domaine. . . . .google.dz") or aligned
   * columns ("Created on      2005/05/30"). Read as "key: value" only when the key is one the
   * synonym table knows, so prose is never taken for data.
   */
  private columns(str: string, b: number, e: number): boolean {
    // Most colon-less lines are prose: the line must start like a field key (the bitmap) before
    // any gap is looked for.
    const u = this.lineUnits;
    if (e - b > 200 || !mayBeFieldKey(u, b, e)) return false;
    const gap = gapIn(u, b, Math.min(e, b + 64));
    // The key before the gap must be able to name a field (the bitmap, as for "key: value").
    if (gap < 0 || !mayBeFieldKey(u, b, gap)) return false;
    const text = str.slice(b, e);
    const m = COLUMNS.exec(text);
    if (!m) return false;
    const info = lookUpKey(m[1]);
    if (info.field === undefined) return false;
    // The key opens the line, the value ends it.
    this.keyValueLine(str, b, b, b + m[1].length, e - m[2].length, e);
    return true;
  }
}

/**
 * Whether u[b, k) is "Server Name", any case: the key that opens a host object in the replies of
 * Verisign's thin registry (.com, .net), which list every name server named like the query
 * ("Server Name: EXAMPLE.COM.SOME.HOST", with its address and its registrar) before the domain's
 * record. The registrar of such a block is the host's, never the domain's.
 */
function isHostObjectKey(u: Uint16Array, b: number, k: number): boolean {
  return k - b === HOST_OBJECT_KEY.length && lowerEquals(u, b, HOST_OBJECT_KEY);
}

const HOST_OBJECT_KEY = 'server name';
