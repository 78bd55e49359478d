// Whether a JPEG decodes, not only whether its frame header names a size (ITU-T T.81). The
// marker segments from SOI to EOI are parsed (annex B), and every scan's entropy-coded data is
// Huffman-decoded (annexes F.2.2 and G.1.2) down to each block's coefficients, without
// dequantisation, inverse DCT or colour conversion: decoding the entropy-coded data is what
// fails on a damaged or lying JPEG, and it costs a tenth of a full decode with no pixel memory.
// The scans must cover every block the frame header implies. jpeg-js (a full decoder) is the
// reference this check is tested against (test/unit/engine/web/jpeg-check.test.ts).
import { fitsRgba, type Dimensions } from './decode-bounds';

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const DQT = 0xdb;
const DNL = 0xdc;
const DRI = 0xdd;
const DHT = 0xc4;
const COM = 0xfe;
/** Frame headers of the Huffman-coded DCT processes: baseline, extended, progressive. */
const SOF_BASELINE = 0xc0;
const SOF_EXTENDED = 0xc1;
const SOF_PROGRESSIVE = 0xc2;
const isRestart = (marker: number) => marker >= 0xd0 && marker <= 0xd7;
const isApp = (marker: number) => marker >= 0xe0 && marker <= 0xef;

/**
 * The scans visit the frame's blocks at most this many times each on average, so that a
 * progressive JPEG of hundreds of scans cannot make the check cost what a full decode of a
 * far larger image would (libjpeg-turbo's -maxscans answers the same threat). libjpeg's
 * progression codes a block in 4 to 6 scans; a DC scan, two AC bands and a refinement of
 * each per bit down to Al = 0 from Al = 2 (G.1.1.1) is 9.
 */
const MAX_BLOCK_VISITS_PER_BLOCK = 16;

export function isJpeg(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === SOI && bytes[2] === 0xff;
}

/** The frame's size when the JPEG is whole from SOI to EOI and its scans decode; else undefined. */
export function jpegSize(bytes: Uint8Array): Dimensions | undefined {
  const verdict = jpegCheck(bytes);
  return typeof verdict === 'string' ? undefined : verdict;
}

/** The frame's size when the JPEG decodes, else why not (a short phrase, for tests). */
export function jpegCheck(bytes: Uint8Array): Dimensions | string {
  if (!isJpeg(bytes)) return 'not a JPEG';
  try {
    return checkJpeg(bytes);
  } catch (err) {
    if (err instanceof NotDecodable) return err.message;
    throw err;
  }
}

/** Why a JPEG does not decode: thrown by the check, caught in jpegCheck. */
class NotDecodable extends Error {}

function fail(reason: string): never {
  throw new NotDecodable(reason);
}

interface Component {
  id: number;
  h: number;
  v: number;
  quantTable: number;
  /** Blocks across and down that hold samples (A.1.1), and the MCU grid's (A.2.4). */
  blocksWide: number;
  blocksHigh: number;
  gridWide: number;
  /** Progressive only: per block, two 32-bit masks of the coefficients already non-zero. */
  nonZero?: Uint32Array;
  /** Whether a scan has coded it (sequential) or its DC first (progressive). */
  coded: boolean;
}

interface Frame extends Dimensions {
  progressive: boolean;
  components: Component[];
  mcusWide: number;
  mcusHigh: number;
  blockVisitsLeft: number;
}

