// Starts a private code-server (VS Code 1.139 server + web workbench) for one run: its own
// port, user data, extensions folder and HOME, no gallery, no telemetry, in its own process
// group so the whole tree can be stopped at the end.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeServerBin, ensureHarness, harnessNodeBin } from './install.mjs';

const USER_SETTINGS = {
  'chat.disableAIFeatures': true,
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'git.enabled': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'window.restoreWindows': 'none',
  'editor.hover.delay': 300,
  // Saves happen when a test says so: a save from elsewhere would make `document.save()` of
  // an edited file return false (nothing left to save).
  'files.autoSave': 'off',
};

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function portAnswers(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitForHealth(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`code-server exited early with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`code-server did not answer on ${url} within ${timeoutMs} ms`);
}

/**
 * @param {{ extraSettings?: object, env?: object, smokeTestDriver?: boolean, vsix?: string, log?: (s: string) => void }} options
 */
export async function startCodeServer(options = {}) {
  ensureHarness();
  const log = options.log ?? (() => {});
  const root = mkdtempSync(join(tmpdir(), 'hostlens-vscode-'));
  const home = join(root, 'home');
  const userData = join(root, 'user-data');
  const extensions = join(root, 'extensions');
  for (const dir of [home, join(userData, 'User'), join(userData, 'Machine'), extensions]) {
    mkdirSync(dir, { recursive: true });
  }
  const settings = JSON.stringify({ ...USER_SETTINGS, ...(options.extraSettings ?? {}) }, null, 2);
  writeFileSync(join(userData, 'User', 'settings.json'), settings);
  // code-server is a remote window: there a machine-scoped setting (hostlens.tls.caFiles, the
  // backend and its URLs) is read from the remote's settings (Machine/), never from the user's.
  writeFileSync(join(userData, 'Machine', 'settings.json'), settings);
  const port = await freePort();
  if (await portAnswers(port)) throw new Error(`port ${port} already answers; refusing to start`);
  const env = {
    ...process.env,
    ...(options.env ?? {}),
    HOME: home,
    PATH: `${harnessNodeBin}:${process.env.PATH}`,
    EXTENSIONS_GALLERY: '{}',
    VSCODE_PROXY_URI: '',
  };
  const node = join(harnessNodeBin, 'node');
  const common = ['--user-data-dir', userData, '--extensions-dir', extensions];
  if (options.vsix) {
    await run(node, [codeServerBin, ...common, '--install-extension', options.vsix], env, log);
  }
  const args = [
    codeServerBin,
    ...common,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
  ];
  if (options.smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  const child = spawn(node, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => log(`[code-server] ${String(d).trimEnd()}`));
  child.stderr.on('data', (d) => log(`[code-server] ${String(d).trimEnd()}`));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await Promise.race([
        new Promise((r) => child.once('exit', r)),
        new Promise((r) => setTimeout(r, 3000)),
      ]);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await waitForHealth(url, child, 30000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, port, root, home, userData, extensions, stop };
}

function run(cmd, args, env, log) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => log(String(d).trimEnd()));
    child.stderr.on('data', (d) => log(String(d).trimEnd()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.slice(-2).join(' ')} exited with ${code}`)),
    );
  });
}

/** Headless Chromium from Debian, driven by playwright-core (no browser download). */
export async function launchBrowser(profileRoot) {
  const { chromium } = await import('playwright-core');
  const { CHROMIUM_PATH } = await import('./versions.mjs');
  return chromium.launchPersistentContext(join(profileRoot, 'chromium-profile'), {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport: { width: 1400, height: 860 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    env: { ...process.env, HOME: join(profileRoot, 'home') },
  });
}
