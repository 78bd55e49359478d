// The next SOA serial. Date-style serials (YYYYMMDDnn, RFC 1912 section 2.2) move to today's
// date with nn = 00, or count nn up within the same day; other serials count up by one.
// Serial arithmetic wraps at 2^32 (RFC 1982).

export function nextSerial(serial: number, today: Date = new Date()): number {
  const ymd = today.getUTCFullYear() * 10000 + (today.getUTCMonth() + 1) * 100 + today.getUTCDate();
  const text = String(serial);
  if (/^(19|20|21)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])\d{2}$/.test(text)) {
    const day = Math.floor(serial / 100);
    if (day < ymd) return ymd * 100;
  }
  return (serial + 1) % 2 ** 32;
}
