// What kind of reply a text without registration data is (not registered, reserved, refused for
// the query rate or a blocked client), and where a registry's reply refers the query next. Pure,
// like parse.ts.
//
// The kinds are told by what a line says, in the words registries use in every language they
// answer in, not by whole replies of known servers. Each pattern is matched against one line
// at a time, comment markers removed, so a phrase never spans a legal notice's sentences.
//
// Cost: at most one read of the reply, up to the first line that answers. One pass over it,
// two characters at a time, with tables of the first three characters of the trigger words
// (TRIGGERS), reading ASCII as lower case in place, finds the few lines that hold one; such a
// line meets only the patterns whose source spells a word it holds, with the `i` flag when the
// line is ASCII (CASELESS) and lower-cased first when it is not. Every
// quantifier in a pattern is bounded and a line is capped, so a line costs time linear in its
// length. (Case-insensitive Unicode matching of the three long alternations on every line, as
// before, took 2.7 ms on one .es reply, 170x the corpus median.) The phrases and the words
// are in tables/reply-phrases.ts.
import { isSpace as spaceChar, LITTLE_ENDIAN, writeCodeUnits as writeUnits } from './chars';
import {
  claimShared as claimSharedOf,
  holdShared as holdSharedOf,
  isCurrent as isCurrentOf,
  SHARED_BUFFER,
  SHARED_CODES,
  SHARED_PAIRS,
  type Scan,
} from './scan';
import {
  GATES,
  LINE_SHAPES,
  NOT_FOUND,
  RATE_LIMITED,
  RESERVED,
  TRIGGERS,
} from './tables/reply-phrases';

// Bound once, as in reader.ts: transpiled file by file to CommonJS (tsx, mocha), every use of
// an imported name is a property read through an export getter, and lineBounds tests each
// character of a line's edges.
const isSpace = spaceChar;
const writeCodeUnits = writeUnits;
const claimShared = claimSharedOf;
const isCurrent = isCurrentOf;
const holdShared = holdSharedOf;
const sharedBuffer = SHARED_BUFFER;

interface Pattern {
  kind: ReplyKind;
  re: RegExp;
}

/** Every pattern with its kind, refusals first: the first kind a line matches is its kind. */
const PATTERNS: Pattern[] = [
  ...RATE_LIMITED.map((re) => ({ kind: 'rate_limited' as const, re })),
  ...NOT_FOUND.map((re) => ({ kind: 'not_found' as const, re })),
  ...RESERVED.map((re) => ({ kind: 'reserved' as const, re })),
];

/**
 * The words of each pattern: its gate's (GATES), or the trigger words its source spells, each
 * where no longer one is spelled around it. "\\bnot available for" has "not availab", not
 * "availab" too: a line saying "may be available" holds no word of it.
 */
const PATTERN_WORDS = PATTERNS.map(({ re }) => {
  const source = re.source;
  const gate = GATES.get(re);
  if (gate !== undefined) {
    // a gate's words are trigger words the pattern spells
    for (const w of gate) {
      if (!TRIGGERS.includes(w) || !source.includes(w)) {
        throw new Error(`the gate word ${w} is no trigger word spelled in ${source}`);
      }
    }
    return [...gate];
  }
  const words = TRIGGERS.filter((w) => spelledAlone(source, w));
  if (words.length === 0) throw new Error(`no trigger word in the reply pattern ${source}`);
  return words;
});

/** Whether `source` spells `word` at some place outside every longer trigger word it spells. */
function spelledAlone(source: string, word: string): boolean {
  for (let at = source.indexOf(word); at >= 0; at = source.indexOf(word, at + 1)) {
    const inLonger = TRIGGERS.some((longer) => {
      if (longer.length <= word.length) return false;
      const offset = longer.indexOf(word);
      return offset >= 0 && source.startsWith(longer, at - offset);
    });
    if (!inLonger) return true;
  }
  return false;
}

/**
 * The trigger words by their first three characters, hashed (a word of two characters, all of
 * them CJK or Hangul, by its two): TRIPLE_SLOT[hash] is 0 or 1 + the index in SLOT_WORDS of the
 * words that start there, each with the patterns that spell it. A position costs three character
 * reads and a table load; a word is compared only where its first three characters are there
 * and its fourth agrees. With two characters only, English prose met the table at about every
 * fifth position ("re" starts "reserv", "restrict", "record"...) and the comparisons were most
 * of the classification. A JS loop with this table reads a reply several times faster than the
 * regex engine runs one alternation of a hundred words, which it tries one after another at
 * each position.
 */
interface Trigger {
  word: string;
  /** the word's fourth and fifth characters, or -1 */
  fourth: number;
  fifth: number;
  /** its code units */
  units: number[];
  patterns: number[];
}

/**
 * The slot tables hold 1 << SLOT_BITS places (8 KB each): a few hundred words, hashed, share
 * a place rarely, and the words of a place are compared whole (markAt, markFoldedAt), so a
 * shared place costs a comparison, never a word. With 65,536 places (128 KB), the table's
 * look-up at a place a word may start drew a fifth of markAscii's samples, a miss of the
 * processor's first-level cache (perf); parsing name_science.name took 4.34 µs of CPU, now 4.17.
 */
const SLOT_BITS = 12;
const TRIPLE_SLOT = new Uint16Array(1 << SLOT_BITS);
/**
 * The ASCII words by the aligned pairs of characters that hold them (asciiCandidates reads a
 * line two characters at a time), by pairIndex. A word of ASCII has four characters or more
 * (checked below), so one starting at an even place 2k is the pair there (its first and second
 * characters) and the next pair (its third and fourth); one starting at an odd place 2k + 1
 * has its first character as the second of pair k, its second and third as pair k + 1. For
 * each word, a bit of its group in the head (high) half of the first pair's entry and in the
 * tail (low) half of the next one's: 8 bits for words at an even place, grouped by their first
 * two characters, 8 for those at an odd place, grouped by their first. A place is tried
 * (tryAt) only where a pair's head and the next pair's tail share a bit, which a few in a
 * hundred places of a legal notice do, for one table load a pair. The table before (a pair
 * that opens or continues a word, then its third character or the one before) let about a
 * third of a notice's pairs into a branch the processor could not predict.
 */
const PAIR_WORDS = new Int32Array(1 << 10);
/** Where a group's bit is in PAIR_WORDS: its tail bits are the low half, its head bits above. */
const HEAD_SHIFT = 16;
const EVEN_WORDS = 0xff;
const ODD_WORDS = 0xff00;

function evenGroup(w0: number, w1: number): number {
  return Math.imul(pairIndex(w0, w1), 0x9e3779b1) >>> 29;
}

