// The parser's own rules, apart from the corpus: dates, redaction, referrals and the three
// ways a reply without data is read (not_found, rate_limited, upstream_error).
import assert from 'node:assert/strict';
import { LookupError } from '../../../../src/contract/errors';
import { normalizeDate } from '../../../../src/engine/whois/dates';
import {
  findReferral,
  isVerdict,
  parseWhois,
  verdictError,
  type WhoisVerdict,
} from '../../../../src/engine/whois/parse';
import { parseOrThrow } from '../../../support/whois-parse';

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
    const got = parseOrThrow(
      'Domain Name: example.com\nRegistrar: REDACTED FOR PRIVACY\nRegistry Domain ID: REDACTED\nName Server: ns1.example.net\n',
    );
    assert.equal(got.registrar.name, undefined);
    assert.equal(got.domain.id, undefined);
    assert.deepEqual(got.domain.name_servers, ['ns1.example.net']);
  });

  it('tells not_found, rate_limited and an unreadable reply apart', function () {
    assert.equal(
      code(() => parseOrThrow('No match for "X.COM".\n')),
      'not_found',
    );
    assert.equal(
      code(() => parseOrThrow('% Query rate limit exceeded\n')),
      'rate_limited',
    );
    assert.equal(
      code(() => parseOrThrow('')),
      'upstream_error',
    );
    assert.equal(
      code(() => parseOrThrow('\u0000\u0001 garbage \ufffd\n'.repeat(50))),
      'upstream_error',
    );
  });

  it("takes a reply's first statement as its answer, and a first line of not found as final", function () {
    // Opening with "not found": the notice after it is not read, whatever it holds.
    const notice = 'NOTICE: you may not use this data to enable high volume queries.\n';
    assert.equal(
      code(() =>
        parseOrThrow(
          `No match for "X.COM".\n${notice}Domain Name: X.COM\nName Server: NS1.X.COM\n`,
        ),
      ),
      'not_found',
    );
    // A banner first: the reply is read whole, and its data wins over prose in the banner.
    const banner = '% Names that are not registered may be available.\n%\n';
    assert.equal(
      code(() => parseOrThrow(`${banner}Domain Name: x.com\nName Server: ns1.x.com\n`)),
      'returned',
    );
    // A first line behind a comment marker that stands alone is a statement too (MuseDoma,
    // Uniregistry); one that opens a block of comments, or a commented field, is not.
    const data = 'Domain Name: x.com\nName Server: ns1.x.com\n';
    for (const first of [
      '%% NOT FOUND\n>>> WHOIS request date: 2022 <<<\n',
      '>>> Domain x.love is available for registration\r\n\r\n',
    ]) {
      assert.equal(
        code(() => parseOrThrow(`\n${first}${data}`)),
        'not_found',
        first,
      );
    }
    for (const first of [
      '%% NOT FOUND\n%% from the server\n',
      '% Status: AVAILABLE\n',
      '# No entries found\n#\n',
    ]) {
      assert.equal(
        code(() => parseOrThrow(`${first}${data}`)),
        'returned',
        first,
      );
    }
    // A refusal first wins (AFNIC refuses before its "No entries found")...
    assert.equal(
      code(() => parseOrThrow('%% Too many requests...\n%%\n%% No entries found.\n')),
      'rate_limited',
    );
    // ...and a "not found" first is the answer, a limit notice after it is not a refusal of it.
    assert.equal(
      code(() => parseOrThrow('% No entries found.\n%\n% Query rate limit exceeded\n')),
      'not_found',
    );
  });

  it('reads a record that shows no registration by its status and words, and one that does as data', function () {
    // Each line that makes a record data (what build() counts), beside a free status and a
    // "not found": the data wins, so the shortcut for records without data must not take it.
    const dataLines = [
      'Name Server: ns1.example.de',
      'Created: 2001-02-03',
      'Expiration Date: 2030-01-01',
      'Registry Domain ID: 12345_DOMAIN_DE-VRSN',
      'Registrar: Example Registrar GmbH',
      'Holder: Example Holder',
    ];
    for (const line of dataLines) {
      for (const words of ['', 'No entries found.\n', '% Too many requests\n']) {
        const text = `Domain: example.de\nStatus: free\n${line}\n${words}`;
        const reading = parseWhois(text, { domain: 'example.de' });
        assert.ok(!isVerdict(reading), `${line} / ${words}: ${JSON.stringify(reading)}`);
      }
    }
    // Without them: the free status decides before the words (a refusal in the notice too)...
    assert.deepEqual(parseWhois('Domain: example.de\nStatus: free\n% Too many requests\n'), {
      verdict: 'not_found',
      detail: 'The domain is not registered',
    });
    // ...and, with no free status, the words decide: a refusal, a "not found", a reservation.
    assert.equal(
      code(() => parseOrThrow('Domain: example.de\nStatus: 220\n% Too many requests\n')),
      'rate_limited',
    );
    assert.equal(
      code(() => parseOrThrow('Domain Name: x.cx\nDomain Status: No Object Found\n')),
      'not_found',
    );
    const reserved = parseWhois('Domain: example.de\nStatus: held\nReserved name\n');
    assert.equal(isVerdict(reserved), false, JSON.stringify(reserved));
    // A status only, with no field and no name asked for, is no record: the words decide.
    assert.equal(
      code(() => parseOrThrow('% Too many requests\nStatus: free\n')),
      'rate_limited',
    );
  });

  it('returns its verdict (not thrown), which the look-up turns into the contract error', function () {
    const cases: Array<[string, WhoisVerdict]> = [
      ['No match for "X.COM".\n', { verdict: 'not_found', detail: 'The domain is not registered' }],
      [
        '% Query rate limit exceeded for 192.0.2.7\n',
        {
          verdict: 'rate_limited',
          detail: 'The WHOIS server refused the query: Query rate limit exceeded for <address>',
        },
      ],
      [
        'Domain example.test is reserved for the registry.\n',
        {
          verdict: 'not_found',
          detail:
            'The domain is not registered, and the registry holds it back: Domain example.test ' +
            'is reserved for the registry.',
        },
      ],
      [
        '',
        {
          verdict: 'upstream_error',
          detail: 'The WHOIS server sent a reply with no registration data',
        },
      ],
    ];
    for (const [text, want] of cases) {
      const reading = parseWhois(text);
      assert.ok(isVerdict(reading), text);
      assert.deepEqual({ ...reading }, want, text);
      const err = verdictError(reading);
      assert.ok(err instanceof LookupError);
      assert.equal(err.code, want.verdict);
      assert.equal(err.detail, want.detail);
    }
    const registered = parseWhois('Domain Name: x.com\nName Server: ns1.x.com\n');
    assert.ok(!isVerdict(registered));
    assert.deepEqual(registered.domain.name_servers, ['ns1.x.com']);
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

describe('whois parser: names in two forms, compact dates (issue #23)', () => {
  const reply = (name: string, extra = '') =>
    `Domain Name: ${name}\nRegistrar: Example Registrar\nName Server: ns1.example.net\n${extra}`;

  it('gives punycode in A-labels when the reply writes the name in its own script', () => {
    const r = parseOrThrow(reply('пример.рф'));
    assert.equal(r?.domain?.domain, 'пример.рф');
    assert.equal(r?.domain?.punycode, 'xn--e1afmkfd.xn--p1ai');
  });

  it('keeps the queried form of the name when the reply lists it in another script', () => {
    const asUnicode = parseOrThrow(reply('xn--e1afmkfd.xn--p1ai'), { domain: 'пример.рф' });
    assert.equal(asUnicode?.domain?.domain, 'пример.рф');
    assert.equal(asUnicode?.domain?.punycode, 'xn--e1afmkfd.xn--p1ai');
    const asAscii = parseOrThrow(reply('пример.рф'), { domain: 'XN--E1AFMKFD.XN--P1AI' });
    assert.equal(asAscii?.domain?.domain, 'xn--e1afmkfd.xn--p1ai');
    // another name in the reply is the reply's, not replaced by the query
    const other = parseOrThrow(reply('other.example'), { domain: 'пример.рф' });
    assert.equal(other?.domain?.domain, 'other.example');
  });

  it('reads dates in every compact spelling', () => {
    for (const [raw, iso] of [
      ['20230303 09:38:55', '2023-03-03T09:38:55Z'],
      ['20230303T093855Z', '2023-03-03T09:38:55Z'],
      ['20230303093855', '2023-03-03T09:38:55Z'],
      ['20230303 0938 +0100', '2023-03-03T08:38:00Z'],
      ['20230303', '2023-03-03T00:00:00Z'],
    ]) {
      const r = parseOrThrow(reply('example.test', `Creation Date: ${raw}\n`));
      assert.equal(r?.domain?.created_date, iso, raw);
    }
    // ten digits are neither a date nor a date and time
    const r = parseOrThrow(reply('example.test', 'Creation Date: 2023030309\n'));
    assert.equal(r?.domain?.created_date, undefined);
  });
});
