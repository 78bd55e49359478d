// The two zone-file slips issue 26 asks quick fixes for: a mistyped record type and a target
// written without its final dot (so the origin is added to a name that already holds it).
import assert from 'node:assert/strict';
import { ZoneSession } from '../../../../src/engine/zone/index';
import { typesNear } from '../../../../src/engine/dns/rdata/types';

const HEAD = `$ORIGIN example.com.
$TTL 3600
@ IN SOA ns1 hostmaster 1 3600 600 86400 300
@ IN NS ns1
ns1 IN A 192.0.2.1
`;
const problems = (body: string) =>
  new ZoneSession(HEAD + body, { origin: 'example.com.' }).problems();

describe('engine/zone typos', () => {
  it('suggests the types one edit away, the common ones first', () => {
    assert.deepEqual(typesNear('AAA'), ['AAAA', 'CAA']);
    assert.deepEqual(typesNear('cnmae'), ['CNAME']);
    assert.equal(typesNear('MXX')[0], 'MX');
    assert.deepEqual(typesNear('QWERTY'), []);
  });

  it('offers the nearest type as the fix of an unknown type', () => {
    const [p] = problems('www IN AAA 2001:db8::1\n');
    assert.equal(p.code, 'unknown-type');
    assert.match(p.message, /did you mean AAAA or CAA\?/);
    assert.deepEqual(p.fix, {
      title: 'Change to AAAA',
      range: { line: 5, start: 7, end: 10 },
      replacement: 'AAAA',
    });
    assert.equal(problems('www IN QWERTY x\n')[0].fix, undefined);
  });

  it('warns of a target that repeats the origin, with the absolute name as the fix', () => {
    for (const [type, data, start] of [
      ['CNAME', 'files.example.com', 15],
      ['MX', '10 mail.example.com', 15],
      ['NS', 'example.com', 12],
    ] as const) {
      const found = problems(`files IN ${type} ${data}\n`).filter(
        (p) => p.code === 'origin-repeated',
      );
      assert.equal(found.length, 1, type);
      assert.equal(found[0].severity, 'warning');
      const meant = data.split(' ').pop()!;
      assert.match(
        found[0].message,
        new RegExp(`did you mean ${meant.replace(/\./g, '\\.')}\\.\\?`),
      );
      assert.equal(found[0].fix?.replacement, `${meant}.`);
      assert.equal(found[0].fix?.range.start, start);
    }
  });

  it('leaves relative and absolute targets that do not repeat the origin alone', () => {
    const body = 'www IN CNAME web\nweb IN A 192.0.2.2\nold IN CNAME www.example.com.\n';
    assert.deepEqual(
      problems(body).filter((p) => p.code === 'origin-repeated'),
      [],
    );
  });
});
