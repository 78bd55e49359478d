// LOC record data (RFC 1876 appendix A) to wire form.

/** The wire form, or a message saying what is wrong. */
export function encodeLoc(tokens: string[]): number[] | string {
  let i = 0;
  const coordinate = (positive: string, negative: string, maxDeg: number): number | string => {
    const parts: number[] = [];
    while (i < tokens.length && parts.length < 3 && /^\d+(?:\.\d+)?$/.test(tokens[i])) {
      parts.push(Number(tokens[i++]));
    }
    const hemisphere = tokens[i++]?.toUpperCase();
    if (parts.length === 0 || (hemisphere !== positive && hemisphere !== negative)) {
      return `expected degrees [minutes [seconds]] ${positive}|${negative}`;
    }
    const [deg, min = 0, sec = 0] = parts;
    if (deg > maxDeg || min >= 60 || sec >= 60) return 'coordinate out of range';
    const thousandths = Math.round(((deg * 60 + min) * 60 + sec) * 1000);
    return hemisphere === positive ? 2 ** 31 + thousandths : 2 ** 31 - thousandths;
  };
  const lat = coordinate('N', 'S', 90);
  if (typeof lat === 'string') return lat;
  const lon = coordinate('E', 'W', 180);
  if (typeof lon === 'string') return lon;
  const meters = (text: string | undefined, fallback: number): number | undefined => {
    if (text === undefined) return fallback;
    const m = /^(-?\d+(?:\.\d{1,2})?)m?$/i.exec(text);
    return m ? Number(m[1]) : undefined;
  };
  const alt = meters(tokens[i++], Number.NaN);
  if (alt === undefined || Number.isNaN(alt) || alt < -100000 || alt > 42849672.95) {
    return 'bad altitude';
  }
  const sizes = [1, 10000, 10];
  const precision: number[] = [];
  for (let k = 0; k < 3; k++) {
    const v = meters(tokens[i + k], sizes[k]);
    if (v === undefined || v < 0 || v > 90000000) return 'bad size or precision';
    precision.push(expMantissa(Math.round(v * 100)));
  }
  if (tokens.length > i + 3) return 'extra input after the location';
  const out = [0, ...precision];
  for (const v of [lat, lon, Math.round(alt * 100) + 10000000]) {
    out.push(v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
  }
  return out;
}

function expMantissa(cm: number): number {
  let exponent = 0;
  while (cm >= 10 && exponent < 9) {
    cm = Math.floor(cm / 10);
    exponent++;
  }
  return (Math.min(cm, 9) << 4) | exponent;
}

/** 10 to the power of 0..9, for the sizes' exponents. */
const POWERS = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000];

/** A size or precision (mantissa and exponent of centimetres) in metres, as BIND prints it. */
function sizeText(octet: number): string | undefined {
  const mantissa = octet >> 4;
  const exponent = octet & 0x0f;
  if (mantissa > 9 || exponent > 9) return undefined;
  if (exponent > 1) return `${mantissa * POWERS[exponent - 2]}m`;
  return `0.${String(mantissa * POWERS[exponent]).padStart(2, '0')}m`;
}

function coordinateText(value: number, positive: string, negative: string): string {
  const offset = value - 2 ** 31;
  const abs = Math.abs(offset);
  const ms = abs % 1000;
  const seconds = Math.floor(abs / 1000) % 60;
  const minutes = Math.floor(abs / 60000) % 60;
  const degrees = Math.floor(abs / 3600000);
  const hemisphere = offset >= 0 ? positive : negative;
  return `${degrees} ${minutes} ${seconds}.${String(ms).padStart(3, '0')} ${hemisphere}`;
}

/** The presentation of LOC data (version 0), as BIND prints it; undefined when it is not one. */
export function decodeLoc(wire: Uint8Array): string | undefined {
  if (wire.length !== 16 || wire[0] !== 0) return undefined;
  const sizes = [wire[1], wire[2], wire[3]].map(sizeText);
  if (sizes.some((s) => s === undefined)) return undefined;
  const u32 = (at: number) =>
    ((wire[at] << 24) | (wire[at + 1] << 16) | (wire[at + 2] << 8) | wire[at + 3]) >>> 0;
  const altitude = u32(12) - 10000000;
  const sign = altitude < 0 ? '-' : '';
  const cm = Math.abs(altitude);
  const meters = `${sign}${Math.floor(cm / 100)}.${String(cm % 100).padStart(2, '0')}m`;
  return [
    coordinateText(u32(4), 'N', 'S'),
    coordinateText(u32(8), 'E', 'W'),
    meters,
    ...sizes,
  ].join(' ');
}