function oddGroup(w0: number): number {
  return 8 + (Math.imul(w0, 0x9e3779b1) >>> 29);
}

const PAIR_SLOT = new Uint16Array(1 << SLOT_BITS);
const SLOT_WORDS: Trigger[][] = [];

/**
 * Where the pair (first, second) is in PAIR_WORDS: the low five bits of each character, those
 * of the one a codePairs element holds in its high half above the other's (pairIndexOf computes
 * it from the element: the first character is in the low half on a little-endian platform, in
 * the high half on a big-endian one). Five bits keep the table at 4 KB (the three tables of the
 * scan before took 144 KB) and the letters apart (bit 5, the case, is dropped); a digit or a
 * punctuation mark shares a letter's place, which only tries a place more: tryAt reads the text
 * exactly.
 */
function pairIndex(first: number, second: number): number {
  const low = LITTLE_ENDIAN ? first : second;
  const high = LITTLE_ENDIAN ? second : first;
  return (low & 31) | ((high & 31) << 5);
}

function tripleHash(a: number, b: number, c: number): number {
  // Injective on lower-case ASCII letters (b * 37 + c spans less than 1031), then spread over
  // the table by a multiplicative hash (its top SLOT_BITS bits).
  return Math.imul(a * 1031 + b * 37 + c, 0x9e3779b1) >>> (32 - SLOT_BITS);
}

function pairHash(a: number, b: number): number {
  return Math.imul(a * 37 + b, 0x9e3779b1) >>> (32 - SLOT_BITS);
}

function isAsciiWord(word: string): boolean {
  for (let k = 0; k < word.length; k++) if (word.charCodeAt(k) >= 128) return false;
  return true;
}

for (const word of TRIGGERS) {
  if (word.length < 2) throw new Error(`a trigger word has two characters or more: ${word}`);
  // Two characters are enough only outside ASCII (a CJK or Hangul word); an ASCII pair would
  // meet prose everywhere.
  if (word.length === 2 && word.charCodeAt(0) < 128) {
    throw new Error(`an ASCII trigger word has three characters or more: ${word}`);
  }
  // markAscii lower-cases ASCII by setting bit 5, which keeps every character of a word as it is
  // only if each has that bit already (letters, space, digits, "'").
  for (const ch of word) {
    const c = ch.charCodeAt(0);
    if (c < 128 && (c | 32) !== c) throw new Error(`a trigger word has a character ${ch}`);
    // a line read as ASCII may hold punctuation, where no word is looked for (readsAsAscii)
    if (c >= 128 && readsAsAscii(c)) throw new Error(`a trigger word has punctuation ${ch}`);
  }
  const table = word.length === 2 ? PAIR_SLOT : TRIPLE_SLOT;
  const h =
    word.length === 2
      ? pairHash(word.charCodeAt(0), word.charCodeAt(1))
      : tripleHash(word.charCodeAt(0), word.charCodeAt(1), word.charCodeAt(2));
  if (table[h] === 0) table[h] = SLOT_WORDS.push([]);
  // Only a line read as ASCII is scanned by pairs (markAscii), where a word holding another
  // character is never found (foldedCodesAt): the pair tables hold the words of ASCII.
  if (isAsciiWord(word)) {
    if (word.length < 4) {
      throw new Error(`an ASCII trigger word has four characters or more: ${word}`);
    }
    const [w0, w1, w2, w3] = [0, 1, 2, 3].map((k) => word.charCodeAt(k));
    const even = 1 << evenGroup(w0, w1);
    PAIR_WORDS[pairIndex(w0, w1)] |= even << HEAD_SHIFT;
    PAIR_WORDS[pairIndex(w2, w3)] |= even;
    // the character before an odd place is any
    const odd = 1 << oddGroup(w0);
    for (let before = 0; before < 32; before++) {
      PAIR_WORDS[pairIndex(before, w0)] |= odd << HEAD_SHIFT;
    }
    PAIR_WORDS[pairIndex(w1, w2)] |= odd;
  }
  const patterns = PATTERN_WORDS.flatMap((words, p) => (words.includes(word) ? [p] : []));
  const fourth = word.length > 3 ? word.charCodeAt(3) : -1;
  const fifth = word.length > 4 ? word.charCodeAt(4) : -1;
  const units = Array.from({ length: word.length }, (_, k) => word.charCodeAt(k));
  SLOT_WORDS[table[h] - 1].push({ word, fourth, fifth, units, patterns });
}

/**
 * For each slot and each ASCII character that may come fourth in one of its words (by its bits
 * c & 31, which some others share), a bit (c & 31) for each character that may come fifth (all
 * of them for a word of four); and whether
 * the slot has a word of three. tryAt reads both from `codes` and leaves a place where neither
 * fits before markFoldedAt is called: prose meets most slots with other words ("conditions"
 * for "control limit", "results" for "restrict", "VeriSign" for "verweiger"), about fifty
 * times in a 1.6 KB notice, and the words are rarely there.
 */
const SLOT_FIFTHS = new Int32Array(SLOT_WORDS.length * 32);
const SLOT_HAS_THREE = new Uint8Array(SLOT_WORDS.length);
SLOT_WORDS.forEach((words, slot) => {
  for (const t of words) {
    if (t.fourth < 0) SLOT_HAS_THREE[slot] = 1;
    else if (t.fourth < 128) {
      SLOT_FIFTHS[slot * 32 + (t.fourth & 31)] |= t.fifth < 0 ? -1 : 1 << (t.fifth & 31);
    }
  }
});

/**
 * The words of ASCII of each slot by their fourth character (its bits c & 31):
 * FOURTH_WORDS[slot * 32 + (c & 31)], for markFoldedAt, which reads text as lower-case ASCII,
 * where no other word is ever found. "no " starts fifteen words and "not " nine, and prose says
 * "no" and "not" often: walking the slot's words to compare each one's fourth character was
 * the largest part of reading a first line that says "No match for".
 */
const FOURTH_WORDS: Trigger[][] = Array.from({ length: SLOT_WORDS.length * 32 }, () => []);
SLOT_WORDS.forEach((words, slot) => {
  for (const t of words) if (isAsciiWord(t.word)) FOURTH_WORDS[slot * 32 + (t.fourth & 31)].push(t);
});

/** Whether `t` starts at folded[i], its fourth character `d` (-1 past the end). */
function startsAt(folded: string, i: number, d: number, t: Trigger): boolean {
  return (t.fourth < 0 || t.fourth === d) && folded.startsWith(t.word, i);
}

/**
 * Marks the patterns of the words that start at folded[i] (a, b, c, d its first characters, 0
 * and -1 past the end); whether any does. A position outside ASCII may start a word of two.
 */
