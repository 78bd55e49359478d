// What kind of reply a text without registration data is (not registered, reserved, refused for
// the query rate or a blocked client), and where a registry's reply refers the query next. Pure,
// like parse.ts.
//
// The kinds are told by what a line says, in the words registries use in every language they
// answer in, not by whole replies of known servers. Each pattern is matched against one line
// at a time, comment markers removed, so a phrase never spans a legal notice's sentences.
//
// Cost: about one read of the reply. The text is lower-cased once; one pass over it with a
// table of the two first characters of the trigger words (TRIGGERS) finds the few lines that
// hold one, and such a line meets only the patterns whose source spells a word it holds. Every
// quantifier in a pattern is bounded and a line is capped, so a line costs time linear in its
// length. (Case-insensitive Unicode matching of the three long alternations on every line, as
// before, took 2.7 ms on one .es reply, 170x the corpus median.) The phrases and the words
// are in tables/reply-phrases.ts.
import { isSpace } from './chars';
import { NOT_FOUND, RATE_LIMITED, RESERVED, TRIGGERS } from './tables/reply-phrases';

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

/** The words of each pattern: the trigger words its source spells. */
const PATTERN_WORDS = PATTERNS.map(({ re }) => {
  const words = TRIGGERS.filter((w) => re.source.includes(w));
  if (words.length === 0) throw new Error(`no trigger word in the reply pattern ${re.source}`);
  return words;
});

/**
 * The trigger words by their first two characters, hashed: PAIR_SLOT[hash] is 0 or 1 + the
 * index in PAIR_WORDS of the words whose first two characters hash there, each with the
 * patterns that spell it. Two character reads and a table load a position: a JS loop with this
 * table reads a reply several times faster than the regex engine runs one alternation of a
 * hundred words, which it tries one after another at each position.
 */
const PAIR_SLOT = new Uint16Array(1 << 16);
const PAIR_WORDS: Array<Array<{ word: string; patterns: number[] }>> = [];

function pairHash(a: number, b: number): number {
  return ((a << 6) ^ b) & 0xffff;
}

for (const word of TRIGGERS) {
  if (word.length < 2) throw new Error(`a trigger word has two characters or more: ${word}`);
  const h = pairHash(word.charCodeAt(0), word.charCodeAt(1));
  if (PAIR_SLOT[h] === 0) PAIR_SLOT[h] = PAIR_WORDS.push([]);
  const patterns = PATTERN_WORDS.flatMap((words, p) => (words.includes(word) ? [p] : []));
  PAIR_WORDS[PAIR_SLOT[h] - 1].push({ word, patterns });
}

/** Where the first trigger word in `folded[from, to)` starts, or -1. */
function nextTrigger(folded: string, from: number, to: number): number {
  let prev = folded.charCodeAt(from);
  for (let i = from + 1; i < to; i++) {
    const c = folded.charCodeAt(i);
    const slot = PAIR_SLOT[((prev << 6) ^ c) & 0xffff];
    if (slot !== 0) {
      for (const w of PAIR_WORDS[slot - 1]) if (folded.startsWith(w.word, i - 1)) return i - 1;
    }
    prev = c;
  }
  return -1;
}

/** Marks the patterns whose words `folded[from, to)` holds: `tried[p] = stamp`. */
const tried = new Uint32Array(PATTERNS.length);
let stamp = 0;

function markPatterns(folded: string, from: number, to: number): void {
  if (++stamp === 0xffffffff) {
    tried.fill(0);
    stamp = 1;
  }
  for (let i = from; i + 1 < to; i++) {
    const slot = PAIR_SLOT[pairHash(folded.charCodeAt(i), folded.charCodeAt(i + 1))];
    if (slot === 0) continue;
    for (const w of PAIR_WORDS[slot - 1]) {
      if (folded.startsWith(w.word, i)) for (const p of w.patterns) tried[p] = stamp;
    }
  }
}

/** A limit notice that says the answer follows in a reduced form is not a refusal. */
const REDUCED = /\b(reduced|limited|partial) (information|answer|output|data)\b/;

/** The patterns and their kinds, for the test that every line they match holds a word of theirs. */
export const REPLY_PATTERNS: ReadonlyArray<Readonly<Pattern>> = PATTERNS;

/** Whether a folded line holds a word of pattern `p` (an index in REPLY_PATTERNS). */
export function hasTrigger(folded: string, p: number): boolean {
  markPatterns(folded, 0, folded.length);
  return tried[p] === stamp;
}

const CLASSIFY_BYTES = 64 * 1024;

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

/** How much of a line is read: no sentence worth reading is longer, and a 1 MB line stays cheap. */
const LINE_CHARS = 300;

/**
 * Where the text of the line at [start, end) is: without comment markers, banner brackets and
 * surrounding space, within its first LINE_CHARS characters. Offsets, so that the line and its
 * folded copy are cut alike.
 */
