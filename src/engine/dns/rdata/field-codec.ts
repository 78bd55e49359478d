// What a field kind's codec does: presentation text to wire, wire to text, JSON and values. Its
// own module so the codecs of composite fields and names (composite.ts, name-field.ts) can
// implement it without importing the table of codecs that lists them.
import type { TokenReader, WireReader } from './reader';
import type { WireWriter } from './writer';

export interface FieldCodec {
  read(r: TokenReader, out: WireWriter): string;
  print(w: WireReader, out: WireWriter): string;
  /**
   * The field in the contract's JSON, set on `record` under `key`: a number for the number
   * kinds, names and character-strings in the contract's presentation, the printed text for
   * the rest.
   */
  json(w: WireReader, record: Record<string, unknown>, key: string): void;
  /**
   * The field as a value to compute with (the DNSSEC validator): numbers, names as lower-case
   * keys, octets (base64, hex, salt, hash) as a Buffer, a type bit map as type names, the
   * printed text for the rest.
   */
  value(w: WireReader): unknown;
}
