import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostLensApi } from '../../src/editor/extension';
import { startServer, type RunningServer } from '../../src/server';
import { EmbeddedServices } from '../../src/services/embedded';
import type { DnsLookupEntry } from '../../src/editor/views/history';
import { loadZoneFile, startDnsServer, type DnsFixture } from '../support/dns-server';

const root = process.env.HOSTLENS_PROJECT_ROOT ?? path.resolve(__dirname, '..', '..', '..');
const TOKEN = 'integration-token-0123456789abcdef';

describe('remote backend in VS Code', () => {
  let dns: DnsFixture;
  let server: RunningServer;
  let api: HostLensApi;
  const config = () => vscode.workspace.getConfiguration('hostlens');

  before(async () => {
    dns = await startDnsServer({
      records: loadZoneFile(path.join(root, 'test', 'fixtures', 'zones', 'example.test.zone')),
    });
    server = await startServer({ services: new EmbeddedServices(), tokens: [TOKEN], port: 0 });
    api = (await vscode.extensions.getExtension('hostlens.hostlens')!.activate()) as HostLensApi;
    await config().update('dns.server', dns.address, vscode.ConfigurationTarget.Global);
    await config().update(
      'domainApiBaseUrl',
      `${server.url}/domain`,
      vscode.ConfigurationTarget.Global,
    );
    await config().update(
      'metaApiBaseUrl',
      `${server.url}/meta`,
      vscode.ConfigurationTarget.Global,
    );
    await vscode.commands.executeCommand('hostlens.chooseBackend', 'remote');
    await vscode.commands.executeCommand('hostlens.clearHistory');
  });

  after(async () => {
    await vscode.commands.executeCommand('hostlens.chooseBackend', 'embedded');
    await vscode.commands.executeCommand('hostlens.clearApiToken');
    for (const key of ['dns.server', 'domainApiBaseUrl', 'metaApiBaseUrl']) {
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    }
    await server.close();
    await dns.close();
  });

  it('asks for a token when there is none', async () => {
    assert.equal(api.backend.kind(), 'remote');
    const before = api.backend.unauthorizedPrompts;
    const entry = await vscode.commands.executeCommand<DnsLookupEntry>(
      'hostlens.lookUpDnsRecords',
      {
        host: 'example.test',
        types: ['A'],
      },
    );
    assert.equal(entry.error?.code, 'unauthorized');
    assert.equal(api.backend.unauthorizedPrompts, before + 1);
  });

  it('fills the tree through the hosted service with the token', async () => {
    await vscode.commands.executeCommand('hostlens.setApiToken', TOKEN);
    await waitFor(() => api.backend.hasToken());
    const entry = await vscode.commands.executeCommand<DnsLookupEntry>(
      'hostlens.lookUpDnsRecords',
      {
        host: 'example.test',
        types: ['A', 'MX'],
      },
    );
    assert.equal(entry.error, undefined);
    assert.deepEqual(
      entry.result?.records.map((r) => `${r.type} ${r.value}`),
      ['A 192.0.2.10', 'A 192.0.2.11', 'MX mail.example.test.', 'MX mail2.example.test.'],
    );
    // The newest look-up leads the history (a link check from an earlier suite stays pinned above it).
    const [host] = api.deps.results
      .getChildren()
      .filter((node) => node.toTreeItem().contextValue !== 'linkCheck');
    assert.equal(host?.toTreeItem().label, 'example.test');
  });

  it('prompts once for a new token when the service rejects it', async () => {
    await vscode.commands.executeCommand('hostlens.setApiToken', 'a-wrong-token-0123456789abcdef');
    await waitFor(() => api.backend.hasToken());
    const before = api.backend.unauthorizedPrompts;
    for (let i = 0; i < 2; i++) {
      const entry = await vscode.commands.executeCommand<DnsLookupEntry>(
        'hostlens.lookUpDnsRecords',
        {
          host: 'example.test',
          types: ['A'],
        },
      );
      assert.equal(entry.error?.code, 'unauthorized');
      assert.doesNotMatch(JSON.stringify(entry), /wrong-token/);
    }
    assert.equal(api.backend.unauthorizedPrompts, before + 1);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in 5 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}
