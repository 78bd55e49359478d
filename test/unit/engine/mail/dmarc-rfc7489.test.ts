// DMARC records against RFC 7489, one row per rule: the record, the problems it must raise
// (code and severity, in order) and the section that says so.
import assert from 'node:assert/strict';
import { parseMailRecord } from '../../../../src/engine/mail/policy-records';

interface Row {
  section: string;
  rule: string;
  record: string;
  /** "code/severity" of each problem, in order */
  problems: string[];
  /** the name asked; _dmarc.example.com by default */
  name?: string;
}

const GOOD = 'rua=mailto:d@example.com';

const ROWS: Row[] = [
  {
    section: '6.3',
    rule: 'a complete record has no problems',
    record: `v=DMARC1; p=reject; sp=quarantine; pct=50; ${GOOD}; ruf=mailto:f@example.com; adkim=s; aspf=r; fo=0:1:d:s; rf=afrf; ri=3600`,
    problems: [],
  },
  {
    section: '6.3',
    rule: 'ri is a 32-bit unsigned integer: 4294967295 is the largest',
    record: `v=DMARC1; p=reject; ${GOOD}; ri=4294967295`,
    problems: [],
  },
  {
    section: '6.3',
    rule: 'ri over 32 bits',
    record: `v=DMARC1; p=reject; ${GOOD}; ri=4294967296`,
    problems: ['invalid_ri/error'],
  },
  {
    section: '6.3',
    rule: 'ri not a number',
    record: `v=DMARC1; p=reject; ${GOOD}; ri=-1`,
    problems: ['invalid_ri/error'],
  },
  {
    section: '6.3',
    rule: 'rf is a list of one or more formats: empty rf=',
    record: `v=DMARC1; p=reject; ${GOOD}; rf=`,
    problems: ['invalid_rf/error'],
  },
  {
    section: '6.3',
    rule: 'rf with a malformed list',
    record: `v=DMARC1; p=reject; ${GOOD}; rf=afrf::iodef`,
    problems: ['invalid_rf/error'],
  },
  {
    section: '6.3',
    rule: 'v must be the first tag',
    record: `p=reject; v=DMARC1; ${GOOD}`,
    problems: ['version_not_first/error', 'policy_not_second/error'],
  },
  {
    section: '6.3',
    rule: 'p must come right after v',
    record: `v=DMARC1; ${GOOD}; p=reject`,
    problems: ['policy_not_second/error'],
  },
  {
    section: '6.3, 6.6.3',
    rule: 'no p and no valid rua: no policy at all',
    record: 'v=DMARC1; pct=100',
    problems: ['missing_policy/error', 'no_reports/warning'],
  },
  {
    section: '6.6.3',
    rule: 'no p but a valid rua: receivers act as p=none',
    record: `v=DMARC1; ${GOOD}`,
    problems: ['missing_policy/warning'],
  },
  {
    section: '7.1',
    rule: 'a report authorization record needs neither p nor rua',
    record: 'v=DMARC1;',
    name: 'example.com._report._dmarc.reports.example.net',
    problems: [],
  },
  {
    section: '6.3 (RFC 6376 3.2)',
    rule: 'a tag given twice makes the record invalid',
    record: `v=DMARC1; p=reject; ${GOOD}; p=none`,
    problems: ['duplicate_tag/error'],
  },
  {
    section: '6.3 (RFC 6376 3.2)',
    rule: 'a tag given twice in different case',
    record: `v=DMARC1; p=reject; ${GOOD}; PCT=10; pct=20`,
    problems: ['tag_case/warning', 'duplicate_tag/error'],
  },
  {
    section: '6.4',
    rule: 'an https: report URI is valid by the grammar',
    record: 'v=DMARC1; p=reject; rua=https://reports.example.com/dmarc!10m',
    problems: [],
  },
  {
    section: '6.4',
    rule: 'a mailto: address under a one-letter top-level domain',
    record: 'v=DMARC1; p=reject; rua=mailto:d@example.x, mailto:e@x.y!5k',
    problems: [],
  },
  {
    section: '6.4',
    rule: 'a report URI without a scheme, and a mailto: without a domain',
    record: 'v=DMARC1; p=reject; rua=d@example.com, mailto:nobody',
    problems: ['invalid_report_uri/error', 'invalid_report_uri/error'],
  },
  {
    section: '6.4',
    rule: 'a bad size limit',
    record: 'v=DMARC1; p=reject; rua=mailto:d@example.com!10x',
    problems: ['invalid_report_uri/error'],
  },
  {
    section: '6.4',
    rule: 'upper-case tag names are warned about',
    record: `v=DMARC1; P=reject; ${GOOD}; ADKIM=s`,
    problems: ['tag_case/warning', 'tag_case/warning'],
  },
  {
    section: '6.4',
    rule: 'a leading space is warned about',
    record: `  v=DMARC1; p=reject; ${GOOD}`,
    problems: ['leading_space/warning'],
  },
  {
    section: '6.3',
    rule: 'the version must match precisely',
    record: `v=dmarc1; p=reject; ${GOOD}`,
    problems: ['bad_version/error'],
  },
  {
    section: '6.3',
    rule: 'p, sp, pct, adkim, aspf and fo values',
    record: `v=DMARC1; p=block; sp=maybe; pct=101; adkim=x; aspf=y; fo=2; ${GOOD}`,
    problems: [
      'invalid_policy/error',
      'invalid_policy/error',
      'invalid_pct/error',
      'invalid_alignment/error',
      'invalid_alignment/error',
      'invalid_fo/error',
    ],
  },
  {
    section: '6.6.3',
    rule: 'several DMARC records: receivers use none of them',
    record: `v=DMARC1; p=reject; ${GOOD}`,
    problems: ['several_records/error'],
  },
];

describe('engine/mail/policy-records: DMARC against RFC 7489', () => {
  for (const row of ROWS) {
    it(`section ${row.section}: ${row.rule}`, () => {
      const texts = row.problems.includes('several_records/error')
        ? [row.record, row.record]
        : ['some other TXT', row.record];
      const parsed = parseMailRecord('dmarc', row.name ?? '_dmarc.example.com', texts);
      assert.ok(parsed !== null, 'the record is recognised');
      assert.equal(parsed.record, row.record);
      assert.deepEqual(
        parsed.problems.map((p) => `${p.code}/${p.severity}`),
        row.problems,
      );
    });
  }

  it('reads tag values the same whatever the case of the name', () => {
    const parsed = parseMailRecord('dmarc', '_dmarc.example.com', [
      `v=DMARC1; P=quarantine; ${GOOD}`,
    ])!;
    assert.equal(parsed.tags.p, 'quarantine');
  });
});
