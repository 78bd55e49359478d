// "HostLens: Check Links in Workspace" against the loopback test web: the findings in the
// Problems panel at their places, the summary node, the quick fixes, and the re-check on save.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { LinkRecheck } from '../../src/editor/commands/checkLinksInWorkspace';
import type { HostLensApi } from '../../src/editor/extension';
import type { CheckReport } from '../../src/services/check/index';
import { startTestWeb, type TestWeb } from '../unit/services/check/test-web';
import { codeActionsUntil } from '../support/editor-requests';

describe('Check Links in Workspace', function () {
  this.timeout(60000);
  let testWeb: TestWeb;
  let api: HostLensApi;
  let report: CheckReport | undefined;
  const saved: Record<string, string | undefined> = {};

  before(async function () {
    testWeb = await startTestWeb();
    // The extension host is this process: WHOIS reads these when it runs.
    for (const [k, v] of Object.entries(testWeb.env)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    api = (await vscode.extensions.getExtension('hostlens.hostlens')!.activate()) as HostLensApi;
    report = await vscode.commands.executeCommand<CheckReport>('hostlens.checkLinksInWorkspace', {
      root: testWeb.dir,
      server: testWeb.dns.address,
    });
  });

  after(async function () {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await testWeb?.close();
  });

  const readme = () => vscode.Uri.file(join(testWeb.dir, 'README.md'));
  const problems = (uri: vscode.Uri) =>
    vscode.languages
      .getDiagnostics(uri)
      .filter((d) => d.source === 'HostLens links')
      .map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code as string}`);

  it('puts every finding in the Problems panel at its place', function () {
    assert.ok(report, 'the command returned a report');
    const expected = (file: string) =>
      report!.findings.filter((f) => f.file === file).map((f) => `${f.line}:${f.column} ${f.kind}`);
    // The slow host answers within the editor's 30 s: no timeout here.
    assert.deepEqual(problems(readme()), [
      '3:11 broken_link',
      `3:${report.findings[1].column} broken_link`,
      '4:8 redirected_link',
      '7:13 missing_fragment',
      '10:10 unresolvable_host',
      '11:9 registrable_domain',
      '12:7 expiring_domain',
      '13:46 broken_link',
      '14:43 missing_fragment',
      '14:73 broken_link',
      '20:11 unresolvable_host',
    ]);
    const zone = vscode.Uri.file(join(testWeb.dir, 'zones', 'corp.test.zone'));
    assert.deepEqual(problems(zone), expected('zones/corp.test.zone'));
    assert.equal(problems(zone).length, 3);
    // No exclude setting here: docs/skip.md is checked; build/ stays .gitignored.
    assert.deepEqual(problems(vscode.Uri.file(join(testWeb.dir, 'docs', 'skip.md'))), [
      '1:1 broken_link',
    ]);
    assert.deepEqual(problems(vscode.Uri.file(join(testWeb.dir, 'build', 'out.md'))), []);
    const severities = vscode.languages
      .getDiagnostics(readme())
      .filter((d) => d.code === 'registrable_domain' || d.code === 'redirected_link')
      .map((d) => d.severity);
    assert.deepEqual(severities, [
      vscode.DiagnosticSeverity.Warning,
      vscode.DiagnosticSeverity.Error,
    ]);
  });

  it('shows a summary node in the results view', function () {
    const node = api.deps.results.getChildren().find((n) => n.toTreeItem().label === 'Link check');
    assert.ok(node, 'a Link check node');
    assert.match(
      String(node.toTreeItem().description),
      /^11 errors, 4 warnings · \d+ URLs, \d+ hosts$/,
    );
    const kinds = node.children().map((c) => c.toTreeItem().label as string);
    assert.ok(kinds.includes('Domains anyone can register'), kinds.join(', '));
  });

  it('offers quick fixes: the final URL for a permanent redirect, WHOIS for an expiring domain', async function () {
    const document = await vscode.workspace.openTextDocument(readme());
    await vscode.window.showTextDocument(document);
    const moved = new vscode.Range(3, 7, 3, 8);
    const actions = await codeActionsUntil(document.uri, moved, (list) =>
      list.some((a) => a.title.startsWith('Replace with')),
    );
    const replace = actions.find((a) => a.title.startsWith('Replace with'));
    assert.ok(
      replace?.edit,
      `${actions.map((a) => a.title).join(', ')}; line 4: ${document.lineAt(3).text}; its problems: ${problems(
        document.uri,
      )
        .filter((p) => p.startsWith('4:'))
        .join(', ')}`,
    );
    assert.ok(await vscode.workspace.applyEdit(replace.edit));
    assert.equal(document.lineAt(3).text, `Moved: http://good.test:${testWeb.web.port}/ok`);
    const soon = await codeActionsUntil(document.uri, new vscode.Range(11, 6, 11, 7), (list) =>
      list.some((a) => a.title.startsWith('Open WHOIS')),
    );
    const whois = soon.find((a) => a.title === 'Open WHOIS of soon-hostlens-fixture.com');
    assert.ok(whois, soon.map((a) => a.title).join(', '));
    assert.deepEqual(
      whois.command?.arguments,
      ['soon-hostlens-fixture.com'],
      JSON.stringify(whois.command),
    );
  });

  it('checks a Markdown file again when it is saved', async function () {
    const document = await vscode.workspace.openTextDocument(readme());
    const editor = await vscode.window.showTextDocument(document);
    // The redirect was fixed above; now break a link and save.
    const edited = await editor.edit((e) =>
      e.insert(new vscode.Position(1, 0), `[new](http://good.test:${testWeb.web.port}/gone) `),
    );
    assert.ok(
      edited && document.isDirty,
      `the edit applied (${edited}, dirty ${document.isDirty})`,
    );
    // On save no command argument names the nameserver: the setting does. The extension
    // reads settings when VS Code announces the change, which may come after update()
    // resolves: the save waits for that announcement (its listener was registered first).
    const config = vscode.workspace.getConfiguration('hostlens');
    const announced = new Promise<void>((resolve) => {
      const sub = vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration('hostlens.dns.server')) return;
        sub.dispose();
        resolve();
      });
    });
    await config.update('dns.server', testWeb.dns.address, vscode.ConfigurationTarget.Global);
    await stage(announced, 'the dns.server change was never announced', 10_000);
    assert.equal(api.deps.settings().dnsServer, testWeb.dns.address);
    // The re-check says when it is over: no waiting on time, and a wrong answer shows at once.
    const saves: string[] = [];
    const saved = vscode.workspace.onDidSaveTextDocument((d) => saves.push(d.uri.toString()));
    const rechecked = new Promise<LinkRecheck>((resolve) => {
      const sub = api.linkCheck.onDidRecheck((event) => {
        if (event.uri.toString() !== document.uri.toString()) return;
        sub.dispose();
        resolve(event);
      });
    });
    try {
      const before = `dirty ${document.isDirty}, version ${document.version}`;
      assert.ok(
        await document.save(),
        `the document was saved (before: ${before}; after: dirty ${document.isDirty}, saves seen: ${saves.length})`,
      );
      const result = await stage(
        rechecked,
        () =>
          `no re-check ended; saves: ${saves.join(', ')}; problems: ${problems(document.uri).join(', ')}`,
      );
      assert.equal(result.error, undefined);
      const now = problems(document.uri);
      assert.ok(now.includes('2:7 broken_link'), now.join(', '));
      assert.ok(!now.some((p) => p.endsWith('redirected_link')), now.join(', '));
    } finally {
      saved.dispose();
      await config.update('dns.server', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});

/**
 * Waits for an event the test expects; should it never come, fails with what was seen instead
 * of mocha's bare timeout (the wait itself is on the event: the guard only names the stage).
 */
function stage<T>(event: Promise<T>, what: string | (() => string), ms = 40_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(typeof what === 'string' ? what : what())), ms);
  });
  return Promise.race([event, guard]).finally(() => clearTimeout(timer));
}
