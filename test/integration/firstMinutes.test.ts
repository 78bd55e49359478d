// Issue 26, the editor's first minutes: a quiet DNSSEC line against an authoritative server
// (13), whole problem messages in the Results tree (14), Look Up DNS Records checked as the
// user types and done in one step (15), Choose Backend with one checked address (17), and the
// small things of 18 (welcome text, command titles, zone-file typos).
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostLensApi } from '../../src/editor/extension';
import type { DnsLookupEntry } from '../../src/editor/views/history';
import type { ResultNode } from '../../src/editor/views/nodes/base';
import { startServer, type RunningServer } from '../../src/server';
import { EmbeddedServices } from '../../src/services/embedded';
import { loadZoneFile, startDnsServer, type DnsFixture } from '../support/dns-server';
import { askProviders } from '../support/editor-requests';

const root = process.env.HOSTLENS_PROJECT_ROOT ?? path.resolve(__dirname, '..', '..', '..');
const zones = path.join(root, 'test', 'fixtures', 'zones');
const config = () => vscode.workspace.getConfiguration('hostlens');

function labelOf(node: ResultNode): string {
  const l = node.toTreeItem().label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

function walk(nodes: ResultNode[], depth = 0, out: ResultNode[] = []): ResultNode[] {
  for (const n of nodes) {
    out.push(n);
    if (depth < 8) walk(n.children(), depth + 1, out);
  }
  return out;
}

async function hoverText(uri: vscode.Uri, position: vscode.Position): Promise<string> {
  const hovers = await askProviders<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
    .join('\n');
}

/** Replaces a `vscode.window` function for one test; the extension shares this API object. */
function stub<K extends keyof typeof vscode.window>(
  name: K,
  replacement: (typeof vscode.window)[K],
): () => void {
  const window = vscode.window as unknown as Record<string, unknown>;
  const original = window[name];
  window[name] = replacement;
  return () => (window[name] = original);
}

/** An InputBox the test types into: what the command sets on it, and its events. */
class FakeInputBox {
  title?: string;
  prompt?: string;
  placeholder?: string;
  value = '';
  ignoreFocusOut = false;
  buttons: readonly vscode.QuickInputButton[] = [];
  validationMessage: string | vscode.InputBoxValidationMessage | undefined;
  shown = false;
  readonly changed = new vscode.EventEmitter<string>();
  readonly accepted = new vscode.EventEmitter<void>();
  readonly button = new vscode.EventEmitter<vscode.QuickInputButton>();
  readonly hidden = new vscode.EventEmitter<void>();
  onDidChangeValue = this.changed.event;
  onDidAccept = this.accepted.event;
  onDidTriggerButton = this.button.event;
  onDidHide = this.hidden.event;
  show(): void {
    this.shown = true;
  }
  hide(): void {
    this.hidden.fire();
  }
  dispose(): void {}
  type(value: string): void {
    this.value = value;
    this.changed.fire(value);
  }
}

/** Picks "Hosted service" in Choose Backend's first step. */
const pickHostedService = ((items: readonly vscode.QuickPickItem[]) =>
  Promise.resolve(
    items.find((i) => i.label === 'Hosted service'),
  )) as unknown as typeof vscode.window.showQuickPick;

async function until(check: () => boolean, what: string, ms = 10000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('first minutes in VS Code (issue 26)', () => {
  let dns: DnsFixture;
  let api: HostLensApi;

  before(async () => {
    dns = await startDnsServer({
      records: [
        ...loadZoneFile(path.join(zones, 'example.test.zone')),
        ...loadZoneFile(path.join(zones, 'mail.test.zone')),
      ],
      // As Knot or NSD do: an authoritative server refuses names outside its zones (the
      // root's keys among them), which is what makes it no validating resolver.
      behaviour: ({ name }) =>
        /(?:^|\.)(?:example|mail)\.test\.?$/i.test(name) ? undefined : 'refused',
    });
    await config().update('dns.server', dns.address, vscode.ConfigurationTarget.Global);
    await config().update('dns.timeoutMs', 1000, vscode.ConfigurationTarget.Global);
    api = (await vscode.extensions.getExtension('hostlens.hostlens')!.activate()) as HostLensApi;
    await vscode.commands.executeCommand('hostlens.clearHistory');
  });

  after(async () => {
    for (const key of ['dns.server', 'dns.timeoutMs', 'dns.dnssec']) {
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    }
    await dns.close();
  });

  describe('13: DNSSEC against an authoritative server', () => {
    before(async () => {
      await config().update('dns.dnssec', true, vscode.ConfigurationTarget.Global);
    });
    after(async () => {
      await config().update('dns.dnssec', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    it('says one quiet line in hovers, and never a type the hover does not show', async () => {
      const doc = await vscode.workspace.openTextDocument({
        language: 'plaintext',
        content: 'apex example.test\nmail postmaster@example.test\n',
      });
      await vscode.window.showTextDocument(doc);
      const apex = await hoverText(doc.uri, new vscode.Position(0, 8));
      assert.match(apex, /192\.0\.2\./, apex);
      assert.match(apex, /DNSSEC: not checked/);
      assert.doesNotMatch(apex, /could not be decided|REFUSED/);
      const mx = await hoverText(doc.uri, new vscode.Position(1, 20));
      assert.match(mx, /MX /, mx);
      assert.doesNotMatch(mx, /(?:^|\s)A: /);
      assert.doesNotMatch(mx, /could not be decided|REFUSED/);
    });

    it('shows a quiet DNSSEC node in the Results tree', async () => {
      await vscode.commands.executeCommand('hostlens.lookUpDnsRecords', { host: 'example.test' });
      const [host] = api.deps.results.getChildren();
      const node = host.children().find((n) => labelOf(n).startsWith('DNSSEC'));
      assert.ok(node, 'a DNSSEC node');
      const item = node.toTreeItem();
      assert.equal(labelOf(node), 'DNSSEC: not checked');
      assert.doesNotMatch(String(item.description), /REFUSED|could not/);
      assert.match(item.tooltip as string, /REFUSED/, 'the detail stays in the tooltip');
    });
  });

  describe('14: problem messages in the Results tree', () => {
    before(async () => {
      await config().update('dns.dnssec', false, vscode.ConfigurationTarget.Global);
    });

    it('fit the side bar, and expand to the whole message', async () => {
      await vscode.commands.executeCommand('hostlens.showMailSetup', 'mail.test');
      const messages = walk(api.deps.results.getChildren()).filter(
        (n) => n.toTreeItem().contextValue === 'message',
      );
      assert.ok(messages.length > 0, 'the mail set-up of mail.test has problems');
      let long = 0;
      for (const node of messages) {
        const item = node.toTreeItem();
        const label = labelOf(node);
        assert.ok(label.length <= 42, `label cut off in the side bar: "${label}"`);
        const whole = node.value();
        assert.ok(whole !== undefined);
        if (node.children().length > 0) {
          long += 1;
          assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
          // Lines break between words, and a word longer than a line (a URL) inside it.
          const text = (lines: string[]) => lines.join('').replace(/\s+/g, '');
          assert.equal(text(node.children().map(labelOf)), text([whole]));
        } else assert.equal(label, whole);
      }
      assert.ok(long > 0, 'some message was longer than the side bar');
    });
  });

  describe('15: Look Up DNS Records', () => {
    let restore: (() => void) | undefined;
    afterEach(() => restore?.());

    it('checks the host as the user types; Enter looks up every type on the configured nameserver', async () => {
      let box: FakeInputBox | undefined;
      restore = stub('createInputBox', () => {
        box = new FakeInputBox();
        return box as unknown as vscode.InputBox;
      });
      const done = vscode.commands.executeCommand<DnsLookupEntry>('hostlens.lookUpDnsRecords');
      await until(() => box?.shown === true, 'the host box');
      box!.type('bad..host');
      assert.match(box!.validationMessage as string, /empty label/);
      box!.accepted.fire();
      box!.type('example.test');
      assert.equal(box!.validationMessage, undefined);
      box!.accepted.fire();
      const entry = await done;
      assert.equal(entry.host, 'example.test');
      assert.equal(entry.types, undefined, 'every type');
      assert.equal(entry.server, dns.address);
      assert.ok(entry.result?.records.some((r) => r.type === 'MX'));
      assert.match(String(box!.prompt), new RegExp(dns.address.replace(/\./g, '\\.')));
    });
  });

  describe('17: Choose Backend', () => {
    const TOKEN = 'first-minutes-token-0123456789abcdef';
    let hosted: RunningServer;
    let other: Server;
    let otherUrl: string;
    let restores: Array<() => void> = [];

    before(async () => {
      hosted = await startServer({ services: new EmbeddedServices(), tokens: [TOKEN], port: 0 });
      other = createServer((_req, res) => res.writeHead(404).end('no such page'));
      await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
      otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      await vscode.commands.executeCommand('hostlens.setApiToken', TOKEN);
    });

    afterEach(() => {
      for (const r of restores) r();
      restores = [];
    });

    after(async () => {
      await vscode.commands.executeCommand('hostlens.chooseBackend', 'embedded');
      await vscode.commands.executeCommand('hostlens.clearApiToken');
      for (const key of ['domainApiBaseUrl', 'metaApiBaseUrl', 'backend']) {
        await config().update(key, undefined, vscode.ConfigurationTarget.Global);
      }
      await hosted.close();
      await new Promise((r) => other.close(r));
    });

    it('asks for one address, checks it before saving, and asks again when it is wrong', async () => {
      const asked: vscode.InputBoxOptions[] = [];
      const answers = [otherUrl, `${hosted.url}/`];
      restores.push(
        stub('showQuickPick', pickHostedService),
        stub('showInputBox', (options?: vscode.InputBoxOptions) => {
          asked.push(options ?? {});
          return Promise.resolve(answers.shift());
        }),
      );
      await vscode.commands.executeCommand('hostlens.chooseBackend');
      assert.equal(asked.length, 2, 'one address box, then again after the failed check');
      assert.match(String(asked[1].prompt), /healthz answered HTTP 404/);
      assert.equal(asked[1].value, otherUrl, 'the wrong address is kept to be corrected');
      const validate = (value: string) => asked[0].validateInput!(value);
      assert.match((await validate('http://hostlens.example.com')) as string, /https/);
      assert.equal(await validate('https://hostlens.example.com'), undefined);
      assert.equal(config().get('domainApiBaseUrl'), `${hosted.url}/domain`);
      assert.equal(config().get('metaApiBaseUrl'), `${hosted.url}/meta`);
      assert.equal(config().get('backend'), 'remote');
      const entry = await vscode.commands.executeCommand<DnsLookupEntry>(
        'hostlens.lookUpDnsRecords',
        { host: 'example.test', types: ['A'] },
      );
      assert.equal(entry.error, undefined);
    });

    it('can be run again to fix a base URL saved without its path', async () => {
      await config().update('domainApiBaseUrl', hosted.url, vscode.ConfigurationTarget.Global);
      const asked: vscode.InputBoxOptions[] = [];
      restores.push(
        stub('showQuickPick', pickHostedService),
        stub('showInputBox', (options?: vscode.InputBoxOptions) => {
          asked.push(options ?? {});
          return Promise.resolve(`${hosted.url}/domain`);
        }),
      );
      await vscode.commands.executeCommand('hostlens.chooseBackend');
      assert.equal(asked[0].value, hosted.url, 'prefilled with the saved address');
      assert.equal(config().get('domainApiBaseUrl'), `${hosted.url}/domain`);
      assert.equal(config().get('metaApiBaseUrl'), `${hosted.url}/meta`);
    });
  });

  describe('18: small things', () => {
    const manifest = () =>
      vscode.extensions.getExtension('hostlens.hostlens')!.packageJSON as {
        contributes: {
          viewsWelcome: Array<{ contents: string; when?: string }>;
          commands: Array<{ command: string; title: string }>;
        };
      };

    it('the welcome view names the system resolvers only when no nameserver is set', () => {
      const welcome = manifest().contributes.viewsWelcome;
      for (const entry of welcome.filter((w) => /system resolvers/.test(w.contents))) {
        assert.match(String(entry.when), /!config\.hostlens\.dns\.server/);
      }
      assert.ok(
        welcome.some(
          (w) =>
            /hostlens\.dns\.server/.test(w.contents) &&
            /config\.hostlens\.dns\.server/.test(String(w.when)),
        ),
        'a line for a configured nameserver',
      );
    });

    it('links in the welcome view say what the command they run is titled', () => {
      const { viewsWelcome, commands } = manifest().contributes;
      const titles = new Map(commands.map((c) => [c.command, c.title]));
      const links = viewsWelcome.flatMap((w) => [
        ...w.contents.matchAll(/\[([^\]]+)\]\(command:(hostlens\.[A-Za-z]+)\)/g),
      ]);
      assert.ok(links.length >= 3);
      for (const [, text, command] of links) assert.equal(text, titles.get(command), command);
    });

    describe('zone files', () => {
      let document: vscode.TextDocument;
      const ZONE = `$ORIGIN broken.test.
$TTL 3600
@ IN SOA ns1 hostmaster 1 3600 600 86400 300
@ IN NS ns1
ns1 IN A 192.0.2.1
www IN AAA 2001:db8::1
files IN CNAME files.broken.test
`;
      const fixes = async (line: number) => {
        const diagnostics = vscode.languages
          .getDiagnostics(document.uri)
          .filter((d) => d.range.start.line === line);
        assert.ok(diagnostics.length > 0, `a diagnostic on line ${line + 1}`);
        const actions = await askProviders<vscode.CodeAction[]>(
          'vscode.executeCodeActionProvider',
          document.uri,
          diagnostics[0].range,
        );
        return { diagnostics, actions };
      };

      before(async () => {
        document = await vscode.workspace.openTextDocument({ language: 'dns-zone', content: ZONE });
        await vscode.window.showTextDocument(document);
        await until(() => vscode.languages.getDiagnostics(document.uri).length >= 2, 'diagnostics');
      });

      after(async () => {
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      });

      it('a mistyped type gets a quick fix to the type meant', async () => {
        const { diagnostics, actions } = await fixes(5);
        assert.match(diagnostics[0].message, /AAAA/);
        const fix = actions.find((a) => a.title === 'Change to AAAA');
        assert.ok(fix, actions.map((a) => a.title).join(', '));
        await vscode.workspace.applyEdit(fix.edit!);
        assert.equal(document.lineAt(5).text, 'www IN AAAA 2001:db8::1');
      });

      it('a CNAME target written without its final dot gets a hint and a quick fix', async () => {
        const { diagnostics, actions } = await fixes(6);
        assert.match(diagnostics[0].message, /files\.broken\.test\.broken\.test\./);
        const fix = actions.find((a) => /files\.broken\.test\./.test(a.title));
        assert.ok(fix, actions.map((a) => a.title).join(', '));
        await vscode.workspace.applyEdit(fix.edit!);
        assert.equal(document.lineAt(6).text, 'files IN CNAME files.broken.test.');
      });
    });
  });
});
