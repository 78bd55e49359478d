// Runs the command line in this process with stdout and stderr captured and the terminal
// described by the test (a pipe unless told otherwise), so nothing depends on where mocha
// itself prints.
import { main } from '../../../src/cli/main';
import type { Terminal } from '../../../src/cli/output';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export const PIPE: Terminal = {
  stdoutIsTTY: false,
  stderrIsTTY: false,
  env: {},
  now: () => new Date('2026-11-01T00:00:00Z'),
};

export async function runCli(args: string[], terminal: Partial<Terminal> = {}): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  // Captured by swapping the write methods back after the call.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const write = { out: process.stdout.write, err: process.stderr.write };
  process.stdout.write = (chunk: string) => (out.push(String(chunk)), true);
  process.stderr.write = (chunk: string) => (err.push(String(chunk)), true);
  try {
    const code = await main(args, { ...PIPE, ...terminal });
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
  }
}
