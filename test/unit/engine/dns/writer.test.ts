// WireWriter grows its buffer as record data is written into it: an octet written at the very
// moment it grows must land in the new buffer (u8 once read the buffer before reserving, and the
// octet went to the old one: a TXT string's length, an NSEC bit map's octet, came out as garbage).
import * as assert from 'node:assert/strict';
import { WireWriter } from '../../../../src/engine/dns/rdata/writer';
import { readRdata } from '../../../../src/engine/dns/rdata/text';
import { tokenizeLine } from '../../../../src/engine/zone/lexer';

describe('engine/dns rdata: WireWriter', () => {
  it('every octet written lands in the buffer, across each growth', () => {
    const out = new WireWriter(1);
    for (let i = 0; i < 300; i++) {
      if (i % 3 === 0) out.u8(i & 0xff);
      else if (i % 3 === 1) out.u16(i);
      else out.counted([i & 0xff, 7]);
    }
    const expected: number[] = [];
    for (let i = 0; i < 300; i++) {
      if (i % 3 === 0) expected.push(i & 0xff);
      else if (i % 3 === 1) expected.push(i >>> 8, i & 0xff);
      else expected.push(2, i & 0xff, 7);
    }
    assert.deepEqual([...out.buffer.subarray(0, out.length)], expected);
  });

  it('a TXT whose escaped string starts where the record buffer grows reads whole', () => {
    // 256 + 256 octets fill the parser's 512-octet buffer; the third string's length grows it
    const data = `"${'y'.repeat(255)}" "${'y'.repeat(255)}" "\\127\\128x"`;
    const parsed = readRdata('TXT', tokenizeLine(data).tokens, 'example.com.', undefined, true);
    assert.ok(!('code' in parsed));
    const wire = Buffer.from(parsed.wire.subarray(0, parsed.wireLength));
    assert.deepEqual([...wire.subarray(512)], [3, 0x7f, 0x80, 0x78]);
  });
});
