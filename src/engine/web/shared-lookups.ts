// The name look-ups of one connection pool. A link check opens a few connections to each host
// at once (as many as the host may have requests open) and more as servers close idle ones;
// each asked the resolver again: four look-ups a host instead of one, queued on libuv's four
// threads (the system resolver) or each a full DNS query (through a named nameserver). Here a
// host's connections opened within a short while share one look-up. The address guard still
// checks the shared answer for every connection, and the address each one reached.
import type { ResolveAll } from '../guard';

/** How long an answer is shared (undici's DNS interceptor keeps its answers 10 s at most too). */
export const SHARED_LOOKUP_MS = 10_000;
/** Names kept at once; the oldest goes first. */
const MAX_NAMES = 1_024;

/**
 * `resolve`, with one look-up a name shared by every caller for SHARED_LOOKUP_MS from when it
 * was asked (a failed one is not kept: the next connection asks again).
 */
export function sharedLookups(
  resolve: ResolveAll,
  clock: () => number = monotonic,
  maxAgeMs = SHARED_LOOKUP_MS,
): ResolveAll {
  const answers = new Map<string, { asked: number; addresses: ReturnType<ResolveAll> }>();
  return (hostname) => {
    const name = hostname.toLowerCase();
    const now = clock();
    const kept = answers.get(name);
    if (kept !== undefined && now - kept.asked < maxAgeMs) return kept.addresses;
    answers.delete(name);
    if (answers.size >= MAX_NAMES) answers.delete(answers.keys().next().value!);
    const entry = { asked: now, addresses: resolve(hostname) };
    answers.set(name, entry);
    entry.addresses.catch(() => {
      if (answers.get(name) === entry) answers.delete(name);
    });
    return entry.addresses;
  };
}

const monotonic = (): number => performance.now();
