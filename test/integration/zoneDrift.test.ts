import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DriftResult } from '../../src/services/zone';
import { findKnotd, startKnot, type KnotServer } from '../support/knot-zones';

const LIVE = `$TTL 3600
drift.test. IN SOA ns1.drift.test. hostmaster.drift.test. 2026112305 3600 600 86400 300
drift.test. IN NS ns1.drift.test.
ns1.drift.test. IN A 192.0.2.1
www.drift.test. IN A 192.0.2.10
`;

describe('Compare Zone with Live DNS', function () {
  this.timeout(30000);
  const knotd = findKnotd();
  let knot: KnotServer | undefined;
  let document: vscode.TextDocument;

  before(async function () {
    if (knotd === undefined) this.skip();
    knot = await startKnot(knotd, [{ name: 'drift.test', text: LIVE, transfer: true }]);
    await vscode.extensions.getExtension('hostlens.hostlens')!.activate();
    document = await vscode.workspace.openTextDocument({ language: 'dns-zone', content: LIVE });
    await vscode.window.showTextDocument(document);
  });

  after(async () => {
    if (document !== undefined) {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await knot?.close();
  });

  it('finds no drift when the file is what the server serves', async () => {
    const result = await vscode.commands.executeCommand<DriftResult>(
      'hostlens.compareZoneWithLiveDns',
      { server: knot!.server },
    );
    assert.deepEqual(result.drift, []);
    assert.deepEqual(
      result.serials.map((s) => [s.serial, s.method]),
      [[2026112305, 'axfr']],
    );
  });

  it('shows each difference as a diagnostic on its line', async () => {
    const editor = vscode.window.activeTextEditor!;
    await editor.edit((e) =>
      e.replace(document.lineAt(4).range, 'www.drift.test. IN A 192.0.2.11'),
    );
    const result = await vscode.commands.executeCommand<DriftResult>(
      'hostlens.compareZoneWithLiveDns',
      { server: knot!.server },
    );
    assert.deepEqual(
      result.drift.map((d) => `${d.kind} ${d.name} ${d.type} ${d.file} | ${d.live}`),
      ['changed www.drift.test. A 3600 192.0.2.11 | 3600 192.0.2.10'],
    );
    const drift = vscode.languages
      .getDiagnostics(document.uri)
      .filter((d) => d.source === 'HostLens live DNS');
    assert.deepEqual(
      drift.map((d) => [d.range.start.line, d.message]),
      [[4, `www.drift.test. A: ${knot!.server} serves 3600 192.0.2.10`]],
    );
  });
});
