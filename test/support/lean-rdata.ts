// The zone parser reads the data of some types the lean way (readRdata with textFromWire: the
// wire form only, its text printed from it when asked) and falls back to the codecs for the
// rest. Tests of the lean readers hold both ways to one answer with this.
import { printRdata, readRdata } from '../../src/engine/dns/rdata/text';
import { typeSpec } from '../../src/engine/dns/rdata/types';
import { tokenizeLine } from '../../src/engine/zone/lexer';

/** The codecs' and the lean path's wire form (hex) and text, or error, of one record's data. */
export function bothWays(type: string, data: string, origin = 'example.com.') {
  const tokens = tokenizeLine(data).tokens;
  const codecs = readRdata(type, tokens, origin);
  const codecsResult =
    'code' in codecs
      ? codecs
      : {
          wire: Buffer.from(codecs.wire.subarray(0, codecs.wireLength)).toString('hex'),
          data: codecs.data,
        };
  const lean = readRdata(type, tokens, origin, undefined, true);
  if ('code' in lean) return { codecs: codecsResult, lean, textless: false };
  const wire = Buffer.from(lean.wire.subarray(0, lean.wireLength));
  const text = lean.data ?? printRdata(wire, 0, wire.length, typeSpec(type)!, true).text;
  return {
    codecs: codecsResult,
    lean: { wire: wire.toString('hex'), data: text },
    textless: lean.data === undefined,
  };
}
