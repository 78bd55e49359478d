// Zone reading within bounds (issue 29): $GENERATE and $INCLUDE together stop at a total record
// limit with a coded problem (each was bounded alone, so 250 $GENERATEs or one file included
// a thousand times exhausted the heap), and an over-long line is refused, unread, with its own
// code (a 140 MB line was a V8 fatal error).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRows } from '../../../../src/engine/zone/index';
import { MAX_LINE_CHARS, tokenizeLine } from '../../../../src/engine/zone/lexer';
import { checkZoneFile } from '../../../../src/services/zone';
import { ZONE_HEAD as HEAD } from '../../../support/zone-file';

describe('zone reading limits', function () {
  this.timeout(60_000);

  it('stops $GENERATEs at the total record limit, with one coded problem per refused directive', () => {
    const lines = Array.from({ length: 250 }, (_, i) => `$GENERATE 0-65535 g${i}-$ A 192.0.2.1`);
    const started = performance.now();
    const { problems, rows } = loadRows(`${HEAD}${lines.join('\n')}\n`, {
      origin: 'example.test.',
      maxExpandedRecords: 100_000,
    });
    const refused = problems.filter((p) => p.code === 'too-many-records');
    assert.equal(rows.count, 100_000);
    // The directive that reached the limit and every one after it.
    assert.equal(refused.length, 250 - Math.floor((100_000 - 3) / 65536));
    assert.match(refused[0].message, /past 100000 records/);
    assert.ok(performance.now() - started < 20_000);
  });

  it('stops reading $INCLUDEs once the limit is reached, counting the includes of includes', () => {
    const body = Array.from({ length: 1000 }, (_, i) => `i${i} IN A 192.0.2.1`).join('\n');
    let reads = 0;
    const readInclude = (path: string) => {
      reads++;
      // The include includes itself once more at each level, up to the depth limit.
      return { path, text: `${body}\n$INCLUDE again.inc\n$INCLUDE again.inc\n` };
    };
    const includes = Array.from({ length: 1000 }, () => '$INCLUDE a.inc').join('\n');
    const { problems, rows } = loadRows(`${HEAD}${includes}\n`, {
      origin: 'example.test.',
      file: '/zones/example.test.zone',
      readInclude,
      maxExpandedRecords: 50_000,
    });
    assert.ok(problems.some((p) => p.code === 'too-many-records'));
    assert.ok(rows.count <= 50_000 + 1000, `${rows.count} records`);
    assert.ok(reads <= 51, `${reads} includes read`);
  });

  it('refuses an over-long line with line-too-long, and reads the lines around it', () => {
    const long = `big IN TXT "${'a'.repeat(MAX_LINE_CHARS)}"`;
    const lt = tokenizeLine(long);
    assert.equal(lt.tokens.length, 0);
    assert.equal(lt.error?.code, 'line-too-long');
    const { problems, rows } = loadRows(`${HEAD}${long}\nafter IN A 192.0.2.2\n`, {
      origin: 'example.test.',
    });
    const problem = problems.find((p) => p.code === 'line-too-long');
    assert.ok(problem);
    assert.equal(problem.range.line, 5);
    assert.equal(rows.count, 4);
    // A line just under the limit is read as any other.
    assert.equal(tokenizeLine(`x TXT "${'a'.repeat(300_000)}"`).error, undefined);
  });

  it('checks a file holding one 140 MB line as a coded problem, not a fatal error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostlens-longline-'));
    try {
      const file = join(dir, 'example.test.zone');
      writeFileSync(file, `${HEAD}x IN TXT "${'z'.repeat(140 * 1024 * 1024)}"\n`);
      const result = checkZoneFile(file, 'example.test.');
      assert.deepEqual(
        result.problems.filter((p) => p.severity === 'error').map((p) => p.code),
        ['line-too-long'],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
