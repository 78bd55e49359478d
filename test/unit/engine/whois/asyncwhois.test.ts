// asyncwhois's samples (test/fixtures/whois-asyncwhois: 12 replies of 12 registries, 2016 to
// 2021, with the values that project's tests assert for each): a corpus from a fourth project,
// in the repository with its licence. A quarter of the TLDs (chosen by the hash the other corpora
// use) is held apart from tuning: its mismatches are not printed, and its figure is reported
// apart. Values the reply itself contradicts (`disputed`) are printed and left out of the figure.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { WhoisResult } from '../../../../src/contract/shapes';
import { parseOrThrow } from '../../../support/whois-parse';
import { overall, pct, type FieldTally } from '../../../support/whois-corpus';
import { heldApart } from '../../../support/whois-weppos';

const ROOT = resolve(__dirname, '../../../fixtures/whois-asyncwhois');

interface Expected {
  query: string;
  created?: string | null;
  updated?: string | null;
  expires?: string | null;
  registrar?: string | null;
  name_servers?: number;
  status?: number;
  disputed?: Record<string, string>;
}

const fold = (v: string | null | undefined): string | undefined =>
  typeof v === 'string' && v.trim() !== ''
    ? v.trim().replace(/\s+/g, ' ').toLowerCase()
    : undefined;

/** The fields asyncwhois's tests assert, each compared when the expectation names it. */
function compare(
  result: WhoisResult,
  want: Expected,
  tally: Map<string, FieldTally>,
  mismatches: string[],
  disputed: string[],
): void {
  const d = result.domain;
  const r = result.registrar;
  const day = (v: string | undefined) => v?.slice(0, 10) ?? null;
  const fields: Array<[keyof Expected, unknown, (w: unknown) => boolean]> = [
    ['created', day(d.created_date), (w) => w === day(d.created_date)],
    ['updated', day(d.updated_date), (w) => w === day(d.updated_date)],
    ['expires', day(d.expiration_date), (w) => w === day(d.expiration_date)],
    // a registry that names the registrar by its handle (Norid) gives it as the id
    [
      'registrar',
      r.name ?? r.id ?? null,
      (w) =>
        fold(w as string | null) === undefined
          ? r.name === undefined && r.id === undefined
          : [fold(r.name), fold(r.id)].includes(fold(w as string)),
    ],
    ['name_servers', (d.name_servers ?? []).length, (w) => w === (d.name_servers ?? []).length],
    ['status', (d.status ?? []).length, (w) => w === (d.status ?? []).length],
  ];
  for (const [field, got, agrees] of fields) {
    if (!(field in want)) continue;
    const expected = want[field];
    if (want.disputed?.[field] !== undefined) {
      disputed.push(
        `${want.query} ${field}: asyncwhois ${JSON.stringify(expected)}, ours ` +
          `${JSON.stringify(got)} (${want.disputed[field]})`,
      );
      continue;
    }
    const t = tally.get(field) ?? { agree: 0, total: 0 };
    t.total += 1;
    if (agrees(expected)) t.agree += 1;
    else mismatches.push(`${field}: got ${JSON.stringify(got)} want ${JSON.stringify(expected)}`);
    tally.set(field, t);
  }
}

describe('whois parser: asyncwhois corpus (test/fixtures)', function () {
  it('agrees with the values asyncwhois asserts, the held-apart TLDs reported apart', function () {
    const expected = JSON.parse(readFileSync(join(ROOT, 'expected.json'), 'utf8')) as Record<
      string,
      Expected
    >;
    const parts = { tuned: new Map<string, FieldTally>(), held: new Map<string, FieldTally>() };
    const heldTlds: string[] = [];
    const failed: string[] = [];
    const disputed: string[] = [];
    for (const [tld, want] of Object.entries(expected).sort()) {
      const text = readFileSync(join(ROOT, 'samples', `tld_${tld}.txt`), 'utf8');
      const held = heldApart(tld);
      if (held) heldTlds.push(tld);
      let result: WhoisResult;
      try {
        result = parseOrThrow(text, { domain: want.query });
      } catch (err) {
        failed.push(`${want.query}: ${(err as Error).message}`);
        continue;
      }
      const mismatches: string[] = [];
      compare(result, want, held ? parts.held : parts.tuned, mismatches, disputed);
      if (!held && mismatches.length > 0) {
        console.log(`      ${want.query}: ${mismatches.join('; ')}`);
      }
    }
    for (const [name, tally] of Object.entries(parts)) {
      for (const [field, t] of [...tally].sort()) {
        console.log(
          `      ${name.padEnd(5)} ${field.padEnd(13)} ${t.agree}/${t.total} ${pct(t.agree, t.total)}`,
        );
      }
    }
    for (const line of disputed) console.log(`      disputed, left out: ${line}`);
    const tuned = overall(parts.tuned);
    const held = overall(parts.held);
    const all = { agree: tuned.agree + held.agree, total: tuned.total + held.total };
    console.log(
      `      OVERALL tuned TLDs ${tuned.agree}/${tuned.total} ${pct(tuned.agree, tuned.total)} · ` +
        `held-apart TLDs (${heldTlds.join(', ')}) ${held.agree}/${held.total} ` +
        `${pct(held.agree, held.total)} · all ${all.agree}/${all.total} ${pct(all.agree, all.total)}`,
    );
    // Every sample is a registered name with its data: none may be refused or unread.
    assert.deepEqual(failed, []);
    assert.ok(all.agree / all.total >= FLOOR, `agreement ${pct(all.agree, all.total)}`);
  });
});

/** 92.7% (51/55) when this test was written; a change that loses two fields fails it. */
const FLOOR = 0.9;
