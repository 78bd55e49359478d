// How fast the command line starts (issue 16): `hostlens --version` and `hostlens completion
// bash` (which a shell runs at every start when its rc file sources it) against a bare
// `node -e ""`, and a text query against the loopback fixture DNS server. The CLI is bundled
// and minified as `npm pack` ships it; every command runs 15 times, interleaved, and the
// medians are compared, so the ratio stays meaningful on a busy machine. The targets are this
// issue's own: the engine loads only when a look-up runs, so what --version and completion pay
// over Node is the parse of the one-file bundle (about 60 ms here).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { loadFixtureZones, startDnsServer } from '../support/dns-server';
import type { BenchRow } from './types';

const RUNS = 15;
const exec = promisify(execFile);

async function wallMs(args: string[]): Promise<number> {
  const started = process.hrtime.bigint();
  await exec(process.execPath, args);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export default async function cliBench(): Promise<BenchRow[]> {
  const tmp = mkdtempSync(join(tmpdir(), 'hostlens-cli-bench-'));
  const cli = join(tmp, 'cli.js');
  const dns = await startDnsServer({ records: loadFixtureZones() });
  try {
    await build({
      entryPoints: [resolve(__dirname, '../../src/cli/main.ts')],
      outfile: cli,
      bundle: true,
      minify: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'silent',
    });
    const commands: Record<string, string[]> = {
      node: ['-e', ''],
      version: [cli, '--version'],
      completion: [cli, 'completion', 'bash'],
      query: [cli, 'query', 'example.test', 'MX', '--server', dns.address, '--format', 'text'],
    };
    const times: Record<string, number[]> = {};
    for (let i = 0; i < RUNS; i++)
      for (const [name, args] of Object.entries(commands))
        (times[name] ??= []).push(await wallMs(args));
    const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
    const row = (entry: string, name: string, limit: number): BenchRow => {
      const ratio = m[name] / m.node;
      return {
        entry,
        figure: `${m[name].toFixed(0)} ms`,
        target: `ratio to bare node <= ${limit}`,
        ratio,
        pass: ratio <= limit,
        notes: `node -e "": ${m.node.toFixed(0)} ms (median of ${RUNS})`,
      };
    };
    return [
      row('cli: hostlens --version', 'version', 1.75),
      row('cli: hostlens completion bash', 'completion', 1.75),
      row('cli: hostlens query (text, loopback DNS)', 'query', 3),
    ];
  } finally {
    await dns.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}
