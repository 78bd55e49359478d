// npm run screenshots:cli: the command line in a real terminal. tmux runs bash with the built
// dist/cli.js as `hostlens`; each shot types commands, captures the pane with its colours
// (capture-pane -e) and renders it as a terminal window to a PNG with headless Chromium.
// Look-ups answer from the loopback fixtures, never the internet. Writes screenshots/cli-*.png
// (HOSTLENS_SHOTS=query,mail selects shots).
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import Convert from 'ansi-to-html';
import { launchBrowser } from './code-server.mjs';
import { loadFixtureZones, startDnsServer } from '../support/dns-server';
import { startPanelSite, startRdapSite } from '../support/panel-site';

const root = path.resolve(__dirname, '..', '..');
const outDir = path.join(root, 'screenshots');
const SOCKET = `hostlens-shots-${process.pid}`;
const COLUMNS = 112;
const ROWS = 40;

/** name, then the command lines typed in turn */
const SHOTS: Array<[string, string[]]> = [
  [
    'query',
    ['hostlens query example.test --server $NS', 'hostlens query www.example.test A --server $NS'],
  ],
  ['mail', ['hostlens mail mail.test --server $NS']],
  ['whois', ['hostlens whois hostlens-example.com']],
  [
    'web',
    [
      'hostlens redirects $SITE/go',
      'hostlens unfurl $SITE/card',
      'hostlens whois nosuch.com',
      'hostlens query nx.example.test --server $NS',
    ],
  ],
  [
    'pipe',
    [
      'hostlens query example.test MX --server $NS | cat',
      'hostlens sender_policy_ranges nx.mail.test --server $NS 2>&1 | cat',
      'hostlens sender_policy_ranges mail.test --server $NS --ascii',
    ],
  ],
];

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
}

/**
 * Waits for bash's prompt (its PROMPT_COMMAND signals the channel). Asynchronous: the fixture
 * servers answering the command run in this very process.
 */
async function prompt(): Promise<void> {
  await promisify(execFile)('timeout', ['30', 'tmux', '-L', SOCKET, 'wait-for', 'prompt']);
}

async function type(line: string): Promise<void> {
  tmux('send-keys', '-t', 'shots', '-l', line);
  tmux('send-keys', '-t', 'shots', 'Enter');
  await prompt();
  // PROMPT_COMMAND runs just before bash draws the prompt: give it a moment to appear.
  await new Promise((resolve) => setTimeout(resolve, 200));
}

const PALETTE = {
  0: '#1e1e1e',
  1: '#f14c4c',
  2: '#23d18b',
  3: '#f5c542',
  4: '#3b8eea',
  5: '#d670d6',
  6: '#29b8db',
  7: '#e5e5e5',
};

function page(ansi: string, title: string): string {
  const convert = new Convert({ fg: '#d4d4d4', bg: '#1e1e1e', escapeXML: true, colors: PALETTE });
  // dim text (SGR 2) is not in ansi-to-html's set: tmux writes it as \e[2m
  const html = convert
    .toHtml(
      ansi.replace(/\u001b\[2m/g, '\u001b[90m').replace(/\u001b\[22m/g, '\u001b[39m\u001b[22m'),
    )
    .replace(/#555/g, '#8b8b8b');
  return `<!doctype html><html><head><style>
  body { margin: 0; background: #f3f3f3; padding: 24px; display: inline-block; }
  .window { background: #1e1e1e; border-radius: 10px; box-shadow: 0 8px 28px rgba(0,0,0,.35); overflow: hidden; }
  .bar { height: 34px; background: #323233; display: flex; align-items: center; padding: 0 14px; gap: 8px;
         font: 13px system-ui, sans-serif; color: #cccccc; }
  .dot { width: 12px; height: 12px; border-radius: 50%; }
  .title { flex: 1; text-align: center; margin-right: 60px; }
  pre { margin: 0; padding: 14px 18px 18px; font: 14px/1.35 'DejaVu Sans Mono', monospace; color: #d4d4d4;
        white-space: pre; }
</style></head><body><div class="window"><div class="bar">
  <span class="dot" style="background:#ff5f57"></span><span class="dot" style="background:#febc2e"></span>
  <span class="dot" style="background:#28c840"></span><span class="title">${title}</span></div>
<pre>${html}</pre></div></body></html>`;
}

async function main(): Promise<void> {
  const wanted = process.env.HOSTLENS_SHOTS?.split(',').map((s) => s.trim());
  const shots = SHOTS.filter(([name]) => !wanted || wanted.includes(name));
  mkdirSync(outDir, { recursive: true });
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
  const dns = await startDnsServer({ records: loadFixtureZones() });
  const rdap = await startRdapSite();
  const site = await startPanelSite();
  const home = mkdtempSync(path.join(tmpdir(), 'hostlens-terminal-'));
  const bin = path.join(home, 'bin');
  mkdirSync(bin);
  writeFileSync(
    path.join(bin, 'hostlens'),
    `#!/bin/sh\nexec '${process.execPath}' '${path.join(root, 'dist', 'cli.js')}' "$@"\n`,
  );
  chmodSync(path.join(bin, 'hostlens'), 0o755);
  const rc = path.join(home, 'bashrc');
  writeFileSync(
    rc,
    [
      `export PATH='${bin}':"$PATH"`,
      `export NS=${dns.address} SITE=${site.url('').replace(/\/$/, '')}`,
      `export HOSTLENS_RDAP_BOOTSTRAP='${rdap.bootstrap}'`,
      'unset NO_COLOR',
      "PS1='\\[\\e[32m\\]~/work\\[\\e[0m\\] $ '",
      `PROMPT_COMMAND='tmux -L ${SOCKET} wait-for -S prompt'`,
      '',
    ].join('\n'),
  );
  const browser = await launchBrowser(home);
  try {
    tmux(
      'new-session',
      '-d',
      '-s',
      'shots',
      '-x',
      String(COLUMNS),
      '-y',
      String(ROWS),
      '-e',
      'TERM=xterm-256color',
      '-e',
      `HOME=${home}`,
      'bash',
      '--noprofile',
      '--rcfile',
      rc,
      '-i',
    );
    await prompt();
    const browserPage = await browser.newPage();
    for (const [name, lines] of shots) {
      await type('clear');
      for (const line of lines) await type(line);
      const captured = tmux('capture-pane', '-p', '-e', '-t', 'shots').replace(/\s+$/, '');
      await browserPage.setContent(page(`${captured}\n`, 'bash — hostlens'));
      const file = path.join(outDir, `cli-${name}.png`);
      await browserPage.locator('.window').screenshot({ path: file });
      console.log(`wrote ${path.relative(root, file)}`);
    }
  } finally {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    await browser.close();
    await Promise.all([dns.close(), rdap.close(), site.close()]);
    rmSync(home, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
