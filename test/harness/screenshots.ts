// npm run screenshots: installs the packaged .vsix into the harness's VS Code and drives it as
// a person would (activity bar, command palette, hovers), writing PNGs to screenshots/.
// The look-ups answer from loopback fixture servers, never the internet.
import { mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, startCodeServer } from './code-server.mjs';
import { loadZoneFile, startDnsServer } from '../support/dns-server';
import { startPanelSite, startRdapSite } from '../support/panel-site';

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
  const rdap = await startRdapSite();
  const site = await startPanelSite();
  // The extension host inherits these: WHOIS answers from the loopback RDAP fixture.
  const env = { HOSTLENS_RDAP_BOOTSTRAP: rdap.bootstrap, HOSTLENS_WHOIS_SERVER: '127.0.0.1:1' };
  try {
    await session(env, dns.address, process.env.HOSTLENS_THEME ?? 'Default Dark Modern', [
      ['01-welcome', showWelcome],
      ['02-dns-tree', lookUpFromPalette],
      ['03-zone-hover', hoverInZoneFile],
      ['04-whois-dark', (p) => whoisPanel(p, 'hostlens-example.com')],
      ['07-preview', (p) => webPanel(p, 'Preview Link', site.url('/card'), 'preview')],
      ['08-preview-problems', (p) => webPanel(p, 'Preview Link', site.url('/hostile'), 'preview')],
      ['09-redirects', (p) => webPanel(p, 'Trace Redirects', site.url('/go'), 'redirects')],
      ['10-redirect-loop', (p) => webPanel(p, 'Trace Redirects', site.url('/loop/a'), 'redirects')],
      ['11-icons', (p) => webPanel(p, 'Show Icons', site.url('/brand'), 'icons')],
    ]);
    // A second VS Code started with the light theme: the same panel, natively light.
    await session(env, dns.address, 'Default Light Modern', [
      ['05-whois-light', (p) => whoisPanel(p, 'hostlens-example.com')],
      ['06-whois-not-found-light', (p) => whoisPanel(p, 'unregistered-name.com')],
    ]);
  } finally {
    await dns.close();
    await Promise.all([rdap.close(), site.close()]);
  }
}

/** One code-server with one colour theme, taking the given shots in order. */
async function session(
  env: Record<string, string>,
  dnsServer: string,
  theme: string,
  shots: Array<[string, Shot]>,
): Promise<void> {
  // HOSTLENS_SHOTS=whois,icons takes only the shots whose names contain one of the words.
  const only = process.env.HOSTLENS_SHOTS?.split(',').filter((w) => w !== '');
  const wanted = shots.filter(([name]) => !only || only.some((w) => name.includes(w)));
  if (wanted.length === 0) return;
  const server = await startCodeServer({
    vsix,
    env,
    extraSettings: {
      'hostlens.dns.server': dnsServer,
      'workbench.colorTheme': theme,
      // It would open empty (AI features are off) and only narrow the views.
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
    },
  });
  const browser = await launchBrowser(server.root);
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
    await page.waitForSelector('.monaco-workbench .part.activitybar', { timeout: 60000 });
    await page.waitForTimeout(2500);
    for (const [name, shot] of wanted) {
      await shot(page);
      const file = path.join(outDir, `${name}.png`);
      await page.screenshot({ path: file });
      console.log(`wrote ${path.relative(root, file)}`);
    }
  } finally {
    await browser.close();
    await server.stop();
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

/** The panel's content: two iframes deep (the webview host frame, then its active frame). */
function panelFrame(page: Page) {
  return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

async function closeEditors(page: Page): Promise<void> {
  await runCommand(page, 'View: Close All Editor Groups');
  await page.waitForTimeout(500);
}

async function whoisPanel(page: Page, host: string): Promise<void> {
  await closeEditors(page);
  await runCommand(page, 'HostLens: WHOIS');
  const input = page.locator('.quick-input-widget input');
  await page.waitForTimeout(500);
  await input.fill(host);
  await page.keyboard.press('Enter');
  await panelFrame(page)
    .locator('.view-whois:not(.status-loading)')
    .waitFor({ state: 'visible', timeout: 30000 });
  await page.waitForTimeout(1500);
}

async function webPanel(
  page: Page,
  title: string,
  url: string,
  kind: string,
  closeFirst = false,
): Promise<void> {
  if (closeFirst) await closeEditors(page);
  await runCommand(page, `HostLens: ${title}`);
  const input = page.locator('.quick-input-widget input');
  await page.waitForTimeout(500);
  await input.fill(url);
  await page.keyboard.press('Enter');
  await panelFrame(page)
    .locator(`.view-${kind}:not(.status-loading)`)
    .waitFor({ state: 'visible', timeout: 30000 });
  await page.waitForTimeout(1500);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
