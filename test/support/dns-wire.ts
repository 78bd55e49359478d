// Hand-built DNS replies for tests that need bytes a well-behaved server never sends (a
// malformed record, a NUL inside a CAA value, records owned by another name). Names are
// ASCII and uncompressed; rdata is given as bytes.
export interface RawRecord {
  owner: string;
  type: number;
  ttl?: number;
  rdata: Buffer;
}

export function encodeName(name: string): Buffer {
  return labelsName(...name.split('.').filter((l) => l !== ''));
}

/** A name from its labels, each taken as raw bytes (dots and spaces inside labels allowed). */
export function labelsName(...labels: Array<string | Buffer>): Buffer {
  const bytes = labels.map((l) => (Buffer.isBuffer(l) ? l : Buffer.from(l, 'latin1')));
  return Buffer.concat([...bytes.flatMap((b) => [Buffer.from([b.length]), b]), Buffer.from([0])]);
}

export function rawReply(
  qname: string,
  qtype: number,
  answers: RawRecord[],
  options: { rcode?: number; id?: number; flags?: number } = {},
): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(options.id ?? 0, 0);
  header.writeUInt16BE((options.flags ?? 0x8180) | (options.rcode ?? 0), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  const question = Buffer.concat([encodeName(qname), u16(qtype), u16(1)]);
  const records = answers.map((a) =>
    Buffer.concat([
      encodeName(a.owner),
      u16(a.type),
      u16(1),
      u32(a.ttl ?? 300),
      u16(a.rdata.length),
      a.rdata,
    ]),
  );
  return Buffer.concat([header, question, ...records]);
}

export function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n, 0);
  return b;
}

export function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n, 0);
  return b;
}

/** CAA rdata: flags, tag length, tag, value bytes (RFC 8659 section 4.1). */
export function caaRdata(flags: number, tag: string, value: Buffer | string): Buffer {
  const tagBytes = Buffer.from(tag, 'latin1');
  return Buffer.concat([
    Buffer.from([flags, tagBytes.length]),
    tagBytes,
    Buffer.isBuffer(value) ? value : Buffer.from(value, 'utf8'),
  ]);
}

/** TXT rdata: each string behind its length octet. */
export function txtRdata(...strings: Buffer[]): Buffer {
  return Buffer.concat(strings.flatMap((s) => [Buffer.from([s.length]), s]));
}
