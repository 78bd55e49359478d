// The HostLens panel in a real VS Code: each view opened through its command, answered by
// loopback fixtures, and checked on what the webview drew (it reports a text summary).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PanelOutcome } from '../../src/editor/panels/runView';
import type { RenderedSummary } from '../../src/protocol';
import {
  HOSTILE_TITLE,
  startPanelSite,
  startRdapSite,
  type PanelSite,
  type RdapSite,
} from '../support/panel-site';
import { startWebServer, type WebFixture } from '../support/web-server';
import { askProviders } from '../support/editor-requests';

async function open(command: string, arg: string): Promise<[PanelOutcome, RenderedSummary]> {
  const outcome = await vscode.commands.executeCommand<PanelOutcome>(command, arg);
  assert.ok(outcome, `${command} returned its outcome`);
  const rendered = await outcome.rendered();
  assert.ok(rendered, `${command}: the webview reported what it drew`);
  assert.equal(rendered.seq, outcome.view.seq);
  // Nothing the panel draws may load from the network or run page code.
  assert.equal(rendered.scripts, 0);
  assert.equal(rendered.handlers, 0);
  for (const src of rendered.images) assert.match(src, /^data:image\//);
  return [outcome, rendered];
}

describe('HostLens panel', function () {
  let rdap: RdapSite;
  let site: PanelSite;
  let web: WebFixture;
  const saved = {
    bootstrap: process.env.HOSTLENS_RDAP_BOOTSTRAP,
    whois: process.env.HOSTLENS_WHOIS_SERVER,
  };

  before(async () => {
    rdap = await startRdapSite();
    site = await startPanelSite();
    web = await startWebServer();
    // The extension host is this process: the engine reads these for every WHOIS look-up.
    process.env.HOSTLENS_RDAP_BOOTSTRAP = rdap.bootstrap;
    process.env.HOSTLENS_WHOIS_SERVER = '127.0.0.1:1';
    await vscode.extensions.getExtension('hostlens.hostlens')!.activate();
  });

  after(async () => {
    restore('HOSTLENS_RDAP_BOOTSTRAP', saved.bootstrap);
    restore('HOSTLENS_WHOIS_SERVER', saved.whois);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await Promise.all([rdap.close(), site.close(), web.close()]);
  });

  it('serves a strict CSP: nothing but data: images, scripts by nonce, styles from the extension', async () => {
    const [outcome] = await open('hostlens.whois', 'www.hostlens-example.com');
    const csp = /Content-Security-Policy" content="([^"]+)"/.exec(outcome.html)?.[1] ?? '';
    assert.match(
      csp,
      /^default-src 'none'; img-src data:; style-src [^;]+; script-src 'nonce-[A-Za-z0-9+/=]{24}'$/,
    );
    assert.doesNotMatch(outcome.html, /unsafe-inline|unsafe-eval/);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    const scripts = [...outcome.html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.equal(scripts.length, 1);
    assert.ok(scripts[0].includes(`nonce="${nonce}"`));
    assert.match(scripts[0], /src="[^"]+\/dist\/webview\.js"/);
  });

  it('shows WHOIS: registrar, dates with relative time, status meanings, name servers, DNSSEC, source', async () => {
    const [outcome, r] = await open('hostlens.whois', 'www.hostlens-example.com');
    assert.equal(outcome.view.status, 'ready');
    assert.match(r.text, /^hostlens-example\.com RDAP/);
    assert.match(r.text, /Loopback Registrar, Inc\./);
    assert.match(r.text, /IANA ID 9999/);
    assert.match(r.text, /Created \d{4}-\d\d-\d\d \d\d:\d\d UTC 3 years ago/);
    assert.match(r.text, /Updated \S+ \S+ UTC 40 days ago/);
    assert.match(r.text, /Expires \S+ \S+ UTC expires in 10 days/);
    assert.deepEqual(r.highlights, ['expires in 10 days']);
    assert.match(r.text, /clientTransferProhibited Locked against transfer to another registrar/);
    assert.match(r.text, /serverHold Taken out of DNS by the registry/);
    assert.match(r.text, /DNSSEC Signed/);
    assert.match(r.text, /Show raw reply/);
    // The raw reply is behind the toggle: its JSON is not on screen.
    assert.doesNotMatch(r.text, /objectClassName/);
    const links = r.links.filter((l) => l.command === 'hostlens.lookUpDnsRecords');
    assert.deepEqual(
      links.map((l) => l.arg),
      ['hostlens-example.com', 'ns1.example.net', 'ns2.example.net'],
    );
    assert.deepEqual(
      r.links.find((l) => l.url)?.url,
      'https://registrar.example/',
      'the registrar is linked',
    );
  });

  it('shows not found, rate limited and error states, never a blank panel', async () => {
    const [notFound, nf] = await open('hostlens.whois', 'unregistered-name.com');
    assert.equal(notFound.view.status, 'not_found');
    assert.match(nf.text, /unregistered-name\.com is not registered/);
    assert.match(nf.text, /Try again/);

    const [limited, rl] = await open('hostlens.whois', 'limited.com');
    assert.equal(limited.view.status, 'rate_limited');
    assert.match(rl.text, /rate limiting/);
    assert.match(rl.text, /wait 30 seconds/);

    // .de has no RDAP service in the fixture bootstrap: port 43, where nothing listens.
    const [failed, fr] = await open('hostlens.whois', 'example.de');
    assert.equal(failed.view.status, 'error');
    assert.match(fr.text, /Could not get WHOIS/);
    assert.match(fr.text, /upstream_/);
  });

  it('aborts a look-up that a newer one replaces', async () => {
    const first = vscode.commands.executeCommand<PanelOutcome>('hostlens.whois', 'hang.com');
    await new Promise((r) => setTimeout(r, 300));
    const [second] = await open('hostlens.whois', 'hostlens-example.com');
    const stale = await first;
    assert.equal(stale.view.error?.code, 'cancelled');
    assert.equal(second.view.status, 'ready');
    assert.ok(second.view.seq > stale.view.seq);
  });

  it('draws the link preview card with checks and tags', async () => {
    const [outcome, r] = await open('hostlens.previewLink', site.url('/card'));
    assert.equal(outcome.view.status, 'ready');
    assert.match(r.text, /HostLens Blog Faster DNS look-ups from your editor Hover a hostname/);
    assert.match(r.text, /1200×630 png/);
    assert.match(r.text, /✓ Image is 1200×630\./);
    assert.match(r.text, /og:site_name HostLens Blog/);
    assert.match(r.text, /twitter:card summary_large_image/);
    assert.match(r.text, /og:image:width 1200/);
    // The card image and the favicon, both as data: URIs fetched by the host.
    assert.equal(r.images.length, 2);
    assert.deepEqual(r.highlights, []);
  });

  it('puts hostile page text in as text and flags a small image', async () => {
    const [, r] = await open('hostlens.previewLink', site.url('/hostile'));
    assert.ok(r.text.includes(HOSTILE_TITLE), 'the title is shown literally');
    assert.ok(r.text.includes('<b onmouseover="x()">bold</b> text'));
    assert.ok(r.highlights.some((h) => /Image is 100×100; under 200×200/.test(h)));
    assert.ok(r.highlights.some((h) => /No twitter:card/.test(h)));
  });

  it('shows an unreachable URL as an error state', async () => {
    const [outcome, r] = await open('hostlens.previewLink', 'http://127.0.0.1:1/');
    assert.equal(outcome.view.status, 'error');
    assert.match(r.text, /Could not get the link preview/);
  });

  it('draws the redirect timeline with one chip per status and the final status', async () => {
    const [outcome, r] = await open('hostlens.traceRedirects', site.url('/go'));
    assert.equal(outcome.view.status, 'ready');
    assert.match(r.text, /5 redirects, 2 permanent/);
    const chips = [...r.text.matchAll(/\b(30\d) [A-Z][a-z]+(?: [A-Z][a-z]+)?/g)].map((m) => m[1]);
    assert.deepEqual(chips, ['301', '302', '307', '308', '303']);
    assert.match(r.text, /Final 200 OK http:\/\/127\.0\.0\.1:\d+\/card/);

    const [, loop] = await open('hostlens.traceRedirects', site.url('/loop/a'));
    assert.match(loop.text, /Redirect loop/);
    assert.ok(loop.highlights.some((h) => /Redirect loop/.test(h)));
  });

  it('shows the icon gallery with rel and real sizes, images as data: URIs', async () => {
    const [outcome, r] = await open('hostlens.showIcons', web.url('/icons/all'));
    assert.equal(outcome.view.status, 'ready');
    assert.ok(outcome.view.kind === 'icons' && outcome.view.data);
    const icons = outcome.view.data.icons;
    assert.ok(icons.length >= 8, `${icons.length} icons`);
    assert.match(r.text, /manifest best 512×512 png/);
    assert.match(r.text, /apple-touch-icon 180×180 png/);
    assert.match(r.text, /shortcut icon 48×48 ico/);
    assert.match(r.text, /mask-icon 16×16 svg/);
    // A declared icon that answers 404 is listed with its status, not silently left out.
    const missing = icons.find((i) => i.url.endsWith('/img/missing.png'));
    assert.deepEqual([missing?.width, missing?.height, missing?.status], [0, 0, 404]);
    assert.match(r.text, /HTTP 404: not served\s*icon\s*0×0 HTTP 404/);
    // Every icon that decoded was handed over as an image.
    const shown = Object.values(outcome.view.images).filter((s) => 'dataUri' in s).length;
    assert.equal(r.images.length, shown);
    assert.ok(shown >= 8);
  });

  it('offers Preview, Redirects and Icons on a URL hover, without fetching', async () => {
    const before = site.requests().length;
    const document = await vscode.workspace.openTextDocument({
      language: 'markdown',
      content: `See ${site.url('/card')} for more.`,
    });
    const hovers = await askProviders<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      document.uri,
      new vscode.Position(0, 12),
    );
    const text = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n');
    assert.equal(site.requests().length, before, 'the hover fetched nothing');
    for (const command of ['previewLink', 'traceRedirects', 'showIcons']) {
      assert.match(text, new RegExp(`command:hostlens\\.${command}\\?`));
    }
  });
});

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