function marksAt(folded: string, i: number, a: number, b: number, c: number, d: number): boolean {
  const slot = TRIPLE_SLOT[tripleHash(a, b, c)];
  let any = slot !== 0 && markAt(folded, i, d, slot);
  if (a >= 128) {
    const pair = PAIR_SLOT[pairHash(a, b)];
    if (pair !== 0 && markAt(folded, i, d, pair)) any = true;
  }
  return any;
}

/** Marks the patterns of the words of `slot` that start at folded[i]; whether any does. */
function markAt(folded: string, i: number, d: number, slot: number): boolean {
  let any = false;
  for (const t of SLOT_WORDS[slot - 1]) {
    if (!startsAt(folded, i, d, t)) continue;
    any = true;
    mark(t.patterns);
  }
  return any;
}

/**
 * The patterns a line's words mark: `tried[p] === stamp`, and listed in marked[0, markedCount)
 * so that a line meets only them. A new stamp for each line.
 */
const tried = new Uint32Array(PATTERNS.length);
let stamp = 0;
const marked: number[] = [];
let markedCount = 0;

function newStamp(): void {
  if (++stamp === 0xffffffff) {
    tried.fill(0);
    stamp = 1;
  }
  markedCount = 0;
}

function mark(patterns: number[]): void {
  for (const p of patterns) {
    if (tried[p] === stamp) continue;
    tried[p] = stamp;
    marked[markedCount++] = p;
  }
}

/** Marks the patterns whose words start in `folded[from, to)`; whether it marked any. */
function markPatterns(folded: string, from: number, to: number): boolean {
  newStamp();
  let any = false;
  // Three characters are read at each position; past `safe` the third and fourth may be beyond
  // the text, and are read as 0 and -1 (the tail, at most three positions).
  const len = folded.length;
  const safe = Math.min(to - 1, len - 3);
  let a = from < len ? folded.charCodeAt(from) : 0;
  let b = from + 1 < len ? folded.charCodeAt(from + 1) : 0;
  let i = from;
  for (; i < safe; i++) {
    const c = folded.charCodeAt(i + 2);
    if (marksAt(folded, i, a, b, c, folded.charCodeAt(i + 3))) any = true;
    a = b;
    b = c;
  }
  for (; i + 1 < to; i++) {
    const c = i + 2 < len ? folded.charCodeAt(i + 2) : 0;
    const d = i + 3 < len ? folded.charCodeAt(i + 3) : -1;
    if (marksAt(folded, i, a, b, c, d)) any = true;
    a = b;
    b = c;
  }
  return any;
}

/** How much of a line is read: no sentence worth reading is longer, and a 1 MB line stays cheap. */
const LINE_CHARS = 300;

/** What a server says about the query comes in its first 64 KB (see classifyReply). */
const CLASSIFY_BYTES = 64 * 1024;

/** ASCII lower-cased as String.prototype.toLowerCase does it: A-Z to a-z, the rest as it is. */
const ASCII_FOLD = new Uint8Array(128).map((_, c) => (c >= 65 && c <= 90 ? c + 32 : c));

/**
 * The characters of the reply being classified, as UTF-16 code units: the copy scan.ts makes
 * once per reply for the reader and the classifier (natively, a block copy), or a window of it
 * loaded here (loadCodes), so the scan below reads a typed array. charCodeAt on a string that
 * may be one-byte or two-byte dispatches on its representation at every call: a scan of the
 * lines took 32 instructions a character that way, 21 from this copy (cachegrind).
 * Classification is synchronous, so one buffer serves every reading.
 */
const codes = SHARED_CODES;

/** The index in the text of codes[0]: even, so that codePairs align as the text's pairs. */
let codesBase = 0;
/** The index in the text after the last character copied into `codes`. */
let codesEnd = 0;

/**
 * Copies text[from, n + 2) (what markAscii may read for the lines from `from` up to n: at most
 * CLASSIFY_BYTES + 2 characters) into `codes`, from the even index at or before `from`.
 */
function loadCodes(text: string, from: number, n: number): void {
  codesBase = from & ~1;
  const count = Math.min(text.length, n + 2) - codesBase;
  const window = codesBase === 0 ? text : text.slice(codesBase, codesBase + count);
  claimShared();
  writeCodeUnits(sharedBuffer, window, count);
  codesEnd = codesBase + count;
}

/**
 * Points `codes` at text[0, n + 2) where the scan of the reply holds it, as loadCodes(text, 0,
 * n) would copy it: the shared copy of the whole reply, followed by zeros.
 */
function useScan(text: string, n: number): void {
  codesBase = 0;
  codesEnd = Math.min(text.length, n + 2);
}

/**
 * Two code units in one: `codes` read two characters at a time. The first is in the low half on
 * a little-endian platform and in the high half on a big-endian one; pairIndexOf reads them so.
 */
const codePairs = SHARED_PAIRS;

/** Bit 7 and up of either unit of a pair: a character beyond ASCII. */
const BEYOND_ASCII = 0xff80ff80;

/**
 * Whether a line holding the character is still read as ASCII (markAscii): ASCII, or General
 * Punctuation (U+2000-U+206F: typographic quotes, dashes, the ellipsis, spaces), which legal
 * notices use ("as “Redacted for Privacy”"). Such a character has no case: toLowerCase leaves
 * it, and the `i` flag maps no character onto it (reply-gate.test.ts checks both), so the
 * caseless patterns read such a line as the lower-case ones read it folded. No trigger word
 * holds one (checked where the tables are built), so no word starts at it or runs through it.
 * Folding such a line and scanning it character by character was a twentieth of the parse of
 * a .name not-found reply, whose notice quotes “Redacted” (perf).
 */
export function readsAsAscii(c: number): boolean {
  return c < 128 || (c >= 0x2000 && c <= 0x206f);
}

/**
 * markPatterns over `text[from, to)` read as lower case, without folding it first: for a line of
 * ASCII, which is most of a reply (its legal notice), and punctuation (readsAsAscii). 1 when it
 * marked any pattern, 0 when none, -1 when the line holds another character (its words are read
 * from the line folded whole, as toLowerCase may change its length: "İ"). Lower-casing a whole
 * reply cost more than this scan where the reply held one character beyond Latin-1, which makes
 * V8 fold it character by character. Reads `codes`, loaded by loadCodes for the text.
 *
 * Every position i in [from, to - 1) is a place a word may start (its later characters may be
 * past `to`, 0 past the text's end), and the line holds another character when any of
 * text[from, max(from + 1, to)] does. The scan reads the line by aligned pairs of characters
 * and tries (tryAt) only the places where a word's first pair and the next may be (PAIR_WORDS).
 * The scan is most of the cost of classifying a reply: about 12 instructions a character.
 */
