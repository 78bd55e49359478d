// `hostlens serve` with its shared state in a real redis-server on loopback (issue 15):
// - the 50-client load of serve.bench.ts with Redis-backed per-token limits against the same
//   load with in-process limits, in alternating 8 s segments of one run so machine noise hits
//   both alike: throughput ratio, errors, heap;
// - the response cache: a cold /domain/query (a nameserver 20 ms away, the fixture's delay)
//   against the same query repeated from the cache.
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { startServer } from '../../src/server/server';
import { EmbeddedServices } from '../../src/services/embedded';
import { loadFixtureZones, startDnsServer } from '../support/dns-server';
import { redisServerAvailable, startRedisServer } from '../support/redis-server';
import { runServeBench, type ServeBenchResult } from './serve.bench';
import type { BenchRow } from './types';

const SEGMENT_MS = 8_000;
const ROUNDS = 2;
const TOKEN = 'bench-token-0123456789abcdef';

export default async function bench(): Promise<BenchRow[]> {
  if (!(await redisServerAvailable())) {
    return [
      {
        entry: 'serve with Redis: skipped',
        figure: 'no redis-server here',
        target: '-',
        ratio: Number.NaN,
        pass: false,
        notes: 'install the Debian package redis-server',
      },
    ];
  }
  const redis = await startRedisServer();
  const dns = await startDnsServer({ records: loadFixtureZones() });
  try {
    return [
      ...(await loadRows(redis.url, dns.address, () => dns.queries.splice(0))),
      ...(await cacheRows(redis.url)),
    ];
  } finally {
    await dns.close();
    await redis.close();
  }
}

async function loadRows(
  redisUrl: string,
  dnsAddress: string,
  trim: () => void,
): Promise<BenchRow[]> {
  const path = `/domain/query?host=example.test&types=A&types=MX&types=TXT&server=${encodeURIComponent(dnsAddress)}`;
  const local: ServeBenchResult[] = [];
  const shared: ServeBenchResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const withRedis of [false, true]) {
      const r = await runServeBench(
        new EmbeddedServices({ blockPrivate: true, allowCidrs: ['127.0.0.1/32'] }),
        {
          path,
          durationMs: SEGMENT_MS,
          tick: trim,
          ...(withRedis ? { redisUrl } : {}),
        },
      );
      (withRedis ? shared : local).push(r);
    }
  }
  const rate = (rs: ServeBenchResult[]) =>
    rs.reduce((n, r) => n + r.requests, 0) / ((rs.length * SEGMENT_MS) / 1000);
  const ratio = rate(shared) / rate(local);
  const errors = shared.reduce((n, r) => n + r.errors + r.rateLimited, 0);
  const last = shared.at(-1)!;
  const growth = last.heapEndMb / last.heapStartMb;
  const firstError = shared.find((r) => r.firstError)?.firstError;
  return [
    {
      entry: `serve: 50 clients, Redis-backed limits vs in-process limits (${ROUNDS} x ${SEGMENT_MS / 1000} s each, alternating)`,
      figure: `${rate(shared).toFixed(0)} vs ${rate(local).toFixed(0)} req/s`,
      target: 'ratio >= 0.85',
      ratio,
      pass: ratio >= 0.85,
      notes: `p50 ${last.p50Ms.toFixed(1)} ms, p99 ${last.p99Ms.toFixed(1)} ms with Redis`,
    },
    {
      entry: 'serve with Redis-backed limits: errors (429s included) under the 50-client load',
      figure: `${errors} in ${shared.reduce((n, r) => n + r.requests, 0)} requests`,
      target: 'errors = 0',
      ratio: errors,
      pass: errors === 0,
      notes: firstError ? `first error: ${firstError}` : undefined,
    },
    {
      entry: 'serve with Redis-backed limits: heap after GC, end / start of the last segment',
      figure: `${last.heapStartMb.toFixed(1)} MB -> ${last.heapEndMb.toFixed(1)} MB`,
      target: 'ratio <= 1.25 (no growth)',
      ratio: growth,
      pass: growth <= 1.25,
      notes: `rss ${last.rssStartMb.toFixed(0)} MB -> ${last.rssEndMb.toFixed(0)} MB`,
    },
  ];
}

async function cacheRows(redisUrl: string): Promise<BenchRow[]> {
  // A nameserver 20 ms away: what a cache saves is the upstream's latency.
  const dns = await startDnsServer({ records: loadFixtureZones(), delayMs: 20 });
  const server = await startServer({
    services: new EmbeddedServices({ blockPrivate: true, allowCidrs: ['127.0.0.1/32'] }),
    tokens: [TOKEN],
    port: 0,
    redisUrl,
    cache: true,
    rateLimit: { perMinute: 1_000_000, burst: 10_000 },
  });
  const pool = new Pool(server.url, { connections: 1 });
  const admin = new Redis(redisUrl);
  // An answer is cached only when every record carries its TTL; A and AAAA always do.
  const path = `/domain/query?host=example.test&types=A&types=AAAA&server=${encodeURIComponent(dns.address)}`;
  const timed = async () => {
    const started = performance.now();
    const res = await pool.request({ path, method: 'GET', headers: { authorization: TOKEN } });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
    return performance.now() - started;
  };
  try {
    // Until the server has connected to Redis (it does so in the background).
    for (let i = 0; i < 200; i++) {
      await timed();
      if ((await admin.keys('hostlens:cache:*')).length > 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const cold: number[] = [];
    const warm: number[] = [];
    for (let round = 0; round < 30; round++) {
      const keys = await admin.keys('hostlens:cache:*');
      if (keys.length > 0) await admin.del(...keys);
      cold.push(await timed());
      for (let i = 0; i < 5; i++) warm.push(await timed());
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const ratio = median(cold) / median(warm);
    return [
      {
        entry:
          'serve cache: /domain/query A+AAAA cold (nameserver 20 ms away) / repeated from Redis',
        figure: `${median(cold).toFixed(1)} ms / ${median(warm).toFixed(2)} ms (medians)`,
        target: 'ratio >= 5',
        ratio,
        pass: ratio >= 5,
        notes: '30 cold, 150 warm; the entry lives for the shortest record TTL',
      },
    ];
  } finally {
    admin.disconnect();
    await pool.close();
    await server.close(1000);
    await dns.close();
  }
}
