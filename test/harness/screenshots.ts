// npm run screenshots: installs the packaged .vsix into the harness's VS Code and drives it as
// a person would (activity bar, command palette, hovers), writing PNGs to screenshots/.
// The look-ups answer from loopback fixture servers, never the internet.
import { mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, startCodeServer } from './code-server.mjs';
import { startServer } from '../../src/server';
import { EmbeddedServices } from '../../src/services/embedded';
import { startDemoFixtures, WORKSPACE } from './fixtures';
import { makeTestPki } from '../support/tls-pki';
import { serveHttpsPage, serveTls } from '../support/tls-server';
import { startDnsServer } from '../support/dns-server';
import { serveZoneTls, ZONE_TLS_PKI, zoneTlsRecords } from '../support/zone-tls';

const root = path.resolve(__dirname, '..', '..');
const outDir = path.join(root, 'screenshots');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  version: string;
};
const vsix = path.join(root, `hostlens-${version}.vsix`);
const workspace = WORKSPACE;

/** Drives the workbench; returns a region when the shot is a close-up. */
type Shot = (page: Page) => Promise<Clip | void>;
type Clip = { x: number; y: number; width: number; height: number };
const SHOT_TOKEN = 'screenshot-token-0123456789abcdef';
/** The hover-TLS shot's nameserver and the address its names have (port 53 and 443 there). */
const TLS_HOVER_NAMESERVER = '127.53.0.2';
const TLS_HOVER_ADDRESS = '127.44.0.1';

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  // The demo's loopback world: DNS for the workspace's zones, RDAP for WHOIS, a web site.
  const fixtures = await startDemoFixtures();
  const { site, env } = fixtures;
  const nameserver = fixtures.nameserver;
  // The hosted service the remote-backend shots talk to: `hostlens serve` on loopback.
  const hosted = await startServer({
    services: new EmbeddedServices(),
    tokens: [SHOT_TOKEN],
    port: 0,
  });
  try {
    await session(env, nameserver, process.env.HOSTLENS_THEME ?? 'Default Dark Modern', [
      ['01-welcome', showWelcome],
      ['18-walkthrough', (p) => openWalkthrough(p)],
      ['19-walkthrough-backend', (p) => openWalkthrough(p, 'Choose a backend')],
      ['02-dns-tree', lookUpFromPalette],
      ['03-zone-hover', hoverInZoneFile],
      ['04-whois-dark', (p) => whoisPanel(p, 'hostlens-example.com')],
      ['07-preview', (p) => webPanel(p, 'Preview Link', site.url('/card'), 'preview')],
      ['08-preview-problems', (p) => webPanel(p, 'Preview Link', site.url('/hostile'), 'preview')],
      ['09-redirects', (p) => webPanel(p, 'Trace Redirects', site.url('/go'), 'redirects')],
      ['10-redirect-loop', (p) => webPanel(p, 'Trace Redirects', site.url('/loop/a'), 'redirects')],
      ['11-icons', (p) => webPanel(p, 'Show Icons', site.url('/brand'), 'icons')],
      ['12-mail-tree', mailTree],
      ['13-status-embedded', statusBar],
    ]);
    // The zone-file features on the workspace's shop.test.zone, and Compare Zone with Live DNS
    // of example.test.zone against the fixture DNS server (which serves another version).
    await session(env, nameserver, 'Default Dark Modern', [
      ['20-zone-diagnostics', zoneDiagnostics],
      ['21-zone-outline', zoneOutline],
      ['22-zone-definition', zoneDefinition],
      ['23-zone-serial-lens', zoneSerialLens],
      ['24-zone-compare', (p) => zoneCompare(p, nameserver)],
      // Nothing listens there: the compare says so and the drift of shot 24 stays.
      ['25-zone-compare-unreachable', zoneCompareUnreachable],
      ['26-zone-type-fix', (p) => zoneQuickFix(p, 16)],
      ['27-zone-final-dot-fix', (p) => zoneQuickFix(p, 17)],
      ['28-look-up-checks-host', lookUpCheckingHost],
      ['29-choose-backend-check', (p) => chooseBackendCheck(p, site.url('/'))],
    ]);
    // The workspace's links, mail domains and zone records checked through the fixture DNS.
    await session(env, nameserver, 'Default Dark Modern', [['30-link-check', linkCheck]]);
    // A loopback TLS server with a chain of a test PKI whose root the user's settings name
    // (hostlens.tls.caFiles), and the mail tree's transport part.
    const pki = makeTestPki({ hostile: false });
    const tlsServer = await serveTls(pki.loopback);
    // An https page behind an expired certificate for another name: its preview fails, and the
    // error view's TLS section says why.
    const expiredSite = await serveHttpsPage(
      pki.cases.expired,
      '<html><head><title>Expired</title></head></html>',
    );
    try {
      await session(
        env,
        nameserver,
        'Default Dark Modern',
        [
          ['31-tls-certificate', (p) => certificateTree(p, `127.0.0.1:${tlsServer.port}`)],
          ['32-mail-transport', mailTransport],
          [
            '33-preview-tls-error',
            (p) => webPanel(p, 'Preview Link', `https://127.0.0.1:${expiredSite.port}/`, 'preview'),
          ],
        ],
        { 'hostlens.tls.caFiles': [pki.caFile] },
      );
    } finally {
      await tlsServer.close();
      await expiredSite.close();
      pki.close();
    }
    // The hover's TLS line: a name of a second loopback nameserver (port 53 of its own address)
    // whose A record points at port 443 of another loopback address, where a TLS listener
    // serves each name's certificate from a test PKI the settings trust (one expires soon).
    // Port 443, like 53, needs root: without it there is no such shot.
    const zonePki = makeTestPki(ZONE_TLS_PKI);
    const zoneTls = await serveZoneTls(zonePki, { host: TLS_HOVER_ADDRESS, port: 443 }).catch(
      () => undefined,
    );
    const zoneDns = await startDnsServer({
      records: zoneTlsRecords(TLS_HOVER_ADDRESS),
      // Authoritative for zone.test alone, as Knot or NSD would be: it refuses other names.
      behaviour: ({ name }) => (/(?:^|\.)zone\.test\.?$/i.test(name) ? undefined : 'refused'),
      host: TLS_HOVER_NAMESERVER,
      port: 53,
    }).catch(() => undefined);
    try {
      if (zoneTls && zoneDns) {
        await session(env, zoneDns.host, 'Default Dark Modern', [['34-hover-tls', hoverTlsLine]], {
          'hostlens.tls.caFiles': [zonePki.caFile],
        });
      } else console.log('34-hover-tls: not taken (ports 443 and 53 need root)');
    } finally {
      await zoneTls?.close();
      await zoneDns?.close();
      zonePki.close();
    }
    // The remote backend: first with no token, then with one typed into the password box.
    await session(
      env,
      nameserver,
      'Default Dark Modern',
      [
        ['14-status-remote-no-token', statusBar],
        ['15-status-remote', remoteLookUp],
      ],
      {
        'hostlens.backend': 'remote',
        'hostlens.domainApiBaseUrl': `${hosted.url}/domain`,
        'hostlens.metaApiBaseUrl': `${hosted.url}/meta`,
      },
    );
    // A second VS Code started with the light theme: the same panel, natively light.
    await session(env, nameserver, 'Default Light Modern', [
      ['05-whois-light', (p) => whoisPanel(p, 'hostlens-example.com')],
      ['06-whois-not-found-light', (p) => whoisPanel(p, 'unregistered-name.com')],
    ]);
    // And high contrast, where the panel must still draw its borders and chips legibly.
    await session(env, nameserver, 'Default High Contrast', [
      ['16-whois-high-contrast', (p) => whoisPanel(p, 'hostlens-example.com')],
      [
        '17-redirects-high-contrast',
        (p) => webPanel(p, 'Trace Redirects', site.url('/go'), 'redirects'),
      ],
    ]);
  } finally {
    await Promise.all([fixtures.close(), hosted.close()]);
  }
}