function markAscii(text: string, from: number, to: number): number {
  const len = text.length;
  const count = asciiCandidates(text, from, to - 2, Math.min(Math.max(from + 1, to), len - 1));
  if (beyondAt >= 0) return -1;
  newStamp();
  let any = 0;
  for (let k = 0; k < count; k++) if (tryAt(text, candidates[k], len)) any = 1;
  return any;
}

/**
 * How many characters readLines scans for words at a time (asciiCandidates): what it may read
 * past the line that answers.
 */
const WINDOW_CHARS = 256;

/**
 * The positions where markAscii or readLines tries a word, in order: candidates[0, count). At
 * most one a position scanned.
 */
const candidates = new Int32Array(Math.max(LINE_CHARS, WINDOW_CHARS) + 2);

/** Where asciiCandidates met a character beyond ASCII (its index in the text), or -1. */
let beyondAt = -1;

/**
 * The scan of markAscii and readLines: fills `candidates` with the places in [from, lastPlace]
 * where a word may start and returns their count. It stops at a character of text[from, last]
 * beyond ASCII, and says where in `beyondAt` (-1 when there is none): the places before its
 * pair are in `candidates`, but for the two just before it, where a word would run through it
 * or through a newline. A loop of its own: with tryAt and its words
 * inlined into it, V8 kept the loop's state in memory, and classifying a 1.6 KB legal notice
 * took 104,000 instructions instead of 94,000 (cachegrind).
 */
function asciiCandidates(text: string, from: number, lastPlace: number, last: number): number {
  const len = text.length;
  const base = codesBase;
  beyondAt = -1;
  // Indexes in `codes` from here on, pairs counted by k: codes[2k] and codes[2k + 1].
  const first = from - base;
  const lastStart = lastPlace - base;
  const lastCode = last - base;
  let count = 0;
  let k = first >> 1;
  const pairs = codePairs;
  const units = codes;
  const words = PAIR_WORDS;
  // The words that may start in the pair before k (its places checked against [first,
  // lastStart] where one is tried); the tail of pair k says which of them may be there.
  let head = 0;
  if ((first & 1) === 1) {
    if (first <= lastCode && !readsAsAscii(units[first])) return beyond(first, 0);
    // its first place is before the line, and never tried
    head = words[pairIndexOf(pairs[k])] >>> HEAD_SHIFT;
    k++;
  }
  const end = lastCode >> 1;
  // Two pairs at a time while both are ASCII (most of a line), with one test for both and a
  // branch taken only where a word may be: a loop over one pair at a time spent as much on its
  // own overhead as on reading the pair. The loop below reads the rest, and a pair beyond ASCII.
  for (; k + 1 < end; k += 2) {
    const p0 = pairs[k];
    const p1 = pairs[k + 1];
    if (((p0 | p1) & BEYOND_ASCII) !== 0) break;
    const held0 = words[pairIndexOf(p0)];
    const held1 = words[pairIndexOf(p1)];
    const both0 = head & held0;
    const both1 = (held0 >>> HEAD_SHIFT) & held1;
    head = held1 >>> HEAD_SHIFT;
    if ((both0 | both1) !== 0) {
      if (both0 !== 0) count = addCandidates(both0, (k - 1) << 1, first, lastStart, count);
      if (both1 !== 0) count = addCandidates(both1, k << 1, first, lastStart, count);
    }
  }
  for (; k < end; k++) {
    const pair = pairs[k];
    // punctuation (readsAsAscii) reads as some ASCII pair: no word holds it, so the places
    // it gives are tried for nothing, never missed
    if ((pair & BEYOND_ASCII) !== 0 && !punctuationPair(units, k)) {
      return beyond(readsAsAscii(units[k << 1]) ? (k << 1) + 1 : k << 1, count);
    }
    const held = words[pairIndexOf(pair)];
    const both = head & held;
    head = held >>> HEAD_SHIFT;
    if (both !== 0) count = addCandidates(both, (k - 1) << 1, first, lastStart, count);
  }
  // The places of the last pair read: the next pair is beyond lastCode, in the text only when a
  // word can start there (its fourth character is in the text); its characters are loaded
  // (lastCode + 1 is at most `to` + 1, and `codes` holds the text up to n + 2).
  if (head !== 0 && (k << 1) + 1 < len - base) {
    const both = head & words[pairIndexOf(pairs[k])];
    if (both !== 0) count = addCandidates(both, (k - 1) << 1, first, lastStart, count);
  }
  // The characters after the last whole pair: one, or both of the last pair when lastCode is
  // odd (a line at the reply's end, without a newline, whose last two characters were not read
  // and so not seen beyond ASCII: "Status: 保留").
  for (let at = k << 1; at <= lastCode; at++) {
    if (!readsAsAscii(units[at])) return beyond(at, count);
  }
  return count;
}

/** asciiCandidates' answer, `count`, when it stops at a character beyond ASCII at codes[at]. */
function beyond(at: number, count: number): number {
  beyondAt = at + codesBase;
  return count;
}

/** Whether the pair k of `units` (one of them beyond ASCII) is read as ASCII (readsAsAscii). */
function punctuationPair(units: Uint16Array, k: number): boolean {
  return readsAsAscii(units[k << 1]) && readsAsAscii(units[(k << 1) + 1]);
}

/**
 * The index in PAIR_WORDS of a codePairs element: pairIndex of its first and second characters,
 * the low five bits of its low half and those of its high half above them (bits 16-20 moved to
 * 5-9), on either platform. Four operations: the hottest line of the scan, which took five with
 * the halves' order chosen by the platform at every pair.
 */
function pairIndexOf(pair: number): number {
  return (pair & 31) | ((pair >>> 11) & 0x3e0);
}

/**
 * Adds the places of the pair at `at` (in `codes`) whose words `both` says may be there, those
 * in [first, lastStart], to `candidates` after `count`; the new count.
 */
function addCandidates(
  both: number,
  at: number,
  first: number,
  lastStart: number,
  count: number,
): number {
  const base = codesBase;
  if ((both & EVEN_WORDS) !== 0 && at >= first && at <= lastStart) candidates[count++] = at + base;
  if ((both & ODD_WORDS) !== 0 && at + 1 >= first && at + 1 <= lastStart) {
    candidates[count++] = at + 1 + base;
  }
  return count;
}

/**
 * Marks the words that start at text[i] (read as lower-case ASCII); whether any does. ASCII is
 * lower-cased by setting bit 5 (A-Z to a-z): that also maps some punctuation and control
 * characters onto others ("@" to "`", tab to ")"), never onto a letter, and every character of a
 * trigger word is its own image (checked where the tables are built). So the triple read this
 * way matches wherever the exact folding does, and markFoldedAt decides.
 */
