// The records of a zone as compact rows: numbers in one growing Int32Array (positions as line
// and column, owners and targets as ids of interned names), record data in wire form in one
// growing byte arena, and the canonical text in one array. A million records make a few arrays
// instead of millions of objects, so the heap stays near what the zone must hold and the
// collector has almost nothing to trace or move. Both the one-shot check and the editor's
// session hold their records here; a ZoneRecord object is made only when a caller asks for one
// (a check looking at an owner, the editor's features), and dies young.
import type { SourceRange, ZoneRecord } from './types';
import { genericText, printRdata } from '../dns/rdata/text';
import { specOf, typeName, TYPES, type FieldKind, type TypeSpec } from '../dns/rdata/types';
import { WireWriter } from '../dns/rdata/writer';

/** Strings held once each, numbered in order of arrival. */
export class Names {
  private readonly ids = new Map<string, number>();
  readonly text: string[] = [];
  /** the name asked last and its id: an owner's records come one after the other */
  private lastName = '';
  private lastId = -1;

  id(name: string): number {
    if (name === this.lastName) return this.lastId;
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.text.length;
      this.text.push(name);
      this.ids.set(name, id);
    }
    this.lastName = name;
    this.lastId = id;
    return id;
  }

  /**
   * The id of `name`, -1 for none. RecordRows.add asks it of every row's owner, target and
   * file alike, so its one call of id() has been taken before add is optimized: a target first
   * met later (a zone's NS after its addresses) no longer throws the optimized add away.
   */
  idOf(name: string | undefined): number {
    return name === undefined ? -1 : this.id(name);
  }

  /** The id of a name already held, or -1. */
  find(name: string): number {
    return this.ids.get(name) ?? -1;
  }

  get size(): number {
    return this.text.length;
  }
}

/** Where a token is: its line and columns. */
export interface Placed {
  line: number;
  start: number;
  end: number;
}

// The cells of a row.
const OWNER = 0; // display owner, a name id
const KEY = 1; // owner key (lower case), a name id
const TTL = 2; // unsigned, stored as its 32 bits
const TYPE = 3;
const TARGET = 4; // key of the name the record points at, or -1
const FILE = 5; // the included file's label, a name id, or -1
const WIRE_START = 6;
const WIRE_END = 7;
const LINE = 8;
const START = 9;
const END_LINE = 10;
const END = 11;
const OWNER_END = 12; // the owner token ends here, on LINE from START; -1 when not written
// Each token's place is three cells, line, start and end (setPlace, place).
const TTL_LINE = 13; // -1 when the TTL is not written
const TYPE_LINE = 16;
const TARGET_LINE = 19; // -1 when the record has no target token
const WIDTH = 22;

/** The SOA serial and where it is written (few records have one: kept apart from the rows). */
export interface Serial {
  serial: number;
  line: number;
  start: number;
  end: number;
}

/** A record as the entry parser hands it over. */
export interface RowInput {
  owner: string;
  key: string;
  ttl: number;
  typeCode: number;
  /** the canonical text; undefined when it is the wire form printed (readRdata's textFromWire) */
  data: string | undefined;
  /** the record data in wire form: wire[0, wireLength) */
  wire: Uint8Array;
  wireLength: number;
  target: string | undefined;
  file: string | undefined;
  /** the record's extent: from its first token to the end of its entry */
  line: number;
  start: number;
  endLine: number;
  end: number;
  ownerToken: Placed | undefined;
  ttlToken: Placed | undefined;
  typeToken: Placed;
  targetToken: Placed | undefined;
  serial: number | undefined;
  serialToken: Placed | undefined;
}

/**
 * The one RowInput the parsers fill for every record they hand over (the rows copy what it
 * holds): a zone of a million records made a million of them for the collector. One object for
 * both readers (entry.ts, plain-record.ts), so that add sees one shape.
 */
export const rowInput: RowInput = {
  owner: '',
  key: '',
  ttl: 0,
  typeCode: 0,
  data: '',
  wire: new Uint8Array(0),
  wireLength: 0,
  target: undefined,
  file: undefined,
  line: 0,
  start: 0,
  endLine: 0,
  end: 0,
  ownerToken: undefined,
  ttlToken: undefined,
  // shaped as the lexer's tokens it will hold, so the code that reads it sees one shape
  typeToken: { kind: 'word', text: '', start: 0, end: 0, line: 0 } as Placed,
  targetToken: undefined,
  serial: undefined,
  serialToken: undefined,
};

