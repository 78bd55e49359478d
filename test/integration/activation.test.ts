// Activation loads the editor part alone (dist/extension.js), and the engine (dist/engine.js)
// on the first look-up (issue 24). This file sorts first, so it activates the extension
// itself: the time activate() takes is printed in the test's title, as the README quotes it.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostLensApi } from '../../src/editor/extension';

const EXTENSION_ID = 'hostlens.hostlens';

/** Whether the extension host has loaded one of the extension's bundles. */
function loaded(extension: vscode.Extension<unknown>, bundle: string): boolean {
  const file = path.join(extension.extensionPath, 'dist', bundle);
  return Object.keys(require.cache).some((key) => path.resolve(key) === file);
}

describe('activation', () => {
  it('loads the editor part alone; the engine on the first look-up', async function () {
    const extension = vscode.extensions.getExtension<HostLensApi>(EXTENSION_ID)!;
    const wasActive = extension.isActive;
    const started = performance.now();
    const api = await extension.activate();
    const ms = performance.now() - started;
    this.test!.title += wasActive
      ? ' (already active: no activation time)'
      : ` (activate: ${ms.toFixed(0)} ms)`;
    assert.ok(loaded(extension, 'extension.js'), 'the editor part is loaded');
    assert.ok(!loaded(extension, 'engine.js'), 'the engine waits for a look-up');
    // A host the engine refuses: the look-up loads the engine and asks no nameserver.
    await assert.rejects(api.deps.services().domain.query({ host: 'not a host!' }), (err: Error) =>
      /host/i.test(err.message),
    );
    assert.ok(loaded(extension, 'engine.js'), 'the first look-up loaded the engine');
  });
});
