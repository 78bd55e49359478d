// The name field kind: a domain name of the record data, relative names completed with the
// origin. Its text keeps the case it was written in (as BIND prints it back); its wire form,
// the one records are compared by, is lower case, and so is the text printed from the wire
// when the reader asks for the canonical form.
import {
  keyText,
  nameText,
  nameToWire,
  isNameError,
  parseName,
  presentationText,
  readName,
} from '../names';
import type { FieldCodec } from './field-codec';
import { fail } from './reader';

export const name: FieldCodec = {
  read(r, out) {
    const at = r.index;
    const parsed = parseName(r.next('a name').text, r.origin);
    if (isNameError(parsed)) fail(parsed.code, parsed.message, at);
    nameToWire(parsed.key, out);
    if (parsed.text === parsed.key) return parsed.key;
    return presentationText(parsed.text);
  },
  print(w, out) {
    const { labels, next } = readName(w.message, w.at);
    if (next > w.end) w.malformed('a name runs past its record');
    w.at = next;
    const text = keyText(labels, w.lower);
    for (const label of labels) {
      out.u8(label.length);
      if (w.lower) for (const b of label) out.u8(b >= 0x41 && b <= 0x5a ? b + 0x20 : b);
      else out.octets(label);
    }
    out.u8(0);
    return text;
  },
  json(w, record, key) {
    const { labels, next } = readName(w.message, w.at);
    if (next > w.end) w.malformed('a name runs past its record');
    w.at = next;
    record[key] = nameText(labels);
  },
  value(w) {
    const { labels, next } = readName(w.message, w.at);
    if (next > w.end) w.malformed('a name runs past its record');
    w.at = next;
    return keyText(labels, true);
  },
};
