// Record data in wire form as it is built. A zone of 50,000 records made a growing array of
// numbers per record and then a Buffer of it for the hex; one buffer reused record after record
// (grown when a record needs more) is read out as hex directly.

export class WireWriter {
  buffer: Buffer;
  length = 0;

  constructor(initialBytes = 512) {
    this.buffer = Buffer.allocUnsafe(initialBytes);
  }

  reset(): void {
    this.length = 0;
  }

  /** Room for `count` more octets: where they go in `buffer`. */
  reserve(count: number): number {
    const at = this.length;
    if (at + count > this.buffer.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, at + count));
      this.buffer.copy(bigger, 0, 0, at);
      this.buffer = bigger;
    }
    this.length = at + count;
    return at;
  }

  u8(value: number): void {
    // reserved first: `this.buffer[this.reserve(1)]` reads the buffer before reserve may
    // replace it, and the octet went to the old one
    const at = this.reserve(1);
    this.buffer[at] = value;
  }

  u16(value: number): void {
    const at = this.reserve(2);
    this.buffer[at] = value >>> 8;
    this.buffer[at + 1] = value & 0xff;
  }

  u32(value: number): void {
    const at = this.reserve(4);
    this.buffer.writeUInt32BE(value >>> 0, at);
  }

  octets(values: ArrayLike<number>): void {
    const at = this.reserve(values.length);
    for (let i = 0; i < values.length; i++) this.buffer[at + i] = values[i];
  }

  /** A length octet, then the octets. */
  counted(values: ArrayLike<number>): void {
    this.u8(values.length);
    this.octets(values);
  }

  hex(): string {
    return this.buffer.toString('hex', 0, this.length);
  }
}