function lineBounds(text: string, start: number, end: number): [number, number] {
  let e = Math.min(end, start + LINE_CHARS);
  let b = start;
  while (b < e && (isSpace(text.charCodeAt(b)) || isLeadMark(text.charCodeAt(b)))) b++;
  while (e > b) {
    const c = text.charCodeAt(e - 1);
    if (!(isSpace(c) || c === 93 || c === 60)) break;
    e--;
  }
  return [b, e];
}

/** What the lines read so far said; `refused` ends the reading. */
export interface Said {
  refused?: string;
  notFound?: string;
  reserved?: string;
}

/** Where each kind's patterns are in PATTERNS: [from, to). */
const KIND_RANGE: Record<ReplyKind, [number, number]> = {
  rate_limited: [0, RATE_LIMITED.length],
  not_found: [RATE_LIMITED.length, RATE_LIMITED.length + NOT_FOUND.length],
  reserved: [RATE_LIMITED.length + NOT_FOUND.length, PATTERNS.length],
};

/** Whether a pattern of `kind` (one marked tried, or any when `all`) matches the folded line. */
function says(kind: ReplyKind, folded: string, all: boolean): boolean {
  const [from, to] = KIND_RANGE[kind];
  for (let p = from; p < to; p++) {
    if ((all || tried[p] === stamp) && PATTERNS[p].re.test(folded)) return true;
  }
  return false;
}

/**
 * Reads one line (`line` as the server wrote it, `folded` the same lower-cased) against the
 * patterns marked tried (all of them when `all`). A refusal wins over "no entries found" (AFNIC
 * says both when it refuses); the first line of each other kind is kept.
 */
export function readLine(said: Said, line: string, folded: string, all = false): void {
  if (says('rate_limited', folded, all) && !REDUCED.test(folded)) {
    said.refused = line;
    return;
  }
  if (said.notFound === undefined && says('not_found', folded, all)) said.notFound = line;
  else if (said.reserved === undefined && says('reserved', folded, all)) said.reserved = line;
}

/**
 * The lines of `text[0, n)` that hold a trigger word, read in order. The trigger scan runs over
 * the folded text when folding kept every offset (`folded` given), else over each line folded
 * alone (a reply with "İ", which lower-cases to two code units).
 */
function readReply(text: string, n: number, folded: string | undefined): Said {
  const said: Said = {};
  let start = 0;
  while (start < n && said.refused === undefined) {
    let end: number;
    // where the line's first trigger word may start (none before it)
    let from = start;
    if (folded !== undefined) {
      const hit = nextTrigger(folded, start, n);
      if (hit < 0) break;
      start = folded.lastIndexOf('\n', hit) + 1;
      end = folded.indexOf('\n', hit);
      if (end < 0) end = n;
      // a word past the part of the line that is read cannot be in a match
      if (hit >= start + LINE_CHARS) {
        start = end + 1;
        continue;
      }
      from = hit;
    } else {
      end = text.indexOf('\n', start);
      if (end < 0 || end > n) end = n;
    }
    const [b, e] = lineBounds(text, start, end);
    start = end + 1;
    if (b === e) continue;
    const line = text.slice(b, e);
    const foldedLine = folded === undefined ? line.toLowerCase() : folded.slice(b, e);
    markPatterns(foldedLine, Math.max(0, from - b), foldedLine.length);
    readLine(said, line, foldedLine);
  }
  return said;
}

/**
 * What a reply without registration data says it is. A refusal wins over "no entries found"
 * (AFNIC says both when it refuses), and "not found" over "reserved" ("All rights reserved").
 * Undefined when it says none of them: an error page, an empty or cut-off reply.
 */
export function classifyReply(text: string): Classified | undefined {
  // What a server says about the query comes before any megabyte of filler: only the first
  // CLASSIFY_BYTES are read.
  const n = Math.min(text.length, CLASSIFY_BYTES);
  const folded = (n === text.length ? text : text.slice(0, n)).toLowerCase();
  const said = readReply(text, n, folded.length === n ? folded : undefined);
  if (said.refused !== undefined) return { kind: 'rate_limited', line: clean(said.refused) };
  if (said.notFound !== undefined) return { kind: 'not_found', line: clean(said.notFound) };
  if (said.reserved !== undefined) return { kind: 'reserved', line: clean(said.reserved) };
  return undefined;
}

/** A server's wording for an error detail: no client addresses, bounded. */
export function clean(line: string): string {
  return line
    .replace(/\b\d{1,3}(\.\d{1,3}){3}\b/g, '<address>')
    .replace(/\b(?:[0-9a-f]{1,4}:){3,7}[0-9a-f]{1,4}\b|[0-9a-f]*::[0-9a-f:]*/gi, '<address>')
    .slice(0, 200);
}

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
