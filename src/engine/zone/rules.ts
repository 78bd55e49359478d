// Rules of a single master-file entry beyond its record data: the class, types that may not be
// data, owner names some types require, and BIND's $DATE directive. Each says the RFC (or, where
// BIND goes further than an RFC, BIND's behaviour) it comes from; the entry parser reports what
// they return on the token that breaks them.
import { isBase32Hex } from '../dns/rdata/base32hex';

export interface RuleFailure {
  code: string;
  message: string;
}

/**
 * The class a class token names: its mnemonic, or the one RFC 3597 section 5 `CLASSnnn` stands
 * for (CLASS1 is IN, CLASS3 CH, CLASS4 HS), or the token itself for a class with no mnemonic.
 */
export function className(text: string): string {
  // nearly every class written is IN, in capitals: answered without a copy or a regex
  if (text === 'IN') return text;
  const upper = text.toUpperCase();
  const m = /^CLASS(\d+)$/.exec(upper);
  if (m === null) return upper;
  return NUMBERED_CLASSES.get(Number(m[1])) ?? upper;
}

const NUMBERED_CLASSES = new Map([
  [1, 'IN'],
  [3, 'CH'],
  [4, 'HS'],
  [254, 'NONE'],
  [255, 'ANY'],
]);

/**
 * RFC 6895 section 3.1: types 128 to 255 are query and meta types, as OPT (41, RFC 6891) is a
 * meta type; none of them is data a zone can hold. Type 0 is reserved, and BIND refuses it the
 * same way.
 */
export function metaTypeFailure(code: number): RuleFailure | undefined {
  if (code !== 0 && code !== 41 && (code < 128 || code > 255)) return undefined;
  return {
    code: 'meta-type',
    message: `type ${code} is a query or meta type (RFC 6895 section 3.1), not record data`,
  };
}

/**
 * RFC 4592 section 4.2: NS records at a wildcard owner have no defined meaning (a delegation
 * is of a name), and BIND refuses such a zone.
 */
export function wildcardNsFailure(ownerKey: string, type: string): RuleFailure | undefined {
  if (type !== 'NS' || !ownerKey.startsWith('*.')) return undefined;
  return {
    code: 'wildcard-ns',
    message:
      'NS records at a wildcard owner: their meaning is undefined (RFC 4592 section 4.2), and BIND refuses them',
  };
}

/**
 * RFC 5155 section 3: an NSEC3 owner's first label is a hash in base32hex. BIND (its
 * check-names rule for NSEC3, which fails the load) takes the label only as unpadded base32hex
 * whose left-over bits are zero, the form a hash is written in; anything else there is a typo.
 */
export function nsec3OwnerFailure(ownerKey: string, type: string): RuleFailure | undefined {
  if (type !== 'NSEC3') return undefined;
  const label = firstLabel(ownerKey);
  if (label !== '' && isBase32Hex(label)) return undefined;
  return {
    code: 'bad-nsec3-owner',
    message: `the first label of an NSEC3 owner is a hash in unpadded base32hex (RFC 5155 section 3), not "${label}"`,
  };
}

function firstLabel(key: string): string {
  for (let i = 0; i < key.length; i++) {
    if (key[i] === '\\') i++;
    else if (key[i] === '.') return key.slice(0, i);
  }
  return key;
}

/**
 * BIND's `$DATE YYYYMMDDHHMMSS`: the time a file was dumped, which BIND uses to age the TTLs of
 * a cache dump and otherwise reads and checks only. HostLens checks it as BIND does: one time,
 * a real calendar date (a leap second allowed), within 32-bit seconds since 1970.
 */
export function dateDirectiveFailure(args: string[]): RuleFailure | undefined {
  if (args.length !== 1) {
    return { code: 'bad-directive', message: '$DATE takes one time, YYYYMMDDHHMMSS' };
  }
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(args[0]);
  if (m === null) {
    return { code: 'bad-directive', message: `"${args[0]}" is not a YYYYMMDDHHMMSS time` };
  }
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth ||
    hour > 23 ||
    minute > 59 ||
    second > 60
  ) {
    return { code: 'bad-directive', message: `"${args[0]}" is not a date and time` };
  }
  const seconds = Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
  if (seconds < 0 || seconds >= 2 ** 32) {
    return {
      code: 'bad-directive',
      message: `$DATE ${args[0]} is outside 32-bit time since 1970`,
    };
  }
  return undefined;
}
