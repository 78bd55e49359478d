import * as assert from 'node:assert/strict';
import { dnssecLine, escapeMd, worstVerdict } from '../../../../src/editor/hover/markdown';
import type { DnssecResult } from '../../../../src/contract/shapes';

const ROOT_LINK = {
  zone: '.',
  ds: [],
  dnskey: [{ key_tag: 20326, algorithm: 8, flags: 257, bits: 2048 }],
};
/** A verdict with the root's keys in its chain (the nameserver did answer for the chain). */
const verdict = (status: DnssecResult['status'], reason: string): DnssecResult => ({
  status,
  reason,
  chain: [ROOT_LINK],
});

describe('hover markdown', () => {
  it('escapes what Markdown would read as markup', () => {
    assert.equal(escapeMd('_dmarc.example.test'), '\\_dmarc\\.example\\.test');
    assert.equal(escapeMd('a*b`c[d](e)'), 'a\\*b\\`c\\[d\\]\\(e\\)');
  });

  it('draws a lock for a secure answer and an open lock for an unsigned one', () => {
    assert.match(
      dnssecLine(verdict('secure', 'signed by example.test.')),
      /^\$\(lock\) DNSSEC: secure — signed by example\\\.test\\\.$/,
    );
    const insecure = dnssecLine(verdict('insecure', 'test. has no DS for example.test.'));
    assert.equal(
      insecure,
      '$(unlock) DNSSEC: not signed \\(insecure\\) — test\\. has no DS for example\\.test\\.',
    );
  });

  it('warns for bogus and undecided answers, with the reason', () => {
    for (const status of ['bogus', 'indeterminate'] as const) {
      const line = dnssecLine(verdict(status, 'the RRSIG over A expired'));
      assert.match(line, /^\$\(warning\) /);
      assert.doesNotMatch(line, /\$\(lock\)/);
      assert.match(line, /the RRSIG over A expired$/);
    }
    assert.match(dnssecLine(verdict('bogus', 'x')), /BOGUS/);
  });

  it('says one quiet line when the nameserver gave no DNSKEY set (not a resolver)', () => {
    const refused: DnssecResult = {
      status: 'indeterminate',
      reason: 'A: the DNSKEY question for . failed: the nameserver answered REFUSED',
      chain: [
        {
          zone: '.',
          ds: [{ key_tag: 20326, algorithm: 8, digest_type: 2, digest: 'E0' }],
          dnskey: [],
        },
      ],
    };
    const line = dnssecLine(refused);
    assert.equal(
      line,
      '$(circle-slash) DNSSEC: not checked \\(the nameserver is not a validating resolver\\)',
    );
    assert.doesNotMatch(line, /REFUSED|warning/);
  });

  it('never names the type a multi-type query put before the reason', () => {
    const line = dnssecLine(verdict('bogus', 'A: the RRSIG over mail.example.test. MX expired'));
    assert.match(line, /— the RRSIG over mail\\.example\\.test\\. MX expired$/);
    assert.doesNotMatch(line, /A: /);
  });

  it('leaves out an empty reason', () => {
    assert.equal(dnssecLine(verdict('secure', '  ')), '$(lock) DNSSEC: secure');
  });

  it('keeps the worst verdict of the answers, and none when none was validated', () => {
    assert.equal(worstVerdict([]), undefined);
    assert.equal(worstVerdict([undefined, undefined]), undefined);
    const secure = verdict('secure', 's');
    const insecure = verdict('insecure', 'i');
    const undecided = verdict('indeterminate', 'u');
    const bogus = verdict('bogus', 'b');
    assert.equal(worstVerdict([secure, undefined, insecure]), insecure);
    assert.equal(worstVerdict([bogus, undecided, secure]), bogus);
    assert.equal(worstVerdict([secure, undecided, insecure]), undecided);
    assert.equal(worstVerdict([secure, secure]), secure);
  });
});
