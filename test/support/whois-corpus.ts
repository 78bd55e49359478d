// Reads likexian/whois-parser's testdata from ../shared/corpus (never copied into the project)
// and compares a parsed result with its expectation, field by field, on the seed's fields only.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { WhoisResult } from '../../src/contract/shapes';

export const CORPUS_ROOT = resolve(__dirname, '../../../shared/corpus');
export const WHOIS_TESTDATA = join(CORPUS_ROOT, 'whois-parser/v1.24.18/testdata');

export interface CorpusReply {
  file: string;
  /** the name asked for, taken from the file name (<ext>_<domain>) */
  domain: string;
  text: string;
  expected?: ExpectedWhois;
}

export interface ExpectedWhois {
  domain?: Record<string, unknown>;
  registrar?: Record<string, unknown>;
}

export function corpusAvailable(): boolean {
  return existsSync(WHOIS_TESTDATA);
}

export function loadReplies(kind: 'noterror' | 'notfound'): CorpusReply[] {
  const dir = join(WHOIS_TESTDATA, kind);
  return readdirSync(dir)
    .filter((f) => !f.endsWith('.json') && !f.endsWith('.pre') && !f.endsWith('.md'))
    .sort()
    .map((file) => {
      const jsonPath = join(dir, `${file}.json`);
      return {
        file,
        domain: file.slice(file.indexOf('_') + 1),
        // latin1 keeps every byte; the parser's own decoding is tested elsewhere.
        text: decodeReply(readFileSync(join(dir, file))),
        expected: existsSync(jsonPath)
          ? (JSON.parse(readFileSync(jsonPath, 'utf8')) as ExpectedWhois)
          : undefined,
      };
    });
}

function decodeReply(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

export const DOMAIN_FIELDS = [
  'id',
  'domain',
  'punycode',
  'name',
  'extension',
  'whois_server',
  'status',
  'name_servers',
  'dnssec',
  'created_date',
  'created_date_in_time',
  'updated_date',
  'updated_date_in_time',
  'expiration_date',
  'expiration_date_in_time',
] as const;
export const REGISTRAR_FIELDS = ['id', 'name', 'referral_url'] as const;

export interface FieldTally {
  agree: number;
  total: number;
}

/**
 * Field-by-field agreement. A field counts when either side has it; it agrees when both hold
 * the same value. Date fields are compared as instants to the second, because whois-parser keeps
 * the registry's spelling in `*_date` and the contract wants ISO 8601 UTC: the expected instant is
 * its `*_in_time` when present, else its raw `*_date` read by V8's Date.parse (an independent
 * reader), else its calendar date when the spelling starts with YYYY-MM-DD.
 */
export function compare(
  actual: WhoisResult | undefined,
  expected: ExpectedWhois,
  tally: Map<string, FieldTally>,
  mismatches?: string[],
): void {
  const exp = expected.domain ?? {};
  const act = (actual?.domain ?? {}) as Record<string, unknown>;
  for (const f of DOMAIN_FIELDS) {
    let ok: boolean | undefined;
    if (f.endsWith('_date') || f.endsWith('_in_time')) {
      const base = f.replace(/_in_time$/, '');
      const want = expectedInstant(exp[base], exp[`${base}_in_time`]);
      const got = act[f];
      if (want === undefined && got === undefined) continue;
      ok = sameInstant(got, want);
    } else {
      if (exp[f] === undefined && act[f] === undefined) continue;
      ok = same(act[f], exp[f], f);
    }
    count(tally, `domain.${f}`, ok, mismatches, act[f], exp[f]);
  }
  const expR = expected.registrar ?? {};
  const actR = (actual?.registrar ?? {}) as Record<string, unknown>;
  for (const f of REGISTRAR_FIELDS) {
    if (expR[f] === undefined && actR[f] === undefined) continue;
    count(tally, `registrar.${f}`, same(actR[f], expR[f], f), mismatches, actR[f], expR[f]);
  }
}

function count(
  tally: Map<string, FieldTally>,
  key: string,
  ok: boolean,
  mismatches: string[] | undefined,
  got: unknown,
  want: unknown,
): void {
  const t = tally.get(key) ?? { agree: 0, total: 0 };
  t.total += 1;
  if (ok) t.agree += 1;
  else mismatches?.push(`${key}: got ${JSON.stringify(got)} want ${JSON.stringify(want)}`);
  tally.set(key, t);
}

function same(a: unknown, b: unknown, field: string): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return JSON.stringify(a) === JSON.stringify(b);
  }
  // whois-parser keeps the server's case for whois_server ("WHOIS.ENOM.COM"); host names are
  // case-insensitive, so are compared that way.
  if (field === 'whois_server' && typeof a === 'string' && typeof b === 'string') {
    return a.toLowerCase() === b.toLowerCase();
  }
  return a === b;
}

