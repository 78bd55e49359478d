import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'hostlens.hostlens';

describe('extension shell', () => {
  it('activates without error', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is installed`);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it('registers its commands', async () => {
    const commands = await vscode.commands.getCommands(true);
    const ours = commands.filter((c) => c.startsWith('hostlens.'));
    const declared = (
      vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
        contributes: { commands: Array<{ command: string }> };
      }
    ).contributes.commands.map((c) => c.command);
    for (const id of declared) assert.ok(ours.includes(id), `${id} is registered`);
  });

  it('contributes the HostLens container, its results view and welcome content', () => {
    const contributes = (
      vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
        contributes: {
          viewsContainers: { activitybar: Array<{ id: string; title: string }> };
          views: Record<string, Array<{ id: string }>>;
          viewsWelcome: Array<{ view: string; contents: string }>;
        };
      }
    ).contributes;
    assert.deepEqual(
      contributes.viewsContainers.activitybar.map((c) => c.title),
      ['HostLens'],
    );
    assert.ok(contributes.views.hostlens?.some((v) => v.id === 'hostlens.results'));
    const welcome = contributes.viewsWelcome.find((w) => w.view === 'hostlens.results');
    assert.match(welcome?.contents ?? '', /command:hostlens\.lookUpDnsRecords/);
  });

  it('opens the results view, empty (so its welcome content shows) after Clear History', async () => {
    await vscode.commands.executeCommand('hostlens.clearHistory');
    await vscode.commands.executeCommand('workbench.view.extension.hostlens');
    await vscode.commands.executeCommand('hostlens.results.focus');
    const api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as {
      resultsTreeItemCount(): Promise<number>;
    };
    assert.equal(await api.resultsTreeItemCount(), 0);
  });
});
