// One extractor over every corpus page, run in its own process so its peak RSS is its own:
//   tsx test/bench/web-extract.ts <hostlens|ogs|unfurl.js> <rounds>
// prints {"ms": total of the timed rounds, "pages": n, "failures": n, "maxRssMb": peak}.
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

type Extractor = (page: BenchPage) => Promise<unknown>;

async function extractor(name: string): Promise<Extractor> {
  if (name === 'hostlens') {
    return (page) =>
      Promise.resolve(
        previewFromHead(extractFromBytes(page.bytes, page.contentType), new URL(page.url), ''),
      );
  }
  if (name === 'ogs') {
    const ogs = (await import('open-graph-scraper')).default;
    // ogs takes a string: it is handed the text already decoded (a head start it gets for free).
    return (page) => ogs({ html: page.bytes.toString('utf8') });
  }
  if (name === 'unfurl.js') {
    const { unfurl } = await import('unfurl.js');
    return (page) =>
      unfurl(page.url, {
        oembed: false,
        fetch: () =>
          Promise.resolve({
            status: 200,
            headers: {
              get: (h: string) => (h.toLowerCase() === 'content-type' ? page.contentType : null),
            },
            arrayBuffer: () => Promise.resolve(page.bytes),
          }),
      });
  }
  throw new Error(`unknown extractor ${name}`);
}

async function main(): Promise<void> {
  const [name = 'hostlens', roundsArg = '3'] = process.argv.slice(2);
  const run = await extractor(name);
  const pages = benchPages();
  let failures = 0;
  const round = async () => {
    for (const page of pages) {
      try {
        await run(page);
      } catch {
        failures += 1;
      }
    }
  };
  await round(); // warm-up: JIT, lazy module parts
  failures = 0;
  const started = performance.now();
  for (let i = 0; i < Number(roundsArg); i += 1) await round();
  const ms = performance.now() - started;
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ ms, pages: pages.length, failures, maxRssMb }));
}

if (process.argv[1]?.endsWith('web-extract.ts')) void main();
