// Reads python-whois's samples from ../shared/corpus/whois-python (never copied into the
// project): each raw reply (`whois/<domain>`) with that project's parsed values
// (`expected/<domain>`), and compares a parsed result with them on the fields both shapes have.
//
// Its values are one parser's reading, not ground truth, and its shape is not the seed's:
// - names are compared without case (it keeps the registry's "GOOGLE.COM");
// - dates are compared by calendar day: it prints `2008-03-26 16:18:03+00:00` after dropping
//   the registry's zone, so only the day is the reply's own; a list of dates (a reply that
//   repeats the field, mixing contact and domain dates) agrees when one of them does;
// - statuses as sets, without case: one of theirs agrees with ours written as the contract
//   writes a status (no spaces: "Transfer Locked" is "transferlocked"), or by its first word
//   (a sentence, "Registered until expiry date.", or a word and its URL);
// - the registrar by name, without case and surrounding space.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WhoisResult } from '../../src/contract/shapes';
import { decodeReply } from '../../src/engine/whois/port43';
import { CORPUS_ROOT, type FieldTally } from './whois-corpus';

export const PYTHON_ROOT = join(CORPUS_ROOT, 'whois-python');

export interface PythonSample {
  domain: string;
  text: string;
  expected: Record<string, unknown>;
}

export function pythonAvailable(): boolean {
  return existsSync(join(PYTHON_ROOT, 'whois')) && existsSync(join(PYTHON_ROOT, 'expected'));
}

export function loadPython(): PythonSample[] {
  const dir = join(PYTHON_ROOT, 'whois');
  return readdirSync(dir)
    .sort()
    .filter((d) => existsSync(join(PYTHON_ROOT, 'expected', d)))
    .map((domain) => ({
      domain,
      text: decodeReply(readFileSync(join(dir, domain))),
      expected: JSON.parse(readFileSync(join(PYTHON_ROOT, 'expected', domain), 'utf8')) as Record<
        string,
        unknown
      >,
    }));
}

const list = (v: unknown): unknown[] =>
  Array.isArray(v) ? v : v === null || v === undefined ? [] : [v];

function day(v: unknown): string | undefined {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : undefined;
}

const fold = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== ''
    ? v.trim().replace(/\s+/g, ' ').toLowerCase()
    : undefined;

/** Field-by-field agreement; a field counts when either side has it. */
export function comparePython(
  actual: WhoisResult | undefined,
  expected: Record<string, unknown>,
  tally: Map<string, FieldTally>,
  mismatches?: string[],
): void {
  const d = actual?.domain ?? {};
  const r = actual?.registrar ?? {};
  const count = (field: string, got: unknown, want: unknown, ok: boolean): void => {
    const t = tally.get(field) ?? { agree: 0, total: 0 };
    t.total += 1;
    if (ok) t.agree += 1;
    else mismatches?.push(`${field}: got ${JSON.stringify(got)} want ${JSON.stringify(want)}`);
    tally.set(field, t);
  };
  const names = list(expected.domain_name).map(fold);
  if (names.length > 0 || d.domain !== undefined) {
    count('domain', d.domain, expected.domain_name, names.includes(fold(d.domain)));
  }
  for (const [field, ours] of [
    ['creation_date', d.created_date],
    ['expiration_date', d.expiration_date],
    ['updated_date', d.updated_date],
  ] as const) {
    const days = list(expected[field])
      .map(day)
      .filter((x) => x !== undefined);
    if (days.length === 0 && ours === undefined) continue;
    count(field, ours, expected[field], days.includes(day(ours)!));
  }
  const want = fold(list(expected.registrar)[0]);
  if (want !== undefined || r.name !== undefined) {
    count('registrar', r.name, expected.registrar, fold(r.name) === want);
  }
  const theirs = new Map<string, string>();
  for (const s of list(expected.status)) {
    const first = fold(String(s).split(/\s+/)[0]);
    if (first !== undefined) theirs.set(first, String(s).replace(/\s+/g, '').toLowerCase());
  }
  const ourStatus = new Set((d.status ?? []).map((s) => s.toLowerCase()));
  if (theirs.size > 0 || ourStatus.size > 0) {
    const ok =
      theirs.size === ourStatus.size &&
      [...theirs].every(([first, whole]) => ourStatus.has(first) || ourStatus.has(whole));
    count('status', d.status, expected.status, ok);
  }
}