/**
 * Room to make at once for the rows of a zone text of `chars` characters, read in one go: a
 * row for every BYTES_PER_ROW characters (generated zones take about 30 a record, signed ones
 * 55 to 90) and as many octets of record data as characters (the wire form of a record's data
 * is never much longer than its text). The memory is only reserved: the system gives the
 * process a page when a row is first written to it, so room left unused is not resident. What
 * it saves is the doubling: each step copied every row so far into a new array whose pages
 * were all faulted in, and at the last step the two largest arrays were resident together
 * (measured: 10 to 13% fewer page faults for a 2 MB signed zone and the 50,000-record zone,
 * a peak 20 MB lower for 1,000,000 records). A text with more rows (short records, $GENERATE)
 * grows from there as before.
 */
export function roomFor(chars: number): { rows: number; wireOctets: number } {
  return {
    rows: Math.min(Math.ceil(chars / BYTES_PER_ROW), MOST_ROWS_AT_ONCE),
    wireOctets: Math.min(chars, MOST_OCTETS_AT_ONCE),
  };
}
const BYTES_PER_ROW = 24;
/**
 * The most room reserved at once (92 MB of cells, 64 MB of data): a text of hundreds of
 * megabytes (one long line, or mostly comments) is not taken at its size's word, and a system
 * that counts reserved memory against a limit is not asked for gigabytes.
 */
const MOST_ROWS_AT_ONCE = 1 << 20;
const MOST_OCTETS_AT_ONCE = 1 << 26;

export class RecordRows {
  readonly names = new Names();
  // The cells and the arena start small and double, unless told the room a text needs
  // (roomFor): their growth then runs in the first rows, before add is optimized, rather than
  // later in optimized code that has never seen it (which V8 throws away and compiles again);
  // a text that outgrows its room pays that once.
  private cells: Int32Array;
  /** every row's record data in wire form, one after the other */
  private readonly arena: WireWriter;
  /** the canonical text, kept only where the wire form cannot give it back (printedFrom) */
  private readonly data: (string | undefined)[] = [];
  private readonly serials = new Map<number, Serial>();
  /** rows in use; rows are never reused, a removed one is only marked dead */
  count = 0;
  dead = 0;

  constructor(room: { rows: number; wireOctets: number } = { rows: 16, wireOctets: 64 }) {
    this.cells = new Int32Array(WIDTH * Math.max(16, room.rows));
    this.arena = new WireWriter(Math.max(64, room.wireOctets));
  }

  add(r: RowInput): number {
    const row = this.count++;
    const base = row * WIDTH;
    if (base + WIDTH > this.cells.length) {
      const bigger = new Int32Array(this.cells.length * 2);
      bigger.set(this.cells);
      this.cells = bigger;
    }
    const c = this.cells;
    const names = this.names;
    const ownerId = names.idOf(r.owner);
    c[base + OWNER] = ownerId;
    // the key is mostly the owner itself, which id() answers from its last name
    c[base + KEY] = names.idOf(r.key);
    c[base + TTL] = r.ttl | 0;
    c[base + TYPE] = r.typeCode;
    c[base + TARGET] = names.idOf(r.target);
    c[base + FILE] = names.idOf(r.file);
    const wireStart = this.arena.reserve(r.wireLength);
    const arena = this.arena.buffer;
    // a signature or a key natively (hundreds of octets, a loop in script per octet cost more
    // than the view); the short data of most records octet by octet (no view made). The view
    // is a plain Uint8Array: Buffer's subarray is script of Node's (a Buffer made through its
    // constructor), which V8 optimized apart in every signed zone's check.
    if (r.wireLength > 64) {
      arena.set(new Uint8Array(r.wire.buffer, r.wire.byteOffset, r.wireLength), wireStart);
    } else for (let i = 0; i < r.wireLength; i++) arena[wireStart + i] = r.wire[i];
    c[base + WIRE_START] = wireStart;
    c[base + WIRE_END] = wireStart + r.wireLength;
    c[base + LINE] = r.line;
    c[base + START] = r.start;
    c[base + END_LINE] = r.endLine;
    c[base + END] = r.end;
    c[base + OWNER_END] = r.ownerToken === undefined ? -1 : r.ownerToken.end;
    setPlace(c, base + TTL_LINE, r.ttlToken);
    setPlace(c, base + TYPE_LINE, r.typeToken);
    setPlace(c, base + TARGET_LINE, r.targetToken);
    this.data.push(
      r.data !== undefined && printedFrom(r.typeCode) === undefined ? r.data : undefined,
    );
    if (r.serial !== undefined && r.serialToken !== undefined) {
      const { line, start, end } = r.serialToken;
      this.serials.set(row, { serial: r.serial, line, start, end });
    }
    return row;
  }

