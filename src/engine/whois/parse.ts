// Port-43 WHOIS text -> the seed's WHOIS shape. Pure: no I/O, never throws on odd input (only
// the deliberate not_found / rate_limited LookupErrors). Registries disagree on everything, so
// the reader is one generic "key: value" walk that understands sections (indented blocks and
// bare headings such as "Registrar" or "Name servers"), with the few spellings that cannot be
// read that way handled before the walk.
import { LookupError } from '../errors';
import type { WhoisDomain, WhoisRegistrar, WhoisResult } from '../types';
import { normalizeDate } from './dates';

export interface ParseOptions {
  /** the name that was asked for (A-label); used when the reply does not echo it */
  domain?: string;
}

type Field =
  | 'ds'
  | 'domain'
  | 'id'
  | 'whois_server'
  | 'status'
  | 'ns'
  | 'dnssec'
  | 'created'
  | 'updated'
  | 'expires'
  | 'registrar'
  | 'registrar_current'
  | 'registrar_id'
  | 'registrar_url';

// Keys are compared after normalising: lower case, dots/underscores/dashes as spaces.
const TOP_KEYS: Record<string, Field> = {};
function keys(field: Field, ...names: string[]): void {
  for (const n of names) TOP_KEYS[n] = field;
}
keys('domain', 'domain name', 'domain', 'domainname', 'domain name ascii');
keys('id', 'registry domain id', 'domain id', 'roid', 'domain handle', 'registry id');
keys(
  'whois_server',
  'registrar whois server',
  'registry whois server',
  'whois server',
  'whois',
  'registrar whois',
);
keys(
  'status',
  'domain status',
  'status',
  'state',
  'eppstatus',
  'epp status',
  'domain state',
  'query status',
);
keys(
  'ns',
  'name server',
  'nameserver',
  'nameservers',
  'name servers',
  'nserver',
  'ns',
  'host name',
  'ns name',
  'primary server',
  'secondary server',
);
keys('dnssec', 'dnssec', 'signed', 'domain dnssec', 'dnssec status', 'domain signed');
// A published DS record (AFNIC's key1-*, ds-rdata) means the delegation is signed.
keys('ds', 'key1 tag', 'ds rdata', 'ds record');
keys(
  'created',
  'creation date',
  'created',
  'created on',
  'created date',
  'create date',
  'registered',
  'registered on',
  'registered date',
  'registration date',
  'registration time',
  'domain registration date',
  'record created',
  'record created on',
  'first registration date',
  'domain name commencement date',
  'domain create date',
  'domain created',
  'domain record activated',
  'domain registered',
);
keys(
  'updated',
  'updated date',
  'last updated',
  'last updated date',
  'last update',
  'last modified',
  'modified',
  'changed',
  'updated',
  'updated on',
  'domain last updated date',
  'last updated on',
  'modification date',
  'domain updated',
  'domain record last updated',
  'update date',
  'domain datelastmodified',
);
keys(
  'expires',
  'registry expiry date',
  'registrar registration expiration date',
  'expiration date',
  'expiry date',
  'expires',
  'expires on',
  'expire date',
  'expire',
  'paid till',
  'expiration time',
  'record expires on',
  'domain expiration date',
  'valid until',
  'expiry',
  'renewal date',
  'domain expires',
  'record will expire on',
);
keys(
  'registrar',
  'registrar',
  'registrar name',
  'sponsoring registrar',
  'registration service provider',
  'authorized agency',
  'registrar organization',
  'registar created',
);
keys('registrar_current', 'current registrar', 'current registar');
keys('registrar_id', 'registrar iana id', 'sponsoring registrar iana id', 'registrar id');
keys(
  'registrar_url',
  'registrar url',
  'referral url',
  'registration service url',
  'registrar website',
  'registrar web',
  'registrar www',
  'www',
);

type SectionKind =
  'contact' | 'registrar' | 'ns' | 'status' | 'domain' | 'dates' | 'dnssec' | 'other';