/** One code-server with one colour theme, taking the given shots in order. */
async function session(
  env: Record<string, string>,
  dnsServer: string,
  theme: string,
  shots: Array<[string, Shot]>,
  settings: Record<string, unknown> = {},
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
      ...settings,
    },
  });
  const browser = await launchBrowser(server.root);
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
    await page.waitForSelector('.monaco-workbench .part.activitybar', { timeout: 60000 });
    await page.waitForTimeout(2500);
    for (const [name, shot] of wanted) {
      const clip = await shot(page).catch(async (err: unknown) => {
        // What the window showed when a shot failed, to see why.
        await page.screenshot({ path: path.join(outDir, `${name}.failed.png`) });
        throw err;
      });
      const file = path.join(outDir, `${name}.png`);
      await page.screenshot({ path: file, ...(clip ? { clip } : {}) });
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
  // away from the activity bar, whose tooltip would cover the welcome text
  await page.mouse.move(900, 600, { steps: 5 });
  await page.waitForTimeout(1500);
}

/** The tour, opened from the link in the empty Results view as a newcomer would. */
async function openWalkthrough(page: Page, step = 'Check a mail set-up'): Promise<void> {
  // Clicking the activity bar icon again would close the view the welcome shot left open.
  if (!(await page.locator('.welcome-view-content').first().isVisible())) await showWelcome(page);
  await page.locator('.welcome-view-content a', { hasText: 'Take the tour' }).first().click();
  await page.waitForSelector('.gettingStartedSlideDetails', { timeout: 20000 });
  await page.locator('.getting-started-step', { hasText: step }).first().click();
  await page.waitForTimeout(2000);
}