function tryAt(text: string, i: number, len: number): boolean {
  const at = i - codesBase;
  const a = codes[at] | 32;
  const b = codes[at + 1] | 32;
  const c = i + 2 < len ? codes[at + 2] | 32 : 0;
  const slot = TRIPLE_SLOT[tripleHash(a, b, c)];
  if (slot === 0) return false;
  // The fourth and fifth characters, lower-cased as the triple is (a superset of the exact
  // folding's matches); near the end of what is loaded, markFoldedAt reads them exactly.
  if (i + 4 < codesEnd && SLOT_HAS_THREE[slot - 1] === 0) {
    const d = codes[at + 3] | 32;
    if (
      d >= 128 ||
      ((SLOT_FIFTHS[(slot - 1) * 32 + (d & 31)] >>> (codes[at + 4] & 31)) & 1) === 0
    ) {
      return false;
    }
  }
  return markFoldedAt(text, i, slot);
}

/**
 * markAt on text read as lower-case ASCII (from `codes`). The words of a slot are told apart
 * by their fourth and fifth characters first (FOURTH_WORDS): comparing the words whole at each
 * such place was most of the scan of a long English notice.
 */
function markFoldedAt(text: string, i: number, slot: number): boolean {
  const d = foldedCodeAt(text, i + 3);
  // a word of ASCII has a fourth character, of ASCII
  if (d < 0) return false;
  const e = foldedCodeAt(text, i + 4);
  const words = FOURTH_WORDS[(slot - 1) * 32 + (d & 31)];
  let any = false;
  for (let k = 0; k < words.length; k++) {
    const t = words[k];
    if (t.fourth !== d || (t.fifth >= 0 && t.fifth !== e)) continue;
    const found =
      i + t.units.length <= codesEnd ? foldedCodesAt(i, t.units) : foldedAt(text, i, t.word);
    if (!found) continue;
    any = true;
    mark(t.patterns);
  }
  return any;
}

/** text[k] read as lower-case ASCII: -1 past the end, -2 beyond ASCII. */
function foldedCodeAt(text: string, k: number): number {
  if (k >= text.length) return -1;
  const raw = k < codesEnd ? codes[k - codesBase] : text.charCodeAt(k);
  return raw < 128 ? ASCII_FOLD[raw] : -2;
}

/** Whether `word` (lower case) is at text[i], the text read as lower-case ASCII. */
function foldedAt(text: string, i: number, word: string): boolean {
  if (i + word.length > text.length) return false;
  for (let k = 0; k < word.length; k++) {
    const c = text.charCodeAt(i + k);
    if (c >= 128 || ASCII_FOLD[c] !== word.charCodeAt(k)) return false;
  }
  return true;
}

/** foldedAt from `codes`, by the word's code units. */
function foldedCodesAt(i: number, units: number[]): boolean {
  const at = i - codesBase;
  for (let k = 0; k < units.length; k++) {
    const c = codes[at + k];
    if (c >= 128 || ASCII_FOLD[c] !== units[k]) return false;
  }
  return true;
}

/** A limit notice that says the answer follows in a reduced form is not a refusal. */
const REDUCED = /\b(reduced|limited|partial) (information|answer|output|data)\b/;
const REDUCED_CASELESS = caseless(REDUCED);

/** The patterns and their kinds, for the test that every line they match holds a word of theirs. */
export const REPLY_PATTERNS: ReadonlyArray<Readonly<Pattern>> = PATTERNS;

/** Whether a folded line holds a word of pattern `p` (an index in REPLY_PATTERNS). */
export function hasTrigger(folded: string, p: number): boolean {
  markPatterns(folded, 0, folded.length);
  return tried[p] === stamp;
}

export type ReplyKind = 'not_found' | 'rate_limited' | 'reserved';

export interface Classified {
  kind: ReplyKind;
  /** the line that says so, as the server wrote it (comment markers and addresses removed) */
  line: string;
}

/** Comment markers and banner brackets before a line's text: % # * > ; [ ] - */
function isLeadMark(c: number): boolean {
  return (
    c === 37 || c === 35 || c === 42 || c === 62 || c === 59 || c === 91 || c === 93 || c === 45
  );
}

/**
 * Where the text of the line at [start, end) is: without comment markers, banner brackets and
 * surrounding space, within its first LINE_CHARS characters. Offsets, so that the line and its
 * folded copy are cut alike.
 */
function lineBounds(text: string, start: number, end: number): void {
  let e = Math.min(end, start + LINE_CHARS);
  let b = start;
  while (b < e && (isSpace(text.charCodeAt(b)) || isLeadMark(text.charCodeAt(b)))) b++;
  while (e > b) {
    const c = text.charCodeAt(e - 1);
    if (!(isSpace(c) || c === 93 || c === 60)) break;
    e--;
  }
  textStart = b;
  textEnd = e;
}

/** lineBounds' answer: module state, not an array made for every line that is read. */
let textStart = 0;
let textEnd = 0;

/** What the lines read so far said; `refused` ends the reading. */
export interface Said {
  refused?: string;
  notFound?: string;
  reserved?: string;
}

// Where each kind's patterns are in PATTERNS: refusals [0, REFUSALS_END), then not found up to
// NOT_FOUND_END, then reservations up to PATTERNS.length.
const REFUSALS_END = RATE_LIMITED.length;
const NOT_FOUND_END = REFUSALS_END + NOT_FOUND.length;

/**
 * The patterns with the `i` flag, for a line of ASCII read as the server wrote it: such a line is
 * not lower-cased. Without `u`, `i` folds A-Z onto a-z and maps no character beyond ASCII onto
 * ASCII, so on an ASCII line it matches exactly where the lower-case pattern matches the line
 * lower-cased (the patterns spell no capital: checked here). Lower-casing a line cut from a
 * reply that holds a character beyond Latin-1 (a typographic quote in a legal notice) copied it
 * character by character: a fifth of classifying the .name replies (cachegrind).
 */
const CASELESS = PATTERNS.map(({ re }) => caseless(re));

/** REPLY_PATTERNS' regexes with the `i` flag, in its order, for the test of that rule. */
export const CASELESS_PATTERNS: readonly RegExp[] = CASELESS;

/** `re` with the `i` flag, after checking that its source spells no capital letter. */
function caseless(re: RegExp): RegExp {
  // escapes (\b, \W, \S, \d) are not letters of the text
  if (/[A-Z]/.test(re.source.replace(/\\./g, '')) || re.flags !== '') {
    throw new Error(`a reply pattern is lower case, without flags: ${re.source}`);
  }
  return new RegExp(re.source, 'i');
}

