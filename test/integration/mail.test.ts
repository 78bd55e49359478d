import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostLensApi } from '../../src/editor/extension';
import type { ResultNode } from '../../src/editor/views/nodes/base';
import { loadZoneFile, startDnsServer, type DnsFixture } from '../support/dns-server';

const root = process.env.HOSTLENS_PROJECT_ROOT ?? path.resolve(__dirname, '..', '..', '..');
const zone = path.join(root, 'test', 'fixtures', 'zones', 'mail.test.zone');

function label(node: ResultNode): string {
  const l = node.toTreeItem().label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

function child(node: ResultNode, name: string | RegExp): ResultNode {
  const found = node
    .children()
    .find((c) => (typeof name === 'string' ? label(c) === name : name.test(label(c))));
  assert.ok(
    found,
    `${label(node)} has a child ${String(name)}; it has ${node.children().map(label).join(', ')}`,
  );
  return found;
}

async function diagnosticsFor(
  uri: vscode.Uri,
  until: (d: vscode.Diagnostic[]) => boolean,
): Promise<vscode.Diagnostic[]> {
  const deadline = Date.now() + 10000;
  for (;;) {
    const diagnostics = vscode.languages
      .getDiagnostics(uri)
      .filter((d) => d.source === 'HostLens SPF');
    if (until(diagnostics) || Date.now() > deadline) return diagnostics;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('mail authentication in VS Code', () => {
  let fixture: DnsFixture;
  let api: HostLensApi;

  before(async () => {
    fixture = await startDnsServer({ records: loadZoneFile(zone) });
    await vscode.workspace
      .getConfiguration('hostlens')
      .update('dns.server', fixture.address, vscode.ConfigurationTarget.Global);
    // The fixture's MX host is a documentation address: no port 25 to reach (unit tests
    // cover the transport against loopback SMTP and HTTPS servers).
    await vscode.workspace
      .getConfiguration('hostlens')
      .update('mail.checkTransport', false, vscode.ConfigurationTarget.Global);
    api = (await vscode.extensions.getExtension('hostlens.hostlens')!.activate()) as HostLensApi;
  });

  after(async () => {
    await vscode.workspace
      .getConfiguration('hostlens')
      .update('dns.server', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace
      .getConfiguration('hostlens')
      .update('mail.checkTransport', undefined, vscode.ConfigurationTarget.Global);
    await fixture.close();
  });

  it('shows the mail set-up under the host: SPF tree, DKIM keys, DMARC and friends', async () => {
    await vscode.commands.executeCommand('hostlens.showMailSetup', 'mail.test');
    const host = api.deps.results.getChildren().find((n) => label(n) === 'mail.test');
    assert.ok(host);
    const mail = child(host, 'Mail');
    assert.deepEqual(mail.children().map(label), [
      'SPF 6/10 look-ups',
      'DKIM',
      'DMARC',
      'MTA-STS',
      'TLS-RPT',
      'BIMI: not published',
    ]);
    const spf = child(mail, /^SPF/);
    assert.ok(spf.toTreeItem().iconPath instanceof vscode.ThemeIcon);
    child(spf, /gone\.mail\.test has no SPF record/);
    child(spf, '192.0.2.0/24');
    const l3 = child(child(child(spf, '_spf.mail.test'), '_spf2.mail.test'), '_spf3.mail.test');
    child(l3, /ptr/);
    const policyTooltip = child(spf, '_spf.mail.test').toTreeItem()
      .tooltip as vscode.MarkdownString;
    assert.match(policyTooltip.value, /v=spf1 ip4:198\.51\.100\.0\/24/);

    const dkim = child(mail, 'DKIM');
    assert.equal(dkim.toTreeItem().description, '5 keys');
    assert.match(String(child(dkim, 's1').toTreeItem().description), /rsa 1024 bits · weak/);
    assert.match(String(child(dkim, 'k1').toTreeItem().description), /revoked/);
    assert.match(String(child(dkim, 'selector1').toTreeItem().description), /rsa 2048 bits/);
    child(child(mail, 'DMARC'), /p=none only monitors/);
  });

  it('marks an include of a name with no policy as an error, and counts ranges with includes', () => {
    const host = api.deps.results.getChildren().find((n) => label(n) === 'mail.test');
    assert.ok(host);
    const spf = child(child(host, 'Mail'), /^SPF/);
    const iconOf = (node: ResultNode) => (node.toTreeItem().iconPath as vscode.ThemeIcon).id;
    // spf-check gives permerror for this policy: the tree says error, not warning
    assert.equal(iconOf(spf), 'error');
    assert.equal(iconOf(child(spf, /gone\.mail\.test has no SPF record/)), 'error');
    const gone = child(spf, 'gone.mail.test');
    assert.equal(gone.toTreeItem().description, 'include · no SPF record');
    assert.equal(iconOf(gone), 'error');
    // _spf holds one range itself and two more through _spf2 and _spf3
    assert.equal(child(spf, '_spf.mail.test').toTreeItem().description, 'include · 3 ranges');
    const l2 = child(child(spf, '_spf.mail.test'), '_spf2.mail.test');
    assert.equal(l2.toTreeItem().description, 'include · 2 ranges');
    // ptr is unwise but works: a warning
    const l3 = child(l2, '_spf3.mail.test');
    assert.equal(iconOf(child(l3, /ptr/)), 'warning');
  });

  it('replaces only the SPF part with Show SPF Tree, run from the host node', async () => {
    const node = api.deps.results.getChildren().find((n) => label(n) === 'mail.test');
    await vscode.commands.executeCommand('hostlens.showSpfTree', node);
    const host = api.deps.results.getChildren().find((n) => label(n) === 'mail.test')!;
    assert.equal(child(host, 'Mail').children().length, 6);
  });

  it('puts SPF syntax problems on the term as you type', async () => {
    const document = await vscode.workspace.openTextDocument({
      language: 'dns-zone',
      content: '@ IN TXT "v=spf1 ip4:300.1.2.3 +all"\n',
    });
    const diagnostics = await diagnosticsFor(document.uri, (d) => d.length >= 2);
    const codes = diagnostics.map((d) => d.code as string).sort();
    assert.deepEqual(codes, ['spf_pass_all', 'spf_syntax']);
    const syntax = diagnostics.find((d) => d.code === 'spf_syntax')!;
    assert.equal(document.getText(syntax.range), 'ip4:300.1.2.3');
  });

  it('counts the look-ups of the whole tree on save', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hostlens-spf-')), 'records.zone');
    fs.writeFileSync(file, '@ IN TXT "v=spf1 include:_spf.mail.test -all"\n');
    const document = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((e) => e.insert(new vscode.Position(1, 0), '; edited\n'));
    await document.save();
    const diagnostics = await diagnosticsFor(document.uri, (d) =>
      d.some((x) => x.code === 'spf_lookup_count'),
    );
    const count = diagnostics.find((d) => d.code === 'spf_lookup_count');
    assert.ok(count, 'a look-up count diagnostic after save');
    assert.match(count.message, /SPF look-ups: 4\/10 \(1 in this policy, 3 in its includes\)/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('on save, marks an include of a name without SPF as the error receivers see', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hostlens-spf-')), 'records.zone');
    fs.writeFileSync(
      file,
      '@ IN TXT "v=spf1 include:_spf.mail.test include:absent.mail.test -all"\n',
    );
    const document = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((e) => e.insert(new vscode.Position(1, 0), '; edited\n'));
    await document.save();
    const diagnostics = await diagnosticsFor(document.uri, (d) =>
      d.some((x) => x.code === 'missing_include_target'),
    );
    const missing = diagnostics.find((d) => d.code === 'missing_include_target')!;
    assert.equal(missing.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(document.getText(missing.range), 'include:absent.mail.test');
    assert.match(missing.message, /absent\.mail\.test has no SPF record; receivers give permerror/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
