// hostlens check beside linkinator and markdown-link-check on one corpus, timed in this run:
// 2,000 links over 100 loopback hosts (127.0.1.1-100, one port), every answer 50 ms late, a
// tenth of each host's links 404 and a tenth 301 to a page that answers. HostLens runs with a per-host
// limit of 4; its wall time is divided by the critical path that limit allows for the requests
// it had to make (the busiest host's requests, 4 at a time, 50 ms each). The peers run with
// their defaults. Verdicts are compared link by link (README: "How findings are decided").
// Memory: the heap's peak over a 20,000-link run against that of a 2,000-link run.
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkWorkspace } from '../../src/services/check/index';
import { EmbeddedServices } from '../../src/services/embedded';
import type { BenchRow } from './types';

const HOSTS = 100;
const LINKS = 2000;
const LATENCY_MS = 50;
const PER_HOST = 4;
const MEMORY_LINKS = 20_000;

type Verdict = 'ok' | 'broken' | 'moved';

interface BenchWeb {
  port: number;
  /** requests and the most open at once, per host */
  requests: Map<string, number>;
  maxOpen: Map<string, number>;
  reset(): void;
  close(): Promise<void>;
}

const hostOf = (i: number) => `127.0.1.${(i % HOSTS) + 1}`;

/**
 * What link k is, by its rank j among its host's links (k = j * HOSTS + host): 404 for
 * j % 10 == 0, a 301 for j % 10 == 1, else a page; so every host has the same mix.
 */
export function expected(k: number): Verdict {
  const j = Math.floor(k / HOSTS) % 10;
  return j === 0 ? 'broken' : j === 1 ? 'moved' : 'ok';
}

async function startBenchWeb(latencyMs: number): Promise<BenchWeb> {
  const requests = new Map<string, number>();
  const maxOpen = new Map<string, number>();
  const open = new Map<string, number>();
  const handler = (
    req: import('node:http').IncomingMessage,
    res: import('node:http').ServerResponse,
  ) => {
    const host = req.socket.localAddress ?? '';
    requests.set(host, (requests.get(host) ?? 0) + 1);
    const now = (open.get(host) ?? 0) + 1;
    open.set(host, now);
    maxOpen.set(host, Math.max(maxOpen.get(host) ?? 0, now));
    setTimeout(() => {
      open.set(host, (open.get(host) ?? 1) - 1);
      const m = /^\/p\/(\d+)(\/final)?$/.exec(req.url ?? '');
      const k = m ? Number(m[1]) : -1;
      if (!m || (expected(k) === 'broken' && !m[2])) {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end(req.method === 'HEAD' ? undefined : '<p>no</p>');
      } else if (expected(k) === 'moved' && !m[2]) {
        res.writeHead(301, { location: `/p/${k}/final` });
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(req.method === 'HEAD' ? undefined : `<h1 id="top">${k}</h1>`);
      }
    }, latencyMs);
  };
  const servers: Server[] = [];
  let port = 0;
  for (let i = 0; i < HOSTS; i++) {
    const server = createServer({ keepAliveTimeout: 5000 }, handler);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, hostOf(i), () => resolve());
    });
    if (port === 0) port = (server.address() as import('node:net').AddressInfo).port;
    servers.push(server);
  }
  return {
    port,
    requests,
    maxOpen,
    reset: () => {
      requests.clear();
      maxOpen.clear();
      open.clear();
    },
    close: async () => {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}

function writeCorpus(dir: string, port: number, links: number): { file: string; urls: string[] } {
  const urls = Array.from({ length: links }, (_, k) => `http://${hostOf(k)}:${port}/p/${k}`);
  const file = join(dir, 'links.md');
  writeFileSync(file, ['# Links', '', ...urls.map((u, k) => `- [link ${k}](${u})`), ''].join('\n'));
  return { file, urls };
}

async function runHostLens(dir: string): Promise<{ ms: number; verdicts: Map<string, Verdict> }> {
  const services = new EmbeddedServices({});
  const start = performance.now();
  const report = await checkWorkspace(services, { cwd: dir, maxPerHost: PER_HOST });
  const ms = performance.now() - start;
  await services.close();
  const verdicts = new Map<string, Verdict>();
  for (const f of report.findings) {
    verdicts.set(f.target, f.kind === 'redirected_link' ? 'moved' : 'broken');
  }
  return { ms, verdicts };
}

async function runLinkinator(dir: string): Promise<{ ms: number; verdicts: Map<string, Verdict> }> {
  const { LinkChecker, LinkState } = await import('linkinator');
  const start = performance.now();
  const result = await new LinkChecker().check({ path: join(dir, 'links.md'), markdown: true });
  const ms = performance.now() - start;
  const verdicts = new Map<string, Verdict>();
  for (const link of result.links) {
    if (link.state === LinkState.BROKEN) verdicts.set(link.url, 'broken');
  }
  return { ms, verdicts };
}

async function runMarkdownLinkCheck(
  text: string,
): Promise<{ ms: number; verdicts: Map<string, Verdict> }> {
  const require = createRequire(__filename);
  const check = require('markdown-link-check') as (
    markdown: string,
    options: object,
    callback: (err: Error | null, results: Array<{ link: string; status: string }>) => void,
  ) => void;
  const start = performance.now();
  const results = await new Promise<Array<{ link: string; status: string }>>((resolve, reject) =>
    check(text, {}, (err, r) => (err ? reject(err) : resolve(r))),
  );
  const ms = performance.now() - start;
  const verdicts = new Map<string, Verdict>();
  for (const r of results)
    if (r.status === 'dead' || r.status === 'error') verdicts.set(r.link, 'broken');
  return { ms, verdicts };
}

/** Links whose verdict differs from what the server was told to answer. */
function disagreements(urls: string[], verdicts: Map<string, Verdict>): Record<Verdict, number> {
  const wrong: Record<Verdict, number> = { ok: 0, broken: 0, moved: 0 };
  urls.forEach((url, k) => {
    if ((verdicts.get(url) ?? 'ok') !== expected(k)) wrong[expected(k)]++;
  });
  return wrong;
}

async function peakHeapMb(links: number, latencyMs: number): Promise<number> {
  const web = await startBenchWeb(latencyMs);
  const dir = mkdtempSync(join(tmpdir(), 'hostlens-bench-mem-'));
  try {
    writeCorpus(dir, web.port, links);
    let peak = 0;
    const sample = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 20);
    await runHostLens(dir);
    clearInterval(sample);
    return peak / 1024 / 1024;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await web.close();
  }
}

