// The command line built as it ships (esbuild.mjs: the launcher and its chunks) into a folder
// of the caller's, so a test or bench runs the real bundle without touching dist/.
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '../..');

/** Builds the CLI into `dir` and answers the path of its `cli.js`. */
export async function buildCli(
  dir: string,
  options: { production?: boolean } = {},
): Promise<string> {
  const args = ['esbuild.mjs', '--cli-out', dir, ...(options.production ? ['--production'] : [])];
  await promisify(execFile)(process.execPath, args, { cwd: ROOT });
  return join(dir, 'cli.js');
}
