// Validating an answer three zone cuts below the root (www.sub.ecdsa.tld: root -> tld ->
// ecdsa.tld -> sub.ecdsa.tld) through a nameserver 50 ms away: the signed hierarchy of the
// tests served by knotd, behind a loopback UDP relay that holds every answer 50 ms.
// The chain needs one round trip per level when each level's questions (DS and DNSKEY) go out
// together: 4 here, the answer asked with the root's level. The ratio is wall time over that
// (target <= 1.2); wall time includes this machine's CPU time. The second row counts round
// trips on the wire instead (the relay sees which answers had gone back before each question
// came), which no load changes: the validator asks every level's questions at once.
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { queryWithDnssec } from '../../src/engine/dns/dnssec/index';
import { missingTool, startHierarchy, type Hierarchy } from '../support/dnssec-hierarchy';
import type { BenchRow } from './types';

const DELAY_MS = Number(process.env.DNSSEC_BENCH_DELAY ?? 50);
const RUNS = 7;
const HOST = 'www.sub.ecdsa.tld';
const LEVELS = 4;

interface Relay {
  server: string;
  questions: number;
  answered: number;
  /** for each question, how many answers had been sent when it arrived */
  arrivals: number[];
  close(): Promise<void>;
}

/** Forwards each datagram to the hierarchy and sends the answer back DELAY_MS later. */
async function startRelay(target: Hierarchy): Promise<Relay> {
  const front: Socket = createSocket('udp4');
  const relay: Relay = {
    server: '',
    questions: 0,
    answered: 0,
    arrivals: [],
    close: () => new Promise<void>((resolve) => front.close(() => resolve())),
  };
  front.on('message', (msg: Buffer, from: RemoteInfo) => {
    relay.questions++;
    relay.arrivals.push(relay.answered);
    const back = createSocket('udp4');
    back.on('message', (answer: Buffer) => {
      back.close();
      setTimeout(() => {
        relay.answered++;
        front.send(answer, from.port, from.address);
      }, DELAY_MS);
    });
    back.send(msg, target.port, target.host);
  });
  await new Promise<void>((resolve) => front.bind(0, '127.0.0.1', resolve));
  relay.server = `127.0.0.1:${front.address().port}`;
  return relay;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export default async function dnssecBench(): Promise<BenchRow[]> {
  const missing = missingTool();
  if (missing !== undefined) {
    return [
      {
        entry: 'dnssec: skipped',
        figure: `${missing} is not installed`,
        target: '-',
        ratio: Number.NaN,
        pass: true,
      },
    ];
  }
  const h = await startHierarchy();
  const relay = await startRelay(h);
  const env = { HOSTLENS_TRUST_ANCHORS: h.anchorsFile };
  const once = async () => {
    const before = relay.questions;
    relay.arrivals = [];
    const started = performance.now();
    const r = await queryWithDnssec(
      { host: HOST, types: ['A'], server: relay.server },
      { env, timeoutMs: 2000, tries: 1 },
    );
    const took = performance.now() - started;
    if (r.dnssec?.status !== 'secure') throw new Error(`not secure: ${r.dnssec?.reason}`);
    // Questions that arrived with the same number of answers already sent went out together.
    const trips = new Set(relay.arrivals).size;
    return { took, questions: relay.questions - before, trips };
  };
  try {
    await once(); // warm-up: module loading, first sockets
    const runs: Array<{ took: number; questions: number; trips: number }> = [];
    for (let i = 0; i < RUNS; i++) runs.push(await once());
    const wall = median(runs.map((r) => r.took));
    const reference = LEVELS * DELAY_MS;
    const ratio = wall / reference;
    const trips = Math.max(...runs.map((r) => r.trips));
    const notes = `${runs[0].questions} questions per look-up; runs ${runs.map((r) => r.took.toFixed(0)).join('/')} ms`;
    return [
      {
        entry: `dnssec: ${HOST} A, 3 cuts below the root, ${DELAY_MS} ms away (median of ${RUNS})`,
        figure: `${wall.toFixed(1)} ms vs ${LEVELS} levels x ${DELAY_MS} ms`,
        target: 'ratio <= 1.2',
        ratio,
        pass: ratio <= 1.2,
        notes,
      },
      {
        entry: 'dnssec: round trips on the wire for the same look-up (worst run)',
        figure: `${trips} round trip(s) vs ${LEVELS} levels`,
        target: 'ratio <= 1.2',
        ratio: trips / LEVELS,
        pass: trips / LEVELS <= 1.2,
        notes: `wall / ${DELAY_MS} ms = ${(wall / DELAY_MS).toFixed(2)} (the rest is CPU on a shared machine)`,
      },
    ];
  } finally {
    await relay.close();
    await h.close();
  }
}
