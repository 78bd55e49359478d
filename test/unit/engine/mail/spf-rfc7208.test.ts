// The openspf RFC 7208 suite, every scenario's zone served by the loopback DNS fixture.
import assert from 'node:assert/strict';
import {
  SUITE_PATH,
  loadSuite,
  runScenario,
  suiteAvailable,
  type SuiteOutcome,
} from '../../../support/spf-suite';

describe('engine/dns/spf-check: openspf RFC 7208 suite', function () {
  if (!suiteAvailable()) {
    it(`skipped: corpus not found at ${SUITE_PATH}`, function () {
      this.skip();
    });
    return;
  }
  const scenarios = loadSuite();
  const outcomes: SuiteOutcome[] = [];

  after(() => {
    const passed = outcomes.filter((o) => o.ok).length;
    console.log(`      RFC 7208 suite: ${passed}/${outcomes.length} passed`);
    for (const o of outcomes.filter((x) => !x.ok)) {
      console.log(
        `      FAIL ${o.test.scenario} / ${o.test.name}: want ${o.test.results.join('|')} got ${o.got}`,
      );
    }
  });

  it('holds 203 tests in 16 scenarios', () => {
    assert.equal(scenarios.length, 16);
    assert.equal(
      scenarios.reduce((n, s) => n + s.tests.length, 0),
      203,
    );
  });

  for (const scenario of scenarios) {
    it(`${scenario.description} (${scenario.tests.length} tests)`, async () => {
      const results = await runScenario(scenario, 150);
      outcomes.push(...results);
      const failed = results
        .filter((o) => !o.ok)
        .map(
          (o) =>
            `${o.test.name}: want ${o.test.results.join('|')}` +
            `${o.test.explanation ? ` "${o.test.explanation}"` : ''}, got ${o.got}` +
            `${o.explanation ? ` "${o.explanation}"` : ''}`,
        );
      assert.deepEqual(failed, []);
    });
  }
});
