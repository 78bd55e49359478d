// V8's optimizing compiler tuned for a process that lives for one command. TurboFan's compile
// work is the largest single cost of a cold `zone-check` (a third of its instructions on a
// signed zone), paid before the optimized code has run long enough to pay it back. Inlining
// less deeply (half V8's cumulative budget per function) and not peeling loops (each peeled
// loop body compiled twice) cut that work by a quarter, for code a few per cent slower per
// call: on a 50,000-record zone and on 2 MB signed zones the process runs ~5% fewer
// instructions in all. A long-lived process (`hostlens serve`) keeps V8's defaults: it runs
// its optimized code long enough for the deeper inlining to pay.
//
// Set before any chunk is compiled: Node's compile cache (22.1+) keeps code under a hash of
// V8's flags, so flags changed later would make every run reject what the last one cached.
import { setFlagsFromString } from 'node:v8';

/** Both flags exist in every V8 of Node 20 onwards (an unknown flag is printed on stdout). */
export const SHORT_RUN_FLAGS = [
  '--max-inlined-bytecode-size-cumulative=460',
  '--no-turbo-loop-peeling',
];

/** Tunes V8 for one short command; not for `serve`, which runs on. */
export function tuneForShortRun(command: string | undefined): void {
  if (command === 'serve') return;
  for (const flag of SHORT_RUN_FLAGS) setFlagsFromString(flag);
}