function checkJpeg(buf: Uint8Array): Dimensions {
  let frame: Frame | undefined;
  const quantTables = [false, false, false, false];
  const dcTables: Array<HuffmanTable | undefined> = [];
  const acTables: Array<HuffmanTable | undefined> = [];
  let restartInterval = 0;
  let at = 2;
  for (;;) {
    // A marker is 0xFF, any number of 0xFF fill bytes, then its code (B.1.1.2).
    if (at >= buf.length || buf[at] !== 0xff) fail('marker expected');
    while (at < buf.length && buf[at] === 0xff) at += 1;
    if (at >= buf.length) fail('cut');
    const marker = buf[at];
    at += 1;
    if (marker === EOI) break;
    if (at + 2 > buf.length) fail('cut');
    const length = (buf[at] << 8) | buf[at + 1];
    if (length < 2 || at + length > buf.length) fail('segment length');
    const segment = buf.subarray(at + 2, at + length);
    at += length;
    if (marker === SOF_BASELINE || marker === SOF_EXTENDED || marker === SOF_PROGRESSIVE) {
      if (frame) fail('second frame'); // one frame per image (B.2.1)
      frame = frameHeader(marker, segment);
    } else if (marker === DQT) defineQuantTables(segment, quantTables);
    else if (marker === DHT) defineHuffmanTables(segment, dcTables, acTables);
    else if (marker === DRI) {
      if (segment.length !== 2) fail('DRI length');
      restartInterval = (segment[0] << 8) | segment[1]; // 0 turns restarts off (B.2.4.4)
    } else if (marker === SOS) {
      if (!frame) fail('scan before frame');
      const scan = scanHeader(segment, frame, quantTables, dcTables, acTables);
      at = decodeScan(buf, at, frame, scan, restartInterval);
    } else if (!(isApp(marker) || marker === COM || marker === DNL)) {
      // Other SOFn are processes not decoded here (arithmetic, lossless, hierarchical); the
      // rest are reserved or belong to them (table B.1), and decoders refuse them too.
      fail('marker not decoded here');
    }
  }
  if (!frame || !frame.components.every((c) => c.coded)) fail('component not coded');
  return { width: frame.width, height: frame.height };
}

/** SOF (B.2.2): precision, lines, samples per line, then 1 to 4 components of 3 bytes. */
function frameHeader(marker: number, segment: Uint8Array): Frame {
  if (segment.length < 6) fail('SOF length');
  const precision = segment[0];
  // Table B.2: 8-bit samples in baseline, 8 or 12 in the extended and progressive processes.
  if (precision !== 8 && !(precision === 12 && marker !== SOF_BASELINE)) fail('sample precision');
  const height = (segment[1] << 8) | segment[2];
  const width = (segment[3] << 8) | segment[4];
  const count = segment[5];
  if (count < 1 || count > 4 || segment.length !== 6 + 3 * count) fail('SOF length');
  // A height of 0 is defined later by a DNL segment (B.2.5), which no browser decodes.
  if (!fitsRgba(width, height)) fail('frame size');
  const components: Component[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = segment[6 + 3 * i];
    const h = segment[7 + 3 * i] >> 4;
    const v = segment[7 + 3 * i] & 15;
    const quantTable = segment[8 + 3 * i];
    if (h < 1 || h > 4 || v < 1 || v > 4 || quantTable > 3) fail('sampling factor or table');
    if (components.some((c) => c.id === id)) fail('duplicate component');
    components.push({
      id,
      h,
      v,
      quantTable,
      blocksWide: 0,
      blocksHigh: 0,
      gridWide: 0,
      coded: false,
    });
  }
  const hMax = Math.max(...components.map((c) => c.h));
  const vMax = Math.max(...components.map((c) => c.v));
  const mcusWide = Math.ceil(width / (8 * hMax));
  const mcusHigh = Math.ceil(height / (8 * vMax));
  let blocks = 0;
  for (const c of components) {
    // A.1.1: a component has ceil(X * H / Hmax) samples across, in blocks of 8.
    c.blocksWide = Math.ceil(Math.ceil((width * c.h) / hMax) / 8);
    c.blocksHigh = Math.ceil(Math.ceil((height * c.v) / vMax) / 8);
    c.gridWide = mcusWide * c.h;
    const gridBlocks = c.gridWide * mcusHigh * c.v;
    blocks += gridBlocks;
    if (marker === SOF_PROGRESSIVE) c.nonZero = new Uint32Array(2 * gridBlocks);
  }
  return {
    width,
    height,
    progressive: marker === SOF_PROGRESSIVE,
    components,
    mcusWide,
    mcusHigh,
    blockVisitsLeft: MAX_BLOCK_VISITS_PER_BLOCK * blocks,
  };
}

/** DQT (B.2.4.1): tables of 64 8-bit (Pq 0) or 16-bit (Pq 1) values, in destinations 0 to 3. */
function defineQuantTables(segment: Uint8Array, defined: boolean[]): void {
  let at = 0;
  while (at < segment.length) {
    const precision = segment[at] >> 4;
    const destination = segment[at] & 15;
    if (precision > 1 || destination > 3) fail('DQT table');
    at += 1 + 64 * (precision + 1);
    if (at > segment.length) fail('DQT length');
    defined[destination] = true;
  }
}

