import * as assert from 'node:assert/strict';
import {
  countLookupTerms,
  findSpfPolicies,
  lintSpf,
  lookupTargets,
  lookupTargetTerms,
} from '../../../src/detect/spf-lint';

describe('SPF policies in text', () => {
  it('finds a quoted policy in a zone-file TXT record', () => {
    const line = '@  IN TXT "v=spf1 mx include:_spf.example.test -all"';
    const [policy] = findSpfPolicies(line);
    assert.equal(policy?.text, 'v=spf1 mx include:_spf.example.test -all');
    assert.equal(line.slice(policy.offsets[0], policy.offsets.at(-1)! + 1), policy?.text);
  });

  it('joins the strings of a split TXT record', () => {
    const line = '@ TXT "v=spf1 ip4:192.0.2.0/24 " "include:a.example.test -all"';
    assert.equal(
      findSpfPolicies(line)[0]?.text,
      'v=spf1 ip4:192.0.2.0/24 include:a.example.test -all',
    );
  });

  it('finds a bare policy in YAML and stops at a comment', () => {
    const [policy] = findSpfPolicies('  spf: v=spf1 a mx -all # production');
    assert.equal(policy?.text, 'v=spf1 a mx -all');
  });

  it('finds nothing in a line without a policy', () => {
    assert.deepEqual(findSpfPolicies('v=DKIM1; k=rsa; p=MIGf'), []);
    assert.deepEqual(findSpfPolicies('the spf1 record'), []);
  });

  it('points a syntax error at its term', () => {
    const line = 'x TXT "v=spf1 ip4:300.1.2.3 -all"';
    const [finding] = lintSpf(findSpfPolicies(line)[0]);
    assert.equal(finding?.code, 'spf_syntax');
    assert.equal(line.slice(finding.start, finding.end), 'ip4:300.1.2.3');
  });

  it('flags +all, ptr and redirect next to all', () => {
    const codes = lintSpf(findSpfPolicies('"v=spf1 ptr redirect=_spf.example.test +all"')[0]).map(
      (f) => f.code,
    );
    assert.deepEqual(codes.sort(), ['spf_pass_all', 'spf_ptr', 'spf_redirect_with_all']);
  });

  it('flags more than ten look-up terms in the policy itself', () => {
    const terms = Array.from({ length: 11 }, (_, i) => `include:s${i}.example.test`).join(' ');
    const findings = lintSpf(findSpfPolicies(`"v=spf1 ${terms} -all"`)[0]);
    assert.ok(findings.some((f) => f.code === 'spf_too_many_lookups' && f.severity === 'error'));
  });

  it('accepts a clean policy', () => {
    assert.deepEqual(
      lintSpf(findSpfPolicies('"v=spf1 ip4:192.0.2.0/24 include:_spf.example.test ~all"')[0]),
      [],
    );
  });

  it('counts look-up terms and lists the targets the on-save count resolves', () => {
    const text =
      'v=spf1 a mx include:a.example.test include:%{d}.example.test exists:x.test redirect=b.example.test';
    assert.equal(countLookupTerms(text), 6);
    assert.deepEqual(lookupTargets(text), ['a.example.test', 'b.example.test']);
  });

  it('finds the include and redirect terms on the line, for a diagnostic on the term', () => {
    const line = '@ TXT "v=spf1 -include:A.example.test ~all" ; redirect=x.test';
    const [policy] = findSpfPolicies(line);
    const terms = lookupTargetTerms(policy);
    assert.deepEqual(
      terms.map((t) => [t.via, t.target, line.slice(t.start, t.end)]),
      [['include', 'A.example.test', '-include:A.example.test']],
    );
    const split = findSpfPolicies('"v=spf1 redirect=" "b.example.test"')[0];
    assert.deepEqual(
      lookupTargetTerms(split).map((t) => [t.via, t.target]),
      [['redirect', 'b.example.test']],
    );
  });
});