function sectionKind(key: string): SectionKind | undefined {
  if (
    /^(registrar|sponsoring registrar|registrar information|registration service provider)$/.test(
      key,
    )
  )
    return 'registrar';
  if (
    /^(name ?servers?( information| in listed order)?|nameservers|domain ?name ?servers|domain servers( in listed order)?|dns servers|primary name server|secondary name server|\d+(st|nd|rd|th) name server|host ?names?)$/.test(
      key,
    )
  )
    return 'ns';
  if (/^(registration status|domain status|status)$/.test(key)) return 'status';
  if (/^(domain name|domain)$/.test(key)) return 'domain';
  if (/^(relevant dates|dates|important dates)$/.test(key)) return 'dates';
  if (key === 'dnssec') return 'dnssec';
  if (
    /(registrant|admin|tech|billing|holder|contact|onsite|reseller|abuse|owner|organi[sz]ation|data validation|zone c|trademark|registry|ns keys|keys)/.test(
      key,
    )
  )
    return 'contact';
  return undefined;
}

interface Rec {
  fields: Map<Field, string>;
  status: string[];
  ns: string[];
}

const REDACTED =
  /redacted|not disclosed|withheld|data protected|non-public|privacy|not available|hidden upon user request|gdpr|statutory masking/i;

const keyCache = new Map<string, string>();

export function normalizeKey(raw: string): string {
  const hit = keyCache.get(raw);
  if (hit !== undefined) return hit;
  const key = raw
    .toLowerCase()
    .replace(/[._\-/()[\]]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/ \d+$/, '');
  // Bounded: keys repeat across replies, but a hostile reply must not grow the cache forever.
  if (keyCache.size > 10000) keyCache.clear();
  keyCache.set(raw, key);
  return key;
}

/**
 * Parses a registry or registrar reply. A reply with registration data is a result; one without
 * is `not_found` when it says the name is unregistered, `rate_limited` when it says the server
 * refused, and `upstream_error` when it says neither (an error page, an empty answer).
 */
export function parseWhois(text: string, options: ParseOptions = {}): WhoisResult {
  const result = build(walk(prepare(text)), options);
  if (result !== undefined && hasData(result)) return { ...result, source: 'whois', raw: text };
  if (isNotFound(text)) throw new LookupError('not_found', 'The domain is not registered');
  if (isRateLimited(text)) {
    throw new LookupError('rate_limited', 'The WHOIS server refused the query: rate limit reached');
  }
  if (
    result !== undefined &&
    result.domain.domain !== undefined &&
    (result.domain.status?.length ?? 0) > 0
  ) {
    return { ...result, source: 'whois', raw: text };
  }
  throw new LookupError(
    'upstream_error',
    'The WHOIS server sent a reply with no registration data',
  );
}

function hasData(parsed: WhoisResult): boolean {
  const d = parsed.domain;
  return (
    (d.name_servers?.length ?? 0) > 0 ||
    d.created_date !== undefined ||
    d.expiration_date !== undefined ||
    d.id !== undefined ||
    parsed.registrar.name !== undefined
  );
}

function prepare(text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let line of lines) {
    line = line.trimEnd();
    const body = line.trimStart();
    const first = body.charCodeAt(0);
    // %, #, * and ">>>" open comments and banners.
    if (first === 37 || first === 35 || first === 42 || body.startsWith('>>>')) continue;
    // Rulers between blocks carry nothing; dropping them keeps headings next to their values.
    if ((first === 45 || first === 61 || first === 95) && /^[-=_]{3,}$/.test(body)) continue;
    // SWITCH (.ch/.li) separates key and value with a tab and no colon; a host name followed
    // by its address is a value line, not a key.
    if (line.includes('\t')) {
      const tab = /^(\S[^\t:]*?)\t+(.+)$/.exec(line);
      if (tab && !/[:.]/.test(tab[1])) line = `${tab[1]}: ${tab[2]}`;
    }
    // TWNIC and MONIC write "Record expires on <date>" without a colon.
    if ((first === 82 || first === 114) && /^record (expires|created) on /i.test(body)) {
      const rec = /^(\s*)record (expires|created) on (.+)$/i.exec(line);
      if (rec) line = `${rec[1]}record ${rec[2].toLowerCase()} on: ${rec[3]}`;
    }
    out.push(line);
  }
  return out;
}

