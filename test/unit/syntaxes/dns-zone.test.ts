// The dns-zone grammar, checked without VS Code: every regex must compile, and a small
// tokenizer that follows TextMate's rule (earliest match wins, then the earlier pattern;
// begin/end rules scan their own patterns until the end) must scope a zone as intended.
// Only the features the grammar uses are implemented: match/name/captures, begin/end with
// inner patterns, include of repository entries. Patterns avoid Oniguruma-only syntax so
// that JavaScript's RegExp is a faithful stand-in.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Rule = {
  include?: string;
  match?: string;
  begin?: string;
  end?: string;
  name?: string;
  captures?: Record<string, { name: string }>;
  beginCaptures?: Record<string, { name: string }>;
  endCaptures?: Record<string, { name: string }>;
  patterns?: Rule[];
};
type Grammar = { scopeName: string; patterns: Rule[]; repository: Record<string, Rule> };

const root = fileURLToPath(new URL('../../../', import.meta.url));
const grammar = JSON.parse(
  readFileSync(`${root}syntaxes/dns-zone.tmLanguage.json`, 'utf8'),
) as Grammar;

function flatten(rules: Rule[]): Rule[] {
  return rules.flatMap((rule) => {
    if (rule.include) {
      const target = grammar.repository[rule.include.slice(1)];
      assert.ok(target, `unknown include ${rule.include}`);
      return flatten([target]);
    }
    if (!rule.match && !rule.begin && rule.patterns) return flatten(rule.patterns);
    return [rule];
  });
}

type Token = { text: string; scope: string };

/** Scopes of a line, innermost name per character run; unscoped text is dropped. */
function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  const top = flatten(grammar.patterns);
  let pos = 0;
  while (pos < line.length) {
    let best: { rule: Rule; m: RegExpExecArray } | undefined;
    for (const rule of top) {
      const re = new RegExp(rule.match ?? rule.begin!, 'g');
      re.lastIndex = pos;
      const m = re.exec(line);
      if (m && m[0] !== '' && (!best || m.index < best.m.index)) best = { rule, m };
    }
    if (!best) break;
    const { rule, m } = best;
    let end = m.index + m[0].length;
    if (rule.match) {
      const caps = rule.captures ?? {};
      if (rule.name) tokens.push({ text: m[0], scope: rule.name });
      for (const [index, { name }] of Object.entries(caps)) {
        const text = m[Number(index)];
        if (text !== undefined) tokens.push({ text, scope: name });
      }
    } else {
      const endRe = new RegExp(rule.end!, 'g');
      let scan = end;
      for (;;) {
        const inner = flatten(rule.patterns ?? []).map((r) => {
          const re = new RegExp(r.match!, 'g');
          re.lastIndex = scan;
          return re.exec(line);
        });
        endRe.lastIndex = scan;
        const close = endRe.exec(line);
        const skip = inner.find((x) => x && (!close || x.index < close.index));
        if (skip) {
          scan = skip.index + skip[0].length;
          continue;
        }
        end = close ? close.index + close[0].length : line.length;
        break;
      }
      tokens.push({ text: line.slice(m.index, end), scope: rule.name! });
    }
    pos = end;
  }
  return tokens;
}

const scopeOf = (line: string, text: string): string | undefined =>
  tokenize(line).find((t) => t.text === text)?.scope;

