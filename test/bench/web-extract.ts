// One extractor over every corpus page, run in its own process so its peak RSS is its own:
//   tsx test/bench/web-extract.ts <hostlens|ogs|unfurl.js> <rounds>
// prints {"roundMs": [ms of each timed round], "pages": n, "failures": n, "maxRssMb": peak}.
//
// Each library gets the page in the form it takes, prepared before the clock starts, so no
// side pays for the bench's plumbing: HostLens and unfurl.js get the raw bytes (both decode
// them, charset detection included), open-graph-scraper only takes a string and gets the text
// already decoded (a head start in its favour).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { previewFromHead } from '../../src/engine/web/unfurl';
import { extractFromBytes } from '../../src/engine/web/page';
import { BESTICON_ROOT } from '../support/besticon-vcr';
import { loadHtmlCorpus } from '../support/html-corpus';

export interface BenchPage {
  url: string;
  bytes: Buffer;
  contentType: string;
}

export function benchPages(): BenchPage[] {
  const pages = loadHtmlCorpus().map((p) => ({
    url: p.url,
    bytes: readFileSync(p.file),
    contentType: p.contentType,
  }));
  for (const name of ['daringfireball.html', 'newyorker.html']) {
    pages.push({
      url: 'http://besticon.test/',
      bytes: readFileSync(join(BESTICON_ROOT, 'testdata', name)),
      contentType: 'text/html',
    });
  }
  return pages;
}

/** Runs one page; built per page before timing starts. */
type Job = () => Promise<unknown>;

async function jobs(name: string, pages: BenchPage[]): Promise<Job[]> {
  if (name === 'hostlens') {
    return pages.map((page) => {
      const url = new URL(page.url);
      return () =>
        Promise.resolve(previewFromHead(extractFromBytes(page.bytes, page.contentType), url, ''));
    });
  }
  if (name === 'ogs') {
    const ogs = (await import('open-graph-scraper')).default;
    return pages.map((page) => {
      const html = page.bytes.toString('utf8');
      return () => ogs({ html });
    });
  }
  if (name === 'unfurl.js') {
    const { unfurl } = await import('unfurl.js');
    return pages.map((page) => {
      // An ArrayBuffer of its own, as a real fetch hands over: unfurl.js wraps it without a
      // copy (handed a Buffer, it would copy the whole page on every call).
      const body = new Uint8Array(page.bytes).buffer;
      const headers = {
        get: (h: string) => (h.toLowerCase() === 'content-type' ? page.contentType : null),
      };
      const response = { status: 200, headers, arrayBuffer: () => Promise.resolve(body) };
      return () => unfurl(page.url, { oembed: false, fetch: () => Promise.resolve(response) });
    });
  }
  throw new Error(`unknown extractor ${name}`);
}

async function main(): Promise<void> {
  const [name = 'hostlens', roundsArg = '3'] = process.argv.slice(2);
  const pages = benchPages();
  const run = await jobs(name, pages);
  let failures = 0;
  const round = async () => {
    for (const job of run) {
      try {
        await job();
      } catch {
        failures += 1;
      }
    }
  };
  // Warm-up: JIT tiers, lazy module parts, first-touch allocation.
  await round();
  await round();
  failures = 0;
  const roundMs: number[] = [];
  for (let i = 0; i < Number(roundsArg); i += 1) {
    const started = performance.now();
    await round();
    roundMs.push(performance.now() - started);
  }
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ roundMs, pages: pages.length, failures, maxRssMb }));
}

if (process.argv[1]?.endsWith('web-extract.ts')) void main();