/** Splits "key: value" at the first colon that is not part of "://", within 100 characters. */
function splitKeyValue(body: string): [string, string] | undefined {
  let from = 0;
  for (;;) {
    const i = body.indexOf(':', from);
    if (i <= 0 || i > 100) return undefined;
    if (body.charCodeAt(i + 1) === 47 && body.charCodeAt(i + 2) === 47) {
      from = i + 1;
      continue;
    }
    return [body.slice(0, i).trimEnd(), body.slice(i + 1).trim()];
  }
}

function indentOf(line: string): number {
  let n = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32) n += 1;
    else if (c === 9) n += 4;
    else break;
  }
  return n;
}

function emptyRecord(): Rec {
  return { fields: new Map(), status: [], ns: [] };
}

interface WalkState {
  section: SectionKind | undefined;
  indent: number;
  /** a bare heading (no colon) holds until a blank line or another heading */
  sticky: boolean;
  /** RIPE-style object block (AFNIC, RU): contact objects are skipped, the registrar's is read */
  block: 'contact' | 'registrar' | undefined;
  atBlockStart: boolean;
  /** a colon heading followed by bare lines (NASK's "REGISTRAR:" block) keeps its inline keys */
  bare: boolean;
  /** the field of the last top-level "key: value", for indented continuation lines */
  last: { field: Field; indent: number } | undefined;
}

const HOSTISH = /^[a-z0-9_-]+(\.[a-z0-9_-]+)+\.?$/i;

function walk(lines: string[]): Rec[] {
  const records: Rec[] = [];
  let rec = emptyRecord();
  const st: WalkState = {
    section: undefined,
    indent: -1,
    sticky: false,
    block: undefined,
    atBlockStart: true,
    bare: false,
    last: undefined,
  };
  for (const line of lines) {
    if (line.trim() === '') {
      if (st.sticky) st.section = undefined;
      st.block = undefined;
      st.atBlockStart = true;
      st.last = undefined;
      continue;
    }
    const blockStart = st.atBlockStart;
    st.atBlockStart = false;
    const indent = indentOf(line);
    const body = line.trim();
    const kv = splitKeyValue(body);
    if (kv) {
      const key = normalizeKey(kv[0]);
      const value = kv[1].startsWith(':') ? kv[1].slice(1).trim() : kv[1];
      if (blockStart && indent === 0 && value !== '') {
        if (/^(nic hdl|person|role|contact|holder c|admin c|tech c)$/.test(key))
          st.block = 'contact';
        else if (key === 'registrar' && rec.fields.get('registrar') === value)
          st.block = 'registrar';
      }
      if (st.block === 'contact') continue;
      if (st.block === 'registrar') {
        registrarLine(rec, key, value);
        continue;
      }
      const nested =
        st.section !== undefined &&
        (st.sticky || indent > st.indent || (st.bare && st.section === 'registrar'));
      if (value === '') {
        if (!(nested && st.section === 'contact')) {
          st.section = sectionKind(key) ?? 'other';
          st.indent = indent;
          st.sticky = false;
          st.bare = false;
        }
        st.last = undefined;
        continue;
      }
      if (nested) {
        if (st.section === 'contact') continue;
        if (st.section === 'registrar') {
          registrarLine(rec, key, value);
          continue;
        }
        if (st.section === 'ns' && /^(host ?name|nserver|name ?server|ns|.* server)$/.test(key)) {
          addNs(rec, value);
          continue;
        }
      } else {
        st.section = undefined;
        st.sticky = false;
      }
      const field = TOP_KEYS[key];
      st.last = field === undefined ? undefined : { field, indent };
      if (field === undefined) continue;
      // A second "Domain Name" starts the registrar's copy of the record (thin registries).
      if (field === 'domain' && rec.fields.has('domain')) {
        records.push(rec);
        rec = emptyRecord();
      }
      setField(rec, field, value);
      continue;
    }
    if (st.block !== undefined) continue;
    // A line without "key:" is a heading, a continuation, or a value inside the current section.
    const heading = body.length <= 40 ? sectionKind(normalizeKey(body)) : undefined;
    const inContact = st.section === 'contact' && (st.sticky || indent > st.indent);
    if (heading !== undefined && !inContact) {
      st.section = heading;
      st.indent = indent;
      st.sticky = true;
      st.bare = false;
      st.last = undefined;
      continue;
    }
    if (st.last !== undefined && indent > st.last.indent && st.section === undefined) {
      if (st.last.field === 'ns' || st.last.field === 'status') setField(rec, st.last.field, body);
      continue;
    }
    if (st.section === undefined || indent < st.indent) continue;
    st.bare = true;
    bareLine(rec, st.section, body);
  }
  records.push(rec);
  return records;
}

