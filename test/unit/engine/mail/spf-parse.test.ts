import assert from 'node:assert/strict';
import ipaddr from 'ipaddr.js';
import {
  domainSpecError,
  isSpfRecord,
  macroStringError,
  parseSpf,
} from '../../../../src/engine/mail/spf-parse';
import {
  dottedIp,
  expandDomainSpec,
  expandMacroString,
} from '../../../../src/engine/mail/spf-macro';

describe('engine/dns/spf-parse', () => {
  it('recognises SPF version 1 records only', () => {
    assert.ok(isSpfRecord('v=spf1'));
    assert.ok(isSpfRecord('V=SPF1 -all'));
    assert.ok(!isSpfRecord('v=spf10'));
    assert.ok(!isSpfRecord(' v=spf1 -all'));
    assert.ok(!isSpfRecord('spf2.0/pra -all'));
  });

  it('parses qualifiers, mechanisms, CIDR lengths and modifiers', () => {
    const p = parseSpf(
      'v=spf1 -ip4:192.0.2.0/24 ip6:2001:db8::/32 ~a:mail.example.com/28//64 mx//48 ?ptr include:_spf.example.net exists:%{i}.bl.example.org redirect=other.example exp=why.example x-custom=anything',
    );
    assert.deepEqual(p.errors, []);
    const [ip4, ip6, a, mx, ptr, include, exists] = p.mechanisms;
    assert.deepEqual([ip4.qualifier, ip4.address, ip4.cidr4], ['-', '192.0.2.0', 24]);
    assert.deepEqual([ip6.address, ip6.cidr6], ['2001:db8::', 32]);
    assert.deepEqual(
      [a.qualifier, a.domainSpec, a.cidr4, a.cidr6],
      ['~', 'mail.example.com', 28, 64],
    );
    assert.deepEqual([mx.domainSpec, mx.cidr4, mx.cidr6], [undefined, undefined, 48]);
    assert.deepEqual([ptr.qualifier, ptr.explicitQualifier], ['?', true]);
    assert.equal(include.domainSpec, '_spf.example.net');
    assert.equal(exists.domainSpec, '%{i}.bl.example.org');
    assert.equal(p.redirect, 'other.example');
    assert.equal(p.exp, 'why.example');
    assert.equal(p.terms.at(-1)!.kind, 'modifier');
  });

  const bad: Array<[string, string]> = [
    ['v=spf1 ip4:192.0.2.1/33', 'prefix over 32'],
    ['v=spf1 ip4:192.0.2.01', 'leading zero in IPv4'],
    ['v=spf1 ip6:2001:db8::/129', 'prefix over 128'],
    ['v=spf1 a/024', 'leading zero in a prefix'],
    ['v=spf1 include:', 'empty include'],
    ['v=spf1 all:foo', 'argument to all'],
    ['v=spf1 a:museum', 'single-label domain'],
    ['v=spf1 a:example.123', 'numeric top label'],
    ['v=spf1 foo', 'unknown mechanism'],
    ['v=spf1 1x=y', 'modifier name not starting with a letter'],
    ['v=spf1 redirect=a.example redirect=b.example', 'two redirects'],
    ['v=spf1 exp=a.example exp=b.example', 'two exps'],
    ['v=spf1 -all\tip4:192.0.2.1', 'tab between terms'],
    ['v=spf1 a:caf\u00e9.example', 'non-ASCII'],
    ['v=spf1 exists:%{c}.example.com', 'exp-only macro letter'],
    ['v=spf1 exists:%{d0}.example.com', 'zero parts'],
    ['v=spf1 exists:100%.example.com', 'bare percent'],
    ['v=spf1 redirect=', 'empty redirect'],
  ];
  for (const [record, why] of bad) {
    it(`reports a syntax error: ${why}`, () => {
      assert.ok(parseSpf(record).errors.length > 0, record);
    });
  }

  it('checks domain-specs and macro-strings by the grammar, not after expansion', () => {
    assert.equal(domainSpecError('%{d}', false), undefined);
    assert.equal(domainSpecError('foo.example.com.', false), undefined);
    assert.match(domainSpecError('', false)!, /required/);
    assert.equal(macroStringError('%{t} at %{r}', true), undefined);
    assert.match(macroStringError('%{t}', false)!, /not allowed/);
    assert.match(macroStringError('%{x}', true)!, /not allowed/);
  });
});

describe('engine/dns/spf-macro', () => {
  const ctx = {
    local: 'strong-bad',
    senderDomain: 'email.example.com',
    domain: 'email.example.com',
    ip: ipaddr.parse('192.0.2.3'),
    helo: 'mx.example.org',
    receiver: 'rx.example.net',
    now: 1700000000,
    validatedName: () => Promise.resolve('mx.example.org'),
  };

  // The examples of RFC 7208 section 7.4.
  const cases: Array<[string, string]> = [
    ['%{s}', 'strong-bad@email.example.com'],
    ['%{o}', 'email.example.com'],
    ['%{d}', 'email.example.com'],
    ['%{d4}', 'email.example.com'],
    ['%{d3}', 'email.example.com'],
    ['%{d2}', 'example.com'],
    ['%{d1}', 'com'],
    ['%{dr}', 'com.example.email'],
    ['%{d2r}', 'example.email'],
    ['%{l}', 'strong-bad'],
    ['%{l-}', 'strong.bad'],
    ['%{lr}', 'strong-bad'],
    ['%{lr-}', 'bad.strong'],
    ['%{l1r-}', 'strong'],
    ['%{ir}.%{v}._spf.%{d2}', '3.2.0.192.in-addr._spf.example.com'],
    ['%{lr-}.lp._spf.%{d2}', 'bad.strong.lp._spf.example.com'],
    ['%{ir}.%{v}.%{l1r-}.lp._spf.%{d2}', '3.2.0.192.in-addr.strong.lp._spf.example.com'],
    ['%{d2}.trusted-domains.example.net', 'example.com.trusted-domains.example.net'],
    ['%{p}/%{h}/%{t}/%{r}', 'mx.example.org/mx.example.org/1700000000/rx.example.net'],
    ['%%%_%-', '% %20'],
  ];
  for (const [spec, want] of cases) {
    it(`expands ${spec}`, async () => {
      assert.equal(await expandMacroString(spec, ctx, true), want);
    });
  }

  it('writes IPv6 as dotted nibbles and URL-escapes upper-case letters', async () => {
    assert.equal(
      dottedIp(ipaddr.parse('2001:db8::cb01')),
      '2.0.0.1.0.d.b.8.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.c.b.0.1',
    );
    const odd = { ...ctx, local: 'a b&c=d~e' };
    assert.equal(await expandMacroString('%{L}', odd, false), 'a%20b%26c%3Dd~e');
  });

  it('drops labels from the left of a name longer than 253 octets', async () => {
    const long = { ...ctx, local: Array.from({ length: 60 }, () => 'abcde').join('.') };
    const name = await expandDomainSpec('%{l}.example.com', long);
    assert.ok(name.length <= 253);
    assert.ok(name.endsWith('abcde.example.com'));
  });
});
