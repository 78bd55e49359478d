// All ten record types of one name against the fixture server, every answer delayed 50 ms.
// The types go out in parallel, so the wall time should stay near one answer's delay: the
// ratio is wall time / 50 ms (target <= 1.2). The peer is dig asking the same ten types one
// after another in one process, when dig is installed.
import { execFile } from 'node:child_process';
import { query } from '../../src/engine/dns/query';
import { RECORD_TYPES } from '../../src/contract/shapes';
import { loadFixtureZones, startDnsServer, type DnsFixture } from '../support/dns-server';
import type { BenchRow } from './types';

const DELAY_MS = 50;
const RUNS = 11;
const HOST = 'example.test';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timeEngine(fx: DnsFixture): Promise<number> {
  const started = performance.now();
  const result = await query({ host: HOST, server: fx.address }, { timeoutMs: 2000, tries: 1 });
  const took = performance.now() - started;
  if (result.records.length === 0 || result.errors !== undefined) {
    throw new Error(`unexpected answer: ${JSON.stringify(result)}`);
  }
  return took;
}

function timeDig(fx: DnsFixture): Promise<number | undefined> {
  const args = [`@${fx.host}`, '-p', String(fx.port), '+norecurse', '+tries=1', '+time=2'];
  for (const type of RECORD_TYPES) args.push(HOST, type);
  const started = performance.now();
  return new Promise((resolve) => {
    // async on purpose: the fixture server answers from this same event loop
    execFile('dig', args, { timeout: 10000 }, (err) => {
      resolve(err === null ? performance.now() - started : undefined);
    });
  });
}

export default async function dnsBench(): Promise<BenchRow[]> {
  const fx = await startDnsServer({ records: loadFixtureZones(), delayMs: DELAY_MS });
  try {
    await timeEngine(fx); // warm-up: module loading, first socket
    const engine: number[] = [];
    for (let i = 0; i < RUNS; i++) engine.push(await timeEngine(fx));
    const wall = median(engine);
    const ratio = wall / DELAY_MS;

    const dig: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = await timeDig(fx);
      if (t === undefined) break;
      dig.push(t);
    }
    const notes =
      dig.length === 0
        ? 'dig not installed or failed: no peer figure'
        : `peer: dig, ten types one after another: ${median(dig).toFixed(0)} ms ` +
          `(ratio ${(median(dig) / DELAY_MS).toFixed(2)}, includes process start)`;
    return [
      {
        entry: `dns: ten types, ${DELAY_MS} ms per answer (median of ${RUNS})`,
        figure: `${wall.toFixed(1)} ms`,
        target: 'ratio <= 1.2',
        ratio,
        pass: ratio <= 1.2,
        notes: `${notes}; runs ${engine.map((t) => t.toFixed(0)).join('/')} ms`,
      },
    ];
  } finally {
    await fx.close();
  }
}
