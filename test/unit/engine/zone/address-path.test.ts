// A and AAAA records are read straight into the row (entry.ts, readAddress) when their data is
// one address; everything else goes through the type table's reader. Both must give the same
// record data and the same problems: checked against parseRdata on addresses of every form,
// valid or not, alone or with more tokens, quoted, and in the RFC 3597 form.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseRdata, type Token } from '../../../../src/engine/dns/rdata/text';
import { loadZone } from '../../../../src/engine/zone/index';

const ORIGIN = 'example.com.';
const HEAD = `$TTL 300\n@ SOA ns hostmaster 1 2 3 4 5\n@ NS ns\nns A 192.0.2.53\n`;

const V4_PART = fc.oneof(
  fc.integer({ min: 0, max: 300 }).map(String),
  fc.constantFrom('01', '', 'x'),
);
const V4 = fc.array(V4_PART, { minLength: 3, maxLength: 5 }).map((p) => p.join('.'));
const V6_GROUP = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16)),
  fc.constantFrom('', '0000', 'FFFF', '12345', 'g', '1.2.3.4'),
);
const V6 = fc.array(V6_GROUP, { minLength: 2, maxLength: 9 }).map((g) => g.join(':'));
const DATA = fc.oneof(
  V4,
  V6,
  fc.constantFrom('::', '::1', '::ffff:192.0.2.1', '1::2::3', 'fe80::1%eth0', '\\# 4 C0000201'),
  fc.tuple(V4, V4).map(([a, b]) => `${a} ${b}`),
  V4.map((a) => `"${a}"`),
);

/** The record a zone with `line` loads, or the problem it reports, as readRdata sees it. */
function both(type: 'A' | 'AAAA', data: string) {
  const { problems, records } = loadZone(`${HEAD}www ${type} ${data}\n`, { origin: ORIGIN });
  const tokens: Token[] = [];
  for (const m of data.matchAll(/"([^"]*)"|(\S+)/g)) {
    const quoted = m[1] !== undefined;
    tokens.push({ kind: quoted ? 'quoted' : 'word', text: m[1] ?? m[2], start: 0, end: 0 });
  }
  const reader = parseRdata(type, tokens, ORIGIN);
  const loaded = records.find((r) => r.key === `www.${ORIGIN}`);
  return { problems, loaded, reader };
}

describe('zone A and AAAA data read straight into the rows', () => {
  it('gives the record data and problems the type table reader gives', () => {
    fc.assert(
      fc.property(fc.constantFrom('A' as const, 'AAAA' as const), DATA, (type, data) => {
        const { problems, loaded, reader } = both(type, data);
        if ('code' in reader) {
          assert.equal(loaded, undefined, data);
          assert.deepEqual(
            problems.map((p) => p.code),
            [reader.code],
            data,
          );
        } else {
          assert.deepEqual(problems, [], data);
          assert.equal(loaded?.wire, reader.wire, data);
          assert.equal(loaded?.data, reader.data, data);
        }
      }),
      { seed: 24, numRuns: 2000 },
    );
  });
});
