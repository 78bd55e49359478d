// The parser's own rules, apart from the corpus: dates, redaction, referrals and the three
// ways a reply without data is read (not_found, rate_limited, upstream_error).
import assert from 'node:assert/strict';
import { LookupError } from '../../../../src/contract/errors';
import { normalizeDate } from '../../../../src/engine/whois/dates';
import { findReferral, parseWhois } from '../../../../src/engine/whois/parse';

function code(fn: () => unknown): string {
  try {
    fn();
    return 'returned';
  } catch (err) {
    return err instanceof LookupError ? err.code : String(err);
  }
}

describe('whois parse', function () {
  it('normalises the registries’ date spellings to ISO 8601 UTC', function () {
    const cases: Array<[string, string | undefined]> = [
      ['1997-09-15T00:00:00-0700', '1997-09-15T07:00:00Z'],
      ['2012-01-26T05:49:44.787Z', '2012-01-26T05:49:44Z'],
      ['2001-06-14-T10:32:43Z', '2001-06-14T10:32:43Z'],
      ['15-Jul-1985', '1985-07-15T00:00:00Z'],
      ['30.6.2006 00:00:00', '2006-06-30T00:00:00Z'],
      ['2012. 05. 19.', '2012-05-19T00:00:00Z'],
      ['2008.03.16 01:08:04', '2008-03-16T01:08:04Z'],
      ['2003-08-18 11:20:09 (GMT+0:00)', '2003-08-18T11:20:09Z'],
      ['2015-12-09 12:30:05 (UTC+8)', '2015-12-09T04:30:05Z'],
      ['2005-10-27 (YYYY-MM-DD)', '2005-10-27T00:00:00Z'],
      ['12/18/2001', '2001-12-18T00:00:00Z'],
      ['31 May 1999', '1999-05-31T00:00:00Z'],
      ['2019-02-30', undefined],
      ['before 1 January 1996', undefined],
      ['', undefined],
    ];
    for (const [raw, want] of cases) assert.equal(normalizeDate(raw), want, raw);
  });

  it('leaves redacted values out instead of filling them in', function () {
    const got = parseWhois(
      'Domain Name: example.com\nRegistrar: REDACTED FOR PRIVACY\nRegistry Domain ID: REDACTED\nName Server: ns1.example.net\n',
    );
    assert.equal(got.registrar.name, undefined);
    assert.equal(got.domain.id, undefined);
    assert.deepEqual(got.domain.name_servers, ['ns1.example.net']);
  });

  it('tells not_found, rate_limited and an unreadable reply apart', function () {
    assert.equal(
      code(() => parseWhois('No match for "X.COM".\n')),
      'not_found',
    );
    assert.equal(
      code(() => parseWhois('% Query rate limit exceeded\n')),
      'rate_limited',
    );
    assert.equal(
      code(() => parseWhois('')),
      'upstream_error',
    );
    assert.equal(
      code(() => parseWhois('\u0000\u0001 garbage \ufffd\n'.repeat(50))),
      'upstream_error',
    );
  });

  it('finds the referral a registry reply gives', function () {
    assert.equal(
      findReferral('Registrar WHOIS Server: whois.markmonitor.com\n'),
      'whois.markmonitor.com',
    );
    assert.equal(findReferral('ReferralServer: whois://whois.ripe.net:43\n'), 'whois.ripe.net:43');
    assert.equal(findReferral('refer:        whois.nic.zz\n'), 'whois.nic.zz');
    assert.equal(findReferral('Registrar WHOIS Server: \n'), undefined);
  });
});