/**
 * The letters a line must start with for pattern p to match it (LINE_SHAPES), a bit each (a at
 * bit 0), or 0 when any may; and the words it must end with, or undefined.
 */
const FIRST_LETTERS = new Int32Array(PATTERNS.length);
const LAST_WORDS: Array<readonly string[] | undefined> = PATTERNS.map(() => undefined);
PATTERNS.forEach(({ re }, p) => {
  const shape = LINE_SHAPES.get(re);
  if (shape === undefined) return;
  // `^` and `$` hold the line's ends only where the whole pattern is anchored (no alternative
  // beside the anchored one, no `m` flag): reply-gate.test.ts checks the shapes on lines.
  if (shape.first !== undefined) {
    if (!re.source.startsWith('^')) throw new Error(`a shape's first letters need ^: ${re.source}`);
    for (const ch of shape.first) {
      if (!/^[a-z]$/.test(ch)) throw new Error(`a first letter is a-z: ${ch}`);
      FIRST_LETTERS[p] |= 1 << (ch.charCodeAt(0) - 97);
    }
  }
  if (shape.last !== undefined) {
    if (!re.source.endsWith('$')) throw new Error(`a shape's last words need $: ${re.source}`);
    // compared after bit 5 is set in each character of the line (lastWordAt): a word's own
    // characters must be their own image
    for (const w of shape.last) {
      for (let k = 0; k < w.length; k++) {
        const c = w.charCodeAt(k);
        if (c >= 128 || (c | 32) !== c) throw new Error(`a last word is lower case: ${w}`);
      }
    }
    LAST_WORDS[p] = shape.last;
  }
});

/**
 * Whether `line` (as the server wrote it, or folded) has the shape pattern p needs (LINE_SHAPES):
 * false only where the pattern cannot match it. A letter is read with bit 5 set, so either case
 * passes; another character passes no letter test (nor do those that bit 5 makes a letter of:
 * none below 65 does, and 91-96 and 123-127 stay outside a-z).
 */
function hasShape(p: number, line: string): boolean {
  const first = FIRST_LETTERS[p];
  if (first !== 0) {
    const c = (line.charCodeAt(0) | 32) - 97;
    if (c < 0 || c > 25 || ((first >> c) & 1) === 0) return false;
  }
  const last = LAST_WORDS[p];
  if (last === undefined) return true;
  for (const w of last) if (endsWithFolded(line, w)) return true;
  return false;
}

/** Whether `line` ends with `word` (lower case), its characters read with bit 5 set. */
function endsWithFolded(line: string, word: string): boolean {
  const at = line.length - word.length;
  if (at < 0) return false;
  for (let k = 0; k < word.length; k++) {
    if ((line.charCodeAt(at + k) | 32) !== word.charCodeAt(k)) return false;
  }
  return true;
}

/** hasShape, for the test of LINE_SHAPES: an index in REPLY_PATTERNS. */
export function lineHasShape(p: number, line: string): boolean {
  return hasShape(p, line);
}

/** Whether a caseless pattern of PATTERNS[from, to), one marked tried, matches an ASCII line. */
function saysAscii(from: number, to: number, line: string): boolean {
  for (let k = 0; k < markedCount; k++) {
    const p = marked[k];
    if (p >= from && p < to && hasShape(p, line) && CASELESS[p].test(line)) return true;
  }
  return false;
}

/** readLine for a line of ASCII (markAscii said so), read by the caseless patterns. */
export function readAsciiLine(said: Said, line: string): void {
  if (saysAscii(0, REFUSALS_END, line) && !REDUCED_CASELESS.test(line)) {
    said.refused = line;
    return;
  }
  if (said.notFound === undefined && saysAscii(REFUSALS_END, NOT_FOUND_END, line)) {
    said.notFound = line;
  } else if (said.reserved === undefined && saysAscii(NOT_FOUND_END, PATTERNS.length, line)) {
    said.reserved = line;
  }
}

/** Whether a pattern of PATTERNS[from, to) (one marked tried, or any when `all`) matches. */
function says(from: number, to: number, folded: string, all: boolean): boolean {
  if (all) {
    for (let p = from; p < to; p++) if (PATTERNS[p].re.test(folded)) return true;
    return false;
  }
  for (let k = 0; k < markedCount; k++) {
    const p = marked[k];
    if (p >= from && p < to && hasShape(p, folded) && PATTERNS[p].re.test(folded)) return true;
  }
  return false;
}

/**
 * Reads one line (`line` as the server wrote it, `folded` the same lower-cased) against the
 * patterns marked tried (all of them when `all`). In one line a refusal wins over "no entries
 * found"; the first line of each kind is kept.
 */
export function readLine(said: Said, line: string, folded: string, all = false): void {
  if (says(0, REFUSALS_END, folded, all) && !REDUCED.test(folded)) {
    said.refused = line;
    return;
  }
  if (said.notFound === undefined && says(REFUSALS_END, NOT_FOUND_END, folded, all)) {
    said.notFound = line;
  } else if (said.reserved === undefined && says(NOT_FOUND_END, PATTERNS.length, folded, all)) {
    said.reserved = line;
  }
}

/**
 * The lines of `text[0, n)` that hold a trigger word, read in order up to the first refusal
 * or "not found". Each line's first LINE_CHARS characters are scanned once for trigger words
 * (markAscii; a line beyond ASCII is folded whole and scanned folded), and a line that holds one
 * is folded and meets the patterns its words marked. A word in the comment markers or running
 * past the part that is read is marked too: that only tries a pattern more, and the pattern
 * decides.
 */
function readReply(text: string, n: number): Said {
  const said: Said = {};
  loadCodes(text, 0, n);
  readLines(said, text, n, undefined);
  return said;
}

/** readReply(scan.text, n) on the lines the scan found, from its copy when that is shared. */
function readScannedReply(scan: Scan, n: number): Said {
  const said: Said = {};
  const text = scan.text;
  if (scan.shared) useScan(text, n);
  else loadCodes(text, 0, n);
  readLines(said, text, n, scan.lineEnds);
  return said;
}

/**
 * The line reading of readReply: text[0, n) (`codes` loaded for it), its lines ending where
 * `ends` says (the scan's line ends) or at the next newline. The ASCII text is scanned for
 * words WINDOW_CHARS at a time across its lines (asciiCandidates), and only a line where a
 * word starts is cut and read (readAsciiLine): in a
 * legal notice most lines hold none, and scanning each line apart cost a call, a table of
 * candidates and a stamp per line (a fifth of classifying AFNIC's 18 lines of comments). A
 * place is tried as markAscii tries it in its line: among the line's first LINE_CHARS
 * characters. A line holding a character beyond ASCII is read on its own (readLineAt), as
 * before, and the scan goes on after it.
 */
