// The command line's WHOIS dates say how far away they are in the words the panel uses for
// the same date at the same moment (one rule, contract/dates.ts), not a day off.
import * as assert from 'node:assert/strict';
import { renderText } from '../../../src/cli/text/index';
import { makeGlyphs, makeStyle } from '../../../src/cli/text/style';
import { relativeDate } from '../../../src/webview/time';

const NOW = new Date('2026-11-01T00:00:00Z');
const DAY = 86_400_000;

function whois(created: string, expires: string): string {
  return renderText(
    'whois',
    {
      domain: { domain: 'example.test', created_date: created, expiration_date: expires },
      registrar: {},
    },
    { style: makeStyle(false), glyphs: makeGlyphs(false), now: NOW, width: Infinity, params: {} },
  );
}

describe('hostlens whois: relative dates', () => {
  it('3.0 days ago is "3 days ago" and 20 days ahead is "in 20 days"', () => {
    const text = whois(
      new Date(NOW.getTime() - 3 * DAY).toISOString(),
      new Date(NOW.getTime() + 19.5 * DAY).toISOString(),
    );
    assert.match(text, /^Created +2026-10-29 {2}3 days ago$/m);
    assert.match(text, /^Expires +2026-11-20 {2}in 20 days$/m);
  });

  it('says what the panel says for the same date, from hours to years, past and future', () => {
    const offsets = [
      0.3, 0.96, 1, 1.5, 2.49, 2.5, 3, 19.5, 20, 45, 59.6, 61, 200, 400, 729, 731, 3000,
    ];
    for (const days of offsets.flatMap((d) => [d, -d])) {
      const iso = new Date(NOW.getTime() + days * DAY).toISOString();
      const panel = relativeDate(iso, NOW.getTime())!.text;
      const text = whois(iso, iso);
      for (const label of ['Created', 'Expires']) {
        const line = text.split('\n').find((l) => l.startsWith(label))!;
        assert.ok(line.includes(panel), `${days} days: "${line}" should say "${panel}"`);
      }
    }
  });
});
