// How far away a date is, in words ("in 23 days", "3 months ago"): one rule for the panel's
// WHOIS view and the command line, so both say the same of the same date. Pure.

export interface RelativeDate {
  /** "in 23 days", "3 months ago", "today" */
  text: string;
  /** whole days from now (negative in the past) */
  days: number;
}

const DAY = 86_400_000;

export function relativeDate(iso: string, now: number): RelativeDate | undefined {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return undefined;
  const diff = at - now;
  const days = Math.trunc(diff / DAY);
  const abs = Math.abs(diff);
  let amount: string;
  if (abs < DAY) {
    const hours = Math.round(abs / 3_600_000);
    if (hours < 1) return { text: 'now', days };
    amount = `${hours} hour${hours === 1 ? '' : 's'}`;
  } else if (abs < 60 * DAY) {
    const d = Math.round(abs / DAY);
    amount = `${d} day${d === 1 ? '' : 's'}`;
  } else if (abs < 730 * DAY) {
    const m = Math.round(abs / (30.44 * DAY));
    amount = `${m} month${m === 1 ? '' : 's'}`;
  } else {
    const y = Math.round((abs / (365.25 * DAY)) * 10) / 10;
    amount = `${y} years`;
  }
  return { text: diff >= 0 ? `in ${amount}` : `${amount} ago`, days };
}
