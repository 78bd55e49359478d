// npm run bench: runs every test/bench/*.bench.ts (or those named on the command line), prints
// one table (entry, figure, target, ratio) and writes it to bench-results/bench.json.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchEntry, BenchRow } from './types';

async function main(): Promise<void> {
  const dir = resolve(__dirname);
  const only = process.argv.slice(2);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort();
  const rows: BenchRow[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as { default: BenchEntry };
    try {
      rows.push(...(await mod.default()));
    } catch (err) {
      rows.push({
        entry: `${file}: failed`,
        figure: String(err instanceof Error ? err.message : err),
        target: '-',
        ratio: Number.NaN,
        pass: false,
      });
    }
  }
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
