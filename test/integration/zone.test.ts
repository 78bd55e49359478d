import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

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
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
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
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>(
      'vscode.executeDocumentSymbolProvider',
      document.uri,
    );
    assert.deepEqual(
      symbols.map((s) => `${s.name} ${s.children.map((c) => c.name).join(',')}`),
      ['example.org. SOA,NS', 'ns1.example.org. A', 'www.example.org. A', 'mail.example.org. A,A'],
    );
  });
});
