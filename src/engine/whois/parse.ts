// Port-43 WHOIS text -> the seed's WHOIS shape. Pure: no I/O, never throws on odd input (only
// the deliberate not_found / rate_limited LookupErrors). Registries disagree on everything, so
// the reader is one generic "key: value" walk that understands sections (indented blocks and
// bare headings such as "Registrar" or "Name servers"), with the few spellings that cannot be
// read that way handled before the walk.
//
// Speed: the walk reads the reply in place, one pass, by offsets. A line becomes a string only
// when it is rewritten (tabs, "Record expires on") or its text is needed (a key, a heading, a
// value the record keeps); comments, rulers and the values of keys nobody reads never do.
import { domainToASCII } from 'node:url';
import { LookupError } from '../../contract/errors';
import type { WhoisDomain, WhoisRegistrar, WhoisResult } from '../../contract/shapes';
import { normalizeDate, type SlashOrder } from './dates';
import { isSpace as spaceChar } from './chars';
import { classifyReply } from './reply';
import {
  emptyFields,
  FIELDS,
  hasReadings,
  keyInfo,
  keyInfoAt,
  mayBeField,
  type Field,
  type FieldValues,
  type RegistrarAction,
  type SectionKind,
} from './keys';

export { normalizeKey } from './keys';
export { classifyReply, findReferral, isNotFound, isRateLimited } from './reply';

// The per-line look-ups, bound once. Transpiled file by file to CommonJS (tsx, mocha), every
// use of an imported name is a property read through an export getter; on a path taken for
// every line of every reply that measured several per cent of the parse.
const lookUpKey = keyInfo;
const lookUpKeyAt = keyInfoAt;
const mayBeFieldKey = mayBeField;
/** The characters String.prototype.trim removes, so offsets agree with trim() exactly. */
const isSpace = spaceChar;

export interface ParseOptions {
  /** the name that was asked for (A-label); used when the reply does not echo it */
  domain?: string;
}

interface Rec {
  fields: FieldValues;
  status: string[];
  ns: string[];
}

const REDACTED =
  /redacted|not disclosed|withheld|data protected|non-public|privacy|not available|hidden upon user request|gdpr|statutory masking/i;

/**
 * Parses a registry or registrar reply into exactly one of four kinds: a result (the name is
 * registered, or held by the registry, and the reply shows it), `not_found` (not registered:
 * free, or reserved without a registration), `rate_limited` (refused for the query rate, a quota
 * or a blocked client, with the server's words) or `upstream_error` (anything it cannot tell).
 */
export function parseWhois(text: string, options: ParseOptions = {}): WhoisResult {
  const result = build(new Reader(text).read(), options, text);
  // An object literal, not a spread: spreading cost as much as reading the dates.
  if (result !== undefined && result.data) {
    return { domain: result.domain, registrar: result.registrar, source: 'whois', raw: text };
  }
  const said = classifyReply(text);
  // A record with only a date of change (RIPE-style "changed:") is registered unless the reply
  // says otherwise ("Status: free", "organisation: Not assigned").
  if (
    result !== undefined &&
    said === undefined &&
    result.domain.updated_date !== undefined &&
    !(result.domain.status ?? []).some((st) => FREE_STATUS.test(st))
  ) {
    return { domain: result.domain, registrar: result.registrar, source: 'whois', raw: text };
  }
  if (said?.kind === 'rate_limited') {
    throw new LookupError('rate_limited', `The WHOIS server refused the query: ${said.line}`);
  }
  const status = result?.domain.status ?? [];
  if (said?.kind === 'not_found' || status.some((s) => FREE_STATUS.test(s))) {
    throw new LookupError('not_found', 'The domain is not registered');
  }
  if (result !== undefined && result.domain.domain !== undefined && status.length > 0) {
    return { domain: result.domain, registrar: result.registrar, source: 'whois', raw: text };
  }
  if (said?.kind === 'reserved') {
    throw new LookupError(
      'not_found',
      `The domain is not registered, and the registry holds it back: ${said.line}`,
    );
  }
  throw new LookupError(
    'upstream_error',
    'The WHOIS server sent a reply with no registration data',
  );
}

