// How names are printed: the master-file form (zone-check --print) escapes in a label exactly
// the octets BIND's named-compilezone escapes (every octet 0-255 checked against it when it is
// installed), whatever escapes the file used; and the escapes do not change which name a record
// belongs to.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { escapeLabel } from '../../../../src/engine/dns/presentation';
import { loadZone, printRecords } from '../../../../src/engine/zone/index';
import { describeTool, needTools } from '../../../support/reference-tools';

const ORIGIN = 'example.';
const HEAD = ['$TTL 300', '@ SOA ns hm 1 2 3 4 5', '@ NS ns', 'ns A 192.0.2.1'];

function printed(lines: string[]): string[] {
  const zone = loadZone([...HEAD, ...lines].join('\n'), { origin: ORIGIN });
  assert.deepEqual(
    zone.problems.filter((p) => p.severity === 'error'),
    [],
  );
  return printRecords(zone.records);
}

describe('engine/zone names in the master-file form', () => {
  it('escapes the octets RFC 1035 section 5.1 gives a meaning, `@` and `$` among them', () => {
    const octets = [...'a"$();.@\\b!#*/_-'].map((c) => c.charCodeAt(0));
    assert.equal(escapeLabel(octets), 'a\\"\\$\\(\\)\\;\\.\\@\\\\b!#*/_-');
    assert.equal(escapeLabel([0, 32, 127, 128, 255]), '\\000\\032\\127\\128\\255');
  });

  it('prints owners and targets with escapes made canonical, their case kept', () => {
    const lines = printed(['a@b PTR c$d', '\\065\\b\\- CNAME \\(x\\)', 'café MX 1 Grüße.example.']);
    assert.ok(lines.includes('a\\@b.example. 300 IN PTR c\\$d.example.'), lines.join('\n'));
    assert.ok(lines.includes('Ab-.example. 300 IN CNAME \\(x\\).example.'), lines.join('\n'));
    assert.ok(
      lines.includes('caf\\195\\169.example. 300 IN MX 1 Gr\\195\\188\\195\\159e.example.'),
      lines.join('\n'),
    );
  });

  it('keeps records of one name in one RRset however its octets are written', () => {
    const zone = loadZone(
      [...HEAD, 'a@b A 192.0.2.1', 'a\\@b A 192.0.2.2', '\\065x A 192.0.2.3', ' A 192.0.2.4'].join(
        '\n',
      ),
      { origin: ORIGIN },
    );
    const keys = zone.records.filter((r) => r.type === 'A').map((r) => r.key);
    assert.deepEqual(keys, [
      'ns.example.',
      'a\\@b.example.',
      'a\\@b.example.',
      'ax.example.',
      'ax.example.',
    ]);
  });

  it('prints every octet of an owner and of a target as named-compilezone does (BIND 9.18)', async function () {
    const tools = needTools(this, 'named-compilezone');
    const records: string[] = [];
    for (let b = 0; b < 256; b++) {
      const octet = `\\${String(b).padStart(3, '0')}`;
      records.push(`x${octet}y PTR t${octet}-${b}.example.`);
    }
    const dir = mkdtempSync(join(tmpdir(), 'hostlens-name-escapes-'));
    try {
      const file = join(dir, 'octets.zone');
      writeFileSync(file, `${[`$ORIGIN ${ORIGIN}`, ...HEAD, ...records].join('\n')}\n`);
      const { stdout } = await promisify(execFile)(tools['named-compilezone'].path, [
        ...['-i', 'none', '-k', 'ignore', '-s', 'full', '-o', '-'],
        ...[ORIGIN, file],
      ]);
      const theirs = stdout
        .split('\n')
        .filter((l) => /\sPTR\s/.test(l))
        .map((l) => l.replace(/\s+/g, ' '));
      const ours = printed(records).filter((l) => / PTR /.test(l));
      assert.equal(theirs.length, 256);
      assert.deepEqual(ours, theirs);
      console.log(
        `    256 of 256 octets printed as ${describeTool(tools['named-compilezone'], '-s full')}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
