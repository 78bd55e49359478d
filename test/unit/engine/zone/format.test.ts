import assert from 'node:assert/strict';
import { formatZone } from '../../../../src/engine/zone/format';
import { ZoneSession } from '../../../../src/engine/zone/index';

describe('engine/zone formatZone', () => {
  const text = [
    '$TTL 1h',
    '; the apex',
    '@ IN SOA ( ns1 hm',
    '   1 2 3 4 5 )',
    '@  IN   NS ns1 ; primary',
    'ns1 300 IN A 192.0.2.1',
    '  AAAA 2001:db8::1',
    'www   A    192.0.2.2',
    'txt TXT "a  b" ; spaces in quotes kept',
    '',
  ].join('\n');

  it('aligns owner, TTL, class and type; keeps comments, directives and parentheses', () => {
    assert.equal(
      formatZone(text),
      [
        '$TTL 1h',
        '; the apex',
        '@ IN SOA ( ns1 hm',
        '   1 2 3 4 5 )',
        '@       IN NS   ns1 ; primary',
        'ns1 300 IN A    192.0.2.1',
        '           AAAA 2001:db8::1',
        'www        A    192.0.2.2',
        'txt        TXT  "a  b" ; spaces in quotes kept',
        '',
      ].join('\n'),
    );
  });

  it('changes no record', () => {
    const show = (t: string) =>
      new ZoneSession(t, { origin: 'example.com.' })
        .records()
        .map((r) => `${r.key} ${r.ttl} ${r.type} ${r.data}`);
    assert.deepEqual(show(formatZone(text)), show(text));
    assert.equal(
      formatZone(formatZone(text)),
      formatZone(text),
      'formatting twice changes nothing more',
    );
  });
});