/** A status that says the name is free ("Domain Status: Available"). */
const FREE_STATUS = /^(available|free|notregistered|noobjectfound|unassigned|notfound)$/;

function indentOf(line: string, from: number): number {
  let n = 0;
  for (let i = from; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32) n += 1;
    else if (c === 9) n += 4;
    else break;
  }
  return n;
}

/** Where the value after a key's colon starts: past spaces, and past a doubled colon. */
function valueStart(str: string, colon: number, e: number): number {
  let v = colon + 1;
  while (v < e && isSpace(str.charCodeAt(v))) v++;
  if (v < e && str.charCodeAt(v) === 58) {
    v++;
    while (v < e && isSpace(str.charCodeAt(v))) v++;
  }
  return v;
}

/** The value of a "key: value" line; `v` is its start when already known, else -1. */
function valueText(str: string, colon: number, v: number, e: number): string {
  if (v >= 0) return str.slice(v, e);
  // Native trimming beats a character loop over aligned values ("Registrar:      X").
  const value = str.slice(colon + 1, e).trimStart();
  return value.charCodeAt(0) === 58 ? value.slice(1).trimStart() : value;
}

/** A ruler between blocks (---, ===, ___) carries nothing. */
function isRuler(text: string, from: number, end: number): boolean {
  if (end - from < 3) return false;
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 45 && c !== 61 && c !== 95) return false;
  }
  return true;
}

// key, then a dot leader (". . . ." or "....", maybe after a "#") or a run of 2+ spaces, then value
const COLUMNS = /^([^\s.#][^.#]{0,58}?)\s*(?:#?\s*(?:\.\s?){3,}|#|\s{2,})\s*(\S.*)$/;

/**
 * Where the first run of two spaces, ". ." / ".." leader or "#" in str[from, to) starts (a
 * columns line's gap), or -1.
 */
function gapAt(str: string, from: number, to: number): number {
  for (let i = from + 1; i < to; i++) {
    const c = str.charCodeAt(i);
    const p = str.charCodeAt(i - 1);
    if (c === 35) return i;
    if ((c === 32 && p === 32) || (c === 46 && (p === 46 || p === 32))) return i - 1;
  }
  return -1;
}

/** JPRS's "[Domain Name]   EXAMPLE.JP" (also "a. [Domain Name]"); "[ notice ]" is a banner. */
const BRACKETED = /^(?:[a-z]\.\s*)?\[(\S[^\]]{0,59})\]\s*(.*)$/i;

// "Record created on 22-Apr-2003", "Record last updated on Mon Apr 19 21:47:14 2010": no colon
// after the key (and the time's colons must not split it).
const RECORD_ON = /^record (expires|created|changed|updated|last updated|modified) on [^:]/i;

/**
 * The one line form the offset reader does not read as is: SWITCH (.ch/.li) separates key and
 * value with a tab and no colon (a host name followed by its address is a value line, not a
 * key), and TWNIC and MONIC write "Record expires on <date>" without a colon.
 */
function rewrite(line: string): string {
  const body = line.trimStart();
  if (line.includes('\t')) {
    const tab = /^(\S[^\t:]*?)\t+(.+)$/.exec(line);
    if (tab && !/[:.]/.test(tab[1])) line = keyValue(tab[1], tab[2]);
  }
  const first = body.charCodeAt(0);
  if ((first === 82 || first === 114) && RECORD_ON.test(body)) {
    const rec = /^(\s*)(record [a-z ]+? on)\s+(.+)$/i.exec(line);
    if (rec) line = keyValue(rec[1] + rec[2], rec[3]);
  }
  return line;
}

/**
 * "key: value" as a flat string. A template literal makes a rope (a cons string), and every
 * charCodeAt the walk does on a line of yet another string representation made those calls
 * megamorphic: slower for every line of every reply, not only the rewritten ones.
 */
function keyValue(key: string, value: string): string {
  return [key, ': ', value].join('');
}

function emptyRecord(): Rec {
  return { fields: emptyFields(), status: [], ns: [] };
}

const HOSTISH = /^[a-z0-9_-]+(\.[a-z0-9_-]+)+\.?$/i;

/** Where "Key-Name:" or "Key;I:" from `from` ends in a colon, or -1: a class-prefixed key. */
function classedKey(str: string, from: number, e: number): number {
  for (let i = from; i < e && i < from + 40; i++) {
    const c = str.charCodeAt(i);
    if (c === 58) return i > from ? i : -1;
    if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 59)) return -1;
  }
  return -1;
}