/** DHT (B.2.4.2): per table, class (0 DC, 1 AC) and destination 0 to 3, 16 counts, the values. */
function defineHuffmanTables(
  segment: Uint8Array,
  dcTables: Array<HuffmanTable | undefined>,
  acTables: Array<HuffmanTable | undefined>,
): void {
  let at = 0;
  while (at < segment.length) {
    const tableClass = segment[at] >> 4;
    const destination = segment[at] & 15;
    if (tableClass > 1 || destination > 3) fail('DHT table');
    if (at + 17 > segment.length) fail('DHT length');
    const counts = segment.subarray(at + 1, at + 17);
    const total = counts.reduce((sum, n) => sum + n, 0);
    if (total > 256 || at + 17 + total > segment.length) fail('DHT length');
    const table = huffmanTable(counts, segment.subarray(at + 17, at + 17 + total));
    (tableClass === 0 ? dcTables : acTables)[destination] = table;
    at += 17 + total;
  }
}

/** Bits looked up at once when decoding a Huffman code; longer codes take the slow path. */
const LOOKUP_BITS = 9;

interface HuffmanTable {
  /** By the next LOOKUP_BITS bits: code length << 8 | value, or 0 for a longer code. */
  lookup: Uint16Array;
  /** F.2.2.3: per code length, the largest code (-1 if none), the first code and its index. */
  maxCode: Int32Array;
  minCode: Int32Array;
  firstIndex: Int32Array;
  values: Uint8Array;
}

/**
 * The code table of C.2 (figures C.1 to C.3): codes of each length counted up from the last,
 * which leaves no room for a code when the counts are over-full, and no code is all 1-bits
 * (annex C: such codes are never assigned, so a table that needs one is not decodable).
 */
function huffmanTable(counts: Uint8Array, values: Uint8Array): HuffmanTable {
  const lookup = new Uint16Array(1 << LOOKUP_BITS);
  const maxCode = new Int32Array(18).fill(-1);
  const minCode = new Int32Array(18);
  const firstIndex = new Int32Array(18);
  let code = 0;
  let index = 0;
  for (let length = 1; length <= 16; length += 1) {
    const count = counts[length - 1];
    if (count > 0) {
      if (code + count > (1 << length) - 1) fail('Huffman table over-full');
      minCode[length] = code;
      firstIndex[length] = index;
      maxCode[length] = code + count - 1;
      if (length <= LOOKUP_BITS) {
        for (let i = 0; i < count; i += 1) {
          const shift = LOOKUP_BITS - length;
          const entry = (length << 8) | values[index + i];
          lookup.fill(entry, (code + i) << shift, (code + i + 1) << shift);
        }
      }
      code += count;
      index += count;
    }
    code <<= 1;
  }
  return { lookup, maxCode, minCode, firstIndex, values };
}

interface Scan {
  components: Component[];
  dc: Array<HuffmanTable | undefined>;
  ac: Array<HuffmanTable | undefined>;
  spectralStart: number;
  spectralEnd: number;
  high: number;
  low: number;
}

/** SOS (B.2.3): components with their table selectors, then Ss, Se and Ah/Al. */
function scanHeader(
  segment: Uint8Array,
  frame: Frame,
  quantTables: boolean[],
  dcTables: Array<HuffmanTable | undefined>,
  acTables: Array<HuffmanTable | undefined>,
): Scan {
  const count = segment[0] ?? 0;
  if (count < 1 || count > 4 || segment.length !== 1 + 2 * count + 3) fail('SOS length');
  const components: Component[] = [];
  const dc: Array<HuffmanTable | undefined> = [];
  const ac: Array<HuffmanTable | undefined> = [];
  for (let i = 0; i < count; i += 1) {
    const component = frame.components.find((c) => c.id === segment[1 + 2 * i]);
    if (!component || components.includes(component)) fail('scan component');
    // The component's quantisation table must be defined by its first scan (B.2.4.1).
    if (!quantTables[component.quantTable]) fail('quantisation table missing');
    components.push(component);
    dc.push(dcTables[segment[2 + 2 * i] >> 4]);
    ac.push(acTables[segment[2 + 2 * i] & 15]);
  }
  // An MCU of several components holds at most 10 blocks (B.2.3).
  if (count > 1 && components.reduce((n, c) => n + c.h * c.v, 0) > 10) fail('MCU over 10 blocks');
  const spectralStart = segment[1 + 2 * count];
  const spectralEnd = segment[2 + 2 * count];
  const high = segment[3 + 2 * count] >> 4;
  const low = segment[3 + 2 * count] & 15;
  const scan = { components, dc, ac, spectralStart, spectralEnd, high, low };
  if (!frame.progressive) {
    // Sequential scans code all 64 coefficients; Ss, Se, Ah and Al are not read (libjpeg
    // accepts files that leave them 0, though table B.3 fixes them to 0, 63, 0, 0).
    if (dc.includes(undefined) || ac.includes(undefined)) fail('Huffman table missing');
    return scan;
  }
  // G.1.1.1: a DC scan (Ss = 0) codes only the DC coefficient and may interleave components;
  // an AC scan codes one band of one component; each refinement (Ah > 0) adds one bit.
  if (spectralStart === 0 ? spectralEnd !== 0 : spectralEnd < spectralStart || spectralEnd > 63) {
    fail('spectral selection');
  }
  if (spectralStart > 0 && count !== 1) fail('spectral selection');
  if (low > 13 || (high !== 0 && high !== low + 1)) fail('successive approximation');
  if (spectralStart === 0 && high === 0 && dc.includes(undefined)) fail('Huffman table missing');
  if (spectralStart > 0 && ac.includes(undefined)) fail('Huffman table missing');
  return scan;
}

