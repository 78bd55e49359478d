import assert from 'node:assert/strict';
import { expiryLevel, formatUtc, relativeDate } from '../../../src/webview/time';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const DAY = 86_400_000;
const at = (ms: number) => new Date(NOW + ms).toISOString();

describe('relative dates', () => {
  it('words the distance in hours, days, months or years', () => {
    assert.equal(relativeDate(at(23 * DAY), NOW)?.text, 'in 23 days');
    assert.equal(relativeDate(at(-1 * DAY), NOW)?.text, '1 day ago');
    assert.equal(relativeDate(at(5 * 3_600_000), NOW)?.text, 'in 5 hours');
    assert.equal(relativeDate(at(10 * 60_000), NOW)?.text, 'now');
    assert.equal(relativeDate(at(-90 * DAY), NOW)?.text, '3 months ago');
    assert.equal(relativeDate(at(3 * 365.25 * DAY), NOW)?.text, 'in 3 years');
    assert.equal(relativeDate(at(-3.5 * 365.25 * DAY), NOW)?.text, '3.5 years ago');
    assert.equal(relativeDate('not a date', NOW), undefined);
  });

  it('marks expiry under 30 days as soon and a past one as past', () => {
    assert.equal(expiryLevel(at(29 * DAY), NOW), 'soon');
    assert.equal(expiryLevel(at(31 * DAY), NOW), 'normal');
    assert.equal(expiryLevel(at(-1000), NOW), 'past');
    assert.equal(expiryLevel('garbage', NOW), 'normal');
  });

  it('formats in UTC to the minute', () => {
    assert.equal(formatUtc('2024-08-13T04:00:59Z'), '2024-08-13 04:00 UTC');
    assert.equal(formatUtc('?'), '?');
  });
});
