// Replies in the character sets registries still use arrive as text, never as mojibake the
// panel would show: ISO-2022-JP by its shift sequences, the TLD's legacy set when the bytes are
// not UTF-8, Latin-1 as the last reading (it keeps every byte). Through the port-43 client too.
import assert from 'node:assert/strict';
import { decodeReply, lookupPort43 } from '../../../../src/engine/whois/port43';
import { startWhoisServer } from '../../../support/whois-server';

const bytes = (list: number[]): Uint8Array => Uint8Array.from(list);

describe('whois reply decoding', function () {
  it('reads ISO-2022-JP by its shift into JIS, whatever the TLD', function () {
    assert.equal(decodeReply(bytes([27, 36, 66, 70, 124, 75, 92, 27, 40, 66])), '日本');
  });

  it('reads bytes that are not UTF-8 in the TLD’s legacy set', function () {
    const kr = [181, 181, 184, 222, 192, 206, 192, 204, 184, 167, 58, 32, 191, 185, 193, 166];
    assert.equal(decodeReply(bytes(kr), 'kr'), '도메인이름: 예제');
    const cn = [211, 242, 195, 251, 58, 32, 192, 253, 215, 211];
    assert.equal(decodeReply(bytes(cn), 'cn'), '域名: 例子');
    const ru = [228, 207, 205, 197, 206, 58, 32, 208, 210, 201, 205, 197, 210];
    assert.equal(decodeReply(bytes(ru), 'ru'), 'Домен: пример');
    const jp = [165, 201, 165, 225, 165, 164, 165, 243, 204, 190];
    assert.equal(decodeReply(bytes(jp), 'jp'), 'ドメイン名');
  });

  it('keeps UTF-8 as UTF-8 and falls back to Latin-1 elsewhere', function () {
    assert.equal(
      decodeReply(Buffer.from('Nom de domaine: café.fr', 'utf8'), 'kr'),
      'Nom de domaine: café.fr',
    );
    assert.equal(decodeReply(bytes([0x63, 0x61, 0x66, 0xe9]), 'fr'), 'café');
    // not EUC-KR either (a lone lead byte): every byte kept
    assert.equal(decodeReply(bytes([0x41, 0xb5]), 'kr'), 'A\u00b5');
  });

  it('gives the port-43 client the TLD, so a Korean reply reads as Korean', async function () {
    const reply = Buffer.concat([
      Buffer.from('Domain Name: example.kr\r\nName Server: ns1.example.net\r\n'),
      Buffer.from([181, 238, 183, 207, 192, 206, 58, 32, 191, 185, 193, 166, 13, 10]),
    ]);
    const server = await startWhoisServer({ 'example.kr': reply });
    try {
      const got = await lookupPort43('example.kr', { serverOverride: server.address });
      assert.match(got.result.raw ?? '', /예제/);
    } finally {
      await server.close();
    }
  });
});
