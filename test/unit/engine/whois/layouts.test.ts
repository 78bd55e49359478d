// Reply layouts of registries in no corpus here, written from their structure: keys separated
// by other marks than ":" (full-width colon, "=", "=>", "->", "|"), labels in many languages,
// starred keys and headings (TRABIS), and a registrar record whose date cannot be read.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LookupError } from '../../../../src/contract/errors';
import { parseOrThrow } from '../../../support/whois-parse';

/** Each field's label in several languages (the registries' own words, not a corpus's). */
const LABELS = {
  domain: [
    'Domain Name',
    'Nom de domaine',
    'Nombre de dominio',
    'Domänenname',
    'Имя домена',
    '域名',
    'Tên miền',
    'Nama domain',
    'Όνομα τομέα',
    'اسم النطاق',
  ],
  created: [
    'Creation Date',
    'Date de création',
    'Fecha de creación',
    'Data de criação',
    'Дата регистрации',
    '注册时间',
    'Ngày đăng ký',
    'Tanggal pendaftaran',
    'Ημερομηνία δημιουργίας',
    'Skapad',
    'Luotu',
  ],
  expires: [
    'Expiration Date',
    "Date d'expiration",
    'Fecha de vencimiento',
    'Data di scadenza',
    'Дата окончания',
    '过期时间',
    'Ngày hết hạn',
    'Ημερομηνία λήξης',
    'Utløpsdato',
    'Lejárat',
  ],
  registrar: [
    'Registrar',
    'Registrador',
    'Регистратор',
    '注册商',
    'Nhà đăng ký',
    'Καταχωρητής',
    'Regisztrátor',
  ],
  ns: [
    'Name Server',
    'Serveur de noms',
    'Servidor de nombres',
    'Nameserver',
    'DNS-серверы',
    '域名服务器',
    'Máy chủ tên miền',
    'Névszerver',
    'Namnserver',
  ],
} as const;

const SEPARATORS = [': ', ':', ' : ', '\uff1a', ' = ', '=', ' => ', ' -> ', ' | ', '\t'];

