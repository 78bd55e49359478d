// The editor's $INCLUDEs (issue 29): read ahead with non-blocking I/O under the same limits as
// the command line's, then given to the parser from memory, so no parse in the extension host
// waits on the disk. A file not read yet is a problem of that parse and a request to read it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkZoneFile, MAX_INCLUDE_BYTES, ZoneSession } from '../../../src/services/zone';
import { IncludeCache, includedNames } from '../../../src/services/zone-includes';
import { ZONE_HEAD as HEAD } from '../../support/zone-file';

describe('zone $INCLUDE read ahead for the editor', function () {
  this.timeout(30_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'hostlens-include-async-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the names $INCLUDE lines give, quoted or not', () => {
    assert.deepEqual(
      includedNames('$INCLUDE a.inc\n$include "b c.inc" sub\n x $INCLUDE no\n$INCLUDE d;x\n'),
      ['a.inc', 'b c.inc', 'd'],
    );
  });

  it('reads includes of includes ahead, then parses them from memory as the CLI reads them', async () => {
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'sub', 'hosts.inc'), 'www IN A 192.0.2.10\n$INCLUDE more.inc\n');
    writeFileSync(join(dir, 'sub', 'more.inc'), 'mail IN A 192.0.2.11\nbad IN A 300.1.1.1\n');
    const zone = join(dir, 'example.test.zone');
    const text = `${HEAD}$INCLUDE sub/hosts.inc\n`;
    writeFileSync(zone, text);
    const cache = new IncludeCache();
    assert.equal(cache.hasAll(text, zone), false);
    await cache.prefetch(text, zone);
    assert.equal(cache.hasAll(text, zone), true);
    // Gone from disk: the parse below can only have read them from memory.
    unlinkSync(join(dir, 'sub', 'hosts.inc'));
    unlinkSync(join(dir, 'sub', 'more.inc'));
    const session = new ZoneSession(text, {
      origin: 'example.test.',
      file: zone,
      readInclude: cache.readInclude,
    });
    assert.equal(cache.takeMissed(), false);
    const owners = session.records().map((r) => r.owner);
    assert.ok(owners.includes('www.example.test.') && owners.includes('mail.example.test.'));
    const bad = session.problems().find((p) => p.file?.endsWith('more.inc'));
    assert.ok(bad, 'the problem of the nested include, with its file');
  });

  it('a file not read yet is a problem of the parse and a request to read it', () => {
    const cache = new IncludeCache();
    const zone = join(dir, 'unread.zone');
    const session = new ZoneSession(`${HEAD}$INCLUDE later.inc\n`, {
      origin: 'example.test.',
      file: zone,
      readInclude: cache.readInclude,
    });
    assert.equal(cache.takeMissed(), true);
    assert.equal(cache.takeMissed(), false);
    const problem = session.problems().find((p) => p.code === 'include-failed');
    assert.match(problem?.message ?? '', /still being read/);
  });

  it('refuses a device, a directory, a FIFO and an oversized file without blocking', async () => {
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const big = join(dir, 'big.inc');
    writeFileSync(big, '');
    truncateSync(big, MAX_INCLUDE_BYTES + 1);
    const zone = join(dir, 'hostile.zone');
    const text = `${HEAD}$INCLUDE /dev/zero\n$INCLUDE ${dir}\n$INCLUDE pipe\n$INCLUDE big.inc\n$INCLUDE none.inc\n`;
    const cache = new IncludeCache();
    const started = performance.now();
    await cache.prefetch(text, zone);
    assert.ok(performance.now() - started < 2000);
    const session = new ZoneSession(text, {
      origin: 'example.test.',
      file: zone,
      readInclude: cache.readInclude,
    });
    const messages = session
      .problems()
      .filter((p) => p.code === 'include-failed')
      .map((p) => p.message);
    assert.equal(messages.length, 5, messages.join('\n'));
    assert.equal(messages.filter((m) => /not a regular file/.test(m)).length, 3);
    assert.ok(messages.some((m) => /larger than 64 MB/.test(m)));
    assert.ok(messages.some((m) => /ENOENT/.test(m)));
  });

  it('gives the same answer as the command line for a zone with includes', async () => {
    writeFileSync(join(dir, 'same.inc'), 'a IN A 192.0.2.20\nb IN CNAME a\nb IN A 192.0.2.21\n');
    const zone = join(dir, 'same.zone');
    const text = `${HEAD}$INCLUDE same.inc\n`;
    writeFileSync(zone, text);
    const cache = new IncludeCache();
    await cache.prefetch(text, zone);
    const session = new ZoneSession(text, {
      origin: 'example.test.',
      file: zone,
      readInclude: cache.readInclude,
    });
    const cli = checkZoneFile(zone, 'example.test.');
    assert.deepEqual(
      session.problems().map((p) => p.code),
      cli.problems.map((p) => p.code),
    );
  });
});
