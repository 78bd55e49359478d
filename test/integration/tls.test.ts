// TLS in VS Code: "Show TLS Certificate" on a loopback server whose chain comes from a test CA
// named in hostlens.tls.caFiles, the Certificate node with the chain under the host, and the
// same chain untrusted once the setting is gone.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HostLensApi } from '../../src/editor/extension';
import type { ResultNode } from '../../src/editor/views/nodes/base';
import type { TlsEntry } from '../../src/editor/views/history';
import { makeTestPki, type TestPki } from '../support/tls-pki';
import { serveTls, type Listening } from '../support/tls-server';

function label(node: ResultNode): string {
  const l = node.toTreeItem().label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

describe('TLS certificates in VS Code', function () {
  this.timeout(120_000);
  let api: HostLensApi;
  let pki: TestPki;
  let server: Listening;
  const config = () => vscode.workspace.getConfiguration('hostlens');

  before(async function () {
    this.timeout(180_000);
    pki = makeTestPki({ hostile: false });
    server = await serveTls(pki.loopback);
    api = (await vscode.extensions.getExtension('hostlens.hostlens')!.activate()) as HostLensApi;
  });
  after(async () => {
    await config().update('tls.caFiles', undefined, vscode.ConfigurationTarget.Global);
    await server?.close();
    pki?.close();
  });

  it('shows the chain under the host as a Certificate node, trusted through hostlens.tls.caFiles', async () => {
    await config().update('tls.caFiles', [pki.caFile], vscode.ConfigurationTarget.Global);
    const target = `127.0.0.1:${server.port}`;
    const entry = await vscode.commands.executeCommand<TlsEntry>(
      'hostlens.showCertificate',
      target,
    );
    assert.equal(entry.error, undefined, JSON.stringify(entry.error));
    assert.equal(entry.result?.trusted, true, JSON.stringify(entry.result?.problems));
    const host = api.deps.results.getChildren().find((n) => label(n) === '127.0.0.1');
    assert.ok(host, 'a host node for 127.0.0.1');
    const certificate = host
      .children()
      .find((n) => label(n) === `Certificate (port ${server.port})`);
    assert.ok(certificate, `children: ${host.children().map(label).join(', ')}`);
    assert.match(
      String(certificate.toTreeItem().description),
      /^trusted · \d+ days left · TLSv1\.3/,
    );
    const chain = certificate.children().map(label);
    assert.deepEqual(chain.slice(-2), ['CN=loopback', 'CN=HostLens Test Intermediate']);
    const leaf = certificate.children().find((n) => label(n) === 'CN=loopback')!;
    assert.ok(leaf.children().map(label).includes('SHA-256'));
  });

  it('without the setting the same chain is untrusted, and the node says why', async () => {
    await config().update('tls.caFiles', undefined, vscode.ConfigurationTarget.Global);
    const entry = await vscode.commands.executeCommand<TlsEntry>(
      'hostlens.showCertificate',
      `127.0.0.1:${server.port}`,
    );
    assert.equal(entry.result?.trusted, false);
    const errors = entry.result?.problems.filter((p) => p.severity === 'error') ?? [];
    assert.ok(errors.length > 0, 'an error says why');
    const host = api.deps.results.getChildren().find((n) => label(n) === '127.0.0.1');
    const certificate = host?.children().find((n) => label(n).startsWith('Certificate'));
    assert.match(String(certificate?.toTreeItem().description), /^not trusted/);
    assert.ok(certificate?.children().some((n) => n.value() === errors[0].message));
  });
});
