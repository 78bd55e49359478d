// Generalisation: replies of 158 WHOIS servers from weppos/whois-parser's fixtures, read from
// ../shared/corpus/whois-weppos. The engine was not built from this corpus; a quarter of its
// servers (chosen by a hash of the server name) is kept out of tuning and reported apart.
// Prints agreement per field for the tuned part, the held-apart part and both.
import assert from 'node:assert/strict';
import { LookupError } from '../../../../src/contract/errors';
import type { WhoisResult } from '../../../../src/contract/shapes';
import { parseOrThrow } from '../../../support/whois-parse';
import { decodeReply } from '../../../../src/engine/whois/port43';
import { formatTally, overall, pct, type FieldTally } from '../../../support/whois-corpus';
import {
  compareWeppos,
  expectedKind,
  heldApart,
  loadWeppos,
  wepposAvailable,
  type WepposCase,
} from '../../../support/whois-weppos';

type Outcome = { result: WhoisResult } | { code: string; detail: string };

/**
 * Replies that carry nothing saying what the fixture says they are: the contract's rule for an
 * ambiguous reply (upstream_error, never a guess) decides them. Listed and printed, not hidden;
 * a registered one is left out of field agreement (there is nothing to agree with).
 */
const AMBIGUOUS = new Map([
  ['whois.tonic.to/to/status_registered', '"go ns-1.example" lines only: no key names a field'],
  ['whois.gandi.net/status_available', 'an empty reply'],
  ['whois.nic.bo/bo/status_available', '"only accepts queries for .bo domains": not an answer'],
]);

function run(c: WepposCase): Outcome {
  const domain = typeof c.expected.domain === 'string' ? c.expected.domain : undefined;
  try {
    return { result: parseOrThrow(decodeReply(c.bytes), domain ? { domain } : {}) };
  } catch (err) {
    if (err instanceof LookupError) return { code: err.code, detail: err.detail };
    return { code: `not a LookupError: ${String(err)}`, detail: '' };
  }
}

function kindOf(o: Outcome, want: string | undefined): string {
  if ('result' in o) return want === 'reserved' ? 'reserved' : 'registered';
  // not registered, and said to be held back by the registry
  if (want === 'reserved' && o.code === 'not_found' && /holds it back/.test(o.detail)) {
    return 'reserved';
  }
  return o.code;
}

describe('whois parser: weppos corpus (158 servers)', function () {
  let cases: WepposCase[] = [];
  const verbose = process.env.WHOIS_CORPUS_VERBOSE === '1';

  before(function () {
    if (!wepposAvailable()) {
      console.log('    (skipped: ../shared/corpus/whois-weppos is not present)');
      this.skip();
    }
    cases = loadWeppos();
  });

  it('classifies every available, reserved and throttled reply as the fixture says', function () {
    const wrong: Record<'tuned' | 'held', string[]> = { tuned: [], held: [] };
    const seen = { tuned: 0, held: 0 };
    const ambiguous: string[] = [];
    for (const c of cases) {
      const e = c.expected;
      const want = expectedKind(e);
      const special = e.available === true || want === 'reserved' || want === 'rate_limited';
      if (!special || want === undefined) continue;
      const got = kindOf(run(c), want);
      const reason = AMBIGUOUS.get(c.id);
      if (reason !== undefined) {
        ambiguous.push(`${c.id} (${reason}): ${got}`);
        assert.equal(got, 'upstream_error', c.id);
        continue;
      }
      const part = heldApart(c.server) ? 'held' : 'tuned';
      seen[part] += 1;
      if (got !== want) wrong[part].push(`${c.id}: got ${got}, want ${want}`);
    }
    console.log(
      `    kinds: tuned ${seen.tuned - wrong.tuned.length}/${seen.tuned}, ` +
        `held apart ${seen.held - wrong.held.length}/${seen.held}; ` +
        `ambiguous, upstream_error by the contract: ${ambiguous.join('; ')}`,
    );
    assert.ok(seen.tuned + seen.held > 150, `only ${seen.tuned + seen.held} such replies`);
    assert.deepEqual([...wrong.tuned, ...wrong.held], []);
  });

  it('gives the fixture kind for every registered reply and prints field agreement', function () {
    const tallies = { tuned: new Map<string, FieldTally>(), held: new Map<string, FieldTally>() };
    const all = new Map<string, FieldTally>();
    const wrongKind: string[] = [];
    const notCounted = new Map<string, number>();
    for (const c of cases) {
      const want = expectedKind(c.expected);
      if (want !== undefined && want !== 'registered') continue;
      const outcome = run(c);
      if (want === 'registered' && !('result' in outcome)) {
        if (AMBIGUOUS.has(c.id) && outcome.code === 'upstream_error') continue;
        wrongKind.push(`${c.id}: ${outcome.code}`);
      }
      const result = 'result' in outcome ? outcome.result : undefined;
      const mismatches: string[] = [];
      const part = heldApart(c.server) ? 'held' : 'tuned';
      const text = decodeReply(c.bytes);
      compareWeppos(result, c.expected, tallies[part], mismatches, text, notCounted);
      compareWeppos(result, c.expected, all, undefined, text);
      // The held-apart servers stay out of the tuning loop: their mismatches are not printed.
      if (verbose && part === 'tuned' && mismatches.length > 0) {
        console.log(`  ${c.id}\n    ${mismatches.join('\n    ')}`);
      }
    }
    const tuned = overall(tallies.tuned);
    const held = overall(tallies.held);
    const both = overall(all);
    console.log(`    -- tuned servers --\n${indent(formatTally(tallies.tuned))}`);
    console.log(`    -- held-apart servers --\n${indent(formatTally(tallies.held))}`);
    console.log(
      `    OVERALL tuned ${tuned.agree}/${tuned.total} ${pct(tuned.agree, tuned.total)}` +
        ` · held apart ${held.agree}/${held.total} ${pct(held.agree, held.total)}` +
        ` · all ${both.agree}/${both.total} ${pct(both.agree, both.total)}`,
    );
    for (const [what, n] of notCounted) console.log(`    not counted: ${what}: ${n}`);
    if (verbose) console.log(wrongKind.join('\n'));
    assert.deepEqual(wrongKind, [], 'registered replies must parse');
    assert.ok(both.agree / both.total >= 0.97, `agreement ${pct(both.agree, both.total)} < 97%`);
  });
});

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `      ${l}`)
    .join('\n');
}