/**
 * Reads the entropy-coded data (F.2.2.5) from `start`: 0xFF 0x00 is a data byte 0xFF, and any
 * other 0xFF pair is a marker, which ends the data. Bits asked for past a marker read as 0
 * (so that up to 16 bits can be looked at once) but consuming one of them is refused.
 */
class BitReader {
  private bits = 0;
  private count = 0;
  /** How many of the low bits in `bits` are padding past the marker. */
  private padding = 0;
  private atMarker = false;

  constructor(
    private readonly buf: Uint8Array,
    public at: number,
  ) {}

  /** The next `n` (at most 16) bits, not consumed. */
  peek(n: number): number {
    if (this.count < 16) this.fill();
    return (this.bits >>> (this.count - n)) & ((1 << n) - 1);
  }

  skip(n: number): void {
    if (this.count < n) this.fill();
    this.count -= n;
    if (this.count < this.padding) fail('data ends mid-block'); // the scan ran into a marker
    this.bits &= (1 << this.count) - 1;
  }

  read(n: number): number {
    const value = this.peek(n);
    this.skip(n);
    return value;
  }

  private fill(): void {
    const buf = this.buf;
    while (this.count < 16) {
      let byte = 0;
      if (!this.atMarker) {
        byte = buf[this.at] ?? fail('cut');
        if (byte === 0xff) {
          if (buf[this.at + 1] === 0x00) this.at += 2;
          else this.atMarker = true;
        } else this.at += 1;
      }
      if (this.atMarker) {
        byte = 0;
        this.padding += 8;
      }
      this.bits = (this.bits << 8) | byte;
      this.count += 8;
    }
  }

  /**
   * At the end of a restart interval: the bits left in the current byte are padding
   * (F.1.2.3), and the next bytes must be a marker. Returns that marker's code and moves past
   * it, or returns -1 when a whole data byte is left.
   */
  endInterval(): number {
    if (this.count - this.padding >= 8) return -1;
    this.bits = 0;
    this.count = 0;
    this.padding = 0;
    this.atMarker = false;
    const buf = this.buf;
    if (buf[this.at] !== 0xff) return -1;
    while (buf[this.at] === 0xff) this.at += 1; // fill bytes (B.1.1.2)
    const marker = buf[this.at] ?? -1;
    this.at += 1;
    return marker;
  }

  /**
   * After the last MCU: F.1.2.3 leaves only padding bits before the next marker; libjpeg
   * and jpeg-js skip any bytes there, and one restart marker, so this does too. Returns
   * where the next marker starts.
   */
  endScan(): number {
    const buf = this.buf;
    let at = this.at;
    for (;;) {
      at = buf.indexOf(0xff, at);
      if (at < 0 || at + 1 >= buf.length) fail('cut');
      if (buf[at + 1] !== 0x00) break;
      at += 2;
    }
    return isRestart(buf[at + 1]) ? at + 2 : at;
  }

  /** Decodes one Huffman code (F.2.2.3, figure F.16). */
  decode(table: HuffmanTable): number {
    const entry = table.lookup[this.peek(LOOKUP_BITS)];
    if (entry !== 0) {
      this.skip(entry >> 8);
      return entry & 0xff;
    }
    for (let length = LOOKUP_BITS + 1; length <= 16; length += 1) {
      const code = this.peek(length);
      if (code <= table.maxCode[length]) {
        this.skip(length);
        return table.values[table.firstIndex[length] + code - table.minCode[length]];
      }
    }
    return fail('Huffman code not in table'); // no code of 16 bits or fewer starts here
  }
}

