// How fast the command line starts and answers, as whole processes (issues 16 and 24):
// `hostlens --version`, `completion bash` (which a shell runs at every start when its rc file
// sources it) and `zone-check` of a 10-record zone against a bare `node -e ""`; a text query
// against the loopback fixture DNS server; and `zone-check` of a 50,000-record zone against
// `named-checkzone` on the same file (ours without this machine's NODE_EXTRA_CA_CERTS, for the
// reason node-env.ts gives; the figure with it in the notes). The CLI is built as `npm pack`
// ships it (minified, the launcher and its chunks: a command loads only its own part). Commands
// run interleaved and their medians are compared, so the ratios stay meaningful on a busy machine.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from '../support/cli-build';
import { loadFixtureZones, startDnsServer } from '../support/dns-server';
import { seeded } from '../support/prng';
import { generateZone, ORIGIN } from '../support/zone-generator';
import { inheritsExtraCaCerts, withoutExtraCaCerts } from './node-env';
import type { BenchRow } from './types';

const RUNS = 21;
const BIG_RUNS = 5;
const BIG_RECORDS = 50000;

/** Wall time of a whole process, or undefined when it failed (exit code other than 0). */
function wallMs(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number | undefined> {
  const started = process.hrtime.bigint();
  return new Promise((done) => {
    execFile(command, args, { maxBuffer: 64 * 1024 * 1024, timeout: 120_000, env }, (err) =>
      done(err ? undefined : Number(process.hrtime.bigint() - started) / 1e6),
    );
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Medians of commands run `runs` times each, interleaved; a command that failed is left out. */
async function interleaved(
  commands: Record<string, [string, string[], NodeJS.ProcessEnv?]>,
  runs: number,
): Promise<Record<string, number>> {
  const times: Record<string, number[]> = {};
  for (let i = 0; i < runs; i++)
    for (const [name, [command, args, env]] of Object.entries(commands)) {
      const t = await wallMs(command, args, env);
      if (t !== undefined) (times[name] ??= []).push(t);
    }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

/** A zone of ten records, as a small zone in a repository is. */
const SMALL_ZONE = `$TTL 3600
@        IN SOA ns1 hostmaster 2026010101 3600 600 604800 300
@        IN NS  ns1
@        IN NS  ns2
@        IN MX  10 mail
@        IN TXT "v=spf1 mx -all"
ns1      IN A   192.0.2.1
ns2      IN A   192.0.2.2
mail     IN A   192.0.2.25
www      IN A   192.0.2.80
www      IN AAAA 2001:db8::80
`;

export default async function cliBench(): Promise<BenchRow[]> {
  const tmp = mkdtempSync(join(tmpdir(), 'hostlens-cli-bench-'));
  const dns = await startDnsServer({ records: loadFixtureZones() });
  try {
    const cli = await buildCli(tmp, { production: true });
    const small = join(tmp, 'small.zone');
    writeFileSync(small, SMALL_ZONE);
    const big = join(tmp, 'big.zone');
    writeFileSync(big, generateZone(seeded(50000), 'none', Math.round(BIG_RECORDS / 1.7)).text);
    const node = process.execPath;
    const m = await interleaved(
      {
        node: [node, ['-e', '']],
        version: [node, [cli, '--version']],
        completion: [node, [cli, 'completion', 'bash']],
        zoneSmall: [node, [cli, 'zone-check', small, '--origin', ORIGIN]],
        query: [
          node,
          [cli, 'query', 'example.test', 'MX', '--server', dns.address, '--format', 'text'],
        ],
      },
      RUNS,
    );
    if (m.zoneSmall === undefined) throw new Error('zone-check of the 10-record zone failed');
    const bigCheck = [cli, 'zone-check', big, '--origin', ORIGIN];
    const big_ = await interleaved(
      {
        bind: ['named-checkzone', ['-q', ORIGIN, big]],
        ours: [node, bigCheck, withoutExtraCaCerts()],
        ...(inheritsExtraCaCerts ? { inherited: [node, bigCheck] as [string, string[]] } : {}),
      },
      BIG_RUNS,
    );
    const row = (entry: string, name: string, limit: number): BenchRow => {
      const ratio = m[name] / m.node;
      return {
        entry,
        figure: `${m[name].toFixed(0)} ms`,
        target: `ratio to bare node <= ${limit}`,
        ratio,
        pass: ratio <= limit,
        notes: `node -e "": ${m.node.toFixed(0)} ms (median of ${RUNS}, interleaved)`,
      };
    };
    const rows = [
      row('cli: hostlens --version', 'version', 1.5),
      row('cli: hostlens completion bash', 'completion', 1.5),
      row('cli: hostlens zone-check, 10 records', 'zoneSmall', 1.5),
      row('cli: hostlens query (text, loopback DNS)', 'query', 3),
    ];
    if (big_.ours === undefined) throw new Error('zone-check of the 50,000-record zone failed');
    rows.push(
      big_.bind === undefined
        ? {
            entry: `cli: hostlens zone-check, ${BIG_RECORDS} records (whole process)`,
            figure: `${big_.ours.toFixed(0)} ms`,
            target: 'ratio to named-checkzone <= 1.3',
            ratio: Number.NaN,
            pass: false,
            notes: 'named-checkzone not installed or failed: no peer figure',
          }
        : {
            entry: `cli: hostlens zone-check, ${BIG_RECORDS} records (whole process)`,
            figure: `${big_.ours.toFixed(0)} ms`,
            target: 'ratio to named-checkzone <= 1.3',
            ratio: big_.ours / big_.bind,
            pass: big_.ours / big_.bind <= 1.3,
            notes:
              `named-checkzone -q: ${big_.bind.toFixed(0)} ms (median of ${BIG_RUNS}, interleaved)` +
              (big_.inherited === undefined
                ? ''
                : `; with this machine's NODE_EXTRA_CA_CERTS: ${big_.inherited.toFixed(0)} ms (${(big_.inherited / big_.bind).toFixed(2)}x)`),
          },
    );
    return rows;
  } finally {
    await dns.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}
