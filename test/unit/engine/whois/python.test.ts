// python-whois's samples (47 domains over many TLDs, its parsed values beside each reply): a
// corpus from a third project, read by test/support/whois-python.ts. A quarter of the TLDs
// (chosen by the same hash as the other corpora) is held apart from tuning: its mismatches are
// not printed, and its figure is reported apart.
import assert from 'node:assert/strict';
import type { WhoisResult } from '../../../../src/contract/shapes';
import { parseOrThrow } from '../../../support/whois-parse';
import { overall, pct, type FieldTally } from '../../../support/whois-corpus';
import { comparePython, loadPython, pythonAvailable } from '../../../support/whois-python';
import { heldApart } from '../../../support/whois-weppos';

describe('whois parser: python-whois corpus', function () {
  it('agrees with python-whois on the fields both read', function () {
    if (!pythonAvailable()) {
      console.log('      skipped: ../shared/corpus/whois-python absent');
      this.skip();
    }
    const verbose = process.env.WHOIS_CORPUS_VERBOSE === '1';
    const parts = { tuned: new Map<string, FieldTally>(), held: new Map<string, FieldTally>() };
    const failed: string[] = [];
    for (const sample of loadPython()) {
      let result: WhoisResult | undefined;
      try {
        result = parseOrThrow(sample.text, { domain: sample.domain });
      } catch (err) {
        failed.push(`${sample.domain}: ${(err as Error).message}`);
      }
      const held = heldApart(sample.domain.slice(sample.domain.lastIndexOf('.') + 1));
      const mismatches: string[] = [];
      comparePython(result, sample.expected, held ? parts.held : parts.tuned, mismatches);
      if (verbose && !held && mismatches.length > 0) {
        console.log(`      ${sample.domain}: ${mismatches.join('; ')}`);
      }
    }
    for (const [name, tally] of Object.entries(parts)) {
      for (const [field, t] of [...tally].sort()) {
        console.log(
          `      ${name.padEnd(5)} ${field.padEnd(16)} ${t.agree}/${t.total} ${pct(t.agree, t.total)}`,
        );
      }
    }
    const tuned = overall(parts.tuned);
    const held = overall(parts.held);
    const all = { agree: tuned.agree + held.agree, total: tuned.total + held.total };
    console.log(
      `      OVERALL tuned TLDs ${tuned.agree}/${tuned.total} ${pct(tuned.agree, tuned.total)} · ` +
        `held-apart TLDs ${held.agree}/${held.total} ${pct(held.agree, held.total)} · ` +
        `all ${all.agree}/${all.total} ${pct(all.agree, all.total)}`,
    );
    // Every sample is a registered name with its data: none may be refused or unread.
    assert.deepEqual(failed, []);
    assert.ok(all.agree / all.total >= FLOOR, `agreement ${pct(all.agree, all.total)}`);
  });
});

/** 88.8% (213/240) when this test was written; a change that loses three fields fails it. */
const FLOOR = 0.875;
