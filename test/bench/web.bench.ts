// Head extraction over every corpus page (html-meta corpora and besticon's saved pages), in
// process and without network: HostLens (charset detection, decoding, html.ts, the unfurl
// fields) against open-graph-scraper (its `html` option) and unfurl.js (a fake fetch handing
// it the bytes). Each extractor runs in its own process so its peak RSS is its own. A
// process's figure is the median of its timed rounds; HostLens and unfurl.js run in
// alternating processes, several each, and each side's figure is the median of its processes,
// so a burst of load from elsewhere on the machine lands on both sides alike. The ratio is our
// time / the faster peer's time (target <= 0.2, i.e. at least 5x faster).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HTML_META_ROOT } from '../support/html-corpus';
import type { BenchRow } from './types';

const ROUNDS = 5;
/** Processes each for HostLens and unfurl.js. */
const PROCESSES = 3;
/** open-graph-scraper is over ten times slower than unfurl.js: one process of fewer rounds. */
const OGS_ROUNDS = 3;

interface Measured {
  /** median round, ms */
  ms: number;
  pages: number;
  failures: number;
  maxRssMb: number;
}

interface WorkerOutput {
  roundMs: number[];
  pages: number;
  failures: number;
  maxRssMb: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function combine(runs: WorkerOutput[]): Measured {
  return {
    ms: median(runs.map((r) => median(r.roundMs))),
    pages: runs[0].pages,
    failures: Math.max(...runs.map((r) => r.failures)),
    maxRssMb: Math.max(...runs.map((r) => r.maxRssMb)),
  };
}

function measure(name: string, rounds = ROUNDS): Promise<WorkerOutput> {
  const script = join(__dirname, 'web-extract.ts');
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', script, name, String(rounds)],
      { timeout: 600_000, maxBuffer: 1024 * 1024 },
      (err, stdout) =>
        err
          ? reject(new Error(`${name} run failed: ${err.message}`))
          : resolve(JSON.parse(stdout) as WorkerOutput),
    );
  });
}

export default async function webBench(): Promise<BenchRow[]> {
  if (!existsSync(HTML_META_ROOT)) {
    return [
      {
        entry: 'web: extraction over the corpus',
        figure: 'skipped: ../shared/corpus absent',
        target: 'ratio <= 0.2',
        ratio: Number.NaN,
        pass: false,
      },
    ];
  }
  // One after another: the machine's cores are shared, parallel runs would skew each other.
  const oursRuns: WorkerOutput[] = [];
  const unfurlRuns: WorkerOutput[] = [];
  for (let i = 0; i < PROCESSES; i += 1) {
    oursRuns.push(await measure('hostlens'));
    unfurlRuns.push(await measure('unfurl.js'));
  }
  const ours = combine(oursRuns);
  const unfurlJs = combine(unfurlRuns);
  const ogs = combine([await measure('ogs', OGS_ROUNDS)]);
  const faster =
    unfurlJs.ms <= ogs.ms
      ? { name: 'unfurl.js', ...unfurlJs }
      : { name: 'open-graph-scraper', ...ogs };
  const perPage = (m: Measured) => `${(m.ms / m.pages).toFixed(2)} ms/page`;
  const ratio = ours.ms / faster.ms;
  return [
    {
      entry: `web: head extraction, ${ours.pages} corpus pages, median round of ${ROUNDS} x ${PROCESSES} processes`,
      figure: `${ours.ms.toFixed(1)} ms/round (${perPage(ours)}), peak RSS ${ours.maxRssMb.toFixed(0)} MB`,
      target: 'ratio <= 0.2 (5x faster than the faster peer)',
      ratio,
      pass: ratio <= 0.2 && ours.failures === 0,
      notes:
        `faster peer ${faster.name}; unfurl.js ${unfurlJs.ms.toFixed(1)} ms/round (${perPage(unfurlJs)}), peak RSS ${unfurlJs.maxRssMb.toFixed(0)} MB, ${unfurlJs.failures} failures; ` +
        `open-graph-scraper ${ogs.ms.toFixed(0)} ms/round (${perPage(ogs)}), peak RSS ${ogs.maxRssMb.toFixed(0)} MB, ${ogs.failures} failures; ` +
        `ours ${(faster.ms / ours.ms).toFixed(1)}x faster, ${ours.failures} failures`,
    },
  ];
}
