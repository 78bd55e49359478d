// V8's optimizing compiler tuned for a process that lives for one command. TurboFan's compile
// work is the largest single cost of a cold `zone-check` (a third of its instructions on a
// signed zone), paid before the optimized code has run long enough to pay it back. Inlining
// less deeply (half V8's cumulative budget per function) and not peeling loops (each peeled
// loop body compiled twice) cut that work by a quarter, for code a few per cent slower per
// call: on a 50,000-record zone and on 2 MB signed zones the process runs ~5% fewer
// instructions in all. Only `zone-check` is tuned: a loopback `hostlens query` took 168 ms
// with the flags against 147 ms without (medians of 15, interleaved), its short hot paths
// slower for the shallower inlining, and a long-lived process (`hostlens serve`) runs its
// optimized code long enough for the deeper inlining to pay.
//
// Set before any chunk is compiled: Node's compile cache (22.1+) keeps code under a hash of
// V8's flags, so flags changed later would make every run reject what the last one cached.
import { setFlagsFromString } from 'node:v8';

/** Flags of TurboFan that V8 11 to 13 (Node 20 to 24) know. */
export const SHORT_RUN_FLAGS = [
  '--max-inlined-bytecode-size-cumulative=460',
  '--no-turbo-loop-peeling',
];

/**
 * The V8 major versions the flags are known in. V8 answers a flag it does not know with an
 * error printed on stdout, in the middle of a command's JSON: a later V8 that dropped one keeps
 * its defaults until it is checked and added here.
 */
const KNOWN_V8 = { first: 11, last: 13 };

/** The flags to set for `command` on V8 `v8Version`: for zone-check only (see above). */
export function shortRunFlags(command: string | undefined, v8Version: string): string[] {
  if (command !== 'zone-check') return [];
  const major = Number(v8Version.split('.')[0]);
  return major >= KNOWN_V8.first && major <= KNOWN_V8.last ? SHORT_RUN_FLAGS : [];
}

/** Tunes V8 for one short command. */
export function tuneForShortRun(command: string | undefined): void {
  for (const flag of shortRunFlags(command, process.versions.v8)) setFlagsFromString(flag);
}

/**
 * Whether the process ends as soon as `command` has answered, rather than through Node's
 * orderly exit. What that exit still does after a zone-check's answer is written is all
 * teardown: it waits for V8's background compiles to finish, runs the collector's pending
 * tasks (an incremental marking finished, a last scavenge) and frees the heap page by page.
 * Measured (cachegrind, one thread): 9 M of 1,075 M instructions on the signed 2 MB RSASHA256
 * zone of the bench, 32 M of 1,348 M (ECDSA, NSEC3), 39 M of 1,242 M (ED25519), 65 M of
 * 1,108 M on the 50,000-record zone; from the answer's write to exit_group 4 ms instead of 5 to
 * 13 (strace). zone-check holds no file, socket or timer once it has answered; a command that
 * may (serve, the look-ups) ends as Node ends it.
 */
export function endsWhenAnswered(command: string | undefined): boolean {
  return command === 'zone-check';
}
