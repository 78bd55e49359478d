// Record building: a reply's records -> the seed's WHOIS shape (the domain and its registrar),
// with the dates read in the reply's own order and the name in its A-label and display forms.
import { domainToASCII } from 'node:url';
import type { WhoisDomain, WhoisRegistrar } from '../../contract/shapes';
import { isSpace as spaceChar } from './chars';
import { normalizeDate as normalizeDateOf, type SlashOrder } from './dates';
import { FIELDS as fields, SLOT as slots } from './keys';
import { emptyRecord as emptyRecordOf, type Rec } from './record';

// Bound once: an imported name is read through an export getter at every use (see reader.ts),
// and firstWord tests every character of the name.
const isSpace = spaceChar;
const SLOT = slots;
const FIELDS = fields;
const normalizeDate = normalizeDateOf;
const emptyRecord = emptyRecordOf;

export interface ParseOptions {
  /** the name that was asked for (A-label); used when the reply does not echo it */
  domain?: string;
}

const REDACTED =
  /redacted|not disclosed|withheld|data protected|non-public|privacy|not available|hidden upon user request|gdpr|statutory masking/i;

function hasSlash(value: string | undefined): boolean {
  return value !== undefined && value.includes('/');
}

/**
 * How the reply writes slashed dates: as one of its dates shows ("18/12/2001" can only be day
 * first, "12/18/2001" only month first), else as it names its format ("dd/mm/yyyy",
 * "Date Format: DD/MM/YYYY", "mm/dd/yyyy"); else not known.
 */
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
export interface Parsed {
  domain: WhoisDomain;
  registrar: WhoisRegistrar;
  /**
   * Name servers, a creation or expiry date, an id, a registrar, or a named holder. Worked out
   * while building, not read back from `domain`: its shape depends on the fields present, and
   * reading it back was a megamorphic property look-up per field.
   */
  data: boolean;
}

const DATE_SLOTS = new Set<number>([SLOT.created, SLOT.updated, SLOT.expires]);

/** A date value that reads as an instant in either order of day and month. */
function readable(value: string | undefined): boolean {
  return (
    value !== undefined &&
    (normalizeDate(value, 'dmy') !== undefined || normalizeDate(value, 'mdy') !== undefined)
  );
}

