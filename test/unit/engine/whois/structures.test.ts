// The reply structures and spellings the parser reads by their form, each shown once, written
// here (not copied from a corpus): bracketed keys, dot leaders, aligned columns, keys in other
// languages, values under their key, several records, dates in many spellings, and the four kinds
// of reply with the server's own words where it refused.
import assert from 'node:assert/strict';
import { LookupError } from '../../../../src/contract/errors';
import { normalizeDate } from '../../../../src/engine/whois/dates';
import { parseOrThrow } from '../../../support/whois-parse';

function fail(text: string): LookupError {
  try {
    parseOrThrow(text, { domain: 'example.test' });
  } catch (err) {
    if (err instanceof LookupError) return err;
    throw err;
  }
  assert.fail('parsed as registered');
}

describe('whois parser: structures', function () {
  it('reads [key] value, enumerated, with continuation lines', function () {
    const got = parseOrThrow(
      [
        '[ a notice in brackets, not a key ]',
        'Domain Information:',
        'a. [Domain Name]                EXAMPLE.TEST',
        'p. [Name Server]                ns1.example.net',
        'p. [Name Server]                ns2.example.net',
        '[Created on]                    2005/05/30',
        '[Last Updated]                  2013/06/01 01:05:07 (JST)',
        '[Postal Address]                Somewhere',
        '                                Elsewhere',
      ].join('\n'),
    );
    assert.equal(got.domain.domain, 'example.test');
    assert.deepEqual(got.domain.name_servers, ['ns1.example.net', 'ns2.example.net']);
    assert.equal(got.domain.created_date, '2005-05-30T00:00:00Z');
    assert.equal(got.domain.updated_date, '2013-05-31T16:05:07Z');
  });

  it('reads dot leaders, aligned columns and bilingual keys', function () {
    const got = parseOrThrow(
      [
        'Nom de domaine#. . . . . . . . . .example.test',
        'Date de creation#. . . . . . . . .25/01/2007',
        'Expires on          2030-01-02',
        'Estado / Status: ACTIVO',
        'Servidores de nombre (Domain servers):',
        '    ns1.example.net (192.0.2.1)',
        '    ns2.example.net',
      ].join('\n'),
    );
    assert.equal(got.domain.domain, 'example.test');
    assert.equal(got.domain.created_date, '2007-01-25T00:00:00Z');
    assert.equal(got.domain.expiration_date, '2030-01-02T00:00:00Z');
    assert.deepEqual(got.domain.status, ['activo']);
    assert.deepEqual(got.domain.name_servers, ['ns1.example.net', 'ns2.example.net']);
  });

  it('reads values under their key, and keys in other scripts', function () {
    const got = parseOrThrow(
      [
        'Domain:',
        '\texample.test',
        'Renewal date:',
        '\tMonday 16th Jun 2014',
        '域名: example.test',
        '注册时间: 2010-01-02 03:04:05',
        'ネームサーバ: ns1.example.net',
      ].join('\n'),
    );
    assert.equal(got.domain.domain, 'example.test');
    assert.equal(got.domain.expiration_date, '2014-06-16T00:00:00Z');
    assert.equal(got.domain.created_date, '2010-01-02T03:04:05Z');
    assert.deepEqual(got.domain.name_servers, ['ns1.example.net']);
  });

  it('keeps the record of the name asked for when a reply holds several', function () {
    const text = [
      'Domain Name: other.test',
      'Created: 2001-01-01',
      '',
      'Domain Name: example.test',
      'Created: 2002-02-02',
      'Name Server: ns1.example.net',
    ].join('\n');
    const got = parseOrThrow(text, { domain: 'example.test' });
    assert.equal(got.domain.domain, 'example.test');
    assert.equal(got.domain.created_date, '2002-02-02T00:00:00Z');
  });

  it('splits "Registrar (id)" and keeps a name with an aside', function () {
    const a = parseOrThrow(
      'Domain Name: example.test\nSponsoring Registrar: Example Inc. (R22-TEST)\n',
    );
    assert.equal(a.registrar.name, 'Example Inc.');
    assert.equal(a.registrar.id, 'R22-TEST');
    const b = parseOrThrow('Domain Name: example.test\nRegistrar: Example Cloud (Beijing) Co.\n');
    assert.equal(b.registrar.name, 'Example Cloud (Beijing) Co.');
    assert.equal(b.registrar.id, undefined);
  });

  it('tells the four kinds apart, with the refusal in the server’s words', function () {
    assert.equal(fail('%% Too many requests...\n%% No entries found.\n').code, 'rate_limited');
    const quota = fail('The WHOIS query quota for 192.0.2.7 has been exceeded.\n');
    assert.equal(quota.code, 'rate_limited');
    assert.match(quota.detail, /query quota for <address> has been exceeded/);
    assert.equal(
      fail('Access to the whois service is rate limited. No match.\n').code,
      'not_found',
    );
    for (const free of [
      'Domain Status: Available',
      'Nincs találat / No match',
      'Объект не найден',
      '没有找到该域名',
      '該当するデータがありません。',
      '검색 결과가 없습니다',
      'Dominio no encontrado',
      'Aucun résultat',
      'Status: free',
    ]) {
      assert.equal(fail(`${free}\n`).code, 'not_found', free);
    }
    const reserved = fail('Reserved by the registry\n');
    assert.equal(reserved.code, 'not_found');
    assert.match(reserved.detail, /holds it back/);
    assert.equal(fail('You agree not to make excessive queries.\n').code, 'upstream_error');
    assert.equal(fail('Service temporarily unavailable, try again later\n').code, 'upstream_error');
  });

  it('reads dates in many spellings and leaves out what it cannot read', function () {
    const cases: Array<[string, string | undefined]> = [
      ['18 Apr 2003 00:00 EAT', '2003-04-17T21:00:00Z'],
      ['30/06/2014 00:00:00 EEST', '2014-06-29T21:00:00Z'],
      ['23 de agosto de 2012', '2012-08-23T00:00:00Z'],
      ['3. März 2010', '2010-03-03T00:00:00Z'],
      ['Friday 7th November 2003', '2003-11-07T00:00:00Z'],
      ['Mar 25 01:57:22 PDT 2009', '2009-03-25T08:57:22Z'],
      ['20140921', '2014-09-21T00:00:00Z'],
      ['20020903121852', '2002-09-03T12:18:52Z'],
      ['cm@nic.example 20021013', '2002-10-13T00:00:00Z'],
      ['19990518 #162310', '1999-05-18T00:00:00Z'],
      ['"2011-01-13T15:45:18+01:00"', '2011-01-13T14:45:18Z'],
      ['12 января 2015', '2015-01-12T00:00:00Z'],
      ['2015-01-12 10:00 CST', undefined],
      ['before Aug-1996', undefined],
      ['16/09/03', undefined],
    ];
    for (const [raw, want] of cases) assert.equal(normalizeDate(raw), want, raw);
    assert.equal(normalizeDate('03/02/2012', 'mdy'), '2012-03-02T00:00:00Z');
    assert.equal(normalizeDate('03/02/2012', 'dmy'), '2012-02-03T00:00:00Z');
    // either reading is a date, and nothing says which: left out
    assert.equal(normalizeDate('03/02/2012'), undefined);
    assert.equal(normalizeDate('05/05/2012'), '2012-05-05T00:00:00Z');
  });

  it('reads slashed dates as the reply shows them, and not at all when it does not', function () {
    const mdy = parseOrThrow(
      'Domain Name: example.test\nCreated: 12/18/2001\nExpires: 03/02/2012\n',
    );
    assert.equal(mdy.domain.expiration_date, '2012-03-02T00:00:00Z');
    const dmy = parseOrThrow(
      'Domain Name: example.test\nCreated: 18/12/2001\nExpires: 03/02/2012\n',
    );
    assert.equal(dmy.domain.expiration_date, '2012-02-03T00:00:00Z');
    const hinted = parseOrThrow(
      '% Date format: DD/MM/YYYY\nDomain Name: example.test\nExpires: 03/02/2012\n',
    );
    assert.equal(hinted.domain.expiration_date, '2012-02-03T00:00:00Z');
    const unknown = parseOrThrow(
      'Domain Name: example.test\nName Server: ns1.example.net\nExpires: 03/02/2012\n',
    );
    assert.equal(unknown.domain.expiration_date, undefined);
  });
});
