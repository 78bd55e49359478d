// $INCLUDE reads only regular files of a bounded size (issue 29): a device never ends, a FIFO
// blocks its reader, and a large include once overflowed the stack when its records were spread
// into the including zone's list.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkZoneFile, MAX_INCLUDE_BYTES } from '../../../src/services/zone';
import { ZONE_HEAD as HEAD } from '../../support/zone-file';

describe('zone $INCLUDE: only regular files, bounded', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hostlens-include-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const check = (include: string) => {
    const zone = join(dir, `z${Math.random().toString(36).slice(2)}.zone`);
    writeFileSync(zone, `${HEAD}$INCLUDE ${include}\n`);
    const started = performance.now();
    const result = checkZoneFile(zone, 'example.test.');
    return { result, ms: performance.now() - started };
  };
  const includeFailure = (r: ReturnType<typeof check>) =>
    r.result.problems.find((p) => p.code === 'include-failed');

  it('refuses a device, a directory and a FIFO at once, as a coded problem', () => {
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    for (const target of ['/dev/zero', dir, fifo]) {
      const r = check(target);
      const failure = includeFailure(r);
      assert.ok(failure, target);
      assert.match(failure.message, /not a regular file/, target);
      assert.ok(r.ms < 2_000, `${target} took ${r.ms} ms`);
    }
  });

  it('refuses a file larger than the limit without reading it', () => {
    const big = join(dir, 'big.inc');
    writeFileSync(big, '');
    truncateSync(big, MAX_INCLUDE_BYTES + 1); // sparse: no disk, no read
    const failure = includeFailure(check(big));
    assert.ok(failure);
    assert.match(failure.message, /larger than/);
  });

  it('loads a 200,000-record include (no spread of its records)', () => {
    const lines: string[] = [];
    for (let i = 0; i < 200_000; i++) lines.push(`h${i} IN A 192.0.2.${i % 250}`);
    const inc = join(dir, 'many.inc');
    writeFileSync(inc, `${lines.join('\n')}\n`);
    const zone = join(dir, 'many.zone');
    writeFileSync(zone, `${HEAD}$INCLUDE many.inc\n`);
    const result = checkZoneFile(zone, 'example.test.', true);
    assert.equal(result.problems.filter((p) => p.severity === 'error').length, 0);
    assert.ok((result.records?.length ?? 0) >= 200_000);
  });
});