/** Per-scan decoding state that lasts across blocks: the end-of-band run (G.1.2.2). */
interface BandState {
  eobRun: number;
}

/**
 * Decodes one scan's entropy-coded data from `start`, every MCU of it (A.2), with restart
 * markers every `restartInterval` MCUs (B.2.4.4, F.1.2.3); returns the offset of the marker
 * after it.
 */
function decodeScan(
  buf: Uint8Array,
  start: number,
  frame: Frame,
  scan: Scan,
  restartInterval: number,
): number {
  const { components } = scan;
  const single = components.length === 1;
  // A.2.2: a scan of one component codes its blocks one by one, only those holding samples;
  // A.2.3: an interleaved scan codes MCUs of h x v blocks of each component, over the grid.
  const unitsWide = single ? components[0].blocksWide : frame.mcusWide;
  const units = single ? unitsWide * components[0].blocksHigh : frame.mcusWide * frame.mcusHigh;
  const blocksPerUnit = single ? 1 : components.reduce((n, c) => n + c.h * c.v, 0);
  frame.blockVisitsLeft -= units * blocksPerUnit;
  if (frame.blockVisitsLeft < 0) fail('too many scans');
  const decodeBlock = blockDecoder(frame, scan);
  const reader = new BitReader(buf, start);
  const state: BandState = { eobRun: 0 };
  const interval = restartInterval || units;
  let row = 0;
  let col = 0;
  for (let unit = 0; unit < units; unit += 1, col += 1) {
    if (col === unitsWide) {
      row += 1;
      col = 0;
    }
    if (unit > 0 && unit % interval === 0) {
      // F.1.2.3: a restart marker ends each interval but the last; another marker here would
      // end the scan before its last MCU (A.2), leaving blocks of the frame uncoded.
      // Decoding restarts afresh after RSTm (F.1.2.3, G.1.2.2), so an end-of-band run cannot
      // count blocks past it (libjpeg's encoder ends each run there; jpeg-js then misreads).
      if (state.eobRun > 0) fail('end-of-band run past a restart');
      const marker = reader.endInterval();
      if (marker < 0) fail('restart marker missing');
      if (!isRestart(marker)) fail('scan ends early');
    }
    if (single) {
      const c = components[0];
      decodeBlock(reader, 0, row * c.gridWide + col, state);
    } else {
      for (let i = 0; i < components.length; i += 1) {
        const c = components[i];
        for (let y = 0; y < c.v; y += 1) {
          for (let x = 0; x < c.h; x += 1) {
            decodeBlock(reader, i, (row * c.v + y) * c.gridWide + col * c.h + x, state);
          }
        }
      }
    }
  }
  for (const c of components) {
    if (!frame.progressive || (scan.spectralStart === 0 && scan.high === 0)) c.coded = true;
  }
  return reader.endScan();
}

type BlockDecoder = (reader: BitReader, component: number, block: number, state: BandState) => void;

