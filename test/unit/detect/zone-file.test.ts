import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  detectInLine,
  isZoneFileNameCandidate,
  looksLikeZoneFile,
  originFromFileName,
  zoneOriginAt,
  ZONE_FIRST_LINE_PATTERN,
} from '../../../src/detect/index';

const fixture = fileURLToPath(
  new URL('../../fixtures/workspace/example.test.zone', import.meta.url),
);

describe('detect: looksLikeZoneFile', () => {
  const yes: [string, string][] = [
    ['$TTL first', '$TTL 3600\n@ IN NS ns1\n'],
    ['$ORIGIN after comments', '; zone\n\n$ORIGIN example.com.\nwww A 192.0.2.1\n'],
    [
      'SOA without directives',
      'example.com. 3600 IN SOA ns1.example.com. h.example.com. 1 2 3 4 5\n',
    ],
    ['SOA with parentheses, owner-less', '  IN SOA ns1 hostmaster (\n 1 2 3 4 5 )\n'],
    ['records only', 'www IN A 192.0.2.1\nmail IN A 192.0.2.2\n@ IN MX 10 mail\n; comment\n'],
    ['CRLF line ends', '$TTL 1h\r\n@ IN NS ns1\r\n'],
  ];
  for (const [name, text] of yes)
    it(`yes: ${name}`, () => assert.equal(looksLikeZoneFile(text), true));

  const no: [string, string][] = [
    ['empty', ''],
    ['SQLite header (binary)', 'SQLite format 3\u0000\u0010\u0000$TTL 1'],
    ['prose', 'This database holds the users.\nIt has three tables.\nA is for apple.\n'],
    ['two records in mostly prose', 'www A 192.0.2.1\nmail A 192.0.2.2\nsome\nother\nlines\n'],
    ['CSV', 'id,name,host\n1,a,example.com\n2,b,example.org\n'],
    ['shell variables', 'TTL=3600\n$HOME/bin\necho $ORIGIN_URL\n'],
    ['directive name only', '$TTL\n$ORIGIN\n'],
  ];
  for (const [name, text] of no)
    it(`no: ${name}`, () => assert.equal(looksLikeZoneFile(text), false));

  it('yes: the editor fixture', () => {
    assert.equal(looksLikeZoneFile(readFileSync(fixture, 'utf8')), true);
  });
});

describe('detect: originFromFileName and isZoneFileNameCandidate', () => {
  const table: [string, string | undefined][] = [
    ['db.example.com', 'example.com.'],
    ['/etc/bind/db.Example.COM', 'example.com.'],
    ['example.com.zone', 'example.com.'],
    ['C:\\zones\\example.org.db', 'example.org.'],
    ['example.net.zone.signed', 'example.net.'],
    ['db.192.168.1', '1.168.192.in-addr.arpa.'],
    ['db.127', '127.in-addr.arpa.'],
    ['db.local', 'localhost.'],
    ['db.root', '.'],
    ['example.test.zone', 'example.test.'],
    ['users.sqlite', undefined],
    ['db.', undefined],
    ['.zone', undefined],
    ['db.my zone', undefined],
    ['notes.txt', undefined],
  ];
  for (const [name, origin] of table) {
    it(`${name} -> ${String(origin)}`, () => assert.equal(originFromFileName(name), origin));
  }
  it('knows which names are worth sniffing', () => {
    for (const name of ['db.example.com', 'x.zone', 'cache.db', '/a/b/DB.LOCAL']) {
      assert.equal(isZoneFileNameCandidate(name), true, name);
    }
    for (const name of ['zone.ts', 'dbx.com', 'mydb.sqlite', 'db']) {
      assert.equal(isZoneFileNameCandidate(name), false, name);
    }
  });
});

describe('detect: zoneOriginAt', () => {
  const lines = [
    '; no origin yet',
    '$ORIGIN example.com.',
    'www A 192.0.2.1',
    '$ORIGIN sub ; relative to example.com.',
    'host A 192.0.2.2',
    '$origin Other.Example.',
    'x A 192.0.2.3',
  ];
  it('is the hint (or nothing) before any $ORIGIN', () => {
    assert.equal(zoneOriginAt(lines, 0), undefined);
    assert.equal(zoneOriginAt(lines, 1, 'db.hint.test'), 'hint.test.');
    assert.equal(zoneOriginAt(lines, 1, 'hint.test.'), 'hint.test.');
    assert.equal(zoneOriginAt(lines, 1, '/srv/zones/hint.test'), 'hint.test.');
    assert.equal(zoneOriginAt(lines, 1, 'notes.txt'), undefined);
  });
  it('takes the last $ORIGIN above the line, not on it', () => {
    assert.equal(zoneOriginAt(lines, 2), 'example.com.');
    assert.equal(zoneOriginAt(lines, 3), 'example.com.');
    assert.equal(zoneOriginAt(lines, 4), 'sub.example.com.');
    assert.equal(zoneOriginAt(lines, 6), 'other.example.');
    assert.equal(zoneOriginAt(lines, 99), 'other.example.');
  });
  it('cannot complete a relative $ORIGIN without an earlier origin', () => {
    assert.equal(zoneOriginAt(['$ORIGIN sub', 'www A 192.0.2.1'], 1), undefined);
    assert.equal(
      zoneOriginAt(['$ORIGIN sub', 'www A 192.0.2.1'], 1, 'example.com.'),
      'sub.example.com.',
    );
  });
  it('resolves the fixture zone line by line', () => {
    const zone = readFileSync(fixture, 'utf8').split('\n');
    const at = (needle: string): string[] => {
      const index = zone.findIndex((l) => l.startsWith(needle));
      const origin = zoneOriginAt(zone, index, fixture);
      return detectInLine(zone[index], { languageId: 'dns-zone', origin }).map((d) => d.value);
    };
    assert.deepEqual(at('blog'), ['blog.example.test', 'www.example.test']);
    assert.deepEqual(at('@               IN  MX    10'), ['example.test', 'mail.example.test']);
    assert.deepEqual(at('db '), ['db.lab.example.test', 'host1.lab.example.test']);
  });
});

describe('detect: ZONE_FIRST_LINE_PATTERN', () => {
  const re = new RegExp(ZONE_FIRST_LINE_PATTERN);
  for (const line of [
    '$TTL 86400',
    '$ORIGIN example.com.',
    '@ IN SOA ns1.example.com. hostmaster.example.com. (',
    'example.com. 3600 IN SOA ns1 hostmaster 1 2 3 4 5',
    '@\t1h\tIN\tSOA\tns1 h (',
    'example.com.  SOA ns1 h 1 2 3 4 5',
    'zone1 IN SOA ns1 h (',
  ]) {
    it(`matches ${JSON.stringify(line)}`, () => assert.ok(re.test(line)));
  }
  for (const line of [
    '; just a comment',
    '$TTL',
    'SQLite format 3',
    'TTL=3600',
    'echo $ORIGIN',
    '#!/bin/sh',
    'The SOA record is explained below',
    'Our 3 SOA records',
  ]) {
    it(`does not match ${JSON.stringify(line)}`, () => assert.ok(!re.test(line)));
  }
});
