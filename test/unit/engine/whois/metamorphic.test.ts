// Metamorphic checks of the WHOIS parser: every reply of the three corpora, rewritten in ways
// that change nothing a registry means (line endings, blank lines, a byte-order mark, trailing
// spaces, the case of keys and of values, spaces or a dot leader before a colon, a tab or a
// column's padding after it, every line indented, a banner of comments before the reply or a
// notice after it), must read as the reply itself does. A parser tuned to its corpora's exact
// layout breaks on such a rewrite; a registry the corpora lack will differ from them in just
// these ways. Before these checks, a reply indented whole lost the blocks that open at the
// margin (AFNIC's registrar object, the Estonian registrar), a YAML tag after a tab or padding
// was a value, and a dot leader hid Verisign's "Server Name" host objects (their registrar's
// URL was read as the domain's).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { isVerdict, parseWhois, type WhoisReading } from '../../../../src/engine/whois/parse';
import { decodeReply } from '../../../../src/engine/whois/port43';
import { corpusAvailable, loadReplies } from '../../../support/whois-corpus';
import { PYTHON_ROOT } from '../../../support/whois-python';
import { loadWeppos, wepposAvailable } from '../../../support/whois-weppos';

/** A key at the start of a line: letters, spaces and hyphens, then a colon. */
const KEY = /^(\s*)([A-Za-z][A-Za-z -]{1,40}):/gm;

const REWRITES: Record<string, (text: string) => string> = {
  'CRLF line ends': (t) => t.replace(/\r?\n/g, '\r\n'),
  'LF line ends': (t) => t.replace(/\r\n/g, '\n'),
  'spaces at the end of each line': (t) => t.replace(/\r?\n/g, '   \n'),
  'a byte-order mark': (t) => `\uFEFF${t}`,
  'blank lines before': (t) => `\n\n${t}`,
  'blank lines after': (t) => `${t}\n\n\n`,
  'a blank line doubled': (t) => t.replace(/\n\s*\n/g, '\n\n\n'),
  'keys in capitals': (t) =>
    t.replace(KEY, (_m, s: string, k: string) => `${s}${k.toUpperCase()}:`),
  'keys in lower case': (t) =>
    t.replace(KEY, (_m, s: string, k: string) => `${s}${k.toLowerCase()}:`),
  'spaces before the colon': (t) => t.replace(KEY, '$1$2  :'),
  'a dot leader before the colon': (t) =>
    t.replace(
      /^(\s*)([A-Za-z][A-Za-z -]{1,40}?)\s*:(?=[ \t])/gm,
      (_m, s: string, k: string) => `${s}${k}${'.'.repeat(Math.max(2, 30 - k.length))}:`,
    ),
  'values padded to a column': (t) =>
    t.replace(
      /^(\s*)([A-Za-z][A-Za-z -]{1,40}?):[ \t]+(?=\S)/gm,
      (_m, s: string, k: string) => `${s}${k}:${' '.repeat(Math.max(1, 40 - k.length))}`,
    ),
  'a tab after the colon': (t) => t.replace(/^(\s*[A-Za-z][A-Za-z -]{1,40}):[ ]+/gm, '$1:\t'),
  'a banner of % comments before': (t) =>
    `% This query is served by a test registry.\n% Use of this data is limited.\n\n${t}`,
  'a banner of # comments before': (t) => `# Whois server of a test registry\n# (c) 2026\n\n${t}`,
  'a notice after': (t) =>
    `${t}\n\nNOTICE: The expiration date displayed in this record is the date the registrar's ` +
    'sponsorship of the domain name registration in the registry is currently set to expire.\n',
  'every line indented': (t) => t.replace(/^(?=.)/gm, '    '),
  'names and statuses in capitals': (t) =>
    t.replace(
      /^(\s*(?:domain name|name server|nserver|domain status|status)\s*:\s*)(.+)$/gim,
      (_m, k: string, v: string) => k + v.toUpperCase(),
    ),
};

function replies(): Array<{ id: string; text: string }> {
  const all: Array<{ id: string; text: string }> = [];
  if (wepposAvailable()) {
    for (const c of loadWeppos()) all.push({ id: `weppos ${c.id}`, text: decodeReply(c.bytes) });
  }
  if (corpusAvailable()) {
    for (const kind of ['noterror', 'notfound'] as const) {
      for (const r of loadReplies(kind)) all.push({ id: `whois-parser ${r.file}`, text: r.text });
    }
  }
  const python = join(PYTHON_ROOT, 'whois');
  if (existsSync(python)) {
    for (const f of readdirSync(python)) {
      all.push({ id: `python-whois ${f}`, text: decodeReply(readFileSync(join(python, f))) });
    }
  }
  return all;
}

/** What a reading says, without the raw reply (which a rewrite changes by design). */
function meaning(reading: WhoisReading): unknown {
  if (isVerdict(reading)) return { verdict: reading.verdict };
  return { domain: reading.domain, registrar: reading.registrar };
}

describe('whois parser: rewrites that change nothing a registry means', function () {
  const all = replies();

  it('reads every corpus reply rewritten as it reads the reply', function () {
    if (all.length === 0) {
      console.log('      skipped: ../shared/corpus WHOIS replies absent');
      this.skip();
    }
    const broken: string[] = [];
    for (const { id, text } of all) {
      const base = meaning(parseWhois(text));
      for (const [name, rewrite] of Object.entries(REWRITES)) {
        if (!isDeepStrictEqual(meaning(parseWhois(rewrite(text))), base)) {
          broken.push(`${name}: ${id}`);
        }
      }
    }
    console.log(
      `      ${all.length} replies x ${Object.keys(REWRITES).length} rewrites, ${broken.length} read differently`,
    );
    assert.deepEqual(broken, []);
  });
});
