// A real redis-server (the Debian package) on a loopback port with a temporary directory and
// no persistence, for the shared-limits tests. stop() kills it as a crash would; start() brings
// it back on the same port, empty.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freeServicePort } from './ports';

export interface RedisFixture {
  url: string;
  port: number;
  /** Kills the server (SIGKILL) and waits for it to be gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open and nothing answers, as in a hung server. */
  pause(): void;
  /** Thaws it (SIGCONT). */
  resume(): void;
  close(): Promise<void>;
}

export const REDIS_SERVER = process.env.HOSTLENS_REDIS_SERVER ?? 'redis-server';

/** Whether a redis-server binary can be run here. */
export function redisServerAvailable(): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(REDIS_SERVER, ['--version'], { stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}

export async function startRedisServer(): Promise<RedisFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'hostlens-redis-'));
  const port = await freeServicePort();
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const proc = spawn(
      REDIS_SERVER,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
        '--protected-mode',
        'yes',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (d: Buffer) => {
        output += d.toString();
        if (output.includes('Ready to accept connections')) resolve();
      };
      proc.stdout?.on('data', onData);
      proc.stderr?.on('data', onData);
      proc.once('error', reject);
      proc.once('exit', (code) => reject(new Error(`redis-server exited ${code}: ${output}`)));
    });
  }

  async function stop(): Promise<void> {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGKILL');
    await gone;
  }

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    async close() {
      child?.kill('SIGCONT');
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The commands clients send while `run` runs, lower-cased, as MONITOR shows them: each with its
 * source, a client's address or "lua" for what a script runs on the server (left out here).
 */
export async function commandsSentDuring(url: string, run: () => Promise<void>): Promise<string[]> {
  const client = new Redis(url);
  const monitor = await client.monitor();
  const sent: string[] = [];
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source !== 'lua') sent.push(String(args[0]).toLowerCase());
  });
  try {
    await new Promise((r) => setTimeout(r, 50));
    await run();
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    monitor.disconnect();
    client.disconnect();
  }
  return sent;
}
