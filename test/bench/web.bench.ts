// Head extraction over every corpus page (html-meta corpora and besticon's saved pages), in
// process and without network: HostLens (charset detection, decoding, html.ts, the unfurl
// fields) against open-graph-scraper (its `html` option) and unfurl.js (a fake fetch handing
// it the bytes). Each extractor runs in its own process so its peak RSS is its own. The ratio
// is our time / the faster peer's time (target <= 0.2, i.e. at least 5x faster).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HTML_META_ROOT } from '../support/html-corpus';
import type { BenchRow } from './types';

const ROUNDS = 5;

interface Measured {
  ms: number;
  pages: number;
  failures: number;
  maxRssMb: number;
}

function measure(name: string): Promise<Measured> {
  const script = join(__dirname, 'web-extract.ts');
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', script, name, String(ROUNDS)],
      { timeout: 600_000, maxBuffer: 1024 * 1024 },
      (err, stdout) =>
        err
          ? reject(new Error(`${name} run failed: ${err.message}`))
          : resolve(JSON.parse(stdout) as Measured),
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
  const ours = await measure('hostlens');
  const unfurlJs = await measure('unfurl.js');
  const ogs = await measure('ogs');
  const faster =
    unfurlJs.ms <= ogs.ms
      ? { name: 'unfurl.js', ...unfurlJs }
      : { name: 'open-graph-scraper', ...ogs };
  const perPage = (m: Measured) => `${(m.ms / (m.pages * ROUNDS)).toFixed(2)} ms/page`;
  const ratio = ours.ms / faster.ms;
  return [
    {
      entry: `web: head extraction, ${ours.pages} corpus pages x ${ROUNDS} rounds`,
      figure: `${ours.ms.toFixed(0)} ms (${perPage(ours)}), peak RSS ${ours.maxRssMb.toFixed(0)} MB`,
      target: 'ratio <= 0.2 (5x faster than the faster peer)',
      ratio,
      pass: ratio <= 0.2 && ours.failures === 0,
      notes:
        `faster peer ${faster.name}; unfurl.js ${unfurlJs.ms.toFixed(0)} ms (${perPage(unfurlJs)}), peak RSS ${unfurlJs.maxRssMb.toFixed(0)} MB, ${unfurlJs.failures} failures; ` +
        `open-graph-scraper ${ogs.ms.toFixed(0)} ms (${perPage(ogs)}), peak RSS ${ogs.maxRssMb.toFixed(0)} MB, ${ogs.failures} failures; ` +
        `ours ${(faster.ms / ours.ms).toFixed(1)}x faster, ${ours.failures} failures`,
    },
  ];
}
