// TLS in VS Code: "Show TLS Certificate" on a loopback server whose chain comes from a test CA
// named in hostlens.tls.caFiles, the Certificate node with the chain under the host, and the
// same chain untrusted once the setting is gone. The link preview of an https page under that
// CA: its TLS section in the error view when the fetch fails on the certificate, and the page
// itself once the setting names the CA. "Check Certificates of Zone Names" on a zone file whose
// names resolve (hostlens.dns.server) to a loopback address where a TLS server listens on 443.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HostLensApi } from '../../src/editor/extension';
import type { ResultNode } from '../../src/editor/views/nodes/base';
import type { TlsEntry } from '../../src/editor/views/history';
import type { PanelOutcome } from '../../src/editor/panels/runView';
import type { ZoneCertificateReport } from '../../src/editor/zone/checkCertificates';
import { startDnsServer } from '../support/dns-server';
import { makeTestPki, type TestPki } from '../support/tls-pki';
import { serveHttpsPage, serveTls, type Listening } from '../support/tls-server';
import { serveZoneTls, ZONE_TLS_PKI, zoneTlsRecords } from '../support/zone-tls';

function label(node: ResultNode): string {
  const l = node.toTreeItem().label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

describe('TLS certificates in VS Code', function () {
  this.timeout(120_000);
  let api: HostLensApi;
  let pki: TestPki;
  let server: Listening;
  let site: Listening;
  const config = () => vscode.workspace.getConfiguration('hostlens');

  before(async function () {
    this.timeout(180_000);
    pki = makeTestPki(ZONE_TLS_PKI);
    server = await serveTls(pki.loopback);
    site = await serveHttpsPage(
      pki.loopback,
      '<html><head><title>Under a private CA</title></head><body></body></html>',
    );
    api = (await vscode.extensions.getExtension('hostlens.hostlens')!.activate()) as HostLensApi;
  });
  after(async () => {
    await config().update('tls.caFiles', undefined, vscode.ConfigurationTarget.Global);
    await config().update('dns.server', undefined, vscode.ConfigurationTarget.Global);
    await server?.close();
    await site?.close();
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

  async function preview(): Promise<[PanelOutcome, string]> {
    const outcome = await vscode.commands.executeCommand<PanelOutcome>(
      'hostlens.previewLink',
      `https://127.0.0.1:${site.port}/`,
    );
    const rendered = await outcome.rendered();
    assert.ok(rendered, 'the webview reported what it drew');
    assert.equal(rendered.scripts, 0);
    assert.equal(rendered.handlers, 0);
    const csp = /Content-Security-Policy" content="([^"]+)"/.exec(outcome.html)?.[1] ?? '';
    assert.match(csp, /^default-src 'none'; img-src data:;/);
    return [outcome, rendered.text];
  }

  it('a preview that fails on the certificate shows the TLS section that says why', async () => {
    await config().update('tls.caFiles', undefined, vscode.ConfigurationTarget.Global);
    const [outcome, text] = await preview();
    assert.equal(outcome.view.status, 'error');
    const tls = outcome.view.kind === 'preview' ? outcome.view.tls : undefined;
    assert.ok(tls && !('error' in tls), `a TLS result: ${JSON.stringify(tls)}`);
    assert.equal(tls.trusted, false);
    assert.match(text, /Could not get the link preview/);
    assert.match(text, /certificate is not trusted \(below\)/);
    assert.match(
      text,
      // the section title is drawn upper case (CSS), hence /i
      new RegExp(`TLS certificate ✗ Not trusted for 127\\.0\\.0\\.1:${site.port}`, 'i'),
    );
    const why = tls.problems.find((p) => p.severity === 'error');
    assert.ok(why, 'an error problem');
    assert.ok(text.includes(`${why.code}: ${why.message}`), text);
    assert.ok(text.includes('CN=HostLens Test Intermediate'), 'the chain as sent');
  });

  it('with the CA in hostlens.tls.caFiles the same page previews, its certificate trusted', async () => {
    await config().update('tls.caFiles', [pki.caFile], vscode.ConfigurationTarget.Global);
    const [outcome, text] = await preview();
    assert.equal(outcome.view.status, 'ready', JSON.stringify(outcome.view.error));
    assert.match(text, /Under a private CA/);
    assert.match(text, new RegExp(`✓ Trusted for 127\\.0\\.0\\.1:${site.port}`));
  });

  it('Check Certificates of Zone Names: expired, expires_soon and caa_mismatch on their lines', async function () {
    // The command looks up port 443, as it must; a loopback address of its own (127/8) keeps
    // two runs on one machine apart. Binding 443 needs root (as CI runs) or the capability.
    const address = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 250)}`;
    let tls: Listening;
    try {
      tls = await serveZoneTls(pki, { host: address, port: 443 });
    } catch (err) {
      if ((err as { code?: string }).code !== 'EACCES') throw err;
      console.log('      skipped: binding port 443 needs root or CAP_NET_BIND_SERVICE');
      this.skip();
    }
    const dns = await startDnsServer({ records: zoneTlsRecords(address) });
    const zone = [
      '$ORIGIN zone.test.',
      '$TTL 300',
      '@ SOA ns1.elsewhere.test. hostmaster 1 3600 600 86400 300',
      '@ NS ns1.elsewhere.test.',
      `good A ${address}`,
      `soon A ${address}`,
      `old A ${address}`,
      `strict A ${address}`,
      '',
    ].join('\n');
    const document = await vscode.workspace.openTextDocument({
      language: 'dns-zone',
      content: zone,
    });
    await vscode.window.showTextDocument(document);
    try {
      await config().update('tls.caFiles', [pki.caFile], vscode.ConfigurationTarget.Global);
      await config().update('dns.server', dns.address, vscode.ConfigurationTarget.Global);
      const report = await vscode.commands.executeCommand<ZoneCertificateReport>(
        'hostlens.checkZoneCertificates',
      );
      assert.equal(report.checked, 4);
      const found = (diagnostics: readonly vscode.Diagnostic[]) =>
        diagnostics.map((d) => [
          d.range.start.line,
          typeof d.code === 'object' ? d.code.value : d.code,
          d.severity,
          d.source,
        ]);
      const expected = [
        [5, 'expires_soon', vscode.DiagnosticSeverity.Warning, 'HostLens TLS'],
        [6, 'expired', vscode.DiagnosticSeverity.Warning, 'HostLens TLS'],
        [7, 'caa_mismatch', vscode.DiagnosticSeverity.Warning, 'HostLens TLS'],
      ];
      assert.deepEqual(found(report.diagnostics), expected);
      // the same warnings in the Problems of the document
      const shown = vscode.languages
        .getDiagnostics(document.uri)
        .filter((d) => d.source === 'HostLens TLS');
      assert.deepEqual(found(shown), expected);
      assert.equal(tls!.connections(), 4);
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      await config().update('dns.server', undefined, vscode.ConfigurationTarget.Global);
      await tls!.close();
      await dns.close();
    }
  });
});