function readLines(said: Said, text: string, n: number, ends: Int32Array | undefined): void {
  const len = text.length;
  // The line being read: [start, end), the k-th of `ends`, the last place a word of it is
  // tried, and whether a word was found in it (its patterns marked under the current stamp).
  // Locals, not module state: the line moves at every line where a word may start.
  let k = 0;
  let start = 0;
  let end = ends === undefined ? lineEndAt(text, 0, n) : Math.min(ends[0], n);
  let lastPlace = Math.min(end, LINE_CHARS) - 2;
  let found = false;
  newStamp();
  let pos = 0;
  while (pos < n) {
    // An even end, so that the next window starts at a pair: the scan tries a place only with
    // the pair after it, and a window starting at an odd index never tries the one before.
    const to = Math.min(n, (pos + WINDOW_CHARS) & ~1);
    const count = asciiCandidates(text, pos, to - 1, Math.min(to, len - 1));
    // The places where a word may start, then a character beyond ASCII where the scan stopped
    // (beyondAt): each in its line, the lines before it read.
    const places = beyondAt < 0 ? count : count + 1;
    for (let c = 0; c < places; c++) {
      const at = c < count ? candidates[c] : beyondAt;
      if (at > end) {
        // the line holding `at`, after the one read so far
        if (found && readFoundLine(said, text, start, end)) return;
        if (ends === undefined) {
          start = lineStartOf(text, at, end);
          end = lineEndAt(text, start, n);
        } else {
          do {
            start = end + 1;
            end = Math.min(ends[++k], n);
          } while (end < at);
        }
        lastPlace = Math.min(end, start + LINE_CHARS) - 2;
        found = false;
        newStamp();
      }
      if (c < count && at <= lastPlace && tryAt(text, at, len)) found = true;
    }
    if (beyondAt < 0) {
      pos = to;
      continue;
    }
    // the line beyond ASCII is read on its own, and the scan goes on after it
    readLineAt(said, text, start, end);
    if (said.refused !== undefined || said.notFound !== undefined || end >= n) return;
    pos = end + 1;
    start = pos;
    end = ends === undefined ? lineEndAt(text, start, n) : Math.min(ends[++k], n);
    lastPlace = Math.min(end, start + LINE_CHARS) - 2;
    found = false;
    newStamp();
  }
  if (found) readFoundLine(said, text, start, end);
}

/** Where the line holding text[at] starts, after a line that ends at `end` (before `at`). */
function lineStartOf(text: string, at: number, end: number): number {
  return Math.max(end + 1, text.lastIndexOf('\n', at) + 1);
}

/** Where the line from `start` ends: its newline, or n. */
function lineEndAt(text: string, start: number, n: number): number {
  const end = text.indexOf('\n', start);
  return end < 0 || end > n ? n : end;
}

/**
 * Reads the ASCII line text[lineStart, end), where a word was found (its patterns marked),
 * into `said`; whether the reading ends there (a refusal or "not found").
 */
function readFoundLine(said: Said, text: string, lineStart: number, end: number): boolean {
  lineBounds(text, lineStart, end);
  if (textStart === textEnd) return false;
  readAsciiLine(said, text.slice(textStart, textEnd));
  return said.refused !== undefined || said.notFound !== undefined;
}

/** Reads the line text[lineStart, end) into `said` when it holds a trigger word. */
function readLineAt(said: Said, text: string, lineStart: number, end: number): void {
  const ascii = markAscii(text, lineStart, Math.min(end, lineStart + LINE_CHARS));
  if (ascii === 0) return;
  lineBounds(text, lineStart, end);
  if (textStart === textEnd) return;
  const line = text.slice(textStart, textEnd);
  if (ascii > 0) {
    readAsciiLine(said, line);
    return;
  }
  const folded = line.toLowerCase();
  if (markPatterns(folded, 0, folded.length)) readLine(said, line, folded);
}

/**
 * Whether the reply's first line of text says the name is not found: "No match for X.",
 * "NOT FOUND", "Domain not found." (Verisign and most gTLD registries, CNNIC, SWITCH...). A
 * server that opens with that has answered, and the rest is its notice: the reply is not read
 * further. A first line behind a comment marker answers too when it stands alone, not opening a
 * block of comments with that marker, and is not a field (no colon): "%% NOT FOUND" before
 * ">>> WHOIS request date" (MuseDoma), ">>> Domain x is available for registration" before a
 * blank line (Uniregistry). A banner of comments may hold prose that reads like one ("Names
 * that are not registered may be available."), so a reply that opens with such a block, or with
 * anything else, is read whole, its data first (see parse.ts).
 */
export function opensWithNotFound(text: string): boolean {
  let start = 0;
  while (start < text.length && isSpace(text.charCodeAt(start))) start++;
  let end = text.indexOf('\n', start);
  if (end < 0) end = text.length;
  if (start === end) return false;
  const mark = text.charCodeAt(start);
  // A commented line of a field ("% Status: AVAILABLE") is no statement of the server's.
  if (isLeadMark(mark) && (opensBlock(text, end, mark) || hasColon(text, start, end))) {
    return false;
  }
  // Only the line's first LINE_CHARS characters are read, as for every line.
  const n = Math.min(end, start + LINE_CHARS);
  const said: Said = {};
  // A short reply is copied whole, and the scan of a reply read past its first line finds it
  // there (holdShared); a longer one pays for its first line only.
  if (text.length <= HOLD_UNITS) {
    holdShared(text);
    useScan(text, n);
  } else {
    loadCodes(text, start, n);
  }
  readLineAt(said, text, start, n);
  return said.notFound !== undefined && said.refused === undefined;
}

/**
 * The longest reply opensWithNotFound copies whole: a copy costs a call into the runtime (about
 * 50 ns) and then about 40 ns a KB, so below this the second call it saves the scan of a reply
 * read further (AFNIC's 512 characters: 1.12 -> 0.89 µs) costs more than the characters it
 * copies for nothing when the first line answers (a 2.8 KB .co reply: 0.20 -> 0.31 µs whole).
 */
const HOLD_UNITS = 1024;

/**
 * Whether a reply that opens with a banner of comments says the name is not found before any
 * data. Registries that write RIPE's style ("%" lines: RIPE, TCI, MONIC, IRNIC, ROTLD, IANA),
 * AFNIC's "%%" or "#" lines (DK Hostmaster, the Swedish Internet Foundation) put their terms of
 * use first, as comments, and their answer after them: the first line that is not a comment
 * (nor blank) is the server's first statement, and when it says "not found" (and is no field:
 * no colon) the reply has answered, as one whose first line says so (opensWithNotFound). A
 * refusal in the banner still wins: AFNIC refuses in a "%%" line. A reply that is comments
 * only (AFNIC's, ROTLD's, IANA's) is the classifier's: the reader skips every comment line (a
 * commented field, "% Status: AVAILABLE", is no field of its), so such a reply holds no data
 * and its words are its answer, as the whole parse would find them.
 */