  /** Marks a row dead: its cells stay readable (the checks read what they remove), its text goes. */
  kill(row: number): void {
    this.data[row] = '';
    this.dead++;
  }

  key(row: number): number {
    return this.cells[row * WIDTH + KEY];
  }

  keyText(row: number): string {
    return this.names.text[this.cells[row * WIDTH + KEY]];
  }

  typeCode(row: number): number {
    return this.cells[row * WIDTH + TYPE];
  }

  /** the TTL's 32 bits (equal exactly when the TTLs are) */
  ttl(row: number): number {
    return this.cells[row * WIDTH + TTL];
  }

  /** the octets of the row's record data */
  wireLength(row: number): number {
    return this.cells[row * WIDTH + WIRE_END] - this.cells[row * WIDTH + WIRE_START];
  }

  /** the target's name id, or -1 */
  target(row: number): number {
    return this.cells[row * WIDTH + TARGET];
  }

  /** whether the row is of the checked file itself, not of an included one */
  inTopFile(row: number): boolean {
    return this.cells[row * WIDTH + FILE] === -1;
  }

  line(row: number): number {
    return this.cells[row * WIDTH + LINE];
  }

  /** the last line of the row's entry */
  endLine(row: number): number {
    return this.cells[row * WIDTH + END_LINE];
  }

  start(row: number): number {
    return this.cells[row * WIDTH + START];
  }

  /**
   * Whether two rows hold the same record data. Compared here, octet by octet: the checks ask
   * it of every pair of an owner's records of one type (an RRset's NS, a signed owner's RRSIGs),
   * which mostly differ in length or early on, and a native compare costs more than that.
   */
  wireEquals(a: number, b: number): boolean {
    const c = this.cells;
    const aStart = c[a * WIDTH + WIRE_START];
    const bStart = c[b * WIDTH + WIRE_START];
    const length = c[a * WIDTH + WIRE_END] - aStart;
    if (c[b * WIDTH + WIRE_END] - bStart !== length) return false;
    const arena = this.arena.buffer;
    for (let i = 0; i < length; i++) if (arena[aStart + i] !== arena[bStart + i]) return false;
    return true;
  }

  /** Whether row `a` starts after row `b` (by line, then column). */
  startsAfter(a: number, b: number): boolean {
    const c = this.cells;
    const lineA = c[a * WIDTH + LINE];
    const lineB = c[b * WIDTH + LINE];
    return lineA > lineB || (lineA === lineB && c[a * WIDTH + START] > c[b * WIDTH + START]);
  }

  /** Moves the rows [from, to) of the checked file (not those of included files) by `delta` lines. */
  shiftLines(from: number, to: number, delta: number): void {
    const c = this.cells;
    for (let row = from; row < to; row++) {
      const base = row * WIDTH;
      if (c[base + FILE] !== -1) continue;
      c[base + LINE] += delta;
      c[base + END_LINE] += delta;
      c[base + TYPE_LINE] += delta;
      if (c[base + TTL_LINE] !== -1) c[base + TTL_LINE] += delta;
      if (c[base + TARGET_LINE] !== -1) c[base + TARGET_LINE] += delta;
      const serial = this.serials.get(row);
      if (serial !== undefined) serial.line += delta;
    }
  }

  /** The record of a row as an object of its own (made on each call: callers keep it or not). */
  record(row: number): ZoneRecord {
    return new RowRecord(this, row);
  }

  /** Every row's cells (a row's start at row * WIDTH), for RowRecord. */
  get cellArray(): Int32Array {
    return this.cells;
  }

  /** The record data of a row in canonical text. */
  text(row: number): string {
    return this.data[row] ?? this.printed(row, this.cells[row * WIDTH + TYPE]);
  }

  /** The record data of a row in canonical wire form, hex. */
  wireHex(row: number): string {
    const c = this.cells;
    return this.arena.buffer.toString(
      'hex',
      c[row * WIDTH + WIRE_START],
      c[row * WIDTH + WIRE_END],
    );
  }

  serialOf(row: number): Serial | undefined {
    return this.serials.get(row);
  }

