// Port-43 WHOIS text -> the seed's WHOIS shape. Pure: no I/O, never throws. The reply is read
// into records (reader.ts, record.ts), the records built into the result (build.ts), and a reply
// without registration data classified by what it says (reply.ts) into a verdict, which the
// look-up (port43.ts) turns into the contract's LookupError.
import { LookupError } from '../../contract/errors';
import type { WhoisResult } from '../../contract/shapes';
import { build as buildOf, type ParseOptions } from './build';
import { keyInfo, SLOT as slots } from './keys';
import { readRecords, readScanned as readScannedOf } from './reader';
import type { Rec } from './record';
import {
  classifyScannedRaw as classifyScannedOf,
  clean as cleanOf,
  opensWithNotFound as opensWithNotFoundOf,
  saysNotFoundAfterBanner as saysNotFoundAfterBannerOf,
  type Classified,
} from './reply';
import { scanReply as scanReplyOf, type Scan } from './scan';

// Bound once: an imported name is read through an export getter at every use (see reader.ts).
// Every reply calls the first two, and one read past its first line four or five of them.
const SLOT = slots;
const build = buildOf;
const readScanned = readScannedOf;
// The reply's kind with its line as the server wrote it: cleaned (clean) only where a detail
// is worded with it.
const classifyScanned = classifyScannedOf;
const clean = cleanOf;
const opensWithNotFound = opensWithNotFoundOf;
const saysNotFoundAfterBanner = saysNotFoundAfterBannerOf;
const scanReply = scanReplyOf;

export type { ParseOptions } from './build';
export { normalizeKey } from './keys';
export { classifyReply, findReferral, isNotFound, isRateLimited } from './reply';

/**
 * What a reply without registration data says, with the words the contract's error carries.
 * Returned, not thrown: a reply that says "not found" is an answer, and the look-up asking
 * several servers decides whether it is the caller's error (see port43.ts). Building and
 * throwing an Error cost more than reading a short not-found reply.
 */
export interface WhoisVerdict {
  verdict: 'not_found' | 'rate_limited' | 'upstream_error';
  detail: string;
}

/** The registration, or the verdict of a reply without one. */
export type WhoisReading = WhoisResult | WhoisVerdict;

export function isVerdict(reading: WhoisReading): reading is WhoisVerdict {
  return 'verdict' in reading;
}

/** The contract's error for a verdict: its code, and the detail as the parser worded it. */
export function verdictError(v: WhoisVerdict): LookupError {
  return new LookupError(v.verdict, v.detail);
}

// The verdicts whose words never change, made once.
const NOT_REGISTERED: WhoisVerdict = Object.freeze({
  verdict: 'not_found',
  detail: 'The domain is not registered',
});
const NO_DATA: WhoisVerdict = Object.freeze({
  verdict: 'upstream_error',
  detail: 'The WHOIS server sent a reply with no registration data',
});

/**
 * Parses a registry or registrar reply into exactly one of four kinds: a result (the name is
 * registered, or held by the registry, and the reply shows it), `not_found` (not registered:
 * free, or reserved without a registration), `rate_limited` (refused for the query rate, a quota
 * or a blocked client, with the server's words) or `upstream_error` (anything it cannot tell).
 * The last three come back as a WhoisVerdict.
 */
export function parseWhois(text: string, options: ParseOptions = {}): WhoisReading {
  // A reply that opens with "not found" has answered: its notice is not read.
  if (opensWithNotFound(text)) return NOT_REGISTERED;
  // Full-width colons (CJK registrars: "域名：example.cn") are colons; same length, so offsets
  // and the raw reply stay as they are.
  const read = text.includes('\uff1a') ? text.replaceAll('\uff1a', ':') : text;
  // One copy and one cut into lines for the reader and the classifier (scan.ts); the classifier
  // reads the reply as the server wrote it, so it shares the scan only when `read` is `text`.
  const scan = scanReply(read);
  // A reply whose first statement after a banner of comments says "not found" has answered
  // too (its words are read as the server wrote them: only when `read` is `text`).
  if (read === text && saysNotFoundAfterBanner(scan)) return NOT_REGISTERED;
  const records = readScanned(scan);
  // One record that cannot show a registration (no name servers, dates of creation or expiry,
  // id, registrar or holder: what build() counts as data) is not built before its free status
  // or the reply's words are read: they decide most such replies, as they would after building
  // it, and building cost as much as reading a short reply. Only what they leave open builds.
  if (records.length === 1 && !mayShowData(records[0])) {
    const rec = records[0];
    // With a field, build() returns the record's statuses as the domain's.
    if (rec.status.some(isFreeStatus) && rec.fields.some(isSet)) {
      return NOT_REGISTERED;
    }
    const said = classifyScanned(text, scan);
    if (said?.kind === 'rate_limited') return refused(said.line);
    if (said?.kind === 'not_found') return NOT_REGISTERED;
    return decide(text, read, records, options, said);
  }
  return decide(text, read, records, options, scan);
}

