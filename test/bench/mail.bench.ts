// Mail benches: the SPF tree and the default DKIM list against a loopback DNS fixture that
// delays every answer by 50 ms, judged against the network's critical path; and the share of
// the openspf RFC 7208 suite that check_host passes.
import { performance } from 'node:perf_hooks';
import { DEFAULT_DKIM_SELECTORS, domainKeys } from '../../src/engine/mail/dkim';
import { senderPolicyRanges } from '../../src/engine/mail/spf';
import { startDnsServer, type FixtureRecord } from '../support/dns-server';
import { loadSuite, runScenario, suiteAvailable } from '../support/spf-suite';
import type { BenchRow } from './types';

const DELAY_MS = 50;
const DEPTH = 3;
const RUNS = 5;

const txt = (name: string, text: string): FixtureRecord => ({ name, type: 'TXT', data: [text] });

/**
 * Three branches, each three includes deep. With `hostTerms`, every policy also has `a` (and
 * the root `mx`), whose void checks need the policy first: one more round after the leaves.
 */
function spfZone(hostTerms: boolean): FixtureRecord[] {
  const records: FixtureRecord[] = [
    txt(
      'bench.test',
      'v=spf1 mx include:b1.bench.test include:b2.bench.test include:b3.bench.test -all',
    ),
  ];
  for (let b = 1; b <= 3; b++) {
    for (let level = 1; level <= DEPTH; level++) {
      const name = `l${level}.b${b}.bench.test`.replace(`l1.`, '');
      const next = level < DEPTH ? `include:l${level + 1}.b${b}.bench.test` : '';
      records.push(
        txt(
          level === 1 ? `b${b}.bench.test` : name,
          `v=spf1 ip4:192.0.${b}.${level} ${hostTerms ? 'a ' : ''}${next} ~all`,
        ),
      );
    }
  }
  return records;
}

async function median(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((x, y) => x - y);
  return times[Math.floor(times.length / 2)];
}

async function timeTree(hostTerms: boolean): Promise<{ wall: number; queries: number }> {
  const server = await startDnsServer({ records: spfZone(hostTerms), delayMs: DELAY_MS });
  try {
    let depth = 0;
    let queries = 0;
    const wall = await median(async () => {
      const root = await senderPolicyRanges({ host: 'bench.test', server: server.address });
      queries = root.query_count;
      const deepest = (n: { includes: { includes: unknown[] }[] }, d: number): number =>
        Math.max(d, ...n.includes.map((c) => deepest(c as never, d + 1)));
      depth = deepest(root, 0);
    });
    if (depth !== DEPTH) throw new Error(`the tree is ${depth} deep, not ${DEPTH}`);
    return { wall, queries };
  } finally {
    await server.close();
  }
}

async function spfTree(): Promise<BenchRow> {
  const plain = await timeTree(false);
  const withHosts = await timeTree(true);
  const ratio = plain.wall / ((DEPTH + 1) * DELAY_MS);
  const hostRatio = withHosts.wall / ((DEPTH + 2) * DELAY_MS);
  return {
    entry: `spf tree: depth ${DEPTH} (3 branches), ${DELAY_MS} ms per answer`,
    figure: `${plain.wall.toFixed(0)} ms`,
    target: 'ratio <= 1.2',
    ratio,
    pass: ratio <= 1.2,
    notes:
      `${plain.queries} queries, median of ${RUNS}; with a/mx void checks on every policy ` +
      `${withHosts.wall.toFixed(0)} ms, ${withHosts.queries} queries = ${hostRatio.toFixed(2)} x ` +
      `${DEPTH + 2} rounds (the leaves' a checks need their policy first)`,
  };
}

async function dkimDefaults(): Promise<BenchRow> {
  const server = await startDnsServer({
    records: [txt('google._domainkey.bench.test', 'v=DKIM1; k=rsa; p=')],
    delayMs: DELAY_MS,
  });
  try {
    let found = 0;
    const wall = await median(async () => {
      const result = await domainKeys({ host: 'bench.test', server: server.address });
      found = result.domain_keys.length;
    });
    if (found !== 1) throw new Error(`expected 1 key, found ${found}`);
    const ratio = wall / DELAY_MS;
    return {
      entry: `dkim: default list (${DEFAULT_DKIM_SELECTORS.length} selectors), ${DELAY_MS} ms per answer`,
      figure: `${wall.toFixed(0)} ms`,
      target: 'ratio <= 1.5',
      ratio,
      pass: ratio <= 1.5,
      notes: `median of ${RUNS}`,
    };
  } finally {
    await server.close();
  }
}

async function rfcSuite(): Promise<BenchRow> {
  if (!suiteAvailable()) {
    return {
      entry: 'spf: RFC 7208 suite',
      figure: 'corpus not found',
      target: 'ratio = 1.0',
      ratio: Number.NaN,
      pass: false,
    };
  }
  let passed = 0;
  let total = 0;
  const start = performance.now();
  for (const scenario of loadSuite()) {
    for (const outcome of await runScenario(scenario)) {
      total++;
      if (outcome.ok) passed++;
    }
  }
  const ratio = passed / 203;
  return {
    entry: 'spf: openspf RFC 7208 suite',
    figure: `${passed}/${total} passed`,
    target: 'ratio = 1.0 (passed/203)',
    ratio,
    pass: ratio === 1,
    notes: `${(performance.now() - start).toFixed(0)} ms`,
  };
}

export default async (): Promise<BenchRow[]> => [
  await spfTree(),
  await dkimDefaults(),
  await rfcSuite(),
];