export function saysNotFoundAfterBanner(scan: Scan): boolean {
  const { text, units, lineEnds, lineCount } = scan;
  // What the classifier reads of a longer reply is cut (CLASSIFY_BYTES): not decided here. A
  // reply up to that length is in the shared copy, which the scan must still hold.
  const len = text.length;
  if (len > CLASSIFY_BYTES || !scan.shared || !isCurrent(scan)) return false;
  let banner = false;
  let start = 0;
  for (let k = 0; k < lineCount; k++) {
    const end = lineEnds[k];
    // most banner lines start with their mark: a registered reply's banner is walked too
    const mark = units[start];
    if ((mark === 37 || mark === 35) && start < end) {
      banner = true;
      start = end + 1;
      continue;
    }
    let b = start;
    while (b < end && isSpace(units[b])) b++;
    if (b < end) {
      const first = units[b];
      if (first !== 37 && first !== 35) {
        // The first statement: banner lines before it, not a field, and saying "not found".
        if (!banner || hasColonUnit(units, b, end)) return false;
        const said: Said = {};
        useScan(text, end);
        readLineAt(said, text, start, end);
        if (said.notFound === undefined || said.refused !== undefined) return false;
        return readScannedReply(scan, start).refused === undefined;
      }
      banner = true;
    }
    start = end + 1;
  }
  if (!banner) return false;
  // Comments only: what the classifier says of the whole reply.
  const said = readScannedReply(scan, len);
  return said.notFound !== undefined && said.refused === undefined;
}

/** Whether units[start, end) holds a colon. */
function hasColonUnit(units: Uint16Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (units[i] === 58) return true;
  return false;
}

/** Whether text[start, end) holds a colon (looked for in the line only: a reply may be 1 MB). */
function hasColon(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (text.charCodeAt(i) === 58) return true;
  return false;
}

/** Whether the line after text[end] (a newline, or the end) starts with `mark`, after spaces. */
function opensBlock(text: string, end: number, mark: number): boolean {
  let i = end + 1;
  while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return i < text.length && text.charCodeAt(i) === mark;
}

/**
 * What a reply without registration data says it is. The first line that says the query was
 * refused, or that the name is not found, is the server's answer, and the lines after it are
 * not read: AFNIC refuses with "Too many requests" before its "No entries found", and .br's
 * limit notice comes first too. "Not found" wins over "reserved" ("All rights reserved").
 * Undefined when it says none of them: an error page, an empty or cut-off reply.
 */
export function classifyReply(text: string): Classified | undefined {
  // What a server says about the query comes before any megabyte of filler: only the first
  // CLASSIFY_BYTES are read.
  return classified(readReply(text, Math.min(text.length, CLASSIFY_BYTES)));
}

/**
 * classifyReply(text) from the scan of the reply the reader has just walked (scan.ts), when
 * it is text's and still holds it: the reply is not copied or cut into lines again.
 */
export function classifyScanned(text: string, scan: Scan): Classified | undefined {
  return classified(saidScanned(text, scan));
}

/**
 * classifyScanned with the line as the server wrote it (comment markers removed), not cleaned:
 * parse.ts words a detail with the line only for a refusal or a reservation (clean it then), and
 * a "not found" with fixed words. Cleaning it was two regex passes over a line that holds a dot
 * or a colon ("No match for "X.NAME".", "query_status: 220 Available"), a tenth of classifying
 * a short notice.
 */
export function classifyScannedRaw(text: string, scan: Scan): Classified | undefined {
  return kindOf(saidScanned(text, scan));
}

function saidScanned(text: string, scan: Scan): Said {
  const n = Math.min(text.length, CLASSIFY_BYTES);
  if (scan.text !== text || !isCurrent(scan)) return readReply(text, n);
  return readScannedReply(scan, n);
}

function classified(said: Said): Classified | undefined {
  const raw = kindOf(said);
  return raw === undefined ? undefined : { kind: raw.kind, line: clean(raw.line) };
}

function kindOf(said: Said): Classified | undefined {
  if (said.refused !== undefined) return { kind: 'rate_limited', line: said.refused };
  if (said.notFound !== undefined) return { kind: 'not_found', line: said.notFound };
  if (said.reserved !== undefined) return { kind: 'reserved', line: said.reserved };
  return undefined;
}

/** A server's wording for an error detail: no client addresses, bounded. */
export function clean(line: string): string {
  // Each pattern is tried only on a line holding the character it cannot match without: the
  // IPv6 one, unanchored, was a tenth of classifying a reply (it starts a run of hex letters at
  // every "a" to "f" of the prose).
  const v4 = line.includes('.') ? line.replace(IPV4, '<address>') : line;
  const v6 = v4.includes(':') ? v4.replace(IPV6, '<address>') : v4;
  return v6.slice(0, 200);
}

const IPV4 = /\b\d{1,3}(\.\d{1,3}){3}\b/g;
const IPV6 = /\b(?:[0-9a-f]{1,4}:){3,7}[0-9a-f]{1,4}\b|[0-9a-f]*::[0-9a-f:]*/gi;

/** True when the reply says the name is not registered (and not that it was refused). */
export function isNotFound(text: string): boolean {
  return classifyReply(text)?.kind === 'not_found';
}

/** True when the reply is a refusal for the query rate, a quota or a blocked client. */
export function isRateLimited(text: string): boolean {
  return classifyReply(text)?.kind === 'rate_limited';
}

// Built once (a regex literal in a function body is a new object on every call).
const REFERRAL = [
  /^\s*registrar whois server:\s*(\S+)/im,
  /^\s*whois server:\s*(\S+)/im,
  /^\s*referralserver:\s*(\S+)/im,
  /^\s*refer:\s*(\S+)/im,
  /^\s*whois:\s*(\S+)/im,
];

/** The next server a registry reply points to, as host or host:port, when it names one. */
export function findReferral(text: string): string | undefined {
  for (const re of REFERRAL) {
    const m = re.exec(text);
    if (!m) continue;
    const target = m[1]
      .replace(/^(r?whois):\/\//i, '')
      .replace(/\/.*$/, '')
      .toLowerCase();
    if (/^[a-z0-9.-]+\.[a-z]{2,}(:\d{1,5})?$/.test(target)) return target;
  }
  return undefined;
}
