// npm run screenshots: installs the packaged .vsix into the harness's VS Code and drives it as
// a person would (activity bar, command palette, hovers), writing PNGs to screenshots/.
// The look-ups answer from loopback fixture servers, never the internet.
import { mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, startCodeServer } from './code-server.mjs';
import { loadZoneFile, startDnsServer } from '../support/dns-server';

const root = path.resolve(__dirname, '..', '..');
const outDir = path.join(root, 'screenshots');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  version: string;
};
const vsix = path.join(root, `hostlens-${version}.vsix`);
const workspace = path.join(root, 'test', 'fixtures', 'workspace');

type Shot = (page: Page) => Promise<void>;

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const zones = path.join(root, 'test', 'fixtures', 'zones');
  const dns = await startDnsServer({
    records: [
      ...loadZoneFile(path.join(zones, 'example.test.zone')),
      ...loadZoneFile(path.join(zones, '2.0.192.in-addr.arpa.zone')),
    ],
  });
  const server = await startCodeServer({
    vsix,
    extraSettings: {
      'hostlens.dns.server': dns.address,
      'workbench.colorTheme': process.env.HOSTLENS_THEME ?? 'Default Dark Modern',
    },
  });
  const browser = await launchBrowser(server.root);
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
    await page.waitForSelector('.monaco-workbench .part.activitybar', { timeout: 60000 });
    await page.waitForTimeout(2500);
    const shots: Array<[string, Shot]> = [
      ['01-welcome', showWelcome],
      ['02-dns-tree', lookUpFromPalette],
      ['03-zone-hover', hoverInZoneFile],
    ];
    for (const [name, shot] of shots) {
      await shot(page);
      const file = path.join(outDir, `${name}.png`);
      await page.screenshot({ path: file });
      console.log(`wrote ${path.relative(root, file)}`);
    }
  } finally {
    await browser.close();
    await server.stop();
    await dns.close();
  }
}

async function showWelcome(page: Page): Promise<void> {
  await page
    .locator('.activitybar a[aria-label^="HostLens"], .activitybar li[aria-label^="HostLens"]')
    .first()
    .click();
  await page.waitForSelector('.welcome-view-content', { timeout: 20000 });
  await page.waitForTimeout(800);
}

async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  await page.waitForTimeout(600);
  await page.keyboard.press('Enter');
}

async function lookUpFromPalette(page: Page): Promise<void> {
  await runCommand(page, 'HostLens: Look Up DNS Records');
  const input = page.locator('.quick-input-widget input');
  await page.waitForTimeout(500);
  await input.fill('example.test');
  await page.keyboard.press('Enter');
  await page.waitForTimeout(500);
  await page.keyboard.press('Enter'); // every type
  await page.waitForTimeout(500);
  await page.keyboard.press('Enter'); // the configured nameserver
  await page.waitForSelector('.monaco-list-row[aria-label*="example.test"]', { timeout: 20000 });
  await page.waitForTimeout(1500);
}

async function hoverInZoneFile(page: Page): Promise<void> {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill('example.test.zone');
  await page.waitForTimeout(800);
  await page.keyboard.press('Enter');
  const target = page.locator('.view-line span', { hasText: /^mail$/ }).first();
  await target.waitFor({ state: 'visible', timeout: 20000 });
  await page.waitForTimeout(1000);
  await target.hover();
  await page.waitForSelector('.monaco-hover-content', { timeout: 20000 });
  await page.waitForTimeout(1500);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
