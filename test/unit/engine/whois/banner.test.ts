// A reply that opens with a banner of comments and says "not found" as its first statement
// after it is answered there (saysNotFoundAfterBanner), as one whose first line says so: a
// refusal in the banner still wins, a commented field is no statement, and a reply of comments
// only gets what its words say, which is what the whole parse finds (the reader skips comments).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseWhois, type WhoisReading } from '../../../../src/engine/whois/parse';
import { readRecords } from '../../../../src/engine/whois/reader';
import { classifyReply, saysNotFoundAfterBanner } from '../../../../src/engine/whois/reply';
import { scanReply } from '../../../../src/engine/whois/scan';

/** The rule on a reply just scanned, as parseWhois asks it. */
function afterBanner(text: string): boolean {
  return saysNotFoundAfterBanner(scanReply(text));
}

const RIPE_BANNER = [
  '% By submitting a query to this Whois Service',
  '% you agree to abide by the following terms of use:',
  '% https://registry.example/whois-terms',
  '',
].join('\n');

const AFNIC_BANNER = ['%%', '%% This is the registry Whois server.', '%%', ''].join('\n');

const HASH_BANNER = [
  '# Copyright (c) the registry.',
  '# Any use of this material to target advertising is forbidden.',
  '#',
  '',
].join('\n');

function kindOf(reading: WhoisReading): string {
  return 'verdict' in reading ? reading.verdict : 'registered';
}

describe('whois: a "not found" after a banner of comments', () => {
  it('answers at the first statement after a "%", "%%" or "#" banner', () => {
    for (const banner of [RIPE_BANNER, AFNIC_BANNER, HASH_BANNER]) {
      for (const statement of [
        'No entries found for the selected source(s).',
        'domain "x.test" not found.',
        'No match for x.test',
      ]) {
        const text = `${banner}\n${statement}\n\nLast updated on 2024-01-01T00:00:00Z\n`;
        assert.equal(afterBanner(text), true, text);
        assert.deepEqual(parseWhois(text, { domain: 'x.test' }), {
          verdict: 'not_found',
          detail: 'The domain is not registered',
        });
      }
    }
  });

  it('answers only from a scan that still holds its reply', () => {
    const text = `${RIPE_BANNER}\nNo entries found for the selected source(s).\n`;
    const scan = scanReply(text);
    scanReply('Domain Name: other.test\n');
    assert.equal(saysNotFoundAfterBanner(scan), false);
    assert.equal(afterBanner(text), true);
  });

  it('takes the first statement after the banner as final, as the first-line rule does', () => {
    // The one change from reading the whole reply: data after a not-found statement is not
    // read (the first-line rule, opensWithNotFound, already treats a reply so).
    const data = 'Domain Name: x.test\nName Server: ns1.x.test\nCreation Date: 2020-01-01\n';
    for (const banner of [RIPE_BANNER, HASH_BANNER]) {
      const text = `${banner}\nThis domain name has not been registered.\n\n${data}`;
      assert.equal(afterBanner(text), true, text);
      assert.equal(kindOf(parseWhois(text, { domain: 'x.test' })), 'not_found');
    }
    // Without the statement the same data is a registration.
    assert.equal(kindOf(parseWhois(`${RIPE_BANNER}\n${data}`, { domain: 'x.test' })), 'registered');
  });

  it('lets a refusal in the banner win, as the whole reading does', () => {
    // AFNIC refuses in a "%%" line before its "No entries found"
    const afnic = `%%\n%% Too many requests from your address, try again later.\n%%\n\n%% No entries found in the registry database.\n`;
    const ripe = `${RIPE_BANNER}%ERROR:201: access denied\n\nNo entries found for the selected source(s).\n`;
    for (const text of [afnic, ripe]) {
      assert.equal(afterBanner(text), false, text);
      assert.equal(kindOf(parseWhois(text)), 'rate_limited', text);
      assert.equal(classifyReply(text)?.kind, 'rate_limited', text);
    }
  });

  it('takes a commented field for no statement: the data below it decides', () => {
    const text = [
      '% Status: AVAILABLE',
      '%',
      'Domain Name: x.test',
      'Registrar: Example Registrar',
      'Creation Date: 2020-01-01T00:00:00Z',
      'Registry Expiry Date: 2030-01-01T00:00:00Z',
      'Name Server: ns1.example.net',
      '',
    ].join('\n');
    assert.equal(afterBanner(text), false);
    assert.equal(kindOf(parseWhois(text, { domain: 'x.test' })), 'registered');
  });

  it('leaves a field, a reply without a banner and a statement that is no answer to the whole reading', () => {
    for (const text of [
      // the first statement is a field: the record decides ("Status: free")
      `${RIPE_BANNER}Domain: x.test\nStatus: free\n`,
      // no banner: the first line is opensWithNotFound's
      'No match for x.test\n',
      // the first statement after the banner says something else
      `${RIPE_BANNER}Whois Server for the TEST top level domain.\n\nNo entries found.\n`,
      // only blank lines
      '\n\n  \n',
    ]) {
      assert.equal(afterBanner(text), false, text);
    }
  });

  it('answers a reply of comments only as its words do, since it holds no record', () => {
    // Comment lines drawn from banners, refusals, "not found" and reserved lines and commented
    // fields, with blank lines: the reader reads nothing of them, so the whole parse says what
    // the classifier says, and the shortcut must say "not found" exactly when that is it.
    const line = fc.constantFrom(
      '% The use of this service is subject to the terms of use.',
      '%% No entries found in the registry database.',
      '% No entries found for the selected source(s).',
      '%ERROR:101: no entries found',
      '%ERROR:201: access denied',
      '%% Too many requests, try again later.',
      '% Status: AVAILABLE',
      '% Status: connect',
      '# This domain name is reserved for the registry.',
      '# Names that are not registered may be available.',
      '#',
      '%',
      '',
      '   ',
      '  % indented comment: not found',
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), fc.boolean(), (lines, crlf) => {
        const text = lines.join(crlf ? '\r\n' : '\n');
        for (const rec of readRecords(text)) {
          assert.deepEqual(
            [rec.status, rec.ns, rec.fields.filter((f) => f !== undefined)],
            [[], [], []],
          );
        }
        const said = classifyReply(text);
        const expected = said?.kind === 'not_found';
        assert.equal(afterBanner(text), expected, text);
        if (expected) assert.equal(kindOf(parseWhois(text)), 'not_found');
      }),
      { seed: 28, numRuns: 2000 },
    );
  });
});
