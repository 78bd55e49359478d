// A cached answer through `hostlens serve` with Redis against bare node:http returning the
// same body (issue 28): the whole path a cached request takes (token, rate limit, cache read
// in one Redis script, access log, metrics) against the least a Node server can do. Both run
// as processes of their own, as deployed (serve built as `npm pack` ships it, its log to a
// file); one load generator here (50 connections) drives each in alternating segments, so
// machine noise hits both alike. The ratio is serve's requests per second over bare node's.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { buildCli } from '../support/cli-build';
import { loadFixtureZones, startDnsServer } from '../support/dns-server';
import { redisServerAvailable, startRedisServer } from '../support/redis-server';
import type { BenchRow } from './types';

const CLIENTS = 50;
const SEGMENT_MS = 5_000;
const ROUNDS = 2;
const TOKEN = 'bench-token-0123456789abcdef';

interface Child {
  url: string;
  stop(): Promise<void>;
}

/** Starts a process whose output goes to a file, and waits for the line that says it listens. */
async function startLogged(args: string[], env: NodeJS.ProcessEnv, log: string): Promise<Child> {
  const fd = openSync(log, 'w');
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const m = /listening on (http:\/\/[^\s)]+)/.exec(readFileSync(log, 'utf8'));
    if (m) return { url: m[1], stop: () => (child.kill('SIGTERM'), exited) };
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`did not start: ${readFileSync(log, 'utf8').slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Requests per second over `ms`, with CLIENTS connections each asking in a loop. */
async function load(url: string, path: string, ms: number, body: string): Promise<number> {
  const pool = new Pool(url, { connections: CLIENTS, pipelining: 1 });
  let done = 0;
  let wrong: string | undefined;
  const stopAt = performance.now() + ms;
  const worker = async () => {
    while (performance.now() < stopAt) {
      const res = await pool.request({ path, method: 'GET', headers: { authorization: TOKEN } });
      const text = await res.body.text();
      if (res.statusCode !== 200 || text !== body)
        wrong ??= `${res.statusCode} ${text.slice(0, 200)}`;
      done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  if (wrong !== undefined) throw new Error(`a wrong answer under load: ${wrong}`);
  return done / seconds;
}

export default async function bench(): Promise<BenchRow[]> {
  if (!(await redisServerAvailable())) {
    return [
      {
        entry: 'serve cached answer vs bare node:http: skipped',
        figure: 'no redis-server here',
        target: '-',
        ratio: Number.NaN,
        pass: false,
        notes: 'install the Debian package redis-server',
      },
    ];
  }
  const tmp = mkdtempSync(join(tmpdir(), 'hostlens-serve-cached-'));
  const redis = await startRedisServer();
  const dns = await startDnsServer({ records: loadFixtureZones() });
  const children: Child[] = [];
  try {
    const cli = await buildCli(tmp, { production: true });
    const serve = await startLogged(
      [cli, 'serve', '--port', '0', '--allow-private', '--rate-limit', '100000000/min'],
      {
        HOSTLENS_TOKENS: TOKEN,
        HOSTLENS_REDIS_URL: redis.url,
        HOSTLENS_CACHE: '1',
      },
      join(tmp, 'serve.log'),
    );
    children.push(serve);
    const path = `/domain/query?host=example.test&types=A&types=AAAA&server=${encodeURIComponent(dns.address)}`;
    // Until the answer is in the cache (serve connects to Redis in the background).
    const admin = new Redis(redis.url);
    let body = '';
    try {
      for (let i = 0; i < 400; i++) {
        const res = await fetch(`${serve.url}${path}`, { headers: { authorization: TOKEN } });
        body = await res.text();
        if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${body}`);
        if ((await admin.keys('hostlens:cache:*')).length > 0) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      if ((await admin.keys('hostlens:cache:*')).length === 0)
        throw new Error('the answer never reached the cache');
    } finally {
      admin.disconnect();
    }
    const bodyFile = join(tmp, 'body.json');
    writeFileSync(bodyFile, body);
    const bare = await startLogged(
      [
        '-e',
        `const body = require('node:fs').readFileSync(process.argv[1]);
         require('node:http').createServer((req, res) => {
           res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
           res.end(body);
         }).listen(0, '127.0.0.1', function () {
           console.log('listening on http://127.0.0.1:' + this.address().port);
         });
         process.on('SIGTERM', () => process.exit(0));`,
        bodyFile,
      ],
      {},
      join(tmp, 'bare.log'),
    );
    children.push(bare);
    // Warm both up (the JIT, the connections), then alternate.
    await load(serve.url, path, 1_000, body);
    await load(bare.url, path, 1_000, body);
    const rates = { serve: [] as number[], bare: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      rates.bare.push(await load(bare.url, path, SEGMENT_MS, body));
      rates.serve.push(await load(serve.url, path, SEGMENT_MS, body));
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const ratio = mean(rates.serve) / mean(rates.bare);
    return [
      {
        entry: `serve with Redis: a cached /domain/query vs bare node:http, same body (${CLIENTS} connections)`,
        figure: `${mean(rates.serve).toFixed(0)} req/s vs ${mean(rates.bare).toFixed(0)} req/s`,
        target: 'ratio >= 0.6',
        ratio,
        pass: ratio >= 0.6,
        notes: `${ROUNDS} x ${SEGMENT_MS / 1000} s each, alternating; both processes of their own, one load generator`,
      },
    ];
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await dns.close();
    await redis.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}
