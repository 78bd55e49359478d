import assert from 'node:assert/strict';
import { statusMeaning } from '../../../src/webview/epp';

describe('status meanings', () => {
  it('knows EPP codes in the result spelling, RDAP spelling and with the ICANN URL appended', () => {
    assert.equal(statusMeaning('clienttransferprohibited').label, 'clientTransferProhibited');
    assert.equal(statusMeaning('clientTransferProhibited').tone, 'lock');
    assert.equal(
      statusMeaning('clienttransferprohibitedhttps://icann.org/epp#clienttransferprohibited').label,
      'clientTransferProhibited',
    );
    assert.equal(statusMeaning('server hold').label, 'serverHold');
    assert.equal(statusMeaning('serverhold').tone, 'problem');
    assert.equal(statusMeaning('redemptionperiod').tone, 'problem');
    assert.equal(statusMeaning('ok').tone, 'ok');
    for (const code of ['addperiod', 'autorenewperiod', 'pendingdelete', 'inactive', 'active']) {
      assert.notEqual(statusMeaning(code).meaning, statusMeaning('nonsense').meaning, code);
    }
  });

  it('gives unknown registry values a neutral note and keeps the value', () => {
    const m = statusMeaning('Registrar-Lock-Extra');
    assert.equal(m.label, 'Registrar-Lock-Extra');
    assert.equal(m.tone, 'info');
    assert.match(m.meaning, /Registry-specific/);
  });
});
