// The two inputs a field codec reads from: presentation tokens (a zone file's record data) and
// wire octets (a message's or a transfer's record data), each with the failure it reports.
import { MalformedMessage } from '../errors';

/** One token of presentation text, as the master-file lexer of zone/ makes them. */
export interface Token {
  kind: 'word' | 'quoted' | 'open' | 'close';
  /** the token as written: escapes kept, the quotes of a quoted string dropped */
  text: string;
  start: number;
  end: number;
}

export interface RdataError {
  code: string;
  message: string;
  /** index of the offending token; the token count when input ended too early */
  token: number;
}

export class RdataFailure extends Error {
  constructor(readonly failure: RdataError) {
    super(failure.message);
  }
}

/**
 * Thrown by a codec's `print` for data that is valid on the wire but has no presentation form
 * of its type (an AMTRELAY relay type past 3): the record is printed in the RFC 3597 form, as
 * BIND prints it.
 */
export class NoPresentation extends Error {}

export function fail(code: string, message: string, token: number): never {
  throw new RdataFailure({ code, message, token });
}

/** The tokens of one record's data, read field by field. */
export class TokenReader {
  index = 0;
  constructor(
    readonly tokens: Token[],
    readonly origin: string | undefined,
    /**
     * 'bind': the text in the form BIND's master-file dump writes (hex in capitals, base64 and
     * hex in pieces of 56 characters) rather than the canonical one
     */
    readonly style?: 'bind',
  ) {}
  done(): boolean {
    return this.index >= this.tokens.length;
  }
  next(what: string): Token {
    const token = this.tokens[this.index];
    if (token === undefined) fail('missing-rdata', `missing ${what}`, this.index);
    this.index++;
    return token;
  }
  /** every token left, for the fields that run to the end */
  rest(what: string): Token[] {
    if (this.done()) fail('missing-rdata', `missing ${what}`, this.index);
    const out = this.tokens.slice(this.index);
    this.index = this.tokens.length;
    return out;
  }
}

/**
 * The record data of one record inside its message (names in it may point anywhere in the
 * message), read field by field. Running past the record's end is a malformed message.
 */
export class WireReader {
  constructor(
    readonly message: Uint8Array,
    public at: number,
    readonly end: number,
    /** whether names come out in lower case (the canonical forms of RFC 4034 section 6.2) */
    readonly lower: boolean,
  ) {}

  take(count: number, what: string): Uint8Array {
    if (this.at + count > this.end) throw new MalformedMessage(`${what} runs past its record`);
    const out = this.message.subarray(this.at, this.at + count);
    this.at += count;
    return out;
  }

  u8(what: string): number {
    return this.take(1, what)[0];
  }

  u16(what: string): number {
    const b = this.take(2, what);
    return (b[0] << 8) | b[1];
  }

  u32(what: string): number {
    const b = this.take(4, what);
    return ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
  }

  /** a length octet and that many octets */
  counted(what: string): Uint8Array {
    return this.take(this.u8(what), what);
  }

  rest(): Uint8Array {
    return this.take(this.end - this.at, 'data');
  }

  done(): boolean {
    return this.at >= this.end;
  }

  malformed(why: string): never {
    throw new MalformedMessage(why);
  }
}
