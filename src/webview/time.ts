// Dates in the WHOIS view: how far away (contract/dates.ts, shared with the command line),
// how urgent an expiry is, and UTC as people read it. Pure; unit-tested.

export type DateLevel = 'normal' | 'soon' | 'past';

export { relativeDate, type RelativeDate } from '../contract/dates';

const DAY = 86_400_000;

/** An expiry date under 30 days away is "soon"; one already passed is "past". */
export function expiryLevel(iso: string, now: number): DateLevel {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return 'normal';
  if (at <= now) return 'past';
  return at - now < 30 * DAY ? 'soon' : 'normal';
}

/** "2024-08-13 04:00 UTC" */
export function formatUtc(iso: string): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return iso;
  const d = new Date(at).toISOString();
  return `${d.slice(0, 10)} ${d.slice(11, 16)} UTC`;
}