/**
 * The verdict of a reply from its records, and its words where they are needed: `classified`
 * is what they say, or the reply's scan when they are not read yet.
 */
function decide(
  text: string,
  read: string,
  records: Rec[],
  options: ParseOptions,
  classified: Classified | undefined | Scan,
): WhoisReading {
  // Records that hold nothing build only the name asked for, which no rule below returns: a
  // not-found reply's notice is all it has, and building that name was a twentieth of its cost.
  const result = records.some(holdsSomething) ? build(records, options, read) : undefined;
  // An object literal, not a spread: spreading cost as much as reading the dates.
  if (result !== undefined && result.data) {
    return { domain: result.domain, registrar: result.registrar, source: 'whois', raw: text };
  }
  // A status field that says the name is free ("Status: free", "Domain Status: Available") is
  // the registry's own answer, in its data: the prose around it is not read.
  const status = result?.domain.status ?? [];
  if (status.some(isFreeStatus)) return NOT_REGISTERED;
  const said = isScan(classified) ? classifyScanned(text, classified) : classified;
  if (said === undefined) {
    // No data read with colons, and the reply says nothing of the name: its keys may be
    // separated by "=", "=>", "->" or "|" instead.
    const colons = SEPARATOR_LINE.test(read) ? otherSeparators(read) : undefined;
    const again = colons === undefined ? undefined : build(readRecords(colons), options, colons);
    if (again !== undefined && again.data) {
      return { domain: again.domain, registrar: again.registrar, source: 'whois', raw: text };
    }
  }
  // A record with only a date of change (RIPE-style "changed:") is registered unless the reply
  // says otherwise ("organisation: Not assigned").
  if (result !== undefined && said === undefined && result.domain.updated_date !== undefined) {
    return { domain: result.domain, registrar: result.registrar, source: 'whois', raw: text };
  }
  if (said?.kind === 'rate_limited') return refused(said.line);
  if (said?.kind === 'not_found') return NOT_REGISTERED;
  if (result !== undefined && result.domain.domain !== undefined && status.length > 0) {
    return { domain: result.domain, registrar: result.registrar, source: 'whois', raw: text };
  }
  if (said?.kind === 'reserved') {
    return {
      verdict: 'not_found',
      detail: `The domain is not registered, and the registry holds it back: ${clean(said.line)}`,
    };
  }
  return NO_DATA;
}

function isScan(v: Classified | undefined | Scan): v is Scan {
  return v !== undefined && 'lineEnds' in v;
}

/** The verdict of a refusal, `line` as the server wrote it. */
function refused(line: string): WhoisVerdict {
  return { verdict: 'rate_limited', detail: `The WHOIS server refused the query: ${clean(line)}` };
}

/**
 * Whether build() may find data in the record: the fields and servers its `data` is made of.
 * False means it would not, whatever their values.
 */
function mayShowData(rec: Rec): boolean {
  const f = rec.fields;
  return (
    rec.ns.length > 0 ||
    f[SLOT.created] !== undefined ||
    f[SLOT.expires] !== undefined ||
    f[SLOT.id] !== undefined ||
    f[SLOT.registrar] !== undefined ||
    f[SLOT.registrar_current] !== undefined ||
    f[SLOT.holder] !== undefined
  );
}

/** A field value the reply gave. */
function isSet(value: string | undefined): boolean {
  return value !== undefined;
}

function holdsSomething(rec: Rec): boolean {
  return rec.status.length > 0 || rec.ns.length > 0 || rec.fields.some(isSet);
}

/** A status that says the name is free ("Domain Status: Available"). */
const FREE_STATUS = /^(available|free|notregistered|noobjectfound|unassigned|notfound)$/;

function isFreeStatus(status: string): boolean {
  return FREE_STATUS.test(status);
}

// "Key = value", "Key => value", "Key -> value", "Key | value": the key up to 60 characters, no
// colon before the separator.
const OTHER_SEPARATOR = /^(\s*)([^\s:=|>-][^:=|>]{0,59}?)\s*(?:=>|->|=|\|)\s*(\S.*)$/;

/** Whether any line may be one (a cheap test over the whole reply before the line-by-line). */
const SEPARATOR_LINE = /^[ \t]*[^\s:=|>%#*-][^:=|>\n]{0,59}?[ \t]*(?:=>|->|=|\|)[ \t]*\S/m;

/**
 * The reply with its "key = value" lines (and "=>", "->", "|") written "key: value", where the
 * key is one the table knows (a field or a heading); undefined when no line is such. Only tried
 * on a reply that gave no data read with colons, so a value holding "=" (a URL's query) in a
 * colon reply is never split.
 */
function otherSeparators(text: string): string | undefined {
  let changed = 0;
  const lines = text.split('\n').map((line) => {
    const m = OTHER_SEPARATOR.exec(line);
    if (m === null) return line;
    const info = keyInfo(m[2]);
    if (info.field === undefined && info.section === undefined) return line;
    changed++;
    return `${m[1]}${m[2]}: ${m[3]}`;
  });
  return changed >= 2 ? lines.join('\n') : undefined;
}
