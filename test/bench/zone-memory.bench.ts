// Memory of a 1,000,000-record zone (issues 24 and 28), as the peak resident size of whole
// processes run one after the other, alternating, medians of RUNS: named-checkzone, `hostlens
// zone-check` (the CLI as npm pack ships it) and the editor's session of the same file (the
// engine's ZoneSession bundled the same way, in a process of its own). Targets: the one-shot
// check within 1.5x named-checkzone, the session within 1.5x the one-shot check.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { buildCli } from '../support/cli-build';
import { seeded } from '../support/prng';
import { generateZone, ORIGIN } from '../support/zone-generator';
import type { BenchRow } from './types';

const RECORDS = 1_000_000;
const RUNS = 3;
const TIME = '/usr/bin/time';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Peak resident size of a whole process in MB (GNU time's %M), or undefined when it failed. */
function peakMb(out: string, command: string, args: string[]): Promise<number | undefined> {
  return new Promise((done) => {
    execFile(
      TIME,
      ['-f', '%M', '-o', out, command, ...args],
      { maxBuffer: 256 * 1024 * 1024, timeout: 600_000 },
      (err) => {
        if (err) return done(undefined);
        const kb = Number(readFileSync(out, 'utf8').trim().split('\n').pop());
        done(Number.isFinite(kb) ? kb / 1024 : undefined);
      },
    );
  });
}

export default async function zoneMemoryBench(): Promise<BenchRow[]> {
  const entry = `zone memory: ${RECORDS} records, peak RSS`;
  if (!existsSync(TIME)) {
    return [
      {
        entry,
        figure: '-',
        target: 'ratio <= 1.5',
        ratio: Number.NaN,
        pass: false,
        notes: `${TIME} (Debian package time) is not installed: no peak figure`,
      },
    ];
  }
  const dir = mkdtempSync(join(tmpdir(), 'hostlens-zone-memory-'));
  try {
    const cli = await buildCli(dir, { production: true });
    const session = join(dir, 'session.js');
    await build({
      entryPoints: [join(__dirname, 'zone-session-child.ts')],
      outfile: session,
      bundle: true,
      minify: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'warning',
    });
    const file = join(dir, 'big.zone');
    writeFileSync(file, generateZone(seeded(1_000_000), 'none', Math.round(RECORDS / 1.7)).text);
    const out = join(dir, 'time.out');
    const peaks: Record<'bind' | 'check' | 'session', number[]> = {
      bind: [],
      check: [],
      session: [],
    };
    for (let i = 0; i < RUNS; i++) {
      const bind = await peakMb(out, 'named-checkzone', ['-q', ORIGIN, file]);
      const check = await peakMb(out, process.execPath, [
        cli,
        'zone-check',
        file,
        '--origin',
        ORIGIN,
      ]);
      const held = await peakMb(out, process.execPath, [session, file, ORIGIN]);
      if (bind !== undefined) peaks.bind.push(bind);
      if (check === undefined || held === undefined) throw new Error('a zone process failed');
      peaks.check.push(check);
      peaks.session.push(held);
    }
    const check = median(peaks.check);
    const held = median(peaks.session);
    const rows: BenchRow[] = [];
    if (peaks.bind.length === 0) {
      rows.push({
        entry: `${entry}: hostlens zone-check`,
        figure: `${check.toFixed(0)} MB`,
        target: 'ratio to named-checkzone <= 1.5',
        ratio: Number.NaN,
        pass: false,
        notes: 'named-checkzone not installed or failed: no peer figure',
      });
    } else {
      const bind = median(peaks.bind);
      rows.push({
        entry: `${entry}: hostlens zone-check (whole process)`,
        figure: `${check.toFixed(0)} MB`,
        target: 'ratio to named-checkzone <= 1.5',
        ratio: check / bind,
        pass: check / bind <= 1.5,
        notes: `named-checkzone -q: ${bind.toFixed(0)} MB (medians of ${RUNS}, alternating)`,
      });
    }
    rows.push({
      entry: `${entry}: editor session (ZoneSession, one edit, the features' questions)`,
      figure: `${held.toFixed(0)} MB`,
      target: 'ratio to the one-shot check <= 1.5',
      ratio: held / check,
      pass: held / check <= 1.5,
      notes: `one-shot zone-check: ${check.toFixed(0)} MB (medians of ${RUNS}, alternating)`,
    });
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
