// npm run demo: HostLens in VS Code in your browser, in a minute, with nothing installed but
// the repository. Starts the loopback fixture servers (fixtures.ts), the harness's VS Code
// (code-server, its own user data; nothing of yours is touched) with the packaged .vsix and
// the sample workspace, and prints the address to open. Ctrl+C stops it all.
//   npm run demo -- --check   starts it all, drives one look-up in headless Chromium, exits 0
//                             when the Results view shows the answer (the demo's own test)
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { launchBrowser, startCodeServer } from './code-server.mjs';
import { startDemoFixtures, WORKSPACE } from './fixtures';

const root = path.resolve(__dirname, '..', '..');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  version: string;
};
const vsix = path.join(root, `hostlens-${version}.vsix`);
const CHECK_TIMEOUT_MS = 90_000;

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  if (!existsSync(vsix)) throw new Error(`${vsix} is missing: npm run demo packages it first`);
  const fixtures = await startDemoFixtures();
  const server = await startCodeServer({
    vsix,
    env: fixtures.env,
    extraSettings: {
      'hostlens.dns.server': fixtures.nameserver,
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
    },
  }).catch(async (err: unknown) => {
    await fixtures.close();
    throw err;
  });
  const stop = async () => {
    await server.stop();
    await fixtures.close();
  };
  const url = `${server.url}/?folder=${encodeURIComponent(WORKSPACE)}`;
  if (check) {
    try {
      await lookUpOnce(server.root, url);
      console.log('demo check: the Results view shows example.test from the loopback nameserver');
      return 0;
    } finally {
      await stop();
    }
  }
  console.log(`HostLens demo: open ${url}
  nameserver ${fixtures.nameserver} serves example.test, mail.test and their reverse zones
  (hover names in example.test.zone, or run "HostLens: Look Up DNS Records…" from F1);
  WHOIS answers for hostlens-example.com; Preview Link… works on ${fixtures.site.url('/card')}
Ctrl+C stops the demo.`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await stop();
  return 0;
}

/** What a visitor does first: the HostLens view, then Look Up DNS Records for example.test. */
async function lookUpOnce(profileRoot: string, url: string): Promise<void> {
  const browser = await launchBrowser(profileRoot);
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    page.setDefaultTimeout(CHECK_TIMEOUT_MS);
    await page.goto(url);
    await page.waitForSelector('.monaco-workbench .part.activitybar');
    // the workbench settles (extensions registered) before the palette knows every command
    await page.waitForTimeout(2500);
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill('>HostLens: Look Up DNS Records');
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'Look Up DNS Records' })
      .first()
      .waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget', { hasText: 'Hostname or IP address' }).waitFor();
    await input.fill('example.test');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.monaco-list-row[aria-label*="example.test"]');
    await page.locator('.monaco-list-row', { hasText: '192.0.2.10' }).first().waitFor();
  } finally {
    await browser.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
