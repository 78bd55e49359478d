// The V8 flags the launcher sets for a one-command process (src/cli/short-run.ts). V8 answers
// a flag it does not know with "Error: unrecognized flag" on stdout, which would be mixed into
// every command's output: each flag must be one this Node's V8 knows, and change nothing the
// process prints.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { endsWhenAnswered, SHORT_RUN_FLAGS, shortRunFlags } from '../../../src/cli/short-run';

describe('the V8 flags of a short run', () => {
  it('are flags this V8 knows: setting them prints nothing', () => {
    for (const flag of SHORT_RUN_FLAGS) {
      const child = spawnSync(
        process.execPath,
        ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(flag)})`],
        { encoding: 'utf8' },
      );
      assert.equal(child.status, 0, flag);
      assert.equal(child.stdout + child.stderr, '', flag);
    }
  });

  it('would show an unknown flag on the output (the check above can fail)', () => {
    const child = spawnSync(
      process.execPath,
      ['-e', `require('node:v8').setFlagsFromString('--no-such-hostlens-flag')`],
      { encoding: 'utf8' },
    );
    assert.match(child.stdout + child.stderr, /unrecognized flag/);
  });

  it('are set only for zone-check on a V8 they are known in', () => {
    assert.deepEqual(shortRunFlags('zone-check', process.versions.v8), SHORT_RUN_FLAGS);
    assert.deepEqual(shortRunFlags('zone-check', '11.3.244.8-node.38'), SHORT_RUN_FLAGS);
    assert.deepEqual(shortRunFlags('serve', '11.3.244.8'), []);
    assert.deepEqual(shortRunFlags('query', '11.3.244.8'), []);
    // A V8 the flags were not checked in keeps its defaults.
    assert.deepEqual(shortRunFlags('zone-check', '14.0.1'), []);
    assert.deepEqual(shortRunFlags('zone-check', '10.2.154'), []);
    assert.deepEqual(shortRunFlags('zone-check', 'not a version'), []);
    assert.deepEqual(shortRunFlags(undefined, '11.3.244.8'), []);
  });

  it('ends only zone-check at its answer: commands that may hold sockets end as Node ends them', () => {
    assert.equal(endsWhenAnswered('zone-check'), true);
    for (const command of ['serve', 'zone-diff', 'query', 'check', undefined]) {
      assert.equal(endsWhenAnswered(command), false, String(command));
    }
  });
});
