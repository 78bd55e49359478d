// The reference check_host() implementations of the SPF differential test, each a long-lived
// child process (test/support/spf-refs/) fed one JSON case a line and pointed at the loopback
// fixture DNS server: pyspf (Debian python3-spf, over pydns: python3-dns) and Mail::SPF (Debian
// libmail-spf-perl). Each driver describes itself (--describe): the versions and the DNS backend
// that run, printed with the figure and checked against what the known disagreements were
// written for.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { checkSeries } from './reference-tools';

export interface ReferenceResult {
  id: number;
  /** an RFC 7208 result, or "crash" when the implementation threw */
  result: string;
  explanation?: string;
  reason?: string;
  /** Mail::SPF: why expanding a fail's explanation threw (the result stands) */
  explanation_error?: string;
  /** the void look-ups it counted (RFC 7208 section 4.6.4) */
  voids?: number;
}

export interface Reference {
  name: 'pyspf' | 'Mail::SPF';
  command: string;
  args: (port: number) => string[];
  /** why it cannot run here, or undefined when it can */
  missing: () => string | undefined;
  /** the version series the known disagreements were written for */
  series: string;
  /** the DNS library the driver must run over (their readings of DNS failures differ) */
  backend: string;
}

/** What a driver says of itself with --describe. */
export interface ReferenceDescription {
  name: string;
  version: string;
  backend: string;
  backend_version: string;
  /** pyspf: the backend spf.py chose on import, before the driver pinned its own */
  picked_at_import?: string;
  options: string;
}

const DRIVERS = resolve(__dirname, 'spf-refs');
// Debian's python3 holds python3-spf; a python3 earlier on the PATH (pyenv, venv) may not.
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

function probe(command: string, args: string[], what: string): string | undefined {
  const r = spawnSync(command, args, { stdio: 'ignore' });
  return r.status === 0 ? undefined : `${what} is not installed (${command} ${args.join(' ')})`;
}

export const REFERENCES: Reference[] = [
  {
    name: 'pyspf',
    command: PYTHON,
    args: (port) => [resolve(DRIVERS, 'pyspf-driver.py'), String(port)],
    missing: () =>
      probe(PYTHON, ['-c', 'import spf'], 'python3-spf') ??
      probe(PYTHON, ['-c', 'import DNS'], 'python3-dns (pydns, the backend the driver pins)'),
    series: '2.0',
    backend: 'pydns',
  },
  {
    name: 'Mail::SPF',
    command: 'perl',
    args: (port) => [resolve(DRIVERS, 'mailspf-driver.pl'), String(port)],
    missing: () =>
      probe('perl', ['-MMail::SPF', '-MNet::DNS::Resolver', '-e', '1'], 'libmail-spf-perl'),
    series: 'v2.009',
    backend: 'Net::DNS',
  },
];

/**
 * The driver's own account of what runs; throws, saying what differs, when it is not the
 * version series or DNS backend the known disagreements were written for.
 */
export function describeReference(
  ref: Reference,
  env: NodeJS.ProcessEnv = process.env,
): ReferenceDescription {
  const script = ref.args(0)[0];
  const run = spawnSync(ref.command, [script, '--describe'], { encoding: 'utf8', env });
  if (run.status !== 0) throw new Error(`${ref.name} --describe failed: ${run.stderr}`);
  const d = JSON.parse(run.stdout) as ReferenceDescription;
  checkSeries(ref.name, script, d.version, ref.series);
  if (d.backend !== ref.backend) {
    throw new Error(
      `${ref.name} runs over ${d.backend}, not ${ref.backend}: the known disagreements are ` +
        `written for ${ref.backend}`,
    );
  }
  return d;
}

/** The line printed with the figure. */
export function describeLine(d: ReferenceDescription): string {
  const picked =
    d.picked_at_import !== undefined && d.picked_at_import !== d.backend
      ? ` (spf.py picked ${d.picked_at_import} on import; the driver pinned ${d.backend})`
      : '';
  return `reference: ${d.name} ${d.version} over ${d.backend} ${d.backend_version}${picked}, ${d.options}`;
}

export interface CheckRequest {
  id: number;
  ip: string;
  sender: string;
  helo: string;
}

/** Runs every case through one reference, in order, and collects its answers by id. */
export function runReference(
  ref: Reference,
  port: number,
  cases: CheckRequest[],
): Promise<Map<number, ReferenceResult>> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(ref.command, ref.args(port), { stdio: ['pipe', 'pipe', 'pipe'] });
    const results = new Map<number, ReferenceResult>();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const r = JSON.parse(line) as ReferenceResult;
      results.set(r.id, r);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || results.size !== cases.length) {
        reject(new Error(`${ref.name} exited ${code} after ${results.size} cases: ${stderr}`));
      } else {
        resolvePromise(results);
      }
    });
    for (const c of cases) child.stdin.write(`${JSON.stringify(c)}\n`);
    child.stdin.end();
  });
}
