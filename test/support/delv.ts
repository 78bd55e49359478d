// BIND's delv as the reference validator of the DNSSEC suites: its verdict on one question asked
// of a hierarchy served by Knot (test/support/dnssec-hierarchy.ts), in the validator's words.
import { execFile } from 'node:child_process';
import type { QueryResult } from '../../src/contract/shapes';
import { queryWithDnssec } from '../../src/engine/dns/dnssec/index';
import type { Hierarchy } from './dnssec-hierarchy';

export type Verdict = 'secure' | 'insecure' | 'bogus' | 'indeterminate';

/** What a suite comparing with delv needs: Knot serves the hierarchy BIND's tools sign. */
export const DELV_SUITE_TOOLS = [
  'knotd',
  'dnssec-keygen',
  'dnssec-signzone',
  'dnssec-dsfromkey',
  'delv',
] as const;

/** HostLens's validated answer to the same question, under the hierarchy's root anchor. */
export function askHostLens(h: Hierarchy, q: { name: string; type: string }): Promise<QueryResult> {
  return queryWithDnssec(
    { host: q.name, types: [q.type], server: h.server },
    { env: { HOSTLENS_TRUST_ANCHORS: h.anchorsFile }, timeoutMs: 2000, tries: 2 },
  );
}

/**
 * delv's verdict for the whole answer. A failure anywhere (say the CNAME validated but its target did not) fails the
 * question; "resolution failed: ncache …" is only how delv introduces a negative answer.
 */
export function delvVerdict(output: string): Verdict {
  const failed = /resolution failed: (?!ncache)(.*)/.exec(output);
  if (failed !== null)
    return /timed out|SERVFAIL|^failure/.test(failed[1]) ? 'indeterminate' : 'bogus';
  // delv judges each RRset of a CNAME chain; the answer is as strong as its weakest one.
  if (/^; (negative response, )?unsigned answer/m.test(output)) return 'insecure';
  if (/^; (negative response, )?fully validated/m.test(output)) return 'secure';
  return 'bogus';
}

export function askDelv(
  delv: string,
  h: Hierarchy,
  q: { name: string; type: string },
): Promise<{ verdict: Verdict; output: string }> {
  const args = [
    '-a',
    h.delvAnchorsFile,
    `@${h.host}`,
    '-p',
    String(h.port),
    '+root',
    q.name,
    q.type,
  ];
  return new Promise((resolve) => {
    execFile(delv, args, { timeout: 20000 }, (_err, stdout, stderr) => {
      const output = `${stdout}${stderr}`;
      resolve({ verdict: delvVerdict(output), output });
    });
  });
}

export async function pool<T, R>(
  items: T[],
  size: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: size }, worker));
  return out;
}
