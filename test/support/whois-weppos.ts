// Reads weppos/whois-parser's response fixtures from ../shared/corpus/whois-weppos (never copied
// into the project): `<server>/[<tld>/]<case>.txt` with `<case>.expected` beside it, written in
// that project's small RSpec-like notation. Only what the seed's WHOIS shape can hold is kept:
// the reply's kind (registered, available, reserved, throttled), domain, id, dates, name
// servers, statuses and the registrar.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { WhoisResult } from '../../src/contract/shapes';
import { CORPUS_ROOT, type FieldTally } from './whois-corpus';

export const WEPPOS_ROOT = join(CORPUS_ROOT, 'whois-weppos');

export function wepposAvailable(): boolean {
  return existsSync(WEPPOS_ROOT);
}

/** One `#property` of an `.expected` file: its assertion lines, `%s` standing for the value. */
export type Properties = Map<string, string[]>;

export interface WepposCase {
  /** path under the corpus folder, without `.txt` */
  id: string;
  /** the WHOIS server the reply came from (the first folder) */
  server: string;
  bytes: Buffer;
  expected: Expected;
}

/** A date as the fixture writes it: a wall-clock instant, and whether it named its zone. */
export interface ExpectedTime {
  ms: number;
  zoned: boolean;
}

export interface Expected {
  /** `#status` when it is a symbol (`:registered`, `:available`, `:reserved`, ...) */
  state?: string;
  available?: boolean;
  registered?: boolean;
  reserved?: boolean;
  throttled?: boolean;
  /** each field below: undefined = not asserted; null = asserted absent (`== nil`, `== []`) */
  domain?: string | null;
  domainId?: string | null;
  created?: ExpectedTime | null;
  updated?: ExpectedTime | null;
  expires?: ExpectedTime | null;
  nameservers?: string[] | null;
  statuses?: string[] | null;
  registrarName?: string[] | null;
  registrarId?: string | null;
  registrarUrl?: string | null;
}

/** Splits an `.expected` text into its properties (`#name` headings and their `%s` lines). */
export function parseExpected(text: string): Properties {
  const props: Properties = new Map();
  let current: string[] | undefined;
  for (const line of text.split(/\r?\n/)) {
    const heading = /^#(\S+)/.exec(line);
    if (heading) {
      current = [];
      props.set(heading[1], current);
    } else if (current && /^\s+%s/.test(line)) current.push(line.trim().slice(2));
  }
  return props;
}

/** The value of `%s<path> == <literal>` (string, symbol, boolean, nil, array of strings). */
function literal(lines: string[] | undefined, path = ''): unknown {
  if (lines === undefined) return undefined;
  for (const line of lines) {
    if (!line.startsWith(`${path} `) && !(path === '' && line.startsWith(' '))) continue;
    const m = /^\s*==\s*(.+)$/.exec(line.slice(path.length));
    if (!m) continue;
    const v = m[1].trim();
    if (v === 'nil') return null;
    if (v === 'true' || v === 'false') return v === 'true';
    if (v.startsWith(':')) return v.slice(1);
    if (v.startsWith('"')) return JSON.parse(v) as string;
    if (v.startsWith('[')) return JSON.parse(v) as string[];
  }
  return undefined;
}

function unsupported(lines: string[] | undefined): boolean {
  return lines?.some((l) => /^\s*%ERROR\{/.test(l)) === true;
}

const ZONE_OFFSETS: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  Z: 0,
  WAT: 60,
  EAT: 180,
  JST: 540,
  PDT: -420,
};

/** `%TIME{...}` in the forms the fixtures use; undefined when the line has none. */
export function readTime(lines: string[] | undefined): ExpectedTime | null | undefined {
  if (lines === undefined) return undefined;
  if (literal(lines) === null) return null;
  for (const line of lines) {
    const m = /^\s*%TIME\{([^}]*)\}/.exec(line);
    if (!m) continue;
    return parseTime(m[1]);
  }
  return undefined;
}

function parseTime(raw: string): ExpectedTime | undefined {
  const s = raw.trim();
  const short = /^(\d{2})\/(\d{2})\/(\d{2})$/.exec(s);
  if (short) {
    // Ruby's Time.parse reads "yy/mm/dd".
    return { ms: Date.UTC(2000 + +short[1], +short[2] - 1, +short[3]), zoned: false };
  }
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(-?\d{2}))?(?:\.\d+)?)?\s*(Z|UTC|GMT|[A-Z]{3}|[+-]\d{2}:?\d{2})?$/.exec(
      s,
    );
  if (!m) return undefined;
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  const zone = m[7];
  if (zone === undefined) return { ms: wall, zoned: false };
  let offset = ZONE_OFFSETS[zone];
  if (offset === undefined) {
    const z = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
    if (!z) return { ms: wall, zoned: false };
    offset = (+z[2] * 60 + +z[3]) * (z[1] === '-' ? -1 : 1);
  }
  return { ms: wall - offset * 60_000, zoned: true };
}

