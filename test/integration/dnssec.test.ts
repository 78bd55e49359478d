// DNSSEC verdicts in the editor, against the loopback fixture server, which serves no DNSSEC
// data. HOSTLENS_TRUST_ANCHORS (read by the embedded engine in this extension host at each
// look-up) names a made-up DS for example.test., so the validator starts there, finds no
// DNSKEY and must call every answer bogus: a real verdict, and never a lock.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostLensApi } from '../../src/editor/extension';
import type { DnsLookupEntry } from '../../src/editor/views/history';
import type { ResultNode } from '../../src/editor/views/nodes/base';
import { loadZoneFile, startDnsServer, type DnsFixture } from '../support/dns-server';
import { askProviders } from '../support/editor-requests';

const root = process.env.HOSTLENS_PROJECT_ROOT ?? path.resolve(__dirname, '..', '..', '..');
const workspaceZone = path.join(root, 'test', 'fixtures', 'workspace', 'example.test.zone');
const ANCHORS_ENV = 'HOSTLENS_TRUST_ANCHORS';
const ANCHOR = `example.test. 3600 IN DS 4242 13 2 ${'0123456789ABCDEF'.repeat(4)}\n`;
const NO_DNSKEY = /example\.test\. has DS records in the trust anchor but answers no DNSKEY/;

function label(node: ResultNode): string {
  const l = node.toTreeItem().label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

describe('DNSSEC verdicts in VS Code', () => {
  let fixture: DnsFixture;
  let api: HostLensApi;
  let anchorDir: string;
  const savedAnchors = process.env[ANCHORS_ENV];
  const config = () => vscode.workspace.getConfiguration('hostlens');

  before(async () => {
    fixture = await startDnsServer({
      records: loadZoneFile(path.join(root, 'test', 'fixtures', 'zones', 'example.test.zone')),
    });
    anchorDir = mkdtempSync(path.join(tmpdir(), 'hostlens-anchors-'));
    const anchorFile = path.join(anchorDir, 'anchors.zone');
    writeFileSync(anchorFile, ANCHOR);
    process.env[ANCHORS_ENV] = anchorFile;
    await config().update('dns.server', fixture.address, vscode.ConfigurationTarget.Global);
    await config().update('dns.timeoutMs', 1000, vscode.ConfigurationTarget.Global);
    await config().update('dns.dnssec', true, vscode.ConfigurationTarget.Global);
    api = (await vscode.extensions.getExtension('hostlens.hostlens')!.activate()) as HostLensApi;
    await vscode.commands.executeCommand('hostlens.clearHistory');
  });

  after(async () => {
    for (const key of ['dns.server', 'dns.timeoutMs', 'dns.dnssec']) {
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    }
    if (savedAnchors === undefined) delete process.env[ANCHORS_ENV];
    else process.env[ANCHORS_ENV] = savedAnchors;
    rmSync(anchorDir, { recursive: true, force: true });
    await fixture.close();
  });

  it('adds a DNSSEC node with the verdict and its reason to the looked-up host', async () => {
    const entry = await vscode.commands.executeCommand<DnsLookupEntry>(
      'hostlens.lookUpDnsRecords',
      { host: 'example.test', types: ['A', 'MX'] },
    );
    assert.equal(entry.error, undefined);
    assert.equal(entry.result?.dnssec?.status, 'bogus');
    const [hostNode] = api.deps.results.getChildren();
    assert.equal(label(hostNode), 'example.test');
    const children = hostNode.children();
    // The records are still shown: the user is debugging.
    assert.deepEqual(children.map(label).slice(0, 2), ['A', 'MX']);
    const dnssec = children.find((n) => label(n).startsWith('DNSSEC'));
    assert.ok(dnssec, `no DNSSEC node among ${children.map(label).join(', ')}`);
    const item = dnssec.toTreeItem();
    assert.match(label(dnssec), /BOGUS/);
    assert.match(String(item.description), NO_DNSKEY);
    assert.notEqual((item.iconPath as vscode.ThemeIcon).id, 'lock');
    const [zone] = dnssec.children();
    assert.equal(label(zone), 'example.test.');
    assert.equal(zone.toTreeItem().description, '1 DS, 0 DNSKEY');
  });

  it('follows the setting on refresh: off, the host has no DNSSEC node', async () => {
    try {
      await config().update('dns.dnssec', false, vscode.ConfigurationTarget.Global);
      const [hostNode] = api.deps.results.getChildren();
      await vscode.commands.executeCommand('hostlens.refreshEntry', hostNode);
      const [refreshed] = api.deps.results.getChildren();
      assert.equal(label(refreshed), 'example.test');
      assert.deepEqual(refreshed.children().map(label), ['A', 'MX']);
    } finally {
      await config().update('dns.dnssec', true, vscode.ConfigurationTarget.Global);
    }
  });

  it('puts a warning with the reason, not a lock, in the hover of a name', async () => {
    const document = await vscode.workspace.openTextDocument(workspaceZone);
    await vscode.window.showTextDocument(document);
    const line = document
      .getText()
      .split('\n')
      .findIndex((l) => l.startsWith('mail '));
    const hovers = await askProviders<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      document.uri,
      new vscode.Position(line, 1),
    );
    const text = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n');
    assert.match(text, /A `192\.0\.2\.25`/);
    assert.match(text, /\$\(warning\) DNSSEC: BOGUS/);
    // Escaped for Markdown: the dots of the zone name carry a backslash.
    assert.match(
      text,
      /example\\\.test\\\. has DS records in the trust anchor but answers no DNSKEY/,
    );
    assert.doesNotMatch(text, /\$\(lock\)/);
  });
});