async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  // Enter only once the palette lists the command (under load the list lags the text).
  await page
    .locator('.quick-input-list .monaco-list-row.focused', { hasText: title })
    .first()
    .waitFor({ state: 'visible', timeout: 20000 });
  await page.keyboard.press('Enter');
}

async function lookUpFromPalette(page: Page): Promise<void> {
  await runCommand(page, 'HostLens: Look Up DNS Records');
  const input = page.locator('.quick-input-widget input');
  await page.waitForTimeout(500);
  await input.fill('example.test');
  await page.keyboard.press('Enter'); // every type, on the configured nameserver
  await page.waitForSelector('.monaco-list-row[aria-label*="example.test"]', { timeout: 20000 });
  await page.waitForTimeout(1500);
  await noTestPort(page);
}

/**
 * The walkthrough's pictures are cut from these shots: they must show the nameserver as a user
 * writes one, not a fixture's random port (see NAMESERVER_HOST in fixtures.ts).
 */
async function noTestPort(page: Page): Promise<void> {
  const text = await page.locator('.monaco-workbench').first().innerText();
  const port = /\b127\.\d+\.\d+\.\d+:\d{2,5}\b/.exec(text);
  if (port)
    throw new Error(`the shot shows the test port ${port[0]}: run as root so DNS gets port 53`);
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
  await noTestPort(page);
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

async function mailTree(page: Page): Promise<void> {
  await closeEditors(page);
  await runCommand(page, 'HostLens: Check Mail Set-up');
  const input = page.locator('.quick-input-widget input');
  await page.waitForTimeout(500);
  await input.fill('mail.test');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.monaco-list-row[aria-label*="look-ups"]', { timeout: 20000 });
  await widenSideBar(page, 560);
  // Collapse the DNS host above (when an earlier shot looked it up) to give the mail tree room.
  const dnsHost = page.locator('.monaco-list-row[aria-label^="example.test"]').first();
  if ((await dnsHost.count()) > 0) {
    await dnsHost.click();
    await page.keyboard.press('ArrowLeft');
  }
  // A problem too long for the side bar: its opening words, and the whole text on expand.
  await page
    .locator('.monaco-list-row', { hasText: 'gone.mail.test has no SPF record' })
    .first()
    .click();
  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(300);
  for (const name of ['_spf.mail.test', '_spf2.mail.test', '_spf3.mail.test']) {
    await page.locator('.monaco-list-row', { hasText: name }).first().click();
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(300);
  }
  await page.mouse.move(700, 400);
  await page.waitForTimeout(1000);
  await noTestPort(page);
}

async function openFile(page: Page, name: string): Promise<void> {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(name);
  // The focused row, not any row: until the filter applies, recent files lead the list.
  await page
    .locator('.quick-input-list .monaco-list-row.focused', { hasText: name })
    .first()
    .waitFor({ timeout: 20000 });
  await page.keyboard.press('Enter');
  await page
    .locator('.tabs-container .tab', { hasText: name })
    .first()
    .waitFor({ state: 'visible', timeout: 20000 });
  await page.waitForTimeout(1500);
}

async function goToLine(page: Page, line: number): Promise<void> {
  await page.keyboard.press('Control+G');
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
  await page.waitForTimeout(500);
}

/** Squiggles on the problems, and the quick fix offered for the duplicate record. */
async function zoneDiagnostics(page: Page): Promise<void> {
  await closeEditors(page);
  await openFile(page, 'shop.test.zone');
  await page.locator('.squiggly-warning').first().waitFor({ state: 'attached', timeout: 20000 });
  await goToLine(page, 14);
  await page.keyboard.press('Control+.');
  await page.waitForSelector('.action-widget', { timeout: 20000 });
  await page.waitForTimeout(1200);
}

async function zoneOutline(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await openFile(page, 'shop.test.zone');
  // "Explorer: Focus on Outline View" in the harness's VS Code ("Outline: ..." in others)
  await runCommand(page, 'Focus on Outline View');
  await page.waitForSelector('.outline-pane .monaco-list-row', { timeout: 20000 });
  await page.waitForTimeout(1500);
}

/** Peek Definition on the MX record's target: the CNAME that defines mailhost. */
async function zoneDefinition(page: Page): Promise<void> {
  await openFile(page, 'shop.test.zone');
  await goToLine(page, 7);
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await runCommand(page, 'Peek Definition');
  await page.waitForSelector('.peekview-widget', { timeout: 20000 });
  await page.waitForTimeout(1500);
}

async function zoneSerialLens(page: Page): Promise<Clip> {
  await page.keyboard.press('Escape');
  await openFile(page, 'shop.test.zone');
  const lens = page.locator('.contentWidgets .codelens-decoration', { hasText: 'serial' }).first();
  await lens.waitFor({ state: 'visible', timeout: 20000 });
  await lens.locator('a').last().hover();
  await page.waitForTimeout(1000);
  const box = await page.locator('.part.editor').first().boundingBox();
  if (!box) throw new Error('no editor part');
  return { x: box.x, y: box.y, width: Math.min(box.width, 900), height: 220 };
}

/** The drift between the workspace's example.test.zone and what the fixture server serves. */
async function zoneCompare(page: Page, server: string): Promise<void> {
  await closeEditors(page);
  await openFile(page, 'example.test.zone');
  await runCommand(page, 'HostLens: Compare Zone with Live DNS');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await page.waitForTimeout(500);
  await input.fill(server);
  await page.keyboard.press('Enter');
  await page.waitForSelector('.monaco-list-row[aria-label^="Zone drift"]', { timeout: 30000 });
  await widenSideBar(page, 640);
  await page.mouse.move(900, 500);
  await page.waitForTimeout(1500);
}

/** Check Links in Workspace: the summary node in the results view and the Problems panel. */
async function linkCheck(page: Page): Promise<void> {
  await closeEditors(page);
  await page
    .locator('.activitybar a[aria-label^="HostLens"], .activitybar li[aria-label^="HostLens"]')
    .first()
    .click();
  await openFile(page, 'hosts.md');
  await runCommand(page, 'HostLens: Check Links in Workspace');
  // www.example.test is a TEST-NET address: its link waits out the connect timeout.
  await page
    .locator('.monaco-list-row', { hasText: 'Link check' })
    .first()
    .waitFor({ state: 'visible', timeout: 90000 });
  await widenSideBar(page, 520);
  await page.keyboard.press('Control+Shift+M');
  await page
    .locator('.markers-panel .monaco-list-row', { hasText: 'HostLens links' })
    .first()
    .waitFor({ state: 'visible', timeout: 20000 });
  await page.waitForTimeout(1000);
  await page.mouse.move(900, 300);
  await page.waitForTimeout(1500);
}

/** The quick fixes offered on a line of shop.test.zone (1-based). */
async function zoneQuickFix(page: Page, line: number): Promise<void> {
  await page.keyboard.press('Escape');
  await closeEditors(page);
  await openFile(page, 'shop.test.zone');
  await page.locator('.squiggly-warning, .squiggly-error').first().waitFor({
    state: 'attached',
    timeout: 20000,
  });
  await goToLine(page, line);
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Control+.');
  await page.waitForSelector('.action-widget', { timeout: 20000 });
  await page.waitForTimeout(1200);
}

/** The host box of Look Up DNS Records saying what is wrong as the name is typed. */
async function lookUpCheckingHost(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await runCommand(page, 'HostLens: Look Up DNS Records');
  const input = page.locator('.quick-input-widget input');
  await page.waitForTimeout(500);
  await input.fill('');
  await page.keyboard.type('shop..test', { delay: 40 });
  await page.waitForTimeout(1000);
}

/** Choose Backend with an address where no HostLens service listens: checked, not saved. */
async function chooseBackendCheck(page: Page, wrongAddress: string): Promise<void> {
  await page.keyboard.press('Escape');
  await runCommand(page, 'HostLens: Choose Backend');
  const input = page.locator('.quick-input-widget input');
  await page.waitForTimeout(500);
  await input.fill('Hosted service');
  await page.keyboard.press('Enter');
  await page.waitForTimeout(500);
  await input.fill(wrongAddress.replace(/\/$/, ''));
  await page.keyboard.press('Enter');
  await page.waitForTimeout(500);
  await input.fill(SHOT_TOKEN); // the token box: none is stored yet
  await page.keyboard.press('Enter');
  await page
    .locator('.quick-input-widget', { hasText: 'Nothing was saved' })
    .first()
    .waitFor({ state: 'visible', timeout: 20000 });
  await page.waitForTimeout(800);
}

async function zoneCompareUnreachable(page: Page): Promise<void> {
  await runCommand(page, 'HostLens: Compare Zone with Live DNS');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await page.waitForTimeout(500);
  await input.fill('127.53.0.2');
  await page.keyboard.press('Enter');
  await page
    .locator('.notification-toast', { hasText: 'no nameserver answered' })
    .waitFor({ state: 'visible', timeout: 30000 });
  await page.mouse.move(900, 500);
  await page.waitForTimeout(1000);
}

/** A hover on a name whose certificate expires soon: the TLS line under its addresses. */
async function hoverTlsLine(page: Page): Promise<void> {
  // A zone file starts HostLens; the hover is then on a new, untitled file (every language).
  await openFile(page, 'shop.test.zone');
  const input = page.locator('.quick-input-widget input');
  // Not runCommand: the palette puts "Compare New Untitled Text Files" first.
  await page.keyboard.press('F1');
  await input.fill('>File: New Untitled Text File');
  const row = page
    .locator('.quick-input-list .monaco-list-row', { hasText: 'New Untitled Text File' })
    .filter({ hasNotText: 'Compare' })
    .first();
  await row.waitFor({ state: 'visible', timeout: 20000 });
  await row.click();
  await page.waitForTimeout(800);
  await page.keyboard.type('soon.zone.test');
  const target = page.locator('.view-line span', { hasText: /^soon\.zone\.test$/ }).first();
  await target.waitFor({ state: 'visible', timeout: 20000 });
  await page.waitForTimeout(1000);
  await target.hover();
  await page.locator('.monaco-hover-content', { hasText: 'TLS' }).first().waitFor({
    state: 'visible',
    timeout: 30000,
  });
  await page.waitForTimeout(1500);
}

/** Show TLS Certificate on HOST:PORT, the chain and the leaf's details expanded. */
async function certificateTree(page: Page, target: string): Promise<void> {
  await closeEditors(page);
  await runCommand(page, 'HostLens: Show TLS Certificate');
  const input = page.locator('.quick-input-widget input');
  await page.waitForTimeout(500);
  await input.fill(target);
  await page.keyboard.press('Enter');
  const node = page.locator('.monaco-list-row', { hasText: 'Certificate (port' }).first();
  await node.waitFor({ state: 'visible', timeout: 30000 });
  await widenSideBar(page, 620);
  await node.click();
  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(300);
  await page.locator('.monaco-list-row', { hasText: 'CN=loopback' }).first().click();
  await page.keyboard.press('ArrowRight');
  await page.mouse.move(900, 500);
  await page.waitForTimeout(1000);
}

/** The mail set-up of mail.test with its Transport and MTA-STS policy nodes open. */
async function mailTransport(page: Page): Promise<void> {
  await runCommand(page, 'HostLens: Check Mail Set-up');
  const input = page.locator('.quick-input-widget input');
  await page.waitForTimeout(500);
  await input.fill('mail.test');
  await page.keyboard.press('Enter');
  const transport = page.locator('.monaco-list-row', { hasText: 'Transport' }).first();
  await transport.waitFor({ state: 'visible', timeout: 40000 });
  for (const name of ['SPF', 'DKIM']) {
    const row = page.locator('.monaco-list-row', { hasText: name }).first();
    if ((await row.getAttribute('aria-expanded')) === 'true') {
      await row.click();
      await page.keyboard.press('ArrowLeft');
    }
  }
  await page.locator('.monaco-list-row', { hasText: 'MTA-STS policy' }).first().click();
  await page.keyboard.press('ArrowRight');
  await page.mouse.move(900, 500);
  await page.waitForTimeout(1000);
  await noTestPort(page);
}

/** Drags the side bar's edge so long tree labels fit. */
async function widenSideBar(page: Page, width: number): Promise<void> {
  const sash = page.locator('.part.sidebar').first();
  const box = await sash.boundingBox();
  if (!box) return;
  const edge = box.x + box.width + 1;
  await page.mouse.move(edge, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + width, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await page.waitForTimeout(300);
}

/** The status bar's right end, where the backend item sits. */
async function statusBar(page: Page): Promise<Clip> {
  const item = page.locator('.statusbar-item', { hasText: 'HostLens' }).first();
  await item.waitFor({ state: 'visible', timeout: 20000 });
  await item.hover();
  await page.waitForTimeout(1200);
  const viewport = page.viewportSize() ?? { width: 1400, height: 860 };
  return { x: viewport.width - 700, y: viewport.height - 140, width: 700, height: 140 };
}

async function remoteLookUp(page: Page): Promise<void> {
  await runCommand(page, 'HostLens: Set API Token');
  const input = page.locator('.quick-input-widget input');
  await page.waitForTimeout(500);
  await input.fill(SHOT_TOKEN);
  await page.keyboard.press('Enter');
  await page
    .locator('.statusbar-item', { hasText: 'HostLens: Remote' })
    .first()
    .waitFor({ timeout: 20000 });
  await lookUpFromPalette(page);
  await page.mouse.move(700, 400);
  await page.waitForTimeout(800);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
