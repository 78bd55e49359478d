// The host's gate for webview messages: only known shapes, whitelisted commands, http(s) links.
import assert from 'node:assert/strict';
import { parseWebviewMessage, safeExternalUrl } from '../../../../src/editor/panels/messages';

describe('parseWebviewMessage', () => {
  it('accepts the known messages', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(
      parseWebviewMessage({
        type: 'runCommand',
        command: 'hostlens.lookUpDnsRecords',
        arg: ' ns1.example.net ',
      }),
      { type: 'runCommand', command: 'hostlens.lookUpDnsRecords', arg: 'ns1.example.net' },
    );
    assert.deepEqual(parseWebviewMessage({ type: 'toggleRaw', shown: true }), {
      type: 'toggleRaw',
      shown: true,
    });
    assert.deepEqual(parseWebviewMessage({ type: 'copy', text: 'x' }), { type: 'copy', text: 'x' });
    assert.deepEqual(parseWebviewMessage({ type: 'openExternal', url: 'https://a.example/' }), {
      type: 'openExternal',
      url: 'https://a.example/',
    });
  });

  it('refuses commands off the list, odd arguments and unknown shapes', () => {
    for (const raw of [
      null,
      'ready',
      { type: 'eval' },
      { type: 'runCommand', command: 'workbench.action.terminal.sendSequence', arg: 'rm -rf /' },
      { type: 'runCommand', command: 'hostlens.whois', arg: { host: 'x' } },
      { type: 'runCommand', command: 'hostlens.whois', arg: '   ' },
      { type: 'runCommand', command: 'hostlens.whois', arg: 'a'.repeat(5000) },
      { type: 'openExternal', url: 'javascript:alert(1)' },
      { type: 'openExternal', url: 'file:///etc/passwd' },
      { type: 'openExternal', url: 'command:hostlens.whois' },
      { type: 'toggleRaw', shown: 'yes' },
      { type: 'copy', text: 1 },
      { type: 'rendered', summary: { seq: 1 } },
    ]) {
      assert.equal(parseWebviewMessage(raw), undefined, JSON.stringify(raw));
    }
  });

  it('accepts a complete rendered summary', () => {
    const summary = {
      seq: 3,
      kind: 'whois',
      status: 'ready',
      text: 't',
      links: [],
      highlights: [],
      images: [],
      scripts: 0,
      handlers: 0,
    };
    assert.deepEqual(parseWebviewMessage({ type: 'rendered', summary }), {
      type: 'rendered',
      summary,
    });
  });
});

describe('safeExternalUrl', () => {
  it('opens http and https only, without credentials', () => {
    assert.equal(safeExternalUrl('http://a.example/x?y=1'), 'http://a.example/x?y=1');
    assert.equal(safeExternalUrl('HTTPS://A.example'), 'https://a.example/');
    assert.equal(safeExternalUrl('https://user:pw@a.example/'), undefined);
    assert.equal(safeExternalUrl('vscode://settings'), undefined);
    assert.equal(safeExternalUrl('not a url'), undefined);
    assert.equal(safeExternalUrl(`https://a.example/${'x'.repeat(9000)}`), undefined);
  });
});
