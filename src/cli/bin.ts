// The command line's entry point (dist/cli.js runs it). Node's compile cache, where the Node
// version has it (22.1+), keeps the compiled code of the bundle's chunks between runs; it is
// turned on before anything else is loaded, so every chunk a command imports is served from it.
import * as nodeModule from 'node:module';
import { endsWhenAnswered, tuneForShortRun } from './short-run';

tuneForShortRun(process.argv[2]);

const withCache = nodeModule as { enableCompileCache?: () => unknown };
try {
  withCache.enableCompileCache?.();
} catch {
  // A cache directory that cannot be written only costs the speed-up.
}

void import('./main')
  .then(async ({ main, outputPending }) => ({
    code: await main(process.argv.slice(2)),
    outputPending,
  }))
  .then(
    ({ code, outputPending }) => {
      process.exitCode = code;
      // Ended here only once every byte of the answer is written (short-run.ts says why).
      if (endsWhenAnswered(process.argv[2]) && !outputPending()) process.exit(code);
    },
    (err: unknown) => {
      // main answers every failure itself; this is a bundle that could not load.
      process.stderr.write(
        `hostlens: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exitCode = 1;
    },
  );
