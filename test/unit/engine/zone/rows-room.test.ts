// The one-shot load makes room for a text's rows at once (rows.ts roomFor) rather than doubling
// from sixteen: a text with more rows than that room (short records, $GENERATE) must still grow,
// and give the very records a table that starts small gives.
import assert from 'node:assert/strict';
import { loadZone, ZoneSession } from '../../../../src/engine/zone/index';
import { RecordRows, roomFor, rowInput } from '../../../../src/engine/zone/rows';
import { ZONE_HEAD as HEAD } from '../../../support/zone-file';

const OPTIONS = { origin: 'example.test.' };

/** The records of the one-shot load and of a session (whose rows start small), as JSON. */
function bothWays(text: string): { oneShot: string; session: string; count: number } {
  const { records, problems } = loadZone(text, OPTIONS);
  assert.deepEqual(problems, []);
  return {
    oneShot: JSON.stringify(records),
    session: JSON.stringify(new ZoneSession(text, OPTIONS).records()),
    count: records.length,
  };
}

describe('the room the one-shot load makes for its rows', () => {
  it('is a row for every 24 characters and an octet of data for every character, bounded', () => {
    assert.deepEqual(roomFor(2400), { rows: 100, wireOctets: 2400 });
    assert.deepEqual(roomFor(0), { rows: 0, wireOctets: 0 });
    // a text of hundreds of megabytes reserves at most 92 MB of cells and 64 MB of data
    assert.deepEqual(roomFor(140 * 2 ** 20), { rows: 2 ** 20, wireOctets: 2 ** 26 });
  });

  it('grows for a text of records shorter than that, to the same records', () => {
    // "a1 A 192.0.2.1" and the like: about 16 characters a record
    const lines = Array.from({ length: 3000 }, (_, i) => `a${i} A 192.0.2.${i % 256}`);
    const text = `${HEAD}${lines.join('\n')}\n`;
    const { oneShot, session, count } = bothWays(text);
    assert.ok(
      count > roomFor(text.length).rows,
      `${count} records in the room of ${roomFor(text.length).rows}`,
    );
    assert.equal(oneShot, session);
  });

  it('grows for the records of a $GENERATE, to the same records', () => {
    const text = `${HEAD}$GENERATE 1-5000 host$ A 192.0.2.1\n$GENERATE 1-500 txt$ TXT "${'x'.repeat(200)}"\n`;
    const { oneShot, session, count } = bothWays(text);
    assert.equal(count, 5500 + 3); // and the SOA, NS and A of the head
    assert.equal(oneShot, session);
  });

  it('keeps rows and data past a room of one row and one octet', () => {
    const rows = new RecordRows({ rows: 1, wireOctets: 1 });
    const wire = Buffer.from([192, 0, 2, 7]);
    for (let i = 0; i < 100; i++) {
      Object.assign(rowInput, {
        owner: `h${i}.example.com.`,
        key: `h${i}.example.com.`,
        ttl: 300,
        typeCode: 1,
        data: undefined,
        wire,
        wireLength: 4,
        target: undefined,
        file: undefined,
        line: i,
        start: 0,
        endLine: i,
        end: 10,
        ownerToken: undefined,
        ttlToken: undefined,
        typeToken: { line: i, start: 3, end: 4 },
        targetToken: undefined,
        serial: undefined,
        serialToken: undefined,
      });
      rows.add(rowInput);
    }
    assert.equal(rows.count, 100);
    assert.equal(rows.record(99).owner, 'h99.example.com.');
    assert.equal(rows.record(0).data, '192.0.2.7');
    assert.equal(rows.record(99).range.line, 99);
  });
});