  /** The rows listed, in the order given, copied into a new table (dead rows dropped). */
  compacted(rows: Iterable<number>): RecordRows {
    const table = new RecordRows();
    for (const row of rows) {
      const r = this.record(row);
      table.add({
        owner: r.owner,
        key: r.key,
        ttl: r.ttl,
        typeCode: r.typeCode,
        data: r.data,
        wire: this.wire(row),
        wireLength: this.wire(row).length,
        target: r.target,
        file: r.file,
        line: r.range.line,
        start: r.range.start,
        endLine: r.range.endLine ?? r.range.line,
        end: r.range.end,
        ownerToken: r.ownerRange,
        ttlToken: r.ttlRange,
        typeToken: r.typeRange,
        targetToken: r.targetRange,
        serial: r.serial,
        serialToken: r.serialRange,
      });
    }
    return table;
  }

  /**
   * The canonical text of a row whose text is its wire form printed: by its type
   * (printedFrom), or as read (a DNSSEC record whose names were written in lower case).
   */
  private printed(row: number, code: number): string {
    const wire = this.wire(row);
    const spec = specOf(code);
    return spec === undefined
      ? genericText(wire)
      : printRdata(wire, 0, wire.length, spec, true).text;
  }

  /** The record data of a row in wire form (a view: valid until the next row is added). */
  wire(row: number): Uint8Array {
    const c = this.cells;
    return this.arena.buffer.subarray(c[row * WIDTH + WIRE_START], c[row * WIDTH + WIRE_END]);
  }
}

/**
 * A record of a row. What the checks read of every record (owner, type, TTL, target) is its
 * own from the start; the text, the wire form and the positions are made on first reading, so
 * the checks of a clean zone make no strings or ranges per record. As JSON (toJSON) it is the
 * plain ZoneRecord, every field in order.
 */
class RowRecord implements ZoneRecord {
  readonly owner: string;
  readonly key: string;
  readonly ttl: number;
  readonly type: string;
  readonly typeCode: number;
  readonly target: string | undefined;
  readonly serial: number | undefined;
  readonly file: string | undefined;
  readonly #rows: RecordRows;
  readonly #row: number;
  #data: string | undefined;
  #wire: string | undefined;
  #range: SourceRange | undefined;
  #typeRange: SourceRange | undefined;
  #ownerRange: SourceRange | null | undefined;
  #ttlRange: SourceRange | null | undefined;
  #targetRange: SourceRange | null | undefined;
  #serialRange: SourceRange | null | undefined;

  constructor(rows: RecordRows, row: number) {
    this.#rows = rows;
    this.#row = row;
    const c = rows.cellArray;
    const base = row * WIDTH;
    const text = rows.names.text;
    const code = c[base + TYPE];
    const target = c[base + TARGET];
    const file = c[base + FILE];
    this.owner = text[c[base + OWNER]];
    this.key = text[c[base + KEY]];
    this.ttl = c[base + TTL] >>> 0;
    this.type = typeName(code);
    this.typeCode = code;
    this.target = target === -1 ? undefined : text[target];
    this.serial = code === SOA_CODE ? rows.serialOf(row)?.serial : undefined;
    this.file = file === -1 ? undefined : text[file];
  }