/** The text before the colon starts with a host name and a space: a host line, not a key. */
function hostFirst(str: string, b: number, colon: number): boolean {
  let i = b;
  while (i < colon && !isSpace(str.charCodeAt(i))) i++;
  return i < colon && HOSTISH.test(str.slice(b, i));
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
  /** RIPE-style object block (AFNIC, RU): contact objects are skipped, the registrar's is read */
  private block: 'contact' | 'registrar' | undefined = undefined;
  private atBlockStart = true;
  /** a colon heading followed by bare lines (NASK's "REGISTRAR:" block) keeps its inline keys */
  private bare = false;
  /** the field and indent of the last top-level "key: value", for continuation lines */
  private lastField: Field | undefined = undefined;
  /** the field a key line without a value names; the lines below it are its value */
  private sectionField: Field | undefined = undefined;
  private lastIndent = 0;
  // Next ':' and tab at or after the last place asked about. Lines are read in order, so each
  // search starts where the previous one may stop: the whole reply is scanned once, not once
  // per line (indexOf alone would rescan a long colon-free stretch from every line in it).
  private colonAt = -1;
  private tabAt = -1;
  /** the line being read is a rewritten copy, not a stretch of the reply */
  private rewritten = false;

  constructor(private readonly text: string) {}

  read(): Rec[] {
    const text = this.text;
    let start = 0;
    for (;;) {
      let nl = text.indexOf('\n', start);
      if (nl < 0) nl = text.length;
      this.rawLine(start, nl);
      if (nl === text.length) break;
      start = nl + 1;
    }
    this.records.push(this.rec);
    return this.records;
  }

  private rawLine(start: number, end: number): void {
    const text = this.text;
    let e = end;
    while (e > start && isSpace(text.charCodeAt(e - 1))) e--;
    let b = start;
    while (b < e && isSpace(text.charCodeAt(b))) b++;
    if (b === e) {
      this.blank();
      return;
    }
    const first = text.charCodeAt(b);
    // %, #, * and ">>>" open comments and banners.
    if (first === 37 || first === 35 || first === 42) return;
    if (first === 62 && text.startsWith('>>>', b)) return;
    // Rulers between blocks carry nothing; dropping them keeps headings next to their values.
    if ((first === 45 || first === 61 || first === 95) && isRuler(text, b, e)) return;
    if (first === 91 || (text.charCodeAt(b + 1) === 46 && text.charCodeAt(b + 3) === 91)) {
      const m = BRACKETED.exec(text.slice(b, e));
      if (m) {
        const kv = keyValue(m[1], m[2]);
        this.rewritten = true;
        this.line(kv, 0, 0, kv.length);
        this.rewritten = false;
        return;
      }
    }
    // A cheap superset of the lines rewrite() may change; it decides exactly.
    const recordLike = (first === 82 || first === 114) && text.charCodeAt(b + 6) === 32;
    if (recordLike || this.tabBefore(start, e)) {
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
      this.rewritten = true;
      this.line(line, 0, lb, line.length);
      this.rewritten = false;
      return;
    }
    this.line(text, start, b, e);
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
      while (at >= 0 && text.charCodeAt(at - 1) !== 32) at = text.indexOf('/', at + 1);
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
    if (this.rewritten) return str.indexOf(':', from);
    if (this.colonAt < from) {
      const c = this.text.indexOf(':', from);
      this.colonAt = c < 0 ? this.text.length : c;
    }
    return this.colonAt;
  }

  /** The colon that splits "key: value": the first one not part of "://", within 100 characters. */
  private keyColon(str: string, b: number, e: number): number {
    let from = b;
    for (;;) {
      const c = this.colonFrom(str, from);
      if (c <= b || c >= e || c - b > 100) return -1;
      if (str.charCodeAt(c + 1) === 47 && str.charCodeAt(c + 2) === 47) {
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
    this.lastField = undefined;
  }

  /** A non-blank line of `str` from `start` to `e`, its text (after the indent) from `b`. */
  private line(str: string, start: number, bodyStart: number, e: number): void {
    let b = bodyStart;
    const blockStart = this.atBlockStart;
    this.atBlockStart = false;
    const indent = b === start ? 0 : indentOf(str, start);
    let colon = this.keyColon(str, b, e);
    if (colon < 0) {
      this.bareText(str, b, e, indent);
      return;
    }
    // "domain:Created:20090324": an object class before the key (.ma). The key is the second.
    const next = str.charCodeAt(colon + 1);
    if (next >= 65 && next <= 90) {
      const second = classedKey(str, colon + 1, e);
      if (second > 0) {
        b = colon + 1;
        colon = second;
      }
    }
    let k = colon;
    while (k > b && isSpace(str.charCodeAt(k - 1))) k--;
    // Where the value starts is only worked out when the value is read, or when a second colon
    // could make it empty ("Key: :"); otherwise the line's trimmed end says whether it has one.
    let v = -1;
    let hasValue = colon + 1 < e;
    if (hasValue && this.colonFrom(str, colon + 1) < e) {
      v = valueStart(str, colon, e);
      hasValue = v < e;
    }
    let section = this.section;
    let nested =
      section !== undefined &&
      (this.sticky || indent > this.indent || (this.bare && section === 'registrar'));
    // In a name-server list, "ns2.example.ch [2001:db8::12]" is a host and its address.
    if (section === 'ns' && indent >= this.indent && hostFirst(str, b, colon)) {
      this.bareText(str, b, e, indent);
      return;
    }
    // A contact section ends where the domain's own data resumes at its depth ("Registrant:"
    // with the domain name, dates and servers indented below it, as EENet and NIC.VE write).
    if (nested && section === 'contact' && this.block === undefined && mayBeFieldKey(str, b, k)) {
      const own = lookUpKeyAt(str, b, k);
      if (own.domainKey) {
        this.section = section = undefined;
        this.sticky = false;
        nested = false;
      }
    }
    // Lines whose key cannot change anything are settled before the key is looked up: inside a
    // contact object or section, and top-level keys that cannot be a field. Only the first line
    // of a block can open one, so it is always looked up.
    if (!(blockStart && indent === 0 && hasValue) && this.block !== 'registrar') {
      if (this.block === 'contact') return;
      if (nested && section === 'contact') {
        if (!hasValue) this.lastField = undefined;
        return;
      }
      if (!nested && hasValue && !mayBeFieldKey(str, b, k) && !this.readingsIn(str, b, k)) {
        this.section = undefined;
        this.sticky = false;
        this.lastField = undefined;
        this.lastIndent = indent;
        return;
      }
    }
    const info = lookUpKeyAt(str, b, k);
    const rec = this.rec;
    if (blockStart && indent === 0 && hasValue) {
      if (info.contactBlock) this.block = 'contact';
      else if (info.key === 'registrar' && rec.fields.registrar === valueText(str, colon, v, e)) {
        this.block = 'registrar';
      }
    }
    if (this.block === 'contact') return;
    if (this.block === 'registrar') {
      if (info.registrar) registrarLine(rec, info.registrar, valueText(str, colon, v, e));
      return;
    }
    if (!hasValue) {
      // An empty field inside a list or block ("Primary Server Netaddress..: ") leaves it open.
      if (nested && this.sticky && info.section === undefined && section !== 'other') {
        this.lastField = undefined;
        return;
      }
      if (!(nested && section === 'contact')) {
        this.section = info.section ?? 'other';
        this.sectionField = info.section === undefined ? info.field : undefined;
        this.indent = indent;
        // "Registrar:" holds the lines below it at its own depth too ("name:", "url:"), up to a
        // blank line or the next heading, as the Estonian and RIPE-like replies write it.
        this.sticky = info.section === 'registrar' && indent === 0;
        this.bare = false;
      }
      this.lastField = undefined;
      return;
    }
    if (nested) {
      if (section === 'contact') return;
      if (section === 'registrar') {
        if (info.registrar) registrarLine(rec, info.registrar, valueText(str, colon, v, e));
        return;
      }
      if (section === 'ns' && info.nsKey) {
        addNs(rec, valueText(str, colon, v, e));
        return;
      }
    } else {
      this.section = undefined;
      this.sticky = false;
    }
    const field = info.field;
    this.lastField = field;
    this.lastIndent = indent;
    if (field === undefined) return;
    // A second "Domain Name" starts the registrar's copy of the record (thin registries).
    if (field === 'domain' && rec.fields.domain !== undefined) {
      this.records.push(rec);
      this.rec = emptyRecord();
    }
    setField(this.rec, field, valueText(str, colon, v, e));
  }

  /** A line without "key:" is a heading, a continuation, or a value inside the current section. */
  private bareText(str: string, b: number, e: number, indent: number): void {
    if (this.block !== undefined) return;
    const inContact = this.section === 'contact' && (this.sticky || indent > this.indent);
    // Inside a contact section only a line at the heading's own depth may be the next heading
    // ("Billing Contact" ... "Nameservers"); deeper lines are the contact's, not looked up.
    const mayHead = !inContact || indent <= this.indent;
    const heading = e - b <= 40 && mayHead ? lookUpKeyAt(str, b, e).section : undefined;
    if (heading === undefined && !inContact && this.columns(str, b, e)) return;
    if (heading !== undefined) {
      this.section = heading;
      this.sectionField = undefined;
      this.indent = indent;
      this.sticky = true;
      this.bare = false;
      this.lastField = undefined;
      return;
    }
    if (this.lastField !== undefined && indent > this.lastIndent && this.section === undefined) {
      if (this.lastField === 'ns' || this.lastField === 'status') {
        setField(this.rec, this.lastField, str.slice(b, e));
      }
      return;
    }
    if (this.section === undefined || indent < this.indent) return;
    this.bare = true;
    if (this.section === 'other') {
      if (this.sectionField !== undefined) setField(this.rec, this.sectionField, str.slice(b, e));
      return;
    }
    bareLine(this.rec, this.section, str.slice(b, e));
  }

  /**
   * A colon-less "key value" line: a dot leader ("Nom de domaine. . . . .google.dz") or aligned
   * columns ("Created on      2005/05/30"). Read as "key: value" only when the key is one the
   * synonym table knows, so prose is never taken for data.
   */
  private columns(str: string, b: number, e: number): boolean {
    // Most colon-less lines are prose: the line must start like a field key (the bitmap) before
    // any gap is looked for.
    if (e - b > 200 || !mayBeFieldKey(str, b, e)) return false;
    const gap = gapAt(str, b, Math.min(e, b + 64));
    // The key before the gap must be able to name a field (the bitmap, as for "key: value").
    if (gap < 0 || !mayBeFieldKey(str, b, gap)) return false;
    const text = str.slice(b, e);
    const m = COLUMNS.exec(text);
    if (!m) return false;
    const info = lookUpKey(m[1]);
    if (info.field === undefined) return false;
    const kv = keyValue(m[1], m[2]);
    const wasRewritten = this.rewritten;
    this.rewritten = true;
    this.line(kv, 0, 0, kv.length);
    this.rewritten = wasRewritten;
    return true;
  }
}

function bareLine(rec: Rec, section: SectionKind, body: string): void {
  if (section === 'ns') {
    // Only a line that starts with a host name is one (prose after the list is not); a list
    // marker ("- ns1.example", YAML) goes first.
    const c = body.charCodeAt(0);
    const first = (c === 45 || c === 42 ? body.replace(/^[-*]\s+/, '') : body).split(/\s+/)[0];
    if (HOSTISH.test(first)) addNs(rec, first);
  } else if (section === 'status') addStatus(rec, body);
  else if (section === 'domain') {
    const m = /^(\S+)\s+is\s+(\w+)/i.exec(body);
    setOnce(rec, 'domain', m ? m[1] : body);
    if (m) addStatus(rec, m[2]);
  } else if (section === 'dnssec') setOnce(rec, 'dnssec', body);
  else if (section === 'registrar') {
    if (/^(https?:\/\/|www\.)\S+$/i.test(body)) setOnce(rec, 'registrar_url', body);
    else setOnce(rec, 'registrar', body);
  }
}

/** A "key: value" inside the registrar's block or section; the value may be empty. */
function registrarLine(rec: Rec, action: RegistrarAction, value: string): void {
  if (action.overwrite || rec.fields[action.field] === undefined) rec.fields[action.field] = value;
}

function setOnce(rec: Rec, field: Field, value: string): void {
  if (rec.fields[field] === undefined) rec.fields[field] = value;
}

function setField(rec: Rec, field: Field, value: string): void {
  if (field === 'status') addStatus(rec, value);
  else if (field === 'ns') addNs(rec, value);
  else setOnce(rec, field, value);
}

// Status and name-server values are read in place: most lines hold one item, and splitting,
// lower-casing and testing each with regexes was a good part of the parse time.
function addStatus(rec: Rec, value: string): void {
  if (!value.includes(',')) addStatusPart(rec, value);
  else for (const part of value.split(/,\s*/)) addStatusPart(rec, part);
}

function addStatusPart(rec: Rec, part: string): void {
  const v = part.trim();
  if (v === '') return;
  // The status is the first word ("clientTransferProhibited https://icann.org/epp#..."),
  // lower-cased; lower-casing neither makes nor removes spaces, so the word can be cut first.
  let space = 0;
  while (space < v.length && !isSpace(v.charCodeAt(space))) space++;
  let token = space === v.length ? v : v.slice(0, space);
  if (v.length === 13 && space < v.length && v.toLowerCase() === 'not delegated') token = v;
  // An EPP status spelt out in capitals ("CLIENT DELETE PROHIBITED") is one status.
  else if (space < v.length && isUpper(v.charCodeAt(1)) && SPELT_STATUS.test(v)) {
    token = v.replace(/\s+/g, '');
  }
  token = token.toLowerCase();
  if (!rec.status.includes(token)) rec.status.push(token);
}

function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}

const ZONE_NS = /\sNS\s+(\S+)/;

const SPELT_STATUS = /^[A-Z]+( [A-Z]+){1,3}$/;

function addNs(rec: Rec, value: string): void {
  // A zone-file line ("example.pt NS ns1.example.net.") names the server after "NS".
  const ns = value.indexOf('NS');
  const zoneLine = ns > 0 && isSpace(value.charCodeAt(ns - 1)) ? ZONE_NS.exec(value) : null;
  const host = firstHost(zoneLine ? zoneLine[1] : value);
  if (host !== undefined && !rec.ns.includes(host)) rec.ns.push(host);
}

/**
 * The first host name among the value's words (split at whitespace and commas), lower case and
 * without its trailing dot: two or more labels of [a-z0-9_-], not an address. Glue addresses and
 * "[OK]" markers travel on the same line; only host names count. One pass per word; a word with
 * characters beyond ASCII (where lower-casing can change a character's class) goes to the regexes.
 */
function firstHost(value: string): string | undefined {
  const n = value.length;
  let i = 0;
  while (i < n) {
    let c = value.charCodeAt(i);
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
    for (; j < n; j++) {
      c = value.charCodeAt(j);
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
      const host = slowHost(value.slice(i, j));
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
        const host = value.slice(i, end);
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

/**
 * How the reply writes slashed dates: as one of its dates shows ("18/12/2001" can only be day
 * first, "12/18/2001" only month first), else as it names its format ("dd/mm/yyyy",
 * "Date Format: DD/MM/YYYY", "mm/dd/yyyy"); else not known.
 */
function hasSlash(value: string | undefined): boolean {
  return value !== undefined && value.includes('/');
}

function slashOrder(values: Array<string | undefined>, text: string): SlashOrder {
  let dmy = false;
  let mdy = false;
  let ambiguous = false;
  for (const v of values) {
    if (v === undefined || !v.includes('/')) continue;
    const m = /(?:^|\s)(\d{1,2})\/(\d{1,2})\/\d{4}/.exec(v);
    if (!m) continue;
    if (+m[1] > 12) dmy = true;
    else if (+m[2] > 12) mdy = true;
    else ambiguous = true;
  }
  if (mdy !== dmy) return mdy ? 'mdy' : 'dmy';
  if (!ambiguous) return 'unknown';
  const dayFirst = /\b(dd|jj|gg|tt)[/.-]mm[/.-](yy|aa|jj)/i.test(text);
  const monthFirst = /\bmm[/.-]dd[/.-]yy/i.test(text);
  return dayFirst === monthFirst ? 'unknown' : dayFirst ? 'dmy' : 'mdy';
}

/** What a reply's records make: the seed's shape, and whether it shows a registration. */
interface Parsed {
  domain: WhoisDomain;
  registrar: WhoisRegistrar;
  /**
   * Name servers, a creation or expiry date, an id, a registrar, or a named holder. Worked out
   * while building, not read back from `domain`: its shape depends on the fields present, and
   * reading it back was a megamorphic property look-up per field.
   */
  data: boolean;
}

function build(records: Rec[], options: ParseOptions, text: string): Parsed | undefined {
  // Later records (the registrar's) are more specific than the registry's: they win per field.
  // Most replies hold one record, which is its own merge. A reply listing several names (a
  // search that matched more than one) keeps the records of the name asked for.
  let merged = records[0];
  if (records.length > 1) {
    merged = emptyRecord();
    const asked = options.domain?.toLowerCase();
    const named = records.filter((r) => r.fields.domain !== undefined);
    const mine = new Set(
      asked === undefined ? [] : named.filter((r) => recordName(r.fields.domain) === asked),
    );
    const chosen =
      mine.size > 0 && mine.size < named.length
        ? records.filter((r) => r.fields.domain === undefined || mine.has(r))
        : records;
    for (const r of chosen) {
      for (const k of FIELDS) {
        const v = r.fields[k];
        if (v !== undefined) merged.fields[k] = v;
      }
      if (r.status.length > 0) merged.status = r.status;
      if (r.ns.length > 0) merged.ns = r.ns;
    }
  }
  const f = merged.fields;
  const domain: WhoisDomain = {};
  const name = displayName(recordName(f.domain ?? options.domain ?? ''), options.domain);
  if (name === '' && merged.ns.length === 0 && FIELDS.every((k) => f[k] === undefined)) {
    return undefined;
  }
  const hasId = f.id !== undefined && usable(f.id);
  if (hasId) domain.id = f.id;
  if (name !== '') {
    domain.domain = name;
    const ascii = aLabels(name);
    if (ascii !== undefined) domain.punycode = ascii;
    const dot = name.lastIndexOf('.');
    domain.name = dot < 0 ? name : name.slice(0, dot);
    if (dot >= 0) domain.extension = name.slice(dot + 1);
  }
  const server = f.whois_server;
  if (server !== undefined && usable(server)) {
    // ':' at index 5 is the cheap sign of a "whois://" prefix worth a regex.
    domain.whois_server = server.charCodeAt(5) === 58 ? server.replace(/^whois:\/\//i, '') : server;
  }
  if (merged.status.length > 0) domain.status = merged.status;
  // "DNS: example.dk" beside the real servers names the zone, not a server of it.
  const ns =
    merged.ns.length > 1 && merged.ns.includes(name)
      ? merged.ns.filter((h) => h !== name)
      : merged.ns;
  if (ns.length > 0) domain.name_servers = ns;
  if ((f.dnssec !== undefined && isSigned(f.dnssec)) || f.ds !== undefined) domain.dnssec = true;
  // Written out (not built as `${key}_in_time`) so the result keeps one fixed object shape.
  const order =
    hasSlash(f.created) || hasSlash(f.updated) || hasSlash(f.expires)
      ? slashOrder([f.created, f.updated, f.expires], text)
      : 'unknown';
  const created = normalizeDate(f.created, order);
  if (created !== undefined) {
    domain.created_date = created;
    domain.created_date_in_time = created;
  }
  const updated = normalizeDate(f.updated, order);
  if (updated !== undefined) {
    domain.updated_date = updated;
    domain.updated_date_in_time = updated;
  }
  const expires = normalizeDate(f.expires, order);
  if (expires !== undefined) {
    domain.expiration_date = expires;
    domain.expiration_date_in_time = expires;
  }
  const registrar: WhoisRegistrar = {};
  let rname = f.registrar_current ?? f.registrar;
  let handle = f.registrar_handle;
  // "MarkMonitor Inc. (292)": the name, then the registry's id for it (an aside with a digit;
  // "(Beijing)" stays in the name). Nominet's "[Tag = X]" stays too: the seed's shape keeps it.
  if (rname !== undefined && rname.endsWith(')')) {
    const m = REGISTRAR_WITH_ID.exec(rname);
    if (m) {
      rname = m[1];
      handle ??= m[2];
    }
  }
  const rid = f.registrar_id !== undefined && usable(f.registrar_id) ? f.registrar_id : handle;
  if (rid !== undefined && usable(rid)) registrar.id = rid;
  const hasRegistrar = rname !== undefined && usable(rname);
  if (hasRegistrar) registrar.name = rname;
  const url = f.registrar_url;
  if (url !== undefined && usable(url)) registrar.referral_url = url;
  const held = f.holder !== undefined && usable(f.holder);
  const data =
    ns.length > 0 ||
    created !== undefined ||
    expires !== undefined ||
    hasId ||
    hasRegistrar ||
    (held && name !== '');
  return { domain, registrar, data };
}

const REGISTRAR_WITH_ID = /^(.*\S)\s+\(([^()\s]*\d[^()\s]*)\)$/;

/** The name a record holds: its first word, lower case, without the root's trailing dot. */
/** The name in A-labels (Punycode, RFC 5891), undefined when it is no valid IDN. */
function aLabels(name: string): string | undefined {
  if (/^[\x00-\x7f]*$/.test(name)) return name;
  const ascii = domainToASCII(name);
  return ascii === '' ? undefined : ascii;
}

/**
 * The name as the user asked for it when the reply's name is the same name in another form (a
 * reply may list it in A-labels and in its own script, and either line may come first).
 */
function displayName(name: string, queried: string | undefined): string {
  if (queried === undefined || name === '') return name;
  const asked = recordName(queried);
  if (asked === name) return name;
  const a = aLabels(asked);
  return a !== undefined && a === aLabels(name) ? asked : name;
}

function recordName(value: string | undefined): string {
  const name = firstWord(value ?? '').toLowerCase();
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/** The text before the first whitespace (all of it when there is none, '' when it leads). */
function firstWord(text: string): string {
  let i = 0;
  while (i < text.length && !isSpace(text.charCodeAt(i))) i++;
  return i === text.length ? text : text.slice(0, i);
}

function usable(value: string): boolean {
  return value !== '' && !REDACTED.test(value);
}

function isSigned(value: string): boolean {
  const v = value.toLowerCase();
  if (/unsigned|not signed|inactive|^no\b|false|disabled/.test(v)) return false;
  return /^(yes|true|signed|signeddelegation|active|y)\b|signed delegation/.test(v);
}
