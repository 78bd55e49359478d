// Zone files written by other people (test/fixtures/zones/corpus: the test zones two npm zone
// file packages ship, the zones BIND installs for its built-in zones, the root hints; each
// folder with its SOURCE and licence), checked by HostLens and by BIND 9.18 as they come:
// - the verdict: zone-check refuses a file exactly when named-checkzone does, with an error on
//   every line BIND names in one;
// - for a file BIND loads, `zone-check --print` writes the lines `named-compilezone -s full`
//   writes (byte for byte but for the column blanks, in order), the same records in wire form.
// A quarter of the files, chosen by a hash of their names, is held apart (never looked at to
// tune the parser) and its figure is printed on its own.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRdata } from '../../../../src/engine/dns/rdata/text';
import { tokenizeLine } from '../../../../src/engine/zone/lexer';
import { checkZoneFile } from '../../../../src/services/zone';
import { describeTool, needTools } from '../../../support/reference-tools';
import { BIND_WARNINGS } from '../../../support/bind-messages';

const CORPUS = join(__dirname, '../../../fixtures/zones/corpus');
const ORIGINS = JSON.parse(readFileSync(join(CORPUS, 'origins.json'), 'utf8')) as Record<
  string,
  string
>;

/** Held apart from tuning: the files whose name hashes to a first hex digit under 4. */
function heldApart(name: string): boolean {
  return createHash('sha256').update(name).digest('hex')[0] < '4';
}

function run(tool: string, args: string[]): Promise<{ code: number; stdout: string; out: string }> {
  return new Promise((resolve) =>
    execFile(tool, args, { maxBuffer: 1 << 26, timeout: 60000 }, (err, stdout, stderr) =>
      resolve({ code: err === null ? 0 : 1, stdout, out: `${stdout}${stderr}` }),
    ),
  );
}

interface Outcome {
  name: string;
  verdict: boolean;
  /** undefined when BIND does not load the file */
  printed?: { lines: number; exact: number; wire: number };
  why: string[];
}

describe('engine/zone real zone files against BIND 9.18', function () {
  this.timeout(120000);

  it('gives named-checkzone verdict and named-compilezone records on every file', async function () {
    const tools = needTools(this, 'named-checkzone', 'named-compilezone');
    const outcomes: Outcome[] = [];
    for (const [name, origin] of Object.entries(ORIGINS)) {
      const file = join(CORPUS, name);
      const why: string[] = [];
      const checked = await run(tools['named-checkzone'].path, [origin, file]);
      const bindLoads = checked.code === 0;
      const bindLines = checked.out
        .split('\n')
        .filter((l) => /:\d+: /.test(l) && !BIND_WARNINGS.some((w) => w.test(l)))
        .map((l) => Number(/:(\d+): /.exec(l)![1]));
      const ours = checkZoneFile(file, origin, true);
      const errors = ours.problems.filter((p) => p.severity === 'error');
      const missed = bindLines.filter((line) => !errors.some((e) => e.line === line));
      const verdict = bindLoads === (errors.length === 0) && missed.length === 0;
      if (!verdict) {
        why.push(
          `BIND ${bindLoads ? 'loads' : 'refuses'} (lines ${bindLines.join(',')}), HostLens ` +
            `${errors.length === 0 ? 'loads' : `refuses (${errors.map((e) => `${e.line}:${e.code}`).join(' ')})`}`,
          checked.out,
        );
      }
      let printed: Outcome['printed'];
      if (bindLoads) {
        const compiled = await run(tools['named-compilezone'].path, [
          '-s',
          'full',
          '-o',
          '-',
          origin,
          file,
        ]);
        const theirs = compiled.stdout
          .split('\n')
          .filter((l) => l !== '' && !l.startsWith(';') && !/^(zone |OK$)/.test(l))
          .map(columns);
        const mine = ours.records ?? [];
        const exact = theirs.filter((l, i) => mine[i] === l).length;
        const wires = new Set(mine.map((l) => wireKey(l, origin)));
        const wire = theirs.filter((l) => wires.has(wireKey(l, origin))).length;
        printed = { lines: theirs.length, exact, wire };
        if (exact !== theirs.length || mine.length !== theirs.length) {
          why.push(
            ...theirs
              .map((l, i) => [l, mine[i]])
              .filter(([l, m]) => l !== m)
              .slice(0, 3)
              .map(([l, m]) => `BIND:     ${l}\nHostLens: ${m}`),
          );
        }
      }
      outcomes.push({ name, verdict, printed, why });
    }
    for (const [label, part] of [
      ['tuned on', outcomes.filter((o) => !heldApart(o.name))],
      ['held apart', outcomes.filter((o) => heldApart(o.name))],
    ] as const) {
      const loaded = part.filter((o) => o.printed !== undefined);
      const lines = loaded.reduce((n, o) => n + o.printed!.lines, 0);
      const exact = loaded.reduce((n, o) => n + o.printed!.exact, 0);
      const wire = loaded.reduce((n, o) => n + o.printed!.wire, 0);
      console.log(
        `    ${label}: verdict as BIND's on ${part.filter((o) => o.verdict).length} of ${part.length} files ` +
          `(${part.map((o) => o.name.split('/').pop()).join(', ')}); of the ${loaded.length} BIND loads, ` +
          `--print gives ${exact} of ${lines} lines byte for byte, ${wire} of ${lines} records in wire form`,
      );
    }
    console.log(`    ${describeTool(tools['named-checkzone'], 'ORIGIN FILE')}`);
    console.log(`    ${describeTool(tools['named-compilezone'], '-s full -o - ORIGIN FILE')}`);
    const wrong = outcomes.filter((o) => o.why.length > 0);
    assert.deepEqual(
      wrong.map((o) => `${o.name}\n${o.why.join('\n')}`),
      [],
    );
  });
});

/** BIND's line with the blanks between owner, TTL, class, type and data made one space. */
function columns(line: string): string {
  const m = /^(\S+)\s+(\d+)\s+(\S+)\s+(\S+)(?:\s(.*))?$/.exec(line);
  assert.ok(m, line);
  return `${m[1]} ${m[2]} ${m[3]} ${m[4]} ${(m[5] ?? '').replace(/^\s+/, '')}`;
}

/** A printed line as owner, type and canonical wire form of its data. */
function wireKey(line: string, origin: string): string {
  const tokens = tokenizeLine(line).tokens;
  const [owner, , , type] = tokens.map((t) => t.text);
  const parsed = parseRdata(type, tokens.slice(4), origin);
  return `${owner.toLowerCase()} ${type} ${'code' in parsed ? parsed.message : parsed.wire}`;
}
