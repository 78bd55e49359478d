import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostLensApi } from '../../src/editor/extension';
import type { DnsLookupEntry } from '../../src/editor/views/history';
import type { ResultNode } from '../../src/editor/views/nodes/base';
import { loadZoneFile, startDnsServer, type DnsFixture } from '../support/dns-server';
import { askProviders } from '../support/editor-requests';

const root = process.env.HOSTLENS_PROJECT_ROOT ?? path.resolve(__dirname, '..', '..', '..');
const zones = path.join(root, 'test', 'fixtures', 'zones');
const workspaceZone = path.join(root, 'test', 'fixtures', 'workspace', 'example.test.zone');

function labels(nodes: ResultNode[]): string[] {
  return nodes.map((n) => {
    const label = n.toTreeItem().label;
    return typeof label === 'string' ? label : (label?.label ?? '');
  });
}

describe('DNS look-ups in VS Code', () => {
  let fixture: DnsFixture;
  let api: HostLensApi;

  before(async () => {
    fixture = await startDnsServer({
      records: [
        ...loadZoneFile(path.join(zones, 'example.test.zone')),
        ...loadZoneFile(path.join(zones, '2.0.192.in-addr.arpa.zone')),
      ],
    });
    const config = vscode.workspace.getConfiguration('hostlens');
    await config.update('dns.server', fixture.address, vscode.ConfigurationTarget.Global);
    await config.update('dns.timeoutMs', 1000, vscode.ConfigurationTarget.Global);
    // These tests are about the plain tree and hover; dnssec.test.ts covers the verdicts.
    await config.update('dns.dnssec', false, vscode.ConfigurationTarget.Global);
    api = (await vscode.extensions.getExtension('hostlens.hostlens')!.activate()) as HostLensApi;
    await vscode.commands.executeCommand('hostlens.clearHistory');
  });

  after(async () => {
    const config = vscode.workspace.getConfiguration('hostlens');
    await config.update('dns.server', undefined, vscode.ConfigurationTarget.Global);
    await config.update('dns.timeoutMs', undefined, vscode.ConfigurationTarget.Global);
    await config.update('dns.dnssec', undefined, vscode.ConfigurationTarget.Global);
    await fixture.close();
  });

  it('fills the results tree from the nameserver', async () => {
    const entry = await vscode.commands.executeCommand<DnsLookupEntry>(
      'hostlens.lookUpDnsRecords',
      { host: 'example.test' },
    );
    assert.equal(entry.error, undefined);
    const [hostNode] = api.deps.results.getChildren();
    assert.ok(hostNode);
    assert.equal(hostNode.toTreeItem().label, 'example.test');
    assert.equal(hostNode.toTreeItem().description, `@${fixture.address}`);
    const typeNodes = hostNode.children();
    assert.deepEqual(labels(typeNodes), ['A', 'AAAA', 'CAA', 'MX', 'NS', 'TXT', 'SOA']);
    const mx = typeNodes[labels(typeNodes).indexOf('MX')].children();
    assert.deepEqual(labels(mx), ['mail.example.test.', 'mail2.example.test.']);
    assert.match(String(mx[0].toTreeItem().description), /priority 10/);
  });

  it('shows NXDOMAIN as its own node', async () => {
    await vscode.commands.executeCommand('hostlens.lookUpDnsRecords', {
      host: 'missing.example.test',
    });
    const [hostNode] = api.deps.results.getChildren();
    assert.equal(hostNode.toTreeItem().label, 'missing.example.test');
    assert.deepEqual(labels(hostNode.children()), ['NXDOMAIN: no such domain']);
  });

  it('reports a bad host as an error and does not throw or keep it', async () => {
    const before = api.deps.results.getChildren().length;
    const entry = await vscode.commands.executeCommand<DnsLookupEntry>(
      'hostlens.lookUpDnsRecords',
      'bad..host',
    );
    assert.equal(entry.error?.code, 'invalid_host');
    assert.equal(api.deps.results.getChildren().length, before);
  });

  it('answers a hover on a relative name in a zone file', async () => {
    const document = await vscode.workspace.openTextDocument(workspaceZone);
    assert.equal(document.languageId, 'dns-zone');
    await vscode.window.showTextDocument(document);
    const lineIndex = document
      .getText()
      .split('\n')
      .findIndex((l) => l.startsWith('mail '));
    const hovers = await askProviders<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      document.uri,
      new vscode.Position(lineIndex, 1),
    );
    const text = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n');
    assert.match(text, /\*\*mail\\\.example\\\.test\*\*/);
    assert.match(text, /A `192\.0\.2\.25`/);
    assert.match(text, /command:hostlens\.lookUpDnsRecords/);
  });

  it('looks up a relative zone-file name at the cursor with its $ORIGIN', async () => {
    const document = await vscode.workspace.openTextDocument(workspaceZone);
    const editor = await vscode.window.showTextDocument(document);
    const lineIndex = document
      .getText()
      .split('\n')
      .findIndex((l) => l.startsWith('mail2 '));
    editor.selection = new vscode.Selection(lineIndex, 2, lineIndex, 2);
    const entry = await vscode.commands.executeCommand<DnsLookupEntry>(
      'hostlens.lookUpHostnameAtCursor',
    );
    assert.equal(entry.host, 'mail2.example.test');
    assert.deepEqual(
      entry.result?.records.filter((r) => r.type === 'A').map((r) => r.value),
      ['192.0.2.26'],
    );
  });

  it('does no hover look-up when hovers are off, or in a language left out', async () => {
    const document = await vscode.workspace.openTextDocument({
      language: 'plaintext',
      content: 'the web host is 192.0.2.10 today',
    });
    const hoverText = async () =>
      (
        await askProviders<vscode.Hover[]>(
          'vscode.executeHoverProvider',
          document.uri,
          new vscode.Position(0, 20),
        )
      )
        .flatMap((h) => h.contents)
        .map((c) => (typeof c === 'string' ? c : c.value))
        .join('\n');
    const config = vscode.workspace.getConfiguration('hostlens');
    const queriesBefore = fixture.queries.length;
    try {
      await config.update('hover.enabled', false, vscode.ConfigurationTarget.Global);
      assert.doesNotMatch(await hoverText(), /PTR/);
      await config.update('hover.enabled', true, vscode.ConfigurationTarget.Global);
      await config.update('hover.languages', ['dns-zone'], vscode.ConfigurationTarget.Global);
      assert.doesNotMatch(await hoverText(), /PTR/);
      assert.equal(fixture.queries.length, queriesBefore, 'no DNS question was asked');
    } finally {
      await config.update('hover.enabled', undefined, vscode.ConfigurationTarget.Global);
      await config.update('hover.languages', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('answers a hover on an IP address with its PTR', async () => {
    const document = await vscode.workspace.openTextDocument({
      language: 'plaintext',
      content: 'the web host is 192.0.2.10 today',
    });
    const hovers = await askProviders<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      document.uri,
      new vscode.Position(0, 20),
    );
    const text = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n');
    assert.match(text, /PTR `example\.test\.`/);
  });
});