function bareLine(rec: Rec, section: SectionKind, body: string): void {
  if (section === 'ns') {
    // Only a line that starts with a host name is one (prose after the list is not).
    const first = body.split(/\s+/)[0];
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

function registrarLine(rec: Rec, key: string, value: string): void {
  if (/^(name|registrar|registrar name)$/.test(key)) rec.fields.set('registrar', value);
  else if (key === 'registrar iana id') setOnce(rec, 'registrar_id', value);
  else if (key === 'registrar url') setOnce(rec, 'registrar_url', value);
  else if (/^(organi[sz]ation|org)$/.test(key)) setOnce(rec, 'registrar', value);
  else if (/^(url|website|www|web|referral url|homepage)$/.test(key))
    setOnce(rec, 'registrar_url', value);
  else if (/^(iana id|id)$/.test(key)) setOnce(rec, 'registrar_id', value);
  else if (/whois server/.test(key)) setOnce(rec, 'whois_server', value);
}

function setOnce(rec: Rec, field: Field, value: string): void {
  if (!rec.fields.has(field)) rec.fields.set(field, value);
}

function setField(rec: Rec, field: Field, value: string): void {
  if (field === 'status') addStatus(rec, value);
  else if (field === 'ns') addNs(rec, value);
  else setOnce(rec, field, value);
}

function addStatus(rec: Rec, value: string): void {
  for (const part of value.split(/,\s*/)) {
    const v = part.trim().toLowerCase();
    if (v === '') continue;
    const token = v === 'not delegated' ? v : v.split(/\s+/)[0];
    if (!rec.status.includes(token)) rec.status.push(token);
  }
}

function addNs(rec: Rec, value: string): void {
  for (const part of value.split(/[\s,]+/)) {
    const host = part.toLowerCase().replace(/\.$/, '');
    // Glue addresses and "[OK]" markers travel on the same line; only host names count.
    if (!/^[a-z0-9_-]+(\.[a-z0-9_-]+)+$/.test(host) || /^[\d.]+$/.test(host)) continue;
    if (!rec.ns.includes(host)) rec.ns.push(host);
    return;
  }
}

function build(records: Rec[], options: ParseOptions): WhoisResult | undefined {
  // Later records (the registrar's) are more specific than the registry's: they win per field.
  const merged = emptyRecord();
  for (const r of records) {
    for (const [k, v] of r.fields) merged.fields.set(k, v);
    if (r.status.length > 0) merged.status = r.status;
    if (r.ns.length > 0) merged.ns = r.ns;
  }
  const f = merged.fields;
  const domain: WhoisDomain = {};
  const name = (f.get('domain') ?? options.domain ?? '').toLowerCase().split(/\s+/)[0] ?? '';
  if (name === '' && merged.ns.length === 0 && f.size === 0) return undefined;
  if (f.has('id') && usable(f.get('id')!)) domain.id = f.get('id')!;
  if (name !== '') {
    domain.domain = name;
    domain.punycode = name;
    const dot = name.lastIndexOf('.');
    domain.name = dot < 0 ? name : name.slice(0, dot);
    if (dot >= 0) domain.extension = name.slice(dot + 1);
  }
  const server = f.get('whois_server');
  if (server !== undefined && usable(server))
    domain.whois_server = server.replace(/^whois:\/\//i, '');
  if (merged.status.length > 0) domain.status = merged.status;
  if (merged.ns.length > 0) domain.name_servers = merged.ns;
  if ((f.has('dnssec') && isSigned(f.get('dnssec')!)) || f.has('ds')) domain.dnssec = true;
  putDate(domain, 'created_date', f.get('created'));
  putDate(domain, 'updated_date', f.get('updated'));
  putDate(domain, 'expiration_date', f.get('expires'));
  const registrar: WhoisRegistrar = {};
  const rid = f.get('registrar_id');
  if (rid !== undefined && usable(rid)) registrar.id = rid;
  const rname = f.get('registrar_current') ?? f.get('registrar');
  if (rname !== undefined && usable(rname)) registrar.name = rname;
  const url = f.get('registrar_url');
  if (url !== undefined && usable(url)) registrar.referral_url = url;
  return { domain, registrar };
}

function usable(value: string): boolean {
  return value !== '' && !REDACTED.test(value);
}

function isSigned(value: string): boolean {
  const v = value.toLowerCase();
  if (/unsigned|not signed|inactive|^no\b|false|disabled/.test(v)) return false;
  return /^(yes|true|signed|signeddelegation|active|y)\b|signed delegation/.test(v);
}

function putDate(
  domain: WhoisDomain,
  key: 'created_date' | 'updated_date' | 'expiration_date',
  raw: string | undefined,
): void {
  const iso = normalizeDate(raw);
  if (iso === undefined) return;
  domain[key] = iso;
  domain[`${key}_in_time`] = iso;
}

const NOT_FOUND = [
  /^\W*no match(es)?\b/im,
  /^\W*not found\b/im,
  /^\W*no found\b/im,
  /no entries found/i,
  /^\W*no data found/im,
  /domain not found/i,
  /^\W*no such domain/im,
  /the queried object does not exist/i,
  /^\W*object does not exist/im,
  /no object found/i,
  /^\W*no matching record/im,
  /domain name is not registered/i,
  /this domain name has not been registered/i,
  /was not found in the registry/i,
  /^\W*status:\s*(free|available|not registered|no object found)\s*$/im,
  /^\W*query_status:\s*220 available/im,
  /\bis free\s*$/im,
  /^\W*domain ".*" not found/im,
  /^\W*not available for (second level )?registration/im,
  /^\W*nothing found for this query/im,
  /\bis available for registration/i,
  /not known in .* registry/i,
  /^\W*no information available about domain name/im,
  /this query returned 0 objects/i,
  /^\W*(the )?domain (name )?(has not been|is not) registered/im,
];

/** True when the reply says the name is not registered. */
export function isNotFound(text: string): boolean {
  return NOT_FOUND.some((re) => re.test(text));
}

const RATE_LIMITED = [
  /limit exceeded/i,
  /quota exceeded/i,
  /too many (requests|queries|connections)/i,
  /query rate.*exceeded/i,
  /exceeded (the|your) (query|request|rate|allowed)/i,
  /rate limit (reached|exceeded)/i,
  /you have been rate.?limited/i,
  /please (slow down|try again later)/i,
  /excessive (querying|queries)/i,
  /access control limit reached/i,
  /number of (allowed )?queries .*exceeded/i,
  /maximum (number of )?(queries|requests|connections).*(reached|exceeded)/i,
];

/** True when the reply is a refusal because of the client's query rate. */
export function isRateLimited(text: string): boolean {
  return RATE_LIMITED.some((re) => re.test(text));
}

/** The next server a registry reply points to, as host or host:port, when it names one. */
export function findReferral(text: string): string | undefined {
  const patterns = [
    /^\s*registrar whois server:\s*(\S+)/im,
    /^\s*whois server:\s*(\S+)/im,
    /^\s*referralserver:\s*(\S+)/im,
    /^\s*refer:\s*(\S+)/im,
    /^\s*whois:\s*(\S+)/im,
  ];
  for (const re of patterns) {
    const m = re.exec(text);
    if (!m) continue;
    const target = m[1]
      .replace(/^(r?whois):\/\//i, '')
      .replace(/\/.*$/, '')
      .toLowerCase();
    if (/^[a-z0-9.-]+\.[a-z]{2,}(:\d{1,5})?$/.test(target)) return target;
  }
  return undefined;
}
