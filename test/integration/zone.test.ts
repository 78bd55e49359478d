import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { askProviders } from '../support/editor-requests';

const ZONE = `$TTL 3600
example.org. IN SOA ns1.example.org. hostmaster.example.org. 1 3600 600 86400 300
example.org. IN NS ns1.example.org.
ns1.example.org. IN A 192.0.2.1
www.example.org. 300 IN A 192.0.2.300
mail.example.org. 60 IN A 192.0.2.5
mail.example.org. 90 IN A 192.0.2.6
`;

const code = (d: vscode.Diagnostic) =>
  String(typeof d.code === 'object' ? d.code.value : (d.code ?? ''));

async function diagnosticsFor(uri: vscode.Uri, want: (d: vscode.Diagnostic[]) => boolean) {
  const deadline = Date.now() + 10000;
  for (;;) {
    const found = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'HostLens zone');
    if (want(found)) return found;
    if (Date.now() > deadline) {
      assert.fail(`diagnostics never settled: ${found.map(code).join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const codes = (ds: vscode.Diagnostic[]) => ds.map((d) => `${d.range.start.line}:${code(d)}`);

describe('zone files in VS Code', () => {
  let document: vscode.TextDocument;

  before(async () => {
    await vscode.extensions.getExtension('hostlens.hostlens')!.activate();
    document = await vscode.workspace.openTextDocument({ language: 'dns-zone', content: ZONE });
    await vscode.window.showTextDocument(document);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('shows the load checks as diagnostics on the exact range', async () => {
    const ds = await diagnosticsFor(document.uri, (d) => d.length === 2);
    assert.deepEqual(codes(ds), ['4:bad-address', '6:ttl-mismatch']);
    const bad = ds[0];
    assert.equal(document.getText(bad.range), '192.0.2.300');
    assert.equal(bad.severity, vscode.DiagnosticSeverity.Error);
  });

  it('re-checks as you type', async () => {
    const editor = vscode.window.activeTextEditor!;
    const line = document.lineAt(4);
    await editor.edit((e) => e.replace(line.range, 'www.example.org. 300 IN A 192.0.2.30'));
    const ds = await diagnosticsFor(document.uri, (d) => d.length === 1);
    assert.deepEqual(codes(ds), ['6:ttl-mismatch']);
  });

  it('offers the quick fix and applies it', async () => {
    const [ttl] = await diagnosticsFor(document.uri, (d) => d.length === 1);
    const actions = await askProviders<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      document.uri,
      ttl.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const fix = actions.find((a) => a.title === 'Use TTL 60');
    assert.ok(fix?.edit, `actions: ${actions.map((a) => a.title).join(', ')}`);
    await vscode.workspace.applyEdit(fix.edit);
    assert.equal(document.lineAt(6).text, 'mail.example.org. 60 IN A 192.0.2.6');
    await diagnosticsFor(document.uri, (d) => d.length === 0);
  });

  it('outlines the zone by owner name', async () => {
    const symbols = await askProviders<vscode.DocumentSymbol[]>(
      'vscode.executeDocumentSymbolProvider',
      document.uri,
    );
    assert.deepEqual(
      symbols.map((s) => `${s.name} ${s.children.map((c) => c.name).join(',')}`),
      ['example.org. SOA,NS', 'ns1.example.org. A', 'www.example.org. A', 'mail.example.org. A,A'],
    );
  });

  it('goes to the definition of a name and finds its references', async () => {
    // line 2: "example.org. IN NS ns1.example.org." -> the NS target
    const target = new vscode.Position(2, document.lineAt(2).text.indexOf('ns1') + 1);
    const defs = await askProviders<vscode.Location[]>(
      'vscode.executeDefinitionProvider',
      document.uri,
      target,
    );
    assert.deepEqual(
      defs.map((d) => d.range.start.line),
      [3],
    );
    const refs = await askProviders<vscode.Location[]>(
      'vscode.executeReferenceProvider',
      document.uri,
      new vscode.Position(3, 1),
    );
    // the owner itself and the NS record pointing at it
    assert.deepEqual(refs.map((r) => r.range.start.line).sort(), [2, 3]);
  });

  it('shows the SOA serial lens and increments the serial', async () => {
    const lenses = await askProviders<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      document.uri,
    );
    const lens = lenses.find((l) => l.command?.command === 'hostlens.incrementSerial');
    assert.equal(lens?.command?.title, 'Serial 1: Increment serial');
    const command = lens?.command;
    const args = (command.arguments ?? []) as unknown[];
    await vscode.commands.executeCommand(command.command, ...args);
    assert.match(document.lineAt(1).text, / hostmaster\.example\.org\. 2 3600 /);
  });

  it('hovers a record type with what it is and its RFC', async () => {
    const hovers = await askProviders<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      document.uri,
      new vscode.Position(1, document.lineAt(1).text.indexOf('SOA') + 1),
    );
    const text = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n');
    assert.match(text, /\*\*SOA\*\* \(type 6\): start of a zone of authority\. RFC 1035/);
  });

  it('formats the document with aligned columns', async () => {
    const doc = await vscode.workspace.openTextDocument({
      language: 'dns-zone',
      content: 'a.example.org. 300 IN A 192.0.2.1\nlonger.example.org. IN TXT "x" ; kept\n',
    });
    const edits = await askProviders<vscode.TextEdit[]>(
      'vscode.executeFormatDocumentProvider',
      doc.uri,
      { tabSize: 4, insertSpaces: true },
    );
    // VS Code hands the edit back as the smallest set of changes: apply them and read the text
    const edit = new vscode.WorkspaceEdit();
    edit.set(doc.uri, edits);
    await vscode.workspace.applyEdit(edit);
    assert.equal(
      doc.getText(),
      'a.example.org.      300 IN A   192.0.2.1\nlonger.example.org.     IN TXT "x" ; kept\n',
    );
  });

  it('folds records written over several lines; definitions in file order after an edit', async () => {
    const doc = await vscode.workspace.openTextDocument({
      language: 'dns-zone',
      content: [
        '$ORIGIN example.org.',
        '$TTL 3600',
        '@ IN SOA ( ns1 hostmaster',
        '  1 3600 600 86400 300 )',
        '@ IN NS ns1',
        'ns1 IN A 192.0.2.1',
        'ns1 IN AAAA 2001:db8::1',
        '',
      ].join('\n'),
    });
    // a record of ns1 above the others: the session holds it after them, the editor shows it first
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(5, 0), 'ns1 IN TXT "first"\n');
    await vscode.workspace.applyEdit(edit);
    const folds = await askProviders<vscode.FoldingRange[]>(
      'vscode.executeFoldingRangeProvider',
      doc.uri,
    );
    assert.deepEqual(
      folds.map((f) => [f.start, f.end]),
      [[2, 3]],
    );
    const defs = await askProviders<vscode.Location[]>(
      'vscode.executeDefinitionProvider',
      doc.uri,
      new vscode.Position(4, 9),
    );
    assert.deepEqual(
      defs.map((d) => d.range.start.line),
      [5, 6, 7],
    );
  });
});

describe('zone files with $INCLUDE in VS Code (issue 29)', () => {
  let dir: string;
  let document: vscode.TextDocument;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostlens-include-'));
    fs.writeFileSync(path.join(dir, 'hosts.inc'), 'www.example.org. IN A 192.0.2.7\n');
    const zone = path.join(dir, 'example.org.zone');
    fs.writeFileSync(
      zone,
      [
        '$TTL 3600',
        'example.org. IN SOA ns1.example.org. hostmaster.example.org. 1 3600 600 86400 300',
        'example.org. IN NS ns1.example.org.',
        'ns1.example.org. IN A 192.0.2.1',
        '$INCLUDE hosts.inc',
        '$INCLUDE missing.inc',
        '',
      ].join('\n'),
    );
    document = await vscode.workspace.openTextDocument(vscode.Uri.file(zone));
    await vscode.window.showTextDocument(document);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads the includes in the background and shows only what they really fail on', async () => {
    const ds = await diagnosticsFor(
      document.uri,
      (d) => d.length === 1 && !/still being read/.test(d[0].message),
    );
    assert.deepEqual(codes(ds), ['5:include-failed']);
    assert.match(ds[0].message, /missing\.inc.*ENOENT/);
  });

  it('reads an include an edit adds, then checks again', async () => {
    fs.writeFileSync(path.join(dir, 'later.inc'), 'mail.example.org. IN A 192.0.2.8\n');
    const editor = vscode.window.activeTextEditor!;
    await editor.edit((e) => e.replace(document.lineAt(5).range, '$INCLUDE later.inc'));
    await diagnosticsFor(document.uri, (d) => d.length === 0);
  });
});
