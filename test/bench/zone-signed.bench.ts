// Signed zones (issue 27): a root-like zone (the root servers, then top-level domains delegated
// with NS, glue and DS) generated here and signed at bench time with BIND's dnssec-keygen and
// dnssec-signzone, with a few algorithms and both denial forms (NSEC, NSEC3). `hostlens
// zone-check` of each (the CLI as npm pack ships it) against `named-checkzone` on the same file,
// whole processes, run interleaved, medians. Target: 1.5x. named-checkzone runs with
// `-i local`: its default integrity check looks every out-of-zone name up through the system
// resolver, and a bench uses no network (every delegated name of a root zone is out of zone).
//
// zone-check runs without this machine's NODE_EXTRA_CA_CERTS: see node-env.ts.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from '../support/cli-build';
import { inheritsExtraCaCerts, withoutExtraCaCerts } from './node-env';
import { seeded } from '../support/prng';
import type { BenchRow } from './types';

const RUNS = 7;
/** Each signed with as many TLDs as make about 2 MB, as the root zone files of test suites. */
const VARIANTS = [
  { algorithm: 'RSASHA256', nsec3: false, tlds: 1550 },
  { algorithm: 'ECDSAP256SHA256', nsec3: true, tlds: 2400 },
  { algorithm: 'ED25519', nsec3: false, tlds: 2500 },
] as const;

const run = promisify(execFile);

/** A root-like zone: the root servers and their addresses, then TLDs with NS, glue and DS. */
export function rootLikeZone(tlds: number): string {
  const rand = seeded(27);
  const int = (n: number) => Math.floor(rand() * n);
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789ABCDEF'[int(16)]).join('');
  const lines = [
    '$TTL 86400',
    '. 86400 IN SOA a.root-servers.net. nstld.verisign-grs.com. 2026112700 1800 900 604800 86400',
  ];
  const servers = 'abcdefghijklm'.split('');
  for (const s of servers) lines.push(`. 518400 IN NS ${s}.root-servers.net.`);
  servers.forEach((s, i) => {
    lines.push(`${s}.root-servers.net. 518400 IN A 198.41.0.${i + 4}`);
    lines.push(`${s}.root-servers.net. 518400 IN AAAA 2001:503:ba3e::2:${(i + 30).toString(16)}`);
  });
  for (let i = 0; i < tlds; i++) {
    const tld = `tld${i}`;
    const nameservers = 2 + int(4);
    for (let k = 0; k < nameservers; k++) {
      const ns = `ns${k}.nic.${tld}.`;
      lines.push(`${tld}. 172800 IN NS ${ns}`);
      lines.push(`${ns} 172800 IN A 192.0.${(i >> 8) & 255}.${i & 255}`);
      if (rand() < 0.5) lines.push(`${ns} 172800 IN AAAA 2001:db8:${i.toString(16)}::${k + 1}`);
    }
    if (rand() < 0.8) lines.push(`${tld}. 86400 IN DS ${1 + int(65535)} 8 2 ${hex(64)}`);
  }
  return `${lines.join('\n')}\n`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Wall time of a whole process, or undefined when it failed. */
function wallMs(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number | undefined> {
  const started = process.hrtime.bigint();
  return new Promise((done) => {
    execFile(command, args, { env, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (err) =>
      done(err ? undefined : Number(process.hrtime.bigint() - started) / 1e6),
    );
  });
}

/** Signs `unsigned` in `dir` with a KSK and a ZSK of `algorithm`; answers the signed file. */
async function sign(dir: string, unsigned: string, algorithm: string, nsec3: boolean) {
  const keys = join(dir, `keys-${algorithm}`);
  await run('mkdir', ['-p', keys]);
  await run('dnssec-keygen', ['-q', '-K', keys, '-a', algorithm, '-f', 'KSK', '.']);
  await run('dnssec-keygen', ['-q', '-K', keys, '-a', algorithm, '.']);
  const signed = join(dir, `root-${algorithm}-${nsec3 ? 'nsec3' : 'nsec'}.signed`);
  // -P: no self-check of the signatures (the bench times the checkers, not the signer);
  // NSEC3 without salt and with no extra iterations, as RFC 9276 asks.
  const denial = nsec3 ? ['-3', '-', '-H', '0'] : [];
  await run(
    'dnssec-signzone',
    ['-q', '-S', '-K', keys, '-o', '.', '-f', signed, '-P', ...denial, unsigned],
    {
      cwd: dir,
    },
  );
  return signed;
}

export default async function zoneSignedBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hostlens-zone-signed-'));
  try {
    const cli = await buildCli(dir, { production: true });
    const plainEnv = withoutExtraCaCerts();
    const rows: BenchRow[] = [];
    for (const { algorithm, nsec3, tlds } of VARIANTS) {
      const unsigned = join(dir, `root-${tlds}.zone`);
      writeFileSync(unsigned, rootLikeZone(tlds));
      const entry = `cli: hostlens zone-check, signed root-like zone (${algorithm}, ${nsec3 ? 'NSEC3' : 'NSEC'}, ${tlds} TLDs)`;
      let file: string;
      try {
        file = await sign(dir, unsigned, algorithm, nsec3);
      } catch (err) {
        rows.push({
          entry,
          figure: '-',
          target: 'ratio to named-checkzone <= 1.5',
          ratio: Number.NaN,
          pass: false,
          notes: `could not sign with dnssec-signzone (bind9-utils): ${(err as Error).message.split('\n')[0]}`,
        });
        continue;
      }
      const times: { bind: number[]; ours: number[]; inherited: number[] } = {
        bind: [],
        ours: [],
        inherited: [],
      };
      const args = [cli, 'zone-check', file, '--origin', '.'];
      for (let i = 0; i < RUNS; i++) {
        const bind = await wallMs('named-checkzone', ['-q', '-i', 'local', '.', file]);
        const ours = await wallMs(process.execPath, args, plainEnv);
        if (ours === undefined) throw new Error(`zone-check of ${file} failed`);
        if (bind !== undefined) times.bind.push(bind);
        times.ours.push(ours);
        if (inheritsExtraCaCerts) {
          const inherited = await wallMs(process.execPath, args);
          if (inherited !== undefined) times.inherited.push(inherited);
        }
      }
      const ours = median(times.ours);
      const size = `${(statSync(file).size / 1e6).toFixed(1)} MB`;
      if (times.bind.length === 0) {
        rows.push({
          entry: `${entry}, ${size}`,
          figure: `${ours.toFixed(0)} ms`,
          target: 'ratio to named-checkzone <= 1.5',
          ratio: Number.NaN,
          pass: false,
          notes: 'named-checkzone not installed or refused the zone: no peer figure',
        });
        continue;
      }
      const bind = median(times.bind);
      const inherited =
        times.inherited.length === 0
          ? ''
          : `; with this machine's NODE_EXTRA_CA_CERTS: ${median(times.inherited).toFixed(0)} ms (${(median(times.inherited) / bind).toFixed(2)}x)`;
      rows.push({
        entry: `${entry}, ${size}`,
        figure: `${ours.toFixed(0)} ms`,
        target: 'ratio to named-checkzone <= 1.5',
        ratio: ours / bind,
        pass: ours / bind <= 1.5,
        notes: `named-checkzone -q -i local: ${bind.toFixed(0)} ms (medians of ${RUNS}, interleaved)${inherited}`,
      });
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