/**
 * The instant an expectation means. The registry's own text wins when it names its zone
 * ("2000-08-29 10:22:50 (UTC+8)", "...Z", "...-0700"): whois-parser's `_in_time` is its reading
 * of that text, and for the "(UTC+8)" spellings it is hours off. Otherwise `_in_time`, then the
 * raw text read by V8, then two spellings V8 does not read: "19.2.2019" (D.M.YYYY) and
 * "2001-06-14-T10:32:43Z" (a stray dash before the T).
 */
function expectedInstant(raw: unknown, inTime: unknown): number | undefined {
  if (typeof raw === 'string') {
    const zoned = zonedInstant(raw);
    if (zoned !== undefined) return zoned;
  }
  if (typeof inTime === 'string') return Math.floor(Date.parse(inTime) / 1000);
  if (typeof raw !== 'string') return undefined;
  const dmy = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?: (\d{2}):(\d{2}):(\d{2}))?$/.exec(raw.trim());
  if (dmy) {
    const [, d, m, y, hh = '0', mm = '0', ss = '0'] = dmy;
    return Math.floor(Date.UTC(+y, +m - 1, +d, +hh, +mm, +ss) / 1000);
  }
  const dashT = /^(\d{4}-\d{2}-\d{2})-(T\d{2}:\d{2}:\d{2}Z)$/.exec(raw.trim());
  if (dashT) return Math.floor(Date.parse(`${dashT[1]}${dashT[2]}`) / 1000);
  const plain = raw.replace(/\([^)]*\)/g, '').trim();
  const zoned = /(z|[+-]\d{2}:?\d{2})$/i.test(plain)
    ? Date.parse(plain)
    : Date.parse(`${plain} UTC`);
  if (Number.isFinite(zoned)) return Math.floor(zoned / 1000);
  const ymd = /^(\d{4})-(\d{2})-(\d{2})/.exec(plain);
  if (ymd) return Math.floor(Date.UTC(+ymd[1], +ymd[2] - 1, +ymd[3]) / 1000);
  // A spelling V8 cannot read either ("before 1 January 1996"): nothing can agree with it.
  return Number.NaN;
}

/** A registry date that names its zone: ISO with Z or an offset, or "(UTC+8)" / "(GMT+9:00)". */
function zonedInstant(raw: string): number | undefined {
  const s = raw.trim();
  if (/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})$/.test(s)) {
    return Math.floor(Date.parse(s) / 1000);
  }
  const m =
    /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) \((?:UTC|GMT)([+-])(\d{1,2})(?::(\d{2}))?\)$/.exec(
      s,
    );
  if (!m) return undefined;
  const offset = (+m[8] * 60 + +(m[9] ?? 0)) * (m[7] === '-' ? -1 : 1);
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  return Math.floor((wall - offset * 60_000) / 1000);
}

function sameInstant(got: unknown, want: number | undefined): boolean {
  if (typeof got !== 'string' || want === undefined || Number.isNaN(want)) return false;
  return Math.floor(Date.parse(got) / 1000) === want;
}

export function formatTally(tally: Map<string, FieldTally>): string {
  const rows = [...tally.entries()].sort(([a], [b]) => a.localeCompare(b));
  return rows
    .map(([k, t]) => `${k.padEnd(32)} ${t.agree}/${t.total} ${pct(t.agree, t.total)}`)
    .join('\n');
}

export function overall(tally: Map<string, FieldTally>): FieldTally {
  let agree = 0;
  let total = 0;
  for (const t of tally.values()) {
    agree += t.agree;
    total += t.total;
  }
  return { agree, total };
}

export function pct(a: number, b: number): string {
  return b === 0 ? '-' : `${((100 * a) / b).toFixed(1)}%`;
}
