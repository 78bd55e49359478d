// npm run bench: runs every test/bench/*.bench.ts (or those named on the command line), prints
// one table (entry, figure, target, ratio) and writes it to bench-results/bench.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchEntry, BenchRow } from './types';

/**
 * Each bench file runs in a process of its own, so no entry measures code that an earlier one
 * left compiled for other shapes (a parser timed after a load test ran 2x slower than alone).
 */
function runInOwnProcess(file: string): BenchRow[] {
  const child = spawnSync(process.execPath, [...process.execArgv, __filename, CHILD, file], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = child.stdout.split('\n').find((l) => l.startsWith(ROWS_MARK));
  if (line !== undefined) return JSON.parse(line.slice(ROWS_MARK.length)) as BenchRow[];
  return [failed(file, `exit ${child.status ?? child.signal}`)];
}

async function runOne(dir: string, file: string): Promise<void> {
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as { default: BenchEntry };
  let rows: BenchRow[];
  try {
    rows = await mod.default();
  } catch (err) {
    rows = [failed(file, String(err instanceof Error ? err.message : err))];
  }
  process.stdout.write(`${ROWS_MARK}${JSON.stringify(rows)}\n`);
}

function failed(file: string, why: string): BenchRow {
  return { entry: `${file}: failed`, figure: why, target: '-', ratio: Number.NaN, pass: false };
}

const CHILD = '--child';
const ROWS_MARK = 'HOSTLENS_BENCH_ROWS ';

async function main(): Promise<void> {
  const dir = resolve(__dirname);
  if (process.argv[2] === CHILD) {
    await runOne(dir, process.argv[3]);
    process.exit(0);
  }
  const only = process.argv.slice(2);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort();
  const rows: BenchRow[] = [];
  for (const file of files) rows.push(...runInOwnProcess(file));
  printTable(rows);
  mkdirSync('bench-results', { recursive: true });
  writeFileSync(
    'bench-results/bench.json',
    JSON.stringify({ date: new Date().toISOString(), node: process.version, rows }, null, 2),
  );
  console.log(`\nwrote bench-results/bench.json (${rows.length} rows)`);
  if (rows.some((r) => !r.pass)) process.exitCode = 1;
}

function printTable(rows: BenchRow[]): void {
  const header = ['entry', 'figure', 'target', 'ratio', 'ok', 'notes'];
  const cells = rows.map((r) => [
    r.entry,
    r.figure,
    r.target,
    Number.isFinite(r.ratio) ? r.ratio.toFixed(2) : '-',
    r.pass ? 'yes' : 'NO',
    r.notes ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    c
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}

void main();
