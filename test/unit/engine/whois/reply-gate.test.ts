// The reply classifier reads only the lines that hold a trigger word, and matches a line only
// against the patterns whose words it holds. That shortcut must give what reading every line
// against every pattern gives: every line a pattern can match holds one of its words (lines
// generated from each pattern), and whole replies (every corpus reply, and generated ones in any
// letter case) are classified exactly as the line-by-line reading does.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { decodeReply } from '../../../../src/engine/whois/port43';
import {
  CASELESS_PATTERNS,
  classifyReply,
  clean,
  hasTrigger,
  lineHasShape,
  opensWithNotFound,
  readLine,
  readsAsAscii,
  REPLY_PATTERNS,
  type Classified,
  type Said,
} from '../../../../src/engine/whois/reply';
import { CORPUS_ROOT, corpusAvailable, loadReplies } from '../../../support/whois-corpus';
import { loadWeppos, wepposAvailable } from '../../../support/whois-weppos';
import { LINE_SHAPES } from '../../../../src/engine/whois/tables/reply-phrases';

/** The rule without the shortcut: every line (capped, markers off) against every pattern. */
function everyLine(text: string): Classified | undefined {
  const said: Said = {};
  const n = Math.min(text.length, 64 * 1024);
  for (const raw of text.slice(0, n).split('\n')) {
    const line = raw
      .slice(0, 300)
      .replace(/^[\s%#*>;[\]-]+/, '')
      .replace(/[\s\]<]+$/, '');
    if (line === '') continue;
    readLine(said, line, line.toLowerCase(), true);
    if (said.refused !== undefined || said.notFound !== undefined) break;
  }
  if (said.refused !== undefined) return { kind: 'rate_limited', line: clean(said.refused) };
  if (said.notFound !== undefined) return { kind: 'not_found', line: clean(said.notFound) };
  if (said.reserved !== undefined) return { kind: 'reserved', line: clean(said.reserved) };
  return undefined;
}

/** Lines a pattern matches: fast-check writes them from its source (\b dropped: a superset). */
function linesOf(re: RegExp): fc.Arbitrary<string> {
  return fc.stringMatching(new RegExp(re.source.replace(/\\b/g, '')), { size: 'small' });
}

function corpusTexts(): string[] {
  if (!corpusAvailable()) return [];
  const texts = [...loadReplies('noterror'), ...loadReplies('notfound')].map((r) => r.text);
  if (wepposAvailable()) texts.push(...loadWeppos().map((c) => decodeReply(c.bytes)));
  const python = join(CORPUS_ROOT, 'whois-python', 'whois');
  if (existsSync(python)) {
    for (const f of readdirSync(python)) texts.push(decodeReply(readFileSync(join(python, f))));
  }
  return texts;
}

describe('whois reply classification: the trigger scan reads what every line would', () => {
  it('every line a pattern matches holds one of its trigger words', () => {
    REPLY_PATTERNS.forEach(({ re }, p) => {
      fc.assert(
        fc.property(linesOf(re), (line) => {
          const folded = line.toLowerCase();
          // only lines the pattern (with its \b) really matches are the rule's concern
          if (!re.test(folded)) return true;
          return hasTrigger(folded, p);
        }),
        { numRuns: 200, seed: 28 },
      );
    });
  });

  it('every line an anchored pattern matches has the shape of its ends the pattern is read by', () => {
    // A pattern of LINE_SHAPES is tested only on a line that starts with one of its letters or
    // ends with one of its words (hasShape in reply.ts). Lines from each such pattern, in
    // either case, with noise before and after: every one it matches, as the server wrote it
    // or folded, has the shape.
    let shaped = 0;
    REPLY_PATTERNS.forEach(({ re }, p) => {
      if (!LINE_SHAPES.has(re)) return;
      shaped++;
      const caseless = CASELESS_PATTERNS[p];
      let matched = 0;
      const noise = fc.string({ maxLength: 6 });
      fc.assert(
        fc.property(linesOf(re), noise, noise, fc.boolean(), (text, before, after, upper) => {
          for (const raw of [text, `${before}${text}`, `${text}${after}`]) {
            const line = upper ? raw.toUpperCase() : raw;
            const folded = line.toLowerCase();
            if (re.test(folded)) {
              matched++;
              assert.ok(lineHasShape(p, folded), `${re.source}: ${folded}`);
            }
            if (/^[\x00-\x7f]*$/.test(line) && caseless.test(line)) {
              assert.ok(lineHasShape(p, line), `${re.source}: ${line}`);
            }
          }
        }),
        { numRuns: 300, seed: 33 },
      );
      assert.ok(matched > 50, `${re.source}: ${matched} generated lines matched`);
    });
    assert.equal(shaped, LINE_SHAPES.size);
    // and a line without the shape is not tested: prose that holds a pattern's word inside it
    const isAvailable = REPLY_PATTERNS.findIndex(({ re }) => re.source.startsWith('\\b(is|are)'));
    assert.equal(lineHasShape(isAvailable, 'that the results are error-free. Therefore'), false);
    assert.equal(lineHasShape(isAvailable, 'The name IS FREE.'), true);
    const statusLine = REPLY_PATTERNS.findIndex(({ re }) => re.source.startsWith('^(domain )?'));
    assert.equal(lineHasShape(statusLine, 'Third level registrations may be available'), false);
    assert.equal(lineHasShape(statusLine, 'Status: AVAILABLE'), true);
  });

  it('reads an ASCII line in any letter case with the i flag as the lower-cased line', () => {
    // A line of ASCII is not lower-cased: the patterns read it with the `i` flag. Each letter
    // of a line a pattern matches (or nearly: \b dropped) in either case, and ASCII noise.
    const ascii = (line: string): boolean => /^[\x00-\x7f]*$/.test(line);
    REPLY_PATTERNS.forEach(({ re }, p) => {
      const caseless = CASELESS_PATTERNS[p];
      assert.equal(caseless.source, re.source);
      assert.equal(caseless.flags, 'i');
      const line = fc.oneof(linesOf(re), fc.string({ unit: 'binary-ascii', maxLength: 40 }));
      fc.assert(
        fc.property(line, fc.array(fc.boolean(), { maxLength: 40 }), (text, upper) => {
          if (!ascii(text)) return;
          const mixed = [...text]
            .map((c, k) => (upper[k % (upper.length || 1)] ? c.toUpperCase() : c))
            .join('');
          assert.equal(caseless.test(mixed), re.test(mixed.toLowerCase()), mixed);
        }),
        { numRuns: 200, seed: 30 },
      );
    });
  });

  it('a lazy gap between two parts of a phrase accepts the lines the greedy gap accepts', () => {
    // The patterns are only tested (tables/reply-phrases.ts): a lazy ".{0,60}?" finds the
    // second part sooner, and must accept exactly what ".{0,60}" accepts. Lines from each
    // pattern, and the same lines with their gap filled with the second part's words.
    const lazy = REPLY_PATTERNS.filter(({ re }) => /\.(\{0,\d+\}|\*)\?/.test(re.source));
    assert.ok(lazy.length >= 10, `${lazy.length} patterns with a lazy gap`);
    for (const { re } of lazy) {
      const greedy = new RegExp(re.source.replace(/(\.(\{0,\d+\}|\*))\?/g, '$1'));
      assert.notEqual(greedy.source, re.source);
      const line = fc.oneof(linesOf(re), linesOf(greedy), fc.string({ maxLength: 80 }));
      fc.assert(
        fc.property(line, line, (a, b) => {
          for (const text of [a, `${a} ${b}`, `${a}${a}`]) {
            assert.equal(re.test(text), greedy.test(text), text);
          }
        }),
        { numRuns: 300, seed: 32 },
      );
    }
  });

  it('no character of a pattern beyond ASCII matches an ASCII one under the i flag', () => {
    // What lets the caseless patterns read an ASCII line as the lower-case ones read it folded:
    // "ı" (kayıt) must not match "i" or "I".
    const escape = (c: string): string => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const { re } of REPLY_PATTERNS) {
      for (const c of re.source) {
        if (c.charCodeAt(0) < 128) continue;
        const one = new RegExp(escape(c), 'i');
        for (let a = 0; a < 128; a++) assert.equal(one.test(String.fromCharCode(a)), false, c);
      }
    }
  });

  it('a character a line read as ASCII may hold beyond ASCII has no case', () => {
    // The premise of reading such a line with the caseless patterns (readsAsAscii in reply.ts):
    // lower-casing leaves each of these characters, and the i flag (which compares characters
    // upper-cased) maps no other character onto one.
    const onto = new Map<number, number>();
    for (let x = 0; x < 0x10000; x++) {
      const up = String.fromCharCode(x).toUpperCase();
      if (up.length === 1 && up.charCodeAt(0) !== x) onto.set(up.charCodeAt(0), x);
    }
    let read = 0;
    for (let c = 128; c < 0x10000; c++) {
      if (!readsAsAscii(c)) continue;
      read++;
      const ch = String.fromCharCode(c);
      assert.equal(ch.toLowerCase(), ch, c.toString(16));
      assert.equal(ch.toUpperCase(), ch, c.toString(16));
      assert.equal(onto.get(c), undefined, c.toString(16));
    }
    assert.equal(read, 0x70);
  });

  it('classifies generated lines with typographic punctuation, in any letter case, as every line does', () => {
    const phrase = fc.oneof(
      ...REPLY_PATTERNS.map(({ re }) => linesOf(re)),
      fc.constantFrom('as “Redacted for Privacy” in the', 'Not available – see “terms”…'),
    );
    const punct = fc.integer({ min: 0x2000, max: 0x206f }).map((c) => String.fromCharCode(c));
    const line = fc
      .tuple(phrase, fc.boolean(), fc.array(fc.tuple(fc.nat(60), punct), { maxLength: 3 }))
      .map(([p, upper, inserts]) => {
        let text = upper ? p.toUpperCase() : p;
        for (const [at, ch] of inserts) {
          const k = at % (text.length + 1);
          text = `${text.slice(0, k)}${ch}${text.slice(k)}`;
        }
        return text;
      });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 10 }), fc.boolean(), (lines, shift) => {
        const text = (shift ? ' ' : '') + lines.join('\n');
        assert.deepEqual(classifyReply(text), everyLine(text));
      }),
      { numRuns: 2000, seed: 31 },
    );
  });

  it('classifies every corpus reply as reading every line does', function () {
    const texts = corpusTexts();
    if (texts.length === 0) this.skip();
    let said = 0;
    for (const text of texts) {
      const want = everyLine(text);
      assert.deepEqual(classifyReply(text), want, text.slice(0, 200));
      if (want !== undefined) said++;
    }
    assert.ok(said > 100, `${said} corpus replies say a kind`);
  });

  it('classifies every corpus reply shifted by a character, or with one beyond ASCII, alike', function () {
    // The scan reads a line by aligned pairs of characters: a shift puts each word at the other
    // parity, and a character beyond ASCII sends its line to the folded reading.
    const texts = corpusTexts();
    if (texts.length === 0) this.skip();
    texts.forEach((text, k) => {
      const shifted = ` ${text}`;
      assert.deepEqual(classifyReply(shifted), everyLine(shifted), shifted.slice(0, 200));
      const at = (k * 7919) % (text.length + 1);
      const odd = `${text.slice(0, at)}${k % 2 === 0 ? '“' : 'é'}${text.slice(at)}`;
      assert.deepEqual(classifyReply(odd), everyLine(odd), odd.slice(0, 200));
    });
  });

  it('reads a first line far into the reply, and a long one, by its first 300 characters', () => {
    for (const lead of [' '.repeat(65534), ' '.repeat(65535), ' '.repeat(70001)]) {
      assert.equal(opensWithNotFound(`${lead}No match for "X.TEST".\n`), true);
      assert.equal(opensWithNotFound(`${lead}Domain Name: x.test\n`), false);
    }
    assert.equal(opensWithNotFound(`No match for "X.TEST".${'y'.repeat(70000)}`), true);
    assert.equal(opensWithNotFound(`${'y '.repeat(150)}No match for "X.TEST".`), false);
    const far = `${'x'.repeat(70000)}\nNo match for X\n`;
    assert.deepEqual(classifyReply(far), everyLine(far));
  });

  it('finds a word at every place of lines read across the scan windows, after a line beyond ASCII', () => {
    // readLines scans the text a window at a time across lines, and starts again after a line
    // beyond ASCII, at either parity: every place a word may start is tried once.
    for (const lead of ['', 'é\n', 'éé\n', 'Status: 保留\n', 'x\n']) {
      for (let k = 0; k < 560; k++) {
        for (const text of [
          `${lead}${'y'.repeat(k)} No match for x\n`,
          `${lead}${'word '.repeat(k >> 2)}\n${'z'.repeat(k & 3)}Not found\n`,
        ]) {
          assert.deepEqual(classifyReply(text), everyLine(text), JSON.stringify(text));
        }
      }
    }
  });

  it('reads the last two characters of a reply that ends without a newline', () => {
    // The pair scan reads a line two characters at a time; at the reply's end, an odd index
    // leaves the last pair to the check after the loop ("Status: 保留" was read as ASCII).
    for (const text of ['abcd保留', 'x\n查無', 'Status: 保留', 'abcde保留', '“Status” 예약']) {
      assert.deepEqual(classifyReply(text), everyLine(text), text);
      assert.notEqual(classifyReply(text), undefined, text);
    }
  });

  it('classifies generated replies with a character beyond ASCII anywhere as every line does', () => {
    const line = fc.oneof(
      ...REPLY_PATTERNS.map(({ re }) => linesOf(re)),
      fc.string({ maxLength: 40 }),
    );
    // Letters of words ("é", "ı", "н"), capitals ("É", "Σ"), other scripts, typography and
    // halves of surrogate pairs: each sends its line to be folded whole.
    const odd = fc.constantFrom(
      ...['é', '“', '”', 'İ', 'ß', '\u00a0', '\t', '@', '`', '\u0000', '©', '—', 'ü', 'Ü'],
      ...['域', 'Σ', 'ı', 'н', 'д', '\ud83d\ude00', '\ud800', '\u2028'],
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(400), odd), { minLength: 1, maxLength: 4 }),
        (lines, inserts) => {
          let text = lines.join('\n');
          for (const [at, ch] of inserts) {
            const p = at % (text.length + 1);
            text = `${text.slice(0, p)}${ch}${text.slice(p)}`;
          }
          assert.deepEqual(classifyReply(text), everyLine(text));
        },
      ),
      { numRuns: 3000, seed: 29 },
    );
  });

  it('classifies generated replies, in any letter case and with "İ", as every line does', () => {
    const phrase = fc.oneof(
      ...REPLY_PATTERNS.map(({ re }) => linesOf(re)),
      fc.constantFrom('Domain Name: example.test', '% Terms of use: you may not', 'İSTANBUL'),
      fc.string({ maxLength: 40 }),
    );
    const marks = fc.constantFrom('', '% ', '# ', '>>> ', '  ', '[ ', '-- ');
    const line = fc
      .tuple(marks, phrase, fc.boolean(), fc.constantFrom('', ' ]', '\r', '  <'))
      .map(([m, p, upper, tail]) => `${m}${upper ? p.toUpperCase() : p}${tail}`);
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), (lines) => {
        const text = lines.join('\n');
        assert.deepEqual(classifyReply(text), everyLine(text));
      }),
      { numRuns: 2000, seed: 28 },
    );
  });
});
