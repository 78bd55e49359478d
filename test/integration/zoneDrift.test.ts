import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HostLensApi } from '../../src/editor/extension';
import type { ResultNode } from '../../src/editor/views/nodes/base';
import type { DriftResult } from '../../src/services/zone';
import { closedUdpPort } from '../support/knot';
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
  let api: HostLensApi;

  /** The results view's drift node of drift.test as label/description lines, depth-first. */
  function driftTree(): string[] {
    const host = api.deps.results
      .getChildren()
      .find(
        (n) =>
          n.toTreeItem().label === 'drift.test' &&
          n.toTreeItem().description === `@${knot!.server}`,
      );
    assert.ok(host, 'a results node for drift.test at the server');
    const drift = host.children().find((n) => n.toTreeItem().label === 'Zone drift');
    assert.ok(drift, 'a Zone drift node under it');
    const lines: string[] = [];
    const walk = (node: ResultNode, depth: number) => {
      const item = node.toTreeItem();
      lines.push(
        `${'  '.repeat(depth)}${typeof item.label === 'string' ? item.label : item.label?.label} | ${String(item.description)}`,
      );
      for (const child of node.children()) walk(child, depth + 1);
    };
    walk(drift, 0);
    return lines;
  }

  before(async function () {
    if (knotd === undefined) this.skip();
    knot = await startKnot(knotd, [{ name: 'drift.test', text: LIVE, transfer: true }]);
    api = (await vscode.extensions.getExtension('hostlens.hostlens')!.activate()) as HostLensApi;
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
    assert.deepEqual(driftTree(), [
      'Zone drift | matches the live zone',
      `  ${knot!.server} | serial 2026112305 (AXFR)`,
    ]);
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
    assert.deepEqual(driftTree(), [
      'Zone drift | 1 difference',
      `  ${knot!.server} | serial 2026112305 (AXFR)`,
      '    www.drift.test. A | different: file 3600 192.0.2.11 · live 3600 192.0.2.10',
    ]);
  });

  it('shows a server serving another serial than the file as stale in the results view', async () => {
    const editor = vscode.window.activeTextEditor!;
    await editor.edit((e) =>
      e.replace(
        document.lineAt(1).range,
        'drift.test. IN SOA ns1.drift.test. hostmaster.drift.test. 2026112306 3600 600 86400 300',
      ),
    );
    await vscode.commands.executeCommand<DriftResult>('hostlens.compareZoneWithLiveDns', {
      server: knot!.server,
    });
    const tree = driftTree();
    assert.equal(tree[0], 'Zone drift | 2 differences');
    assert.equal(tree[1], `  ${knot!.server} | serial 2026112305 (AXFR), not the file’s`);
    assert.deepEqual(
      tree
        .slice(2)
        .map((l) => l.split(' | ')[0].trim())
        .sort(),
      ['drift.test. SOA', 'www.drift.test. A'],
    );
  });

  it('with no nameserver answering, says so and keeps the diagnostics of the last compare', async () => {
    const before = vscode.languages
      .getDiagnostics(document.uri)
      .filter((d) => d.source === 'HostLens live DNS')
      .map((d) => [d.range.start.line, d.message]);
    assert.equal(before.length, 2, 'the previous compare left two drift diagnostics');
    const silent = `127.0.0.1:${await closedUdpPort()}`;
    // What the user is told, caught on its way to the notification area.
    const told: string[] = [];
    const window = vscode.window as unknown as Record<string, unknown>;
    const originals = new Map<string, unknown>();
    for (const name of ['showInformationMessage', 'showWarningMessage', 'showErrorMessage']) {
      originals.set(name, window[name]);
      window[name] = (message: string) => {
        told.push(`${name}: ${message}`);
        return Promise.resolve(undefined);
      };
    }
    let result: DriftResult;
    try {
      result = await vscode.commands.executeCommand<DriftResult>(
        'hostlens.compareZoneWithLiveDns',
        { server: silent },
      );
    } finally {
      for (const [name, original] of originals) window[name] = original;
    }
    assert.deepEqual(
      result.serials.map((s) => [s.server, s.serial]),
      [[silent, null]],
    );
    assert.equal(told.length, 1, told.join('\n'));
    assert.match(
      told[0],
      /^showErrorMessage: HostLens: could not compare drift\.test\.: no nameserver answered/,
    );
    assert.ok(!told[0].includes('matches'), told[0]);
    const after = vscode.languages
      .getDiagnostics(document.uri)
      .filter((d) => d.source === 'HostLens live DNS')
      .map((d) => [d.range.start.line, d.message]);
    assert.deepEqual(after, before);
    // No results node claims the file matches a server that never answered.
    const matching = api.deps.results
      .getChildren()
      .filter((n) => n.toTreeItem().description === `@${silent}`)
      .flatMap((n) => n.children())
      .map((n) => String(n.toTreeItem().description));
    assert.ok(!matching.some((d) => d.includes('matches')), matching.join('; '));
  });
});
