// `hostlens serve` under load (issue 7): 50 concurrent clients for 20 s of /domain/query on
// loopback against the fixture DNS server. Reports requests per second, p50/p99 latency,
// errors (must be 0; 429s are counted apart as deliberate) and the heap after a forced GC at
// the start and the end (must not keep growing).
//
// runServeBench() takes any Services; the default entry serves EmbeddedServices, as
// `hostlens serve` does.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Pool, request } from 'undici';
import { startServer } from '../../src/server/server';
import { EmbeddedServices } from '../../src/services/embedded';
import type { Services } from '../../src/contract/services';
import { loadFixtureZones, startDnsServer } from '../support/dns-server';
import type { BenchRow } from './types';

export interface ServeBenchOptions {
  /** path and query, e.g. `/domain/query?host=example.test&types=A` */
  path: string;
  clients?: number;
  durationMs?: number;
  warmupMs?: number;
  /** called about once a second during the run (e.g. to trim a fixture's query log) */
  tick?: () => void;
  /** per-token limit; default far above what the clients can send, so any 429 is a finding */
  rateLimit?: { perMinute: number; burst?: number };
  /** keep the per-token limits in this Redis, as several instances would */
  redisUrl?: string;
}

export interface ServeBenchResult {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  rateLimited: number;
  firstError?: string;
  heapStartMb: number;
  heapEndMb: number;
  rssStartMb: number;
  rssEndMb: number;
}

// A real GC before each memory reading; without it the heap figure is mostly garbage.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heap(): { heapMb: number; rssMb: number } {
  gc();
  gc();
  const m = process.memoryUsage();
  return { heapMb: m.heapUsed / 2 ** 20, rssMb: m.rss / 2 ** 20 };
}

export async function runServeBench(
  services: Services,
  options: ServeBenchOptions,
): Promise<ServeBenchResult> {
  const clients = options.clients ?? 50;
  const token = 'bench-token-0123456789abcdef';
  const server = await startServer({
    services,
    tokens: [token],
    port: 0,
    rateLimit: options.rateLimit ?? { perMinute: 10_000_000, burst: 100_000 },
    maxConcurrent: 64,
    redisUrl: options.redisUrl,
  });
  if (options.redisUrl) await untilShared(server.url, token);
  const pool = new Pool(server.url, { connections: clients, pipelining: 1 });
  // Latencies go in a preallocated typed array so recording them does not grow the heap.
  const latencies = new Float64Array(4_000_000);
  let count = 0;
  let errors = 0;
  let rateLimited = 0;
  let firstError: string | undefined;

  const load = async (ms: number, record: boolean) => {
    const stopAt = performance.now() + ms;
    const worker = async () => {
      while (performance.now() < stopAt) {
        const started = performance.now();
        try {
          const res = await pool.request({
            path: options.path,
            method: 'GET',
            headers: { authorization: token },
          });
          const body = await res.body.text();
          if (!record) continue;
          if (res.statusCode === 429) rateLimited++;
          else if (res.statusCode !== 200) {
            errors++;
            firstError ??= `HTTP ${res.statusCode}: ${body.slice(0, 200)}`;
          }
        } catch (err) {
          if (!record) continue;
          errors++;
          firstError ??= String(err);
        }
        if (record && count < latencies.length) latencies[count++] = performance.now() - started;
      }
    };
    const ticker = setInterval(() => options.tick?.(), 1000);
    try {
      await Promise.all(Array.from({ length: clients }, worker));
    } finally {
      clearInterval(ticker);
    }
  };

  try {
    await load(options.warmupMs ?? 1500, false);
    options.tick?.();
    const start = heap();
    const durationMs = options.durationMs ?? 20_000;
    const began = performance.now();
    await load(durationMs, true);
    const elapsed = performance.now() - began;
    options.tick?.();
    const end = heap();
    const sorted = latencies.slice(0, count).sort();
    const at = (q: number) => sorted[Math.min(count - 1, Math.floor(q * count))] ?? NaN;
    return {
      requests: count,
      perSecond: count / (elapsed / 1000),
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      errors,
      rateLimited,
      firstError,
      heapStartMb: start.heapMb,
      heapEndMb: end.heapMb,
      rssStartMb: start.rssMb,
      rssEndMb: end.rssMb,
    };
  } finally {
    await pool.close();
    await server.close(2000);
  }
}

/** Waits until the server reports that it uses Redis (it connects in the background). */
async function untilShared(url: string, token: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const res = await request(`${url}/metrics`, { headers: { authorization: token } });
    if (/^hostlens_redis_up 1$/m.test(await res.body.text())) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the server never connected to the bench Redis');
}

export default async function bench(): Promise<BenchRow[]> {
  const dns = await startDnsServer({ records: loadFixtureZones() });
  try {
    const path = `/domain/query?host=example.test&types=A&types=MX&types=TXT&server=${encodeURIComponent(dns.address)}`;
    // The guard stays on as in `hostlens serve`; it covers the DNS `server` too, so the
    // loopback fixture's address is allowed explicitly, as an operator would.
    const guarded = { blockPrivate: true, allowCidrs: ['127.0.0.1/32'] };
    const r = await runServeBench(new EmbeddedServices(guarded), {
      path,
      // The fixture logs every question; trim it so its growth is not mistaken for ours.
      tick: () => dns.queries.splice(0),
    });
    // A short second run with the default limit: the limiter must answer 429, never fail.
    const limited = await runServeBench(new EmbeddedServices(guarded), {
      path,
      durationMs: 3000,
      warmupMs: 0,
      rateLimit: { perMinute: 600, burst: 100 },
      tick: () => dns.queries.splice(0),
    });
    const summary = `${r.perSecond.toFixed(0)} req/s, p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms`;
    const growth = r.heapEndMb / r.heapStartMb;
    return [
      {
        entry: 'serve: /domain/query (A, MX, TXT), 50 clients, 20 s, loopback DNS fixture',
        figure: `${r.errors} errors in ${r.requests} requests`,
        target: 'errors = 0 (429s apart)',
        ratio: r.errors,
        pass: r.errors === 0 && r.requests > 0,
        notes: `${summary}; 429: ${r.rateLimited}${r.firstError ? `; first error: ${r.firstError}` : ''}`,
      },
      {
        entry: 'serve: heap after GC, end of run / start of run',
        figure: `${r.heapStartMb.toFixed(1)} MB -> ${r.heapEndMb.toFixed(1)} MB`,
        target: 'ratio <= 1.25 (no growth)',
        ratio: growth,
        pass: growth <= 1.25,
        notes: `rss ${r.rssStartMb.toFixed(0)} MB -> ${r.rssEndMb.toFixed(0)} MB; ${summary}`,
      },
      {
        entry: 'serve: same load for 3 s at the default limit (600/min, burst 100)',
        figure: `${limited.errors} errors, ${limited.rateLimited} x 429 in ${limited.requests}`,
        target: 'errors = 0, deliberate 429s > 0',
        ratio: limited.errors,
        pass: limited.errors === 0 && limited.rateLimited > 0,
        notes: `${limited.requests - limited.rateLimited} answered 200${limited.firstError ? `; first error: ${limited.firstError}` : ''}`,
      },
    ];
  } finally {
    await dns.close();
  }
}