describe('dns-zone grammar', () => {
  it('has the scope name and compiles every pattern', () => {
    assert.equal(grammar.scopeName, 'source.dns-zone');
    const all = [...grammar.patterns, ...Object.values(grammar.repository)];
    for (const rule of flatten(all)) {
      for (const source of [rule.match, rule.begin, rule.end]) {
        if (source !== undefined) assert.doesNotThrow(() => new RegExp(source), source);
      }
    }
  });

  const table: [line: string, text: string, scope: string | undefined][] = [
    [
      '; a comment with IN A 192.0.2.1',
      '; a comment with IN A 192.0.2.1',
      'comment.line.semicolon.dns-zone',
    ],
    ['$ORIGIN example.com.', '$ORIGIN', 'keyword.control.directive.origin.dns-zone'],
    ['$ORIGIN example.com.', 'example.com.', 'entity.name.namespace.origin.dns-zone'],
    ['$TTL 1h', '1h', 'constant.numeric.ttl.dns-zone'],
    ['$INCLUDE sub.zone sub.example.com.', 'sub.zone', 'string.unquoted.filename.dns-zone'],
    ['$GENERATE 1-9 host$ A 192.0.2.$', '$GENERATE', 'keyword.control.directive.generate.dns-zone'],
    ['@ IN NS ns1', '@', 'variable.language.origin.owner.dns-zone'],
    ['www 300 IN A 192.0.2.1', 'www', 'entity.name.tag.owner.dns-zone'],
    ['*.apps IN A 192.0.2.1', '*.apps', 'entity.name.tag.owner.dns-zone'],
    ['www 300 IN A 192.0.2.1', '300', 'constant.numeric.integer.dns-zone'],
    ['www 1d12h IN A 192.0.2.1', '1d12h', 'constant.numeric.ttl.dns-zone'],
    ['www 300 IN A 192.0.2.1', 'IN', 'storage.modifier.class.dns-zone'],
    ['www CH TXT "x"', 'CH', 'storage.modifier.class.dns-zone'],
    ['www 300 IN A 192.0.2.1', 'A', 'keyword.other.type.dns-zone'],
    ['www 300 IN A 192.0.2.1', '192.0.2.1', 'constant.numeric.ip.ipv4.dns-zone'],
    ['www IN AAAA 2001:db8::1', '2001:db8::1', 'constant.numeric.ip.ipv6.dns-zone'],
    ['www IN AAAA ::ffff:192.0.2.1', '::ffff:192.0.2.1', 'constant.numeric.ip.ipv6.dns-zone'],
    ['@ IN MX 10 mail.example.com.', 'mail.example.com.', 'variable.other.name.absolute.dns-zone'],
    ['@ IN MX 10 mail', 'MX', 'keyword.other.type.dns-zone'],
    ['www IN CNAME @', 'CNAME', 'keyword.other.type.dns-zone'],
    ['1 IN PTR h.example.com.', '1', 'entity.name.tag.owner.dns-zone'],
    ['x IN TYPE65534 \\# 0', 'TYPE65534', 'keyword.other.type.dns-zone'],
    [
      '@ IN TXT "v=spf1 \\"q\\" -all" ; c',
      '"v=spf1 \\"q\\" -all"',
      'string.quoted.double.dns-zone',
    ],
    ['@ IN TXT "a;b" ; c', '; c', 'comment.line.semicolon.dns-zone'],
    ['@ IN SOA ns1 host (', '(', 'punctuation.section.parens.begin.dns-zone'],
    ['  2024010101 ; serial', '2024010101', 'constant.numeric.integer.dns-zone'],
    ['  300 )', ')', 'punctuation.section.parens.end.dns-zone'],
    ['@ IN HTTPS 1 . alpn=h2', '.', 'variable.other.name.absolute.dns-zone'],
    // Not scoped: a relative name in RDATA and lower-case words are plain text.
    ['@ IN NS ns1', 'ns1', undefined],
    ['1.2.0.192.in-addr.arpa. IN PTR x.', '1.2.0.192', undefined],
  ];
  for (const [line, text, scope] of table) {
    it(`${JSON.stringify(text)} in ${JSON.stringify(line)}`, () => {
      assert.equal(scopeOf(line, text), scope);
    });
  }

  it('scopes every line of the editor fixture without leaving a type unscoped', () => {
    const zone = readFileSync(`${root}test/fixtures/workspace/example.test.zone`, 'utf8');
    for (const line of zone.split('\n')) {
      const tokens = tokenize(line);
      for (const word of line.split(/\s+/)) {
        if (/^(?:A|AAAA|NS|MX|CNAME|SRV|TXT|SOA)$/.test(word)) {
          assert.ok(
            tokens.some((t) => t.text === word && t.scope.startsWith('keyword.other.type')),
            line,
          );
        }
      }
    }
  });
});

describe('language-configuration.json', () => {
  it('comments with ";" and pairs parentheses and quotes', () => {
    const config = JSON.parse(readFileSync(`${root}language-configuration.json`, 'utf8')) as {
      comments: { lineComment: string };
      brackets: string[][];
      autoClosingPairs: { open: string; close: string }[];
      wordPattern: string;
    };
    assert.equal(config.comments.lineComment, ';');
    assert.deepEqual(config.brackets, [['(', ')']]);
    assert.deepEqual(
      config.autoClosingPairs.map((p) => p.open + p.close),
      ['()', '""'],
    );
    const word = new RegExp(config.wordPattern, 'g');
    assert.deepEqual('*.apps IN CNAME www.example.com. @ 2001:db8::1'.match(word), [
      '*.apps',
      'IN',
      'CNAME',
      'www.example.com.',
      '@',
      '2001:db8::1',
    ]);
  });
});