/** The block decoding procedure of the scan's kind (F.2.2 for sequential, G.1.2 progressive). */
function blockDecoder(frame: Frame, scan: Scan): BlockDecoder {
  const { dc, ac, spectralStart: ss, spectralEnd: se } = scan;
  if (!frame.progressive) {
    return (reader, i) => {
      decodeDcDifference(reader, dc[i]!);
      const table = ac[i]!;
      // F.2.2.2, figure F.13: RS is a run of zeros (R) and a size (S); S = 0 is EOB, or ZRL.
      for (let k = 1; k < 64; k += 1) {
        const rs = reader.decode(table);
        const size = rs & 15;
        if (size === 0 && rs >> 4 !== 15) break;
        // ZRL (R = 15, S = 0) is 16 zeros: 15 here and k itself. A run past 63 (F.1.2.2
        // forbids it) ends the block, as in libjpeg and jpeg-js, which decode such files.
        k += rs >> 4;
        reader.skip(size);
      }
    };
  }
  if (ss === 0) {
    // G.1.2.1: the first DC scan codes differences as in F.2.2.1; a refinement, one bit.
    return scan.high === 0
      ? (reader, i) => decodeDcDifference(reader, dc[i]!)
      : (reader) => reader.skip(1);
  }
  const nonZero = scan.components[0].nonZero!;
  const bandMask = (word: 0 | 1) => maskOfBand(ss, se, word);
  const band0 = bandMask(0);
  const band1 = bandMask(1);
  if (scan.high === 0) {
    // G.1.2.2: the first AC scan of a band, with end-of-band runs across blocks.
    return (reader, _i, block, state) => {
      if (state.eobRun > 0) {
        state.eobRun -= 1;
        return;
      }
      const table = ac[0]!;
      for (let k = ss; k <= se; k += 1) {
        const rs = reader.decode(table);
        const run = rs >> 4;
        const size = rs & 15;
        if (size === 0 && run !== 15) {
          state.eobRun = (1 << run) - 1 + (run > 0 ? reader.read(run) : 0);
          break;
        }
        // A run past the band ends the block, as in libjpeg and jpeg-js (see above). Both
        // still put the coefficient it names where the run ends, past Se, so a later
        // refinement of that place reads a correction bit for it: it is non-zero here too.
        // (Past 63 jpeg-js drops it, libjpeg writes it at 63: dropped, as the reference does.)
        k += run;
        reader.skip(size);
        if (size !== 0 && k <= 63) nonZero[2 * block + (k >> 5)] |= 1 << (k & 31);
      }
    };
  }
  // G.1.2.3: a refinement of a band: a correction bit for every coefficient already non-zero,
  // and new coefficients of size 1 placed among the zeros.
  return (reader, _i, block, state) => {
    let k = ss;
    if (state.eobRun === 0) {
      const table = ac[0]!;
      for (; k <= se; k += 1) {
        const rs = reader.decode(table);
        let run = rs >> 4;
        const size = rs & 15;
        if (size !== 0) {
          if (size !== 1) fail('refinement size'); // G.1.2.3: a new coefficient is 1 or -1
          reader.skip(1);
        } else if (run !== 15) {
          state.eobRun = (1 << run) + (run > 0 ? reader.read(run) : 0);
          break;
        }
        // Skip `run` zero coefficients, reading a correction bit for each non-zero one met;
        // the zero after them takes the new coefficient (or, after ZRL, is the 16th zero).
        for (; k <= se; k += 1) {
          if (nonZero[2 * block + (k >> 5)] & (1 << (k & 31))) reader.skip(1);
          else if (run-- === 0) break;
        }
        // G.1.2.3 defines no run past the band, and decoders differ on it (libjpeg puts the
        // coefficient past Se, jpeg-js carries the run into the next block): refused.
        if (k > se) fail('run past the band');
        if (size !== 0) nonZero[2 * block + (k >> 5)] |= 1 << (k & 31);
      }
    }
    if (state.eobRun > 0) {
      // The rest of the band is in an end-of-band run: one correction bit per non-zero one.
      let corrections =
        popCount(nonZero[2 * block] & band0 & maskFrom(k, 0)) +
        popCount(nonZero[2 * block + 1] & band1 & maskFrom(k, 1));
      while (corrections > 0) {
        const n = Math.min(corrections, 16);
        reader.skip(n);
        corrections -= n;
      }
      state.eobRun -= 1;
    }
  };
}

/**
 * F.2.2.1: a DC difference is a size category, then that many bits. The prediction it is
 * added to is not kept: the sum is never read here, so it cannot make decoding fail.
 */
function decodeDcDifference(reader: BitReader, table: HuffmanTable): void {
  const size = reader.decode(table);
  // Table F.1 (8-bit) and F.1.5.1 (12-bit) end at category 15; libjpeg refuses more too.
  if (size > 15) fail('DC category');
  if (size > 0) reader.skip(size);
}

/** Bits of coefficients from..to (zig-zag order) that fall in 32-bit word 0 (0-31) or 1. */
function maskOfBand(from: number, to: number, word: 0 | 1): number {
  let mask = 0;
  for (let k = Math.max(from, 32 * word); k <= Math.min(to, 32 * word + 31); k += 1) {
    mask |= 1 << (k & 31);
  }
  return mask;
}

/** Bits of coefficients k..63 that fall in word 0 (0-31) or 1 (32-63). */
function maskFrom(k: number, word: 0 | 1): number {
  const first = k - 32 * word;
  if (first <= 0) return -1;
  return first >= 32 ? 0 : -1 << first;
}

function popCount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