/** `%s[i].name == "..."` lines of a name-server list, in order. */
function nameservers(lines: string[] | undefined): string[] | null | undefined {
  if (lines === undefined || unsupported(lines)) return undefined;
  const lit = literal(lines);
  if (lit === null || (Array.isArray(lit) && lit.length === 0)) return null;
  const names: string[] = [];
  for (const line of lines) {
    const m = /^\[(\d+)\]\.name\s*==\s*"([^"]*)"/.exec(line);
    if (m) names[+m[1]] = m[2];
  }
  if (names.length > 0) return names.filter((n) => n !== undefined);
  return /%SIZE\{0\}/.test(lines.join('\n')) ? null : undefined;
}

function registrar(
  lines: string[] | undefined,
): Pick<Expected, 'registrarName' | 'registrarId' | 'registrarUrl'> {
  if (lines === undefined || unsupported(lines)) return {};
  if (literal(lines) === null) {
    return { registrarName: null, registrarId: null, registrarUrl: null };
  }
  const out: Pick<Expected, 'registrarName' | 'registrarId' | 'registrarUrl'> = {};
  const name = literal(lines, '.name');
  const org = literal(lines, '.organization');
  // The seed has one registrar name; weppos splits it into a name and an organisation, either
  // of which is the one a reader would call the registrar.
  const names = [name, org].filter((v): v is string => typeof v === 'string' && v !== '');
  if (name !== undefined || org !== undefined) out.registrarName = names.length > 0 ? names : null;
  const id = literal(lines, '.id');
  if (id !== undefined) out.registrarId = typeof id === 'string' && id !== '' ? id : null;
  const url = literal(lines, '.url');
  if (url !== undefined) out.registrarUrl = typeof url === 'string' && url !== '' ? url : null;
  return out;
}

function stringField(lines: string[] | undefined): string | null | undefined {
  if (lines === undefined || unsupported(lines)) return undefined;
  const v = literal(lines);
  if (v === null || v === '') return null;
  return typeof v === 'string' ? v : undefined;
}

export function toExpected(props: Properties): Expected {
  const e: Expected = {};
  const status = literal(props.get('status'));
  if (typeof status === 'string') e.state = status;
  else if (Array.isArray(status)) e.statuses = status.length === 0 ? null : (status as string[]);
  else if (status === null) e.statuses = null;
  for (const [prop, key] of [
    ['available?', 'available'],
    ['registered?', 'registered'],
    ['reserved?', 'reserved'],
    ['response_throttled?', 'throttled'],
  ] as const) {
    const v = literal(props.get(prop));
    if (typeof v === 'boolean') e[key] = v;
  }
  const domain = stringField(props.get('domain'));
  if (domain !== undefined) e.domain = domain;
  const id = stringField(props.get('domain_id'));
  if (id !== undefined) e.domainId = id;
  for (const [prop, key] of [
    ['created_on', 'created'],
    ['updated_on', 'updated'],
    ['expires_on', 'expires'],
  ] as const) {
    const lines = props.get(prop);
    if (unsupported(lines)) continue;
    const t = readTime(lines);
    if (t !== undefined) e[key] = t;
  }
  const ns = nameservers(props.get('nameservers'));
  if (ns !== undefined) e.nameservers = ns;
  Object.assign(e, registrar(props.get('registrar')));
  return e;
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (name.endsWith('.txt')) out.push(path);
  }
}

/** Every reply that has an `.expected` file beside it. */
export function loadWeppos(): WepposCase[] {
  const files: string[] = [];
  walk(WEPPOS_ROOT, files);
  const cases: WepposCase[] = [];
  for (const file of files) {
    const expectedPath = file.replace(/\.txt$/, '.expected');
    if (!existsSync(expectedPath)) continue;
    const id = relative(WEPPOS_ROOT, file).replace(/\.txt$/, '');
    cases.push({
      id,
      server: id.split('/')[0],
      bytes: readFileSync(file),
      expected: toExpected(parseExpected(readFileSync(expectedPath, 'utf8'))),
    });
  }
  return cases;
}

/**
 * True for about a quarter of the names (servers or TLDs), chosen by a hash of the name so the
 * split never changes: the part kept out of tuning, reported apart.
 */
export function heldApart(name: string): boolean {
  return createHash('sha256').update(name).digest()[0] % 4 === 0;
}

/**
 * What kind of answer the fixture says the reply is, in the contract's four kinds. weppos calls
 * a reserved name "registered" (not available); the contract's kinds have no third state, so a
 * reserved reply is `reserved`: a result when it shows the registry's record, else `not_found`
 * (not registered) saying the registry holds it back. Never rate_limited or upstream_error.
 */
