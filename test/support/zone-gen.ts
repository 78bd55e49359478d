// A generated zone for the DNS differential suite (issues 12 and 17): random valid records of
// every type the contract lists, from a fixed seed. Every byte of every string and odd label
// is written escaped (`\DDD`), so the zone means the same bytes to any reader. Owners that
// are asked are host names; odd bytes (spaces, dots, non-ASCII) live in labels of record
// targets, where they exercise how names are printed.
import { domainToASCII } from 'node:url';
import { seeded } from './prng';

export const ORIGIN = 'diff.test';

export interface GeneratedZone {
  text: string;
  /** names to ask, relative names already made absolute (no trailing dot) */
  names: string[];
}

/** Bytes as the inside of a zone-file quoted string: printable ASCII plain, the rest \DDD. */
export function zoneString(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) {
    if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b > 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\${String(b).padStart(3, '0')}`;
  }
  return `"${out}"`;
}

/** A label's bytes for a zone file: letters, digits, '-' and '_' plain, the rest \DDD. */
function zoneLabel(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) {
    const plain = /[A-Za-z0-9_-]/.test(String.fromCharCode(b));
    out += plain ? String.fromCharCode(b) : `\\${String(b).padStart(3, '0')}`;
  }
  return out;
}

export function generateZone(seed: number): GeneratedZone {
  const rnd = seeded(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)];
  const lines: string[] = [
    `$ORIGIN ${ORIGIN}.`,
    `@ 3600 IN SOA ns1.${ORIGIN}. host\\.master.${ORIGIN}. 2024010101 7200 900 1209600 300`,
    `@ 3600 IN NS ns1.${ORIGIN}.`,
    `@ 3600 IN NS ns\\032two.${ORIGIN}.`,
    `ns1 3600 IN A 192.0.2.1`,
  ];
  const names = [ORIGIN, `ns1.${ORIGIN}`];
  const ttl = () => pick([1, 10, 60, 300, 3600, 86400, 2147483647]);

  const utf8 = ['café', 'Grüße', '日本語', '🙂 ok', 'ñ'];
  const textBytes = (max = 80): Buffer => {
    switch (int(7)) {
      case 0:
        return Buffer.alloc(0);
      case 1:
        return Buffer.from(pick(utf8), 'utf8');
      case 2:
        return Buffer.from(Array.from({ length: 1 + int(max) }, () => int(256)));
      case 3:
        return Buffer.from('say "hi" \\ back\\slash', 'latin1');
      case 4:
        return Buffer.alloc(255, 0x61 + int(26));
      default:
        return Buffer.from(Array.from({ length: 1 + int(max) }, () => 0x20 + int(95)));
    }
  };
  const oddLabel = (): Buffer =>
    pick([
      Buffer.from('sp ace', 'latin1'),
      Buffer.from('a.b', 'latin1'),
      Buffer.from('caf\u00e9', 'latin1'),
      Buffer.from('café', 'utf8'),
      Buffer.from('x@y(z);"\\#', 'latin1'),
      // every printable octet that is not a letter or digit: kdig prints them all escaped but
      // '-', '_', '*' and '/'
      Buffer.from('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~', 'latin1'),
      Buffer.from([0, 1, 127, 255]),
      Buffer.from('plain-label', 'latin1'),
      Buffer.from('_under', 'latin1'),
    ]);
  const target = () =>
    pick([
      `${zoneLabel(oddLabel())}.${ORIGIN}.`,
      `host${int(50)}.example.net.`,
      `ns1.${ORIGIN}.`,
      '.',
    ]);
  const ip4 = () => `192.0.2.${int(256)}`;
  const ip6 = () => {
    const groups = Array.from({ length: 8 }, () => (rnd() < 0.4 ? 0 : int(0x10000)));
    groups[0] = 0x2001;
    groups[1] = 0xdb8;
    return groups.map((g) => g.toString(16)).join(':');
  };
  const caaTags = ['issue', 'issuewild', 'iodef', 'critical', 'tbs', 'contactemail', 'X9'];

  const rrset = (owner: string, type: string, datas: string[]) => {
    const t = ttl();
    for (const data of [...new Set(datas)]) lines.push(`${owner} ${t} IN ${type} ${data}`);
  };
  const txt = (strings: Buffer[]) => strings.map(zoneString).join(' ');

  for (let i = 0; i < 60; i++) {
    const owner = `n${i}`;
    names.push(`${owner}.${ORIGIN}`);
    // No NS here: below the apex it would be a delegation and hide the owner's other records.
    const types = ['A', 'AAAA', 'CAA', 'MX', 'PTR', 'TXT', 'SRV'].filter(() => rnd() < 0.45);
    for (const type of types) {
      const count = 1 + int(4);
      const datas = Array.from({ length: count }, () => {
        switch (type) {
          case 'A':
            return ip4();
          case 'AAAA':
            return ip6();
          case 'CAA':
            return `${pick([0, 128])} ${pick(caaTags)} ${zoneString(textBytes(40))}`;
          case 'MX':
            return `${int(100)} ${target()}`;
          case 'PTR':
            return target();
          case 'SRV':
            return `${int(100)} ${int(100)} ${1 + int(65535)} ${target()}`;
          default:
            return txt(Array.from({ length: 1 + int(4) }, () => textBytes()));
        }
      });
      rrset(owner, type, datas);
    }
  }

  // TXT sets over 512, 1232 and 4096 bytes (UDP without EDNS, with it, and TCP only).
  for (const [label, total] of [
    ['big512', 700],
    ['big1232', 1500],
    ['big4096', 5000],
  ] as const) {
    const strings: string[] = [];
    for (let size = 0, n = 0; size < total; n++) {
      strings.push(txt([Buffer.alloc(200, 0x41 + (n % 26)), Buffer.from(`#${n}`)]));
      size += 210;
    }
    strings.forEach((s) => lines.push(`${label} 300 IN TXT ${s}`));
    names.push(`${label}.${ORIGIN}`);
  }

  // CAA cases of issue 17: empty values beside others, flag 128, unusual tags, NUL, non-ASCII.
  lines.push(
    `caa 600 IN CAA 0 issue ""`,
    `caa 600 IN CAA 0 issue "ca.example.net"`,
    `caa 600 IN CAA 128 critical "x"`,
    `caa 600 IN CAA 0 issuewild "a\\000b"`,
    `caa 600 IN CAA 0 iodef "mailto:s\\233c@x"`,
    `caa 600 IN CAA 0 contactemail "s\\195\\169c@x"`,
  );
  names.push(`caa.${ORIGIN}`);

  // A CNAME chain whose links have different TTLs from the data at its end.
  lines.push(
    `chain 10 IN CNAME chain2`,
    `chain2 20 IN CNAME chain3.${ORIGIN}.`,
    `chain3 7200 IN A 192.0.2.77`,
    `chain3 7200 IN TXT "end of the chain"`,
    `dangling 30 IN CNAME sp\\032ace.${ORIGIN}.`,
    `nullmx 300 IN MX 0 .`,
    `_sip._tcp 300 IN SRV 0 5 5060 sip\\.odd.${ORIGIN}.`,
    `*.wc 300 IN A 192.0.2.99`,
    `*.wc 300 IN TXT "wild"`,
  );
  names.push(
    ...['chain', 'chain2', 'chain3', 'dangling', 'nullmx', '_sip._tcp', 'a.wc', 'b.c.wc', 'wc'].map(
      (n) => `${n}.${ORIGIN}`,
    ),
  );

  // IDN owners.
  for (const word of ['bücher', 'смотри', '例え']) {
    const ascii = domainToASCII(`${word}.${ORIGIN}`);
    lines.push(`${ascii}. 300 IN A ${ip4()}`, `${ascii}. 300 IN TXT ${txt([Buffer.from(word)])}`);
    names.push(ascii);
  }

  // A name of 253 octets (with the origin), and names that do not exist.
  const room = 253 - ORIGIN.length - 1;
  const labels: string[] = [];
  for (let left = room; left > 0;) {
    const size = Math.min(63, left - 1);
    if (size < 1) break;
    labels.push('l'.repeat(size));
    left -= size + 1;
  }
  const long = `${labels.join('.')}.${ORIGIN}`;
  lines.push(`${long}. 300 IN A 192.0.2.253`, `${long}. 300 IN TXT "long name"`);
  names.push(long, `nope.${ORIGIN}`, `deep.nope.${ORIGIN}`);

  return { text: `${lines.join('\n')}\n`, names };
}