describe('whois parser: layouts and labels of registries in no corpus (issue #23)', () => {
  it('reads key-value replies with any separator and labels in any language', () => {
    const label = (field: keyof typeof LABELS): fc.Arbitrary<string> =>
      fc.constantFrom(...LABELS[field]);
    fc.assert(
      fc.property(
        fc.record({
          sep: fc.constantFrom(...SEPARATORS),
          indent: fc.constantFrom('', '   '),
          domain: label('domain'),
          created: label('created'),
          expires: label('expires'),
          registrar: label('registrar'),
          ns: label('ns'),
          upper: fc.boolean(),
        }),
        (c) => {
          const key = (k: string): string => (c.upper ? k.toUpperCase() : k);
          const line = (k: string, v: string): string => `${c.indent}${key(k)}${c.sep}${v}`;
          const text = [
            '% A registry in no corpus',
            '',
            line(c.domain, 'example.test'),
            line(c.registrar, 'Example Registrar Ltd'),
            line(c.created, '2020-01-02'),
            line(c.expires, '2030-01-02'),
            line(c.ns, 'ns1.example.net'),
            line(c.ns, 'ns2.example.net'),
          ].join('\n');
          const got = parseOrThrow(text, { domain: 'example.test' });
          assert.equal(got.domain.domain, 'example.test');
          assert.equal(got.registrar.name, 'Example Registrar Ltd');
          assert.equal(got.domain.created_date, '2020-01-02T00:00:00Z');
          assert.equal(got.domain.expiration_date, '2030-01-02T00:00:00Z');
          assert.deepEqual(got.domain.name_servers, ['ns1.example.net', 'ns2.example.net']);
          // the raw reply is the server's, full-width colons and all
          assert.equal(got.raw, text);
        },
      ),
      { numRuns: 400, seed: 23 },
    );
  });

  it('keeps a value that holds "=" whole in a colon reply, and reads no unknown "=" key', () => {
    const got = parseOrThrow(
      'Domain Name: example.test\nRegistrar URL: https://r.example/?a=b|c\nCreation Date: 2020-01-02\n',
    );
    assert.equal(got.registrar.referral_url, 'https://r.example/?a=b|c');
    // prose with "=" and no known key is no registration data
    assert.throws(
      () => parseOrThrow('Please note = this server\nanswer = 42\nx | y\n'),
      (e: unknown) => e instanceof LookupError && e.code === 'upstream_error',
    );
  });

  it('reads starred keys and headings (TRABIS, .tr) and still skips starred prose', () => {
    const text = [
      '** Domain Name: example.com.tr',
      '** Registrant:',
      '   Example Ltd',
      '** Domain Servers:',
      'ns1.example.net',
      'ns2.example.net',
      '** Additional Info:',
      'Created on..............: 2001-Aug-23.',
      'Expires on..............: 2030-Aug-22.',
      '*** Note: the data above is provided as is',
    ].join('\n');
    const got = parseOrThrow(text, { domain: 'example.com.tr' });
    assert.equal(got.domain.domain, 'example.com.tr');
    assert.deepEqual(got.domain.name_servers, ['ns1.example.net', 'ns2.example.net']);
    assert.equal(got.domain.created_date, '2001-08-23T00:00:00Z');
    assert.equal(got.domain.expiration_date, '2030-08-22T00:00:00Z');
  });

  it('skips a RIPE-style contact object whole, whatever its lines look like, up to a blank line', () => {
    // The object's lines are not read at all (tabbed, bracketed and key lines alike); the data
    // after the blank line that ends it is.
    const text = [
      'domain:   example.de',
      'nserver:  ns1.example.net',
      '',
      'person:   Jane Doe',
      'nserver:  ns9.contact.example',
      '\tcreated:\t1999-01-01',
      '[Tech] ns8.contact.example',
      'expires:  2030-01-01',
      '',
      'nserver:  ns2.example.net',
      'changed:  2020-01-02T03:04:05Z',
    ].join('\n');
    const got = parseOrThrow(text, { domain: 'example.de' });
    assert.deepEqual(got.domain.name_servers, ['ns1.example.net', 'ns2.example.net']);
    assert.equal(got.domain.created_date, undefined);
    assert.equal(got.domain.expiration_date, undefined);
    assert.equal(got.domain.updated_date, '2020-01-02T03:04:05Z');
  });

  it("keeps the registry's readable date when the registrar's record has one it cannot read", () => {
    const text = [
      '   Domain Name: EXAMPLE.COM',
      '   Creation Date: 29-apr-2005',
      '   Expiration Date: 29-apr-2009',
      '',
      'Registrant:',
      '   Example Inc',
      '',
      '   Registrar: EXAMPLE REGISTRAR',
      '   Domain Name: EXAMPLE.COM',
      '      Created on: 29-APR-05',
      '      Expires on: 2009-04-29',
    ].join('\n');
    const got = parseOrThrow(text, { domain: 'example.com' });
    assert.equal(got.domain.created_date, '2005-04-29T00:00:00Z');
    assert.equal(got.domain.expiration_date, '2009-04-29T00:00:00Z');
  });

  it("skips the host objects a thin registry lists before the domain: their registrar is the host's", () => {
    // Verisign's .com/.net output for a plain query: every name server named like the query
    // comes first, each with its own registrar, whois server and URL. Both casings of the key.
    const hosts = ['Server Name', 'SERVER NAME'].flatMap((key, k) => [
      `   ${key}: EXAMPLE.COM.HOST${k}.EXAMPLE.NET`,
      `   IP Address: 192.0.2.${k + 1}`,
      `   Registrar: HOST REGISTRAR ${k}`,
      `   Whois Server: whois.host${k}.example`,
      `   Referral URL: http://host${k}.example`,
      '',
    ]);
    const text = [
      'Whois Server Version 2.0',
      '',
      ...hosts,
      '   Domain Name: EXAMPLE.COM',
      '   Registrar: DOMAIN REGISTRAR, LLC.',
      '   Whois Server: whois.registrar.example',
      '   Referral URL: http://registrar.example',
      '   Name Server: NS1.EXAMPLE.COM',
      '   Creation Date: 05-jan-1996',
    ].join('\n');
    const got = parseOrThrow(text, { domain: 'example.com' });
    assert.equal(got.registrar.name, 'DOMAIN REGISTRAR, LLC.');
    assert.equal(got.registrar.referral_url, 'http://registrar.example');
    assert.equal(got.domain.whois_server, 'whois.registrar.example');
    assert.deepEqual(got.domain.name_servers, ['ns1.example.com']);
    // A "Server Name" inside the domain's block is no object of its own: the block is read.
    const inBlock = ['Domain Name: EXAMPLE.COM', 'Server Name: x', 'Registrar: R, LLC.'].join('\n');
    assert.equal(parseOrThrow(inBlock, { domain: 'example.com' }).registrar.name, 'R, LLC.');
  });

  it("reads the registrar's URL, not its reseller's (Nominet's \"Registered through\")", () => {
    const text = [
      '    Domain name:',
      '        example.co.uk',
      '',
      '    Registrant:',
      '        Jane Doe',
      '',
      "    Registrant's address:",
      '        1 Example Road',
      '',
      '    Registered through:',
      '        Shop.example, Inc.',
      '        URL: http://shop.example',
      '',
      '    Registrar:',
      '        Registrar Ltd [Tag = REGISTRAR]',
      '        URL: http://registrar.example',
      '',
      '    Relevant dates:',
      '        Registered on: 30-Aug-2008',
      '        Expiry date:  30-Aug-2030',
    ].join('\n');
    const got = parseOrThrow(text, { domain: 'example.co.uk' });
    assert.equal(got.registrar.name, 'Registrar Ltd [Tag = REGISTRAR]');
    assert.equal(got.registrar.referral_url, 'http://registrar.example');
    assert.equal(got.domain.expiration_date, '2030-08-30T00:00:00Z');
  });
});