export function expectedKind(
  e: Expected,
): 'registered' | 'not_found' | 'rate_limited' | 'reserved' | undefined {
  if (e.throttled === true) return 'rate_limited';
  if (e.reserved === true || e.state === 'reserved') return 'reserved';
  if (e.registered === true) return 'registered';
  if (e.available === true || e.registered === false) return 'not_found';
  if (e.state === 'available') return 'not_found';
  // "invalid" (a malformed query) and "incomplete" (a cut-off reply) are no answer about the name
  if (e.state !== undefined && e.state !== 'invalid' && e.state !== 'incomplete') {
    return 'registered';
  }
  return undefined;
}

const DAY = 86_400_000;
// The widest zone offsets (UTC-12 to UTC+14): a fixture time without a zone is a wall clock in
// the registry's zone, so it agrees with an instant within that much of it.
const ZONE_SLACK = 14 * 3_600_000;

/** Dates are compared by day: the same UTC day, or (for an unzoned fixture) within a zone's reach. */
export function sameDay(got: string | undefined, want: ExpectedTime): boolean {
  if (got === undefined) return false;
  const ms = Date.parse(got);
  if (!Number.isFinite(ms)) return false;
  if (Math.floor(ms / DAY) === Math.floor(want.ms / DAY)) return true;
  return !want.zoned && Math.abs(ms - want.ms) <= ZONE_SLACK;
}

/** A status as the contract writes it: lower case, no spaces, no EPP link or remark. */
export function normalStatus(s: string): string {
  return s
    .replace(/\s+https?:\/\/\S*/i, '')
    .replace(/\([^)]*\)/g, '')
    .replace(/\s+/g, '')
    .toLowerCase();
}

function host(s: string): string {
  return s.toLowerCase().replace(/\.$/, '');
}

function tallyOf(tally: Map<string, FieldTally>, key: string, ok: boolean): void {
  const t = tally.get(key) ?? { agree: 0, total: 0 };
  t.total += 1;
  if (ok) t.agree += 1;
  tally.set(key, t);
}

/**
 * Field agreement of a registered reply. A field counts when the fixture asserts it (a value,
 * or its absence); asserted absent, it agrees when the result has none.
 */
export function compareWeppos(
  result: WhoisResult | undefined,
  e: Expected,
  tally: Map<string, FieldTally>,
  mismatches?: string[],
  reply = '',
  notCounted?: Map<string, number>,
): void {
  const d = result?.domain ?? {};
  const r = result?.registrar ?? {};
  const check = (key: string, ok: boolean, got: unknown, want: unknown): void => {
    tallyOf(tally, key, ok);
    if (!ok) mismatches?.push(`${key}: got ${JSON.stringify(got)} want ${JSON.stringify(want)}`);
  };
  const text = (key: string, got: string | undefined, want: string | null | undefined): void => {
    if (want === undefined) return;
    const ok =
      want === null ? got === undefined : got?.toLowerCase().trim() === want.toLowerCase().trim();
    check(key, ok, got, want);
  };
  text('domain', d.domain, e.domain);
  text('domain_id', d.id, e.domainId);
  for (const [key, got, want] of [
    ['created', d.created_date, e.created],
    ['updated', d.updated_date, e.updated],
    ['expires', d.expiration_date, e.expires],
  ] as const) {
    if (want === undefined) continue;
    const ok = want === null ? got === undefined : sameDay(got, want);
    check(key, ok, got, want === null ? null : new Date(want.ms).toISOString());
  }
  if (e.nameservers !== undefined) {
    const got = new Set((d.name_servers ?? []).map(host));
    const want = new Set((e.nameservers ?? []).map(host));
    const ok = got.size === want.size && [...want].every((n) => got.has(n));
    check('nameservers', ok, [...got], [...want]);
  }
  if (e.statuses !== undefined) {
    const got = new Set((d.status ?? []).map(normalStatus));
    const want = new Set((e.statuses ?? []).map(normalStatus));
    const ok = got.size === want.size && [...want].every((n) => got.has(n));
    check('status', ok, [...got], [...want]);
  }
  if (e.registrarName !== undefined) {
    const want = e.registrarName;
    const got = r.name;
    const ok =
      want === null
        ? got === undefined
        : got !== undefined && want.some((w) => w.toLowerCase() === got.toLowerCase().trim());
    check('registrar.name', ok, got, want);
  }
  // weppos's registrar id is the registry's handle for it ("H65658", "R3228-XXX"); the seed's
  // is the IANA id (whois-parser's JSON, RDAP's "IANA Registrar ID"). Where the reply publishes
  // an IANA id and the result carries it, the two name different things: counted apart.
  const iana = /iana id\W*(\d+)\s*$/im.exec(reply)?.[1];
  if (
    typeof e.registrarId === 'string' &&
    iana !== undefined &&
    r.id === iana &&
    iana !== e.registrarId
  ) {
    const key = 'registrar.id (IANA id given, weppos wants its handle)';
    notCounted?.set(key, (notCounted.get(key) ?? 0) + 1);
  } else text('registrar.id', r.id, e.registrarId);
  text('registrar.url', r.referral_url, e.registrarUrl);
}