export function build(records: Rec[], options: ParseOptions, text: string): Parsed | undefined {
  // Later records (the registrar's) are more specific than the registry's: they win per field.
  // Most replies hold one record, which is its own merge. A reply listing several names (a
  // search that matched more than one) keeps the records of the name asked for.
  let merged = records[0];
  if (records.length > 1) {
    merged = emptyRecord();
    const asked = options.domain?.toLowerCase();
    const named = records.filter((r) => r.fields[SLOT.domain] !== undefined);
    const mine = new Set(
      asked === undefined ? [] : named.filter((r) => recordName(r.fields[SLOT.domain]) === asked),
    );
    const chosen =
      mine.size > 0 && mine.size < named.length
        ? records.filter((r) => r.fields[SLOT.domain] === undefined || mine.has(r))
        : records;
    for (const r of chosen) {
      for (let k = 0; k < FIELDS.length; k++) {
        const v = r.fields[k];
        // a later date the reader cannot read ("29-APR-05") leaves an earlier readable one;
        // with no earlier one there is nothing to keep, and the date is not read here at all
        const was = merged.fields[k];
        if (
          v !== undefined &&
          (was === undefined || !DATE_SLOTS.has(k) || readable(v) || !readable(was))
        ) {
          merged.fields[k] = v;
        }
      }
      if (r.status.length > 0) merged.status = r.status;
      if (r.ns.length > 0) merged.ns = r.ns;
    }
  }
  const f = merged.fields;
  const domain: WhoisDomain = {};
  const name = displayName(recordName(f[SLOT.domain] ?? options.domain ?? ''), options.domain);
  if (name === '' && merged.ns.length === 0 && f.every((v) => v === undefined)) {
    return undefined;
  }
  const id = f[SLOT.id];
  const hasId = id !== undefined && usable(id);
  if (hasId) domain.id = id;
  if (name !== '') {
    domain.domain = name;
    const ascii = aLabels(name);
    if (ascii !== undefined) domain.punycode = ascii;
    const dot = name.lastIndexOf('.');
    domain.name = dot < 0 ? name : name.slice(0, dot);
    if (dot >= 0) domain.extension = name.slice(dot + 1);
  }
  const server = f[SLOT.whois_server];
  if (server !== undefined && usable(server) && SERVER_LIKE.test(server)) {
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
  const dnssec = f[SLOT.dnssec];
  if ((dnssec !== undefined && isSigned(dnssec)) || f[SLOT.ds] !== undefined) domain.dnssec = true;
  // Written out (not built as `${key}_in_time`) so the result keeps one fixed object shape.
  const createdValue = f[SLOT.created];
  const updatedValue = f[SLOT.updated];
  const expiresValue = f[SLOT.expires];
  const order =
    hasSlash(createdValue) || hasSlash(updatedValue) || hasSlash(expiresValue)
      ? slashOrder([createdValue, updatedValue, expiresValue], text)
      : 'unknown';
  const created = normalizeDate(createdValue, order);
  if (created !== undefined) {
    domain.created_date = created;
    domain.created_date_in_time = created;
  }
  const updated = normalizeDate(updatedValue, order);
  if (updated !== undefined) {
    domain.updated_date = updated;
    domain.updated_date_in_time = updated;
  }
  const expires = normalizeDate(expiresValue, order);
  if (expires !== undefined) {
    domain.expiration_date = expires;
    domain.expiration_date_in_time = expires;
  }
  const registrar: WhoisRegistrar = {};
  let rname = f[SLOT.registrar_current] ?? f[SLOT.registrar];
  let handle = f[SLOT.registrar_handle];
  // "MarkMonitor Inc. (292)": the name, then the registry's id for it (an aside with a digit;
  // "(Beijing)" stays in the name). Nominet's "[Tag = X]" stays too: the seed's shape keeps it.
  if (rname !== undefined && rname.endsWith(')')) {
    const m = REGISTRAR_WITH_ID.exec(rname);
    if (m) {
      rname = m[1];
      handle ??= m[2];
    }
  }
  // The registry's id for the registrar, else the handle: each value tested once (the id, once
  // found usable, was tested a second time as the chosen one).
  const registrarId = f[SLOT.registrar_id];
  if (registrarId !== undefined && usable(registrarId)) registrar.id = registrarId;
  else if (handle !== undefined && usable(handle)) registrar.id = handle;
  const hasRegistrar = rname !== undefined && usable(rname);
  if (hasRegistrar) registrar.name = rname;
  const url = f[SLOT.registrar_url];
  if (url !== undefined && usable(url)) registrar.referral_url = url;
  // parse.ts's mayShowData decides before building from the fields this reads: keep the two
  // in step (parse.test.ts holds the shortcut to each field that counts here today). The holder
  // shows in no field of the result: it is tested last, only when nothing else shows data.
  const holder = f[SLOT.holder];
  const data =
    ns.length > 0 ||
    created !== undefined ||
    expires !== undefined ||
    hasId ||
    hasRegistrar ||
    (name !== '' && holder !== undefined && usable(holder));
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
  return value !== '' && !REDACTED.test(value) && !SAYS_NONE.test(value);
}

/**
 * A value that says there is none: "not applicable" (IEDR's registrar id), "No registrar
 * listed.  This domain is registered directly with Nominet." (Nominet's registrar), "n/a".
 * Such words are no name or id, and the field is left out.
 */
const SAYS_NONE =
  /^(?:(?:none|n\/a|unknown)\.?$|not (?:applicable|defined|listed|set|specified|assigned|provided|known)\b|no (?:[\w-]+ ){0,2}(?:listed|assigned|specified|provided|defined|set)\b)/i;

function isSigned(value: string): boolean {
  const v = value.toLowerCase();
  if (/unsigned|not signed|inactive|^no\b|false|disabled/.test(v)) return false;
  return /^(yes|true|signed|signeddelegation|active|y)\b|signed delegation/.test(v);
}

/**
 * A WHOIS server's value names a host (or a URL: "https://dns.pl/en/whois"): one word with a
 * dot. A sentence under a "whois:" key (SWITCH: "This information is subject to an Acceptable
 * Use Policy."), "not defined" (Verisign) or an operator's name ("NIRA", "@ CoCCA") names none,
 * and is left out: the look-up then gives the server it asked.
 */
const SERVER_LIKE = /^[^\s.]+(\.[^\s.]+)+\.?\/?$|^[a-z][a-z0-9+.-]*:\/\/\S+$/i;