export default async function bench(): Promise<BenchRow[]> {
  const web = await startBenchWeb(LATENCY_MS);
  const dir = mkdtempSync(join(tmpdir(), 'hostlens-bench-check-'));
  const rows: BenchRow[] = [];
  try {
    const { urls } = writeCorpus(dir, web.port, LINKS);
    const text = (await import('node:fs')).readFileSync(join(dir, 'links.md'), 'utf8');
    // A warm-up run of ours, so our figure does not include loading and compiling the engine.
    await runHostLens(dir);
    web.reset();
    const ours = await runHostLens(dir);
    const busiest = Math.max(...web.requests.values());
    const maxOpen = Math.max(...web.maxOpen.values());
    const critical = Math.ceil(busiest / PER_HOST) * LATENCY_MS;
    const oneRequestFloor = Math.ceil(LINKS / HOSTS / PER_HOST) * LATENCY_MS;
    web.reset();
    const linkinator = await runLinkinator(dir);
    web.reset();
    const mlc = await runMarkdownLinkCheck(text);
    const ratio = ours.ms / critical;
    const fmt = (w: Record<Verdict, number>) => `${w.broken} 404s, ${w.moved} 301s, ${w.ok} pages`;
    rows.push({
      entry: `check: ${LINKS} links, ${HOSTS} hosts, ${LATENCY_MS} ms, ${PER_HOST} per host`,
      figure: `${Math.round(ours.ms)} ms`,
      target: 'ratio <= 1.2 (critical path)',
      ratio,
      pass: ratio <= 1.2 && maxOpen <= PER_HOST,
      notes:
        `critical path ${critical} ms (busiest host ${busiest} requests; ${oneRequestFloor} ms at one request a link); ` +
        `most open on one host ${maxOpen}; linkinator ${Math.round(linkinator.ms)} ms, ` +
        `markdown-link-check ${Math.round(mlc.ms)} ms; verdicts off: HostLens ${fmt(disagreements(urls, ours.verdicts))}, ` +
        `linkinator ${fmt(disagreements(urls, linkinator.verdicts))}, markdown-link-check ${fmt(disagreements(urls, mlc.verdicts))}`,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await web.close();
  }
  const small = await peakHeapMb(LINKS, 1);
  const large = await peakHeapMb(MEMORY_LINKS, 1);
  const growth = large / small;
  rows.push({
    entry: `check memory: ${MEMORY_LINKS} links against ${LINKS}`,
    figure: `${large.toFixed(1)} MB peak heap`,
    target: 'ratio <= 2 (10x the links)',
    ratio: growth,
    pass: growth <= 2,
    notes: `${small.toFixed(1)} MB for ${LINKS} links`,
  });
  return rows;
}