  get data(): string {
    return (this.#data ??= this.#rows.text(this.#row));
  }

  get wire(): string {
    return (this.#wire ??= this.#rows.wireHex(this.#row));
  }

  get range(): SourceRange {
    if (this.#range === undefined) {
      const c = this.#rows.cellArray;
      const base = this.#row * WIDTH;
      const line = c[base + LINE];
      const start = c[base + START];
      this.#range = { line, start, endLine: c[base + END_LINE], end: c[base + END] };
    }
    return this.#range;
  }

  get typeRange(): SourceRange {
    return (this.#typeRange ??= this.#place(TYPE_LINE)!);
  }

  get ownerRange(): SourceRange | undefined {
    if (this.#ownerRange === undefined) {
      const c = this.#rows.cellArray;
      const base = this.#row * WIDTH;
      const end = c[base + OWNER_END];
      this.#ownerRange = end === -1 ? null : { line: c[base + LINE], start: c[base + START], end };
    }
    return this.#ownerRange ?? undefined;
  }

  get ttlRange(): SourceRange | undefined {
    if (this.#ttlRange === undefined) this.#ttlRange = this.#place(TTL_LINE) ?? null;
    return this.#ttlRange ?? undefined;
  }

  get targetRange(): SourceRange | undefined {
    if (this.#targetRange === undefined) this.#targetRange = this.#place(TARGET_LINE) ?? null;
    return this.#targetRange ?? undefined;
  }

  get serialRange(): SourceRange | undefined {
    if (this.#serialRange === undefined) {
      const serial = this.#rows.serialOf(this.#row);
      this.#serialRange =
        serial === undefined ? null : { line: serial.line, start: serial.start, end: serial.end };
    }
    return this.#serialRange ?? undefined;
  }

  /**
   * Whether this record's data equals `other`'s, compared as octets in the rows when both are
   * rows' records (no hex string made for either), else as the hex.
   */
  sameData(other: ZoneRecord): boolean {
    if (other instanceof RowRecord && other.#rows === this.#rows) {
      return this.#rows.wireEquals(this.#row, other.#row);
    }
    return this.wire === other.wire;
  }

  /** The octets of the record's data, read from the row. */
  get dataOctets(): number {
    const c = this.#rows.cellArray;
    const base = this.#row * WIDTH;
    return c[base + WIRE_END] - c[base + WIRE_START];
  }

  #place(cell: number): SourceRange | undefined {
    return place(this.#rows.cellArray, this.#row * WIDTH + cell);
  }

  /** The plain record, its fields in the order the parser always wrote them. */
  toJSON(): ZoneRecord {
    return {
      owner: this.owner,
      key: this.key,
      ttl: this.ttl,
      type: this.type,
      typeCode: this.typeCode,
      data: this.data,
      wire: this.wire,
      range: this.range,
      typeRange: this.typeRange,
      ownerRange: this.ownerRange,
      ttlRange: this.ttlRange,
      target: this.target,
      targetRange: this.targetRange,
      serial: this.serial,
      serialRange: this.serialRange,
      file: this.file,
    };
  }
}

const SOA_CODE = TYPES.SOA.code;

/**
 * Whether two records hold the same data: in the rows when they are rows' records (the checks
 * compare every pair of an owner's records of one type, and a hex string each is garbage).
 */
export function sameData(a: ZoneRecord, b: ZoneRecord): boolean {
  return a instanceof RowRecord ? a.sameData(b) : a.wire === b.wire;
}

/** The octets of a record's data. */
export function dataOctets(r: ZoneRecord): number {
  return r instanceof RowRecord ? r.dataOctets : r.wire.length / 2;
}

function setPlace(c: Int32Array, at: number, token: Placed | undefined): void {
  if (token === undefined) {
    c[at] = -1;
    return;
  }
  c[at] = token.line;
  c[at + 1] = token.start;
  c[at + 2] = token.end;
}

function place(c: Int32Array, at: number): SourceRange | undefined {
  const line = c[at];
  return line === -1 ? undefined : { line, start: c[at + 1], end: c[at + 2] };
}

/** printedFrom's answers by type code (a code is 16 bits): asked for every row added. */
const printable: (TypeSpec | null | undefined)[] = [];
const UNKNOWN = 0;
const printableKnown = new Uint8Array(65536);

/**
 * Field kinds whose canonical text is their wire form printed (none holds a name, whose case a
 * text may keep where the canonical wire form lowers it). A kind not listed keeps its text: a
 * new kind is safe until it is added here.
 */
const PRINTS_AS_READ = new Set<FieldKind>([
  ...(['u8', 'u16', 'u32', 'port', 'caa-flags', 'ttl', 'ipv4', 'ipv6'] as const),
  ...(['string', 'strings', 'caa-tag', 'caa-value', 'uri-target', 'string-opt'] as const),
  ...(['base64', 'hex', 'salt', 'b32hex', 'base64-opt', 'hex-upper', 'base64-dash'] as const),
  ...(['types', 'time', 'type', 'alg', 'alg-name', 'sig-type', 'date', 'cert-type'] as const),
  ...(['svcparams', 'loc', 'ilnp64', 'eui48', 'eui64', 'dsync-scheme', 'nsap', 'atma'] as const),
  ...(['apl', 'proto', 'wks-ports', 'nxt-types'] as const),
]);

/**
 * The spec to print a type's canonical text from its wire form with, null for a type the table
 * does not have (its text is RFC 3597's), undefined when the text must be kept. The type table's
 * tests hold every type to "the printed wire is the parser's text".
 */
function printedFrom(code: number): TypeSpec | null | undefined {
  if (printableKnown[code] !== UNKNOWN) return printable[code];
  const spec = specOf(code);
  const value =
    spec === undefined
      ? null
      : spec.fields.every((f) => PRINTS_AS_READ.has(f.kind))
        ? spec
        : undefined;
  printable[code] = value;
  printableKnown[code] = 1;
  return value;
}
