// Seeded zone files for the differential suite and the benchmark: a valid zone that uses the
// master-file syntax broadly (parentheses, $ORIGIN, omitted owners, TTL units, escapes,
// RFC 3597, $GENERATE, DNSSEC and service types), and the same zone broken in one way.

export const ORIGIN = 'example.com.';

export const MUTATIONS = [
  'none',
  'no-soa',
  'multiple-soa',
  'soa-not-at-apex',
  'cname-and-other-data',
  'cname-at-apex',
  'multiple-cname',
  'ns-target-cname',
  'mx-target-cname',
  'srv-target-cname',
  'missing-glue-apex',
  'missing-glue-delegation',
  'no-ns',
  'outside-origin',
  'below-delegation',
  'ttl-mismatch',
  'duplicate-record',
  'bad-ipv4',
  'bad-ipv4-leading-zero',
  'bad-ipv6',
  'bad-port',
  'bad-caa-flags',
  'label-too-long',
  'name-too-long',
  'string-too-long',
  'unknown-type',
  'missing-rdata',
  'extra-rdata',
  'unbalanced-paren',
  'unterminated-string',
  'bad-ttl',
  'bad-base64',
  'bad-ds-digest',
  'bad-generic-length',
  'relative-no-origin-directive',
  'bad-class',
  // issue 27: where BIND loads and HostLens refused, where BIND refuses and HostLens loaded, and
  // the records BIND makes (each also has valid variants, so both verdicts are exercised)
  'glue-via-wildcard',
  'glue-below-delegation',
  'class-numbered',
  'generate-nibble',
  'generate-offset',
  'date-directive',
  'apex-cds',
  'ds-at-apex',
  'svcb-value-list',
  'svcb-mandatory',
  'dname-twice',
  'target-below-dname',
  'rrset-size',
  'generic-length',
  'nsec3-next-hash',
  'nsec3-owner',
  'meta-type',
  'ns-at-wildcard',
  'soa-minimum-ttl',
  'generic-known-type',
] as const;

export type Mutation = (typeof MUTATIONS)[number];

export interface GeneratedZone {
  text: string;
  mutation: Mutation;
}

export function generateZone(rand: () => number, mutation: Mutation, hosts = 12): GeneratedZone {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
  const int = (n: number) => Math.floor(rand() * n);
  const ttl = () => pick(['300', '3600', '1h', '1h30m', '2d', '86400', '1W']);
  const head: string[] = ['$TTL ' + pick(['3600', '1h', '86400', '2h'])];
  if (rand() < 0.5) {
    head.push(
      '@ IN SOA ns1 hostmaster ( ; primary, contact',
      `    ${2026010100 + int(99)} ; serial`,
      '    1h 15m 1w 5m )',
    );
  } else {
    head.push(`@ ${ttl()} IN SOA ns1.${ORIGIN} hostmaster.${ORIGIN} 1 3600 600 86400 300`);
  }
  head.push(
    '@ IN NS ns1',
    '  IN NS ns2',
    'ns1 A 192.0.2.1',
    'ns2 A 192.0.2.2',
    'ns2 AAAA 2001:db8::2',
  );
  const body: string[] = [];
  const names: string[] = [];
  for (let i = 0; i < hosts; i++) {
    const name = `h${i}`;
    names.push(name);
    const address =
      hosts < 200 ? `192.0.2.${10 + i}` : `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`;
    body.push(`${name} ${rand() < 0.5 ? ttl() + ' ' : ''}${rand() < 0.5 ? 'IN ' : ''}A ${address}`);
    if (rand() < 0.4) body.push(`    AAAA 2001:db8::${ipv6Tail(10 + i)}`);
    if (rand() < 0.3) body.push(`${name} TXT "v=spf1 -all" "a \\"quoted\\" \\059 text"`);
  }
  const extras = [
    () => `@ MX ${int(50)} ${pick(names)}`,
    () => `_sip._tcp SRV 10 ${int(100)} ${int(65536)} ${pick(names)}`,
    () => `@ CAA 0 issue "ca.example.net"`,
    () => `www CNAME ${pick(names)}`,
    () => `@ TXT ( "part one"\n    "part two" )`,
    () =>
      'sec DNSKEY 257 3 13 mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==',
    () => 'sub DS 60485 13 2 D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A',
    () =>
      '_25._tcp.mail TLSA 3 1 1 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    () => 'ssh SSHFP 4 2 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    () => 'u NAPTR 100 10 "u" "E2U+sip" "!^.*$!sip:info@example.com!" .',
    () => 'svc SVCB 1 h1 alpn=h2,h3 port=8443',
    () => 'web HTTPS 1 . alpn=h2 ipv4hint=192.0.2.80',
    () => 'old DNAME example.net.',
    () => 'loc LOC 52 22 23.000 N 4 53 32.000 E -2.00m 1m 10000m 10m',
    () => 'rp RP hostmaster.example.com. rpt.example.com.',
    () => 'rpt TXT "call us"',
    () => 'info HINFO "PC" "Linux"',
    () => '_u._tcp URI 10 1 "https://example.com/"',
    () => 'sec CDS 60485 13 2 D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A',
    () =>
      'sec CDNSKEY 257 3 13 mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==',
    () => '@ NSEC3PARAM 1 0 10 AABBCCDD',
    () => `opaque TYPE65280 \\# 4 0a000001`,
    () => `generic TYPE1 \\# 4 C0000263`,
    () => `$GENERATE 1-${2 + int(5)} dyn-$ A 198.51.100.$`,
    () => `esc\\.dot A 192.0.2.200`,
  ];
  const used = new Set<number>();
  for (let k = 0; k < 8; k++) {
    const i = int(extras.length);
    if (used.has(i)) continue;
    used.add(i);
    body.push(extras[i]());
  }
  if (body.some((l) => l.startsWith('sub DS'))) body.push('sub NS ns.sub', 'ns.sub A 192.0.2.53');
  if (body.some((l) => l.startsWith('rp RP')) && !body.some((l) => l.startsWith('rpt'))) {
    body.push('rpt TXT "call us"');
  }
  const tail = [
    '$ORIGIN lab.example.com.',
    `box ${ttl()} A 203.0.113.1`,
    '  TXT "lab"',
    `$ORIGIN ${ORIGIN}`,
  ];
  const broken = mutate(mutation, head, body, rand, pick, names);
  return { text: `${[...broken.head, ...broken.body, ...tail].join('\n')}\n`, mutation };
}

/** The last groups of an IPv6 address for host number `n` (two groups past 65,535 hosts). */
function ipv6Tail(n: number): string {
  return n < 0x10000 ? n.toString(16) : `${(n >> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
}

function mutate(
  mutation: Mutation,
  head: string[],
  body: string[],
  rand: () => number,
  pick: <T>(items: readonly T[]) => T,
  names: string[],
): { head: string[]; body: string[] } {
  const insert = (...lines: string[]) => {
    const at = Math.floor(rand() * (body.length + 1));
    body.splice(at, 0, ...lines);
  };
  const host = pick(names);
  switch (mutation) {
    case 'none':
      break;
    case 'no-soa':
      return { head: head.filter((l, i) => i === 0 || !/SOA|^ {4}/.test(l)), body };
    case 'multiple-soa':
      insert('@ SOA ns2 other 2 3600 600 86400 300');
      break;
    case 'soa-not-at-apex':
      insert('inner SOA ns1 hostmaster 1 3600 600 86400 300');
      break;
    case 'cname-and-other-data':
      insert(`${host} CNAME ns1`);
      break;
    case 'cname-at-apex':
      insert('@ CNAME ns1');
      break;
    case 'multiple-cname':
      insert('two CNAME ns1', 'two CNAME ns2');
      break;
    case 'ns-target-cname':
      insert('nsalias CNAME ns1', '@ NS nsalias');
      break;
    case 'mx-target-cname':
      insert('mxalias CNAME ns1', '@ MX 5 mxalias');
      break;
    case 'srv-target-cname':
      insert('srvalias CNAME ns1', '_xmpp._tcp SRV 0 0 5222 srvalias');
      break;
    case 'missing-glue-apex':
      insert('@ NS ns3');
      break;
    case 'missing-glue-delegation':
      insert('child NS ns.child');
      break;
    case 'no-ns':
      return { head: head.filter((l) => !/\bNS\b/.test(l)), body };
    case 'outside-origin':
      insert('www.example.net. A 192.0.2.99');
      break;
    case 'below-delegation':
      insert('deleg NS ns1', 'x.deleg A 192.0.2.98');
      break;
    case 'ttl-mismatch':
      insert('multi 300 A 192.0.2.70', 'multi 600 A 192.0.2.71');
      break;
    case 'duplicate-record':
      insert('dup A 192.0.2.72', 'dup A 192.0.2.72');
      break;
    case 'bad-ipv4':
      insert(`bad A 192.0.2.${256 + Math.floor(rand() * 700)}`);
      break;
    case 'bad-ipv4-leading-zero':
      insert('bad A 192.0.2.010');
      break;
    case 'bad-ipv6':
      insert('bad AAAA 2001:db8::g1');
      break;
    case 'bad-port':
      insert(`_x._udp SRV 0 0 ${65536 + Math.floor(rand() * 1000)} ns1`);
      break;
    case 'bad-caa-flags':
      insert(`@ CAA ${256 + Math.floor(rand() * 100)} issue "ca.example.net"`);
      break;
    case 'label-too-long':
      insert(`${'l'.repeat(64 + Math.floor(rand() * 10))} A 192.0.2.73`);
      break;
    case 'name-too-long': {
      const label = 'n'.repeat(60);
      insert(`${label}.${label}.${label}.${label} A 192.0.2.74`);
      break;
    }
    case 'string-too-long':
      insert(`long TXT "${'t'.repeat(256 + Math.floor(rand() * 100))}"`);
      break;
    case 'unknown-type':
      insert('odd FOOBAR 1 2 3');
      break;
    case 'missing-rdata':
      insert(pick(['m MX 10', 'm SRV 0 0 80', 'm A', 'm SOA ns1 hm 1 2 3']));
      break;
    case 'extra-rdata':
      insert(pick(['e A 192.0.2.75 192.0.2.76', 'e MX 10 ns1 extra', 'e CNAME a b']));
      break;
    case 'unbalanced-paren':
      insert('p TXT "x" )');
      break;
    case 'unterminated-string':
      insert('q TXT "never closed');
      break;
    case 'bad-ttl':
      insert('t 1x A 192.0.2.77');
      break;
    case 'bad-base64':
      insert('k DNSKEY 256 3 13 not*base64');
      break;
    case 'bad-ds-digest':
      insert('dsx NS ns1', 'dsx DS 1 13 2 abcd');
      break;
    case 'bad-generic-length':
      insert('g TYPE65000 \\# 5 0a000001');
      break;
    case 'relative-no-origin-directive':
      insert('$ORIGIN');
      break;
    case 'bad-class':
      insert('c CH A 192.0.2.78');
      break;
    default:
      return mutateMore(mutation, head, body, rand, pick, insert);
  }
  return { head, body };
}

const KEY =
  'mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==';
const DIGEST = 'D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A';

/** The cases of issue 27, each a few spellings picked at random, valid and broken. */
function mutateMore(
  mutation: Mutation,
  head: string[],
  body: string[],
  rand: () => number,
  pick: <T>(items: readonly T[]) => T,
  insert: (...lines: string[]) => void,
): { head: string[]; body: string[] } {
  const int = (n: number) => Math.floor(rand() * n);
  switch (mutation) {
    case 'glue-via-wildcard':
      // RFC 4592 section 3.3.1: the wildcard at the closest encloser answers, unless the name
      // exists (here as an empty non-terminal) or the wildcard has no address
      insert(
        `@ NS ${pick(['ns.w', 'a.b.w', 'ns.W'])}`,
        `*.w ${pick(['A 192.0.2.81', 'AAAA 2001:db8::81', 'A 192.0.2.81', 'TXT "no address"'])}`,
        ...(rand() < 0.3 ? ['x.ns.w TXT "makes ns.w exist"'] : []),
      );
      break;
    case 'glue-below-delegation':
      insert(
        `@ NS ${pick(['ns2.d', 'ns.x.d', 'd'])}`,
        'd NS ns1.d',
        ...(rand() < 0.7 ? ['ns1.d A 192.0.2.82'] : []),
      );
      break;
    case 'class-numbered':
      // RFC 3597 section 5: CLASS1 is IN; CLASS3 is CH, not the zone's class
      insert(
        `c ${pick(['', '300 '])}${pick(['CLASS1', 'class1', 'CLASS1', 'CLASS3'])} A 192.0.2.83`,
      );
      break;
    case 'generate-nibble': {
      // an odd width ends on a digit; an even one on a dot, which makes an empty label here
      const width = pick([0, 1, 3, 4, 7]);
      const start = int(300);
      const base = pick(['n', 'N']);
      const target = pick(['h1', 'h${0,3,x}']);
      insert(
        `$GENERATE ${start}-${start + 1 + int(3)} ${pick(['n', 'n$.'])}\${0,${width},${base}}.rev PTR ${target}`,
      );
      break;
    }
    case 'generate-offset': {
      // BIND adds the offset in a signed 32-bit integer; it reads the offset and the width
      // with sscanf, which keeps the low 32 bits of a C long (so wraps past 32 bits and sticks
      // past 64), and formats into 128 characters
      const start = pick([0, 0, 1, 5]);
      const offset = pick([
        ...['2147483647', '2147483646', '-5', '2147483640', '4294967296', '99999999999'],
        ...['-2147483649', '-4294967295', '99999999999999999999', '-99999999999999999999'],
      ]);
      if (rand() < 0.5) {
        insert(`$GENERATE ${start}-${start + 2} o\${${offset}} A 192.0.2.84`);
      } else {
        const width = pick(['3', '127', '128', '4294967297', '-4294967295', '-1', '+2']);
        const base = pick(['d', 'x', 'o', 'n']);
        insert(`$GENERATE ${start}-${start + 2} w$ TXT v\${${offset},${width},${base}}`);
      }
      break;
    }
    case 'date-directive':
      insert(
        `$DATE ${pick([
          '20200101000000',
          '20251231235960',
          '20201301000000',
          '20200230000000',
          '2020010100000',
          '19691231235959',
          '21060207062816',
          '20200101000000 x',
        ])}`,
      );
      break;
    case 'apex-cds': {
      // BIND: the apex's CDS and CDNSKEY name algorithms of its DNSKEY set, the delete forms
      // alone; a digest that matches no key is not its concern
      const lines: string[] = [];
      if (rand() < 0.7) lines.push(`@ DNSKEY 257 3 13 ${KEY}`);
      lines.push(
        pick([
          `@ CDS 60485 13 2 ${DIGEST}`,
          `@ CDS 60485 8 2 ${DIGEST}`,
          `@ CDNSKEY 257 3 13 ${KEY}`,
          `@ CDNSKEY 257 3 15 ${KEY}`,
          '@ CDS 0 0 0 00',
          '@ CDNSKEY 0 3 0 AA==',
        ]),
      );
      if (rand() < 0.3) lines.push(pick(['@ CDS 0 0 0 00', `@ CDS 60485 13 2 ${DIGEST}`]));
      insert(...lines);
      break;
    }
    case 'ds-at-apex':
      insert(`${pick(['@', 'sub'])} DS 60485 13 2 ${DIGEST}`);
      break;
    case 'svcb-value-list':
      insert(
        `sv SVCB 1 . alpn=${pick(['abc,', ',abc', 'a,,b', 'h1\\\\,h2', 'h1\\,h2', '"h2,h3"', 'h2'])}`,
      );
      break;
    case 'svcb-mandatory':
      insert(
        `sv ${pick(['SVCB', 'HTTPS'])} 1 . mandatory=${pick(['port', 'alpn', 'ipv4hint,port', 'alpn,'])} alpn=h2${pick(['', ' port=853'])}`,
      );
      break;
    case 'dname-twice':
      insert('dn DNAME example.net.', `dn DNAME ${pick(['example.org.', 'example.net.'])}`);
      break;
    case 'target-below-dname':
      // BIND refuses its own nameservers below a DNAME, and only reports other targets
      insert(
        'dn DNAME example.net.',
        pick(['@ NS ns.dn', 'child NS ns.dn', '@ MX 5 mx.dn', '@ NS dn']),
        ...(rand() < 0.5 ? ['ns.dn A 192.0.2.85'] : []),
      );
      break;
    case 'rrset-size': {
      // BIND's limit on an RRset: 65,512 octets of data and lengths (owner-rules.ts)
      const count = 1 + int(4);
      let left = 65512 - 2 * count + pick([-20, -1, 0, 1, 2, 40]);
      const type = pick(['TXT', 'TYPE65281']);
      const lines: string[] = [];
      for (let i = 0; i < count; i++) {
        const octets = i === count - 1 ? left : Math.floor(left / (count - i));
        left -= octets;
        lines.push(`big ${type} ${bigData(type, octets, i)}`);
      }
      insert(...lines);
      break;
    }
    case 'generic-length':
      insert(
        pick([
          `g TYPE65282 ${bigData('TYPE65282', pick([65510, 65511, 65536]), 1)}`,
          'g A \\# 4 c0000209',
          'g A \\# 5 c000020901',
          'g A \\# 3 c00002',
          'g AAAA \\# 16 20010db8000000000000000000000001',
          'g AAAA \\# 17 20010db8000000000000000000000001ff',
        ]),
      );
      break;
    case 'nsec3-next-hash':
      insert(
        `${hashLabel(rand)} NSEC3 1 0 0 - ${pick([hashLabel(rand), hashLabel(rand).slice(0, 16), hashLabel(rand).slice(0, 31), `${hashLabel(rand)}00000000`])} A`,
      );
      break;
    case 'nsec3-owner': {
      const hash = hashLabel(rand);
      const owner = pick([
        hash,
        hash.toUpperCase(),
        hash.slice(0, 31),
        hash.slice(0, 8),
        hash.slice(0, 7),
        `${hash.slice(0, 7)}=`,
        'x',
        `w${hash.slice(1)}`,
        `sub.${hash}`,
      ]);
      insert(`${owner} NSEC3 1 0 0 - ${hashLabel(rand)} A`);
      break;
    }
    case 'meta-type':
      insert(`m TYPE${pick([0, 41, 127, 128, 200, 249, 251, 255, 256, 65535])} \\# 0`);
      break;
    case 'ns-at-wildcard':
      insert(`${pick(['*', '*.w', 'w'])} NS ns1`);
      break;
    case 'soa-minimum-ttl': {
      // no $TTL and an SOA without one: BIND gives the SOA minimum to every record without one
      const soa = head.findIndex((l) => /\bSOA\b/.test(l));
      const rest = head.slice(soa + 1);
      const soaLine = head[soa].replace(/^@ \S+ IN SOA/, '@ IN SOA');
      return { head: [soaLine, ...rest], body };
    }
    case 'generic-known-type':
      // RFC 3597 section 5: the same record as the usual form
      insert(
        pick([
          'gm MX 10 Mail.Example.com.',
          'gm MX \\# 20 000a046d61696c076578616d706c6503636f6d00',
        ]),
        pick([
          'gm TYPE15 \\# 20 000a046d61696c076578616d706c6503636f6d00',
          'gm MX \\# 20 000a046d61696c076578616d706c6503636f6d00',
          'gm MX 20 mail.example.com.',
        ]),
        pick(['mail A 192.0.2.86', 'mail TYPE1 \\# 4 c0000256']),
        pick(['@ NS \\# 17 036e7333076578616d706c6503636f6d00', 'gc TYPE5 \\# 6 046d61696c00']),
      );
      break;
    default:
      break;
  }
  return { head, body };
}

/** A SHA-1 hash as an NSEC3 owner label writes it: 32 digits of base32hex. */
function hashLabel(rand: () => number): string {
  const digits = '0123456789abcdefghijklmnopqrstuv';
  let out = '';
  for (let i = 0; i < 32; i++) out += digits[Math.floor(rand() * 32)];
  // the last digit's low bits are zero in 20 octets' worth (160 bits = 32 whole digits)
  return out;
}

/** Record data of `octets` octets: TXT strings of up to 255 octets, or RFC 3597 hex. */
function bigData(type: string, octets: number, seed: number): string {
  const fill = String.fromCharCode(97 + (seed % 26));
  if (type !== 'TXT') return `\\# ${octets} ${fill.charCodeAt(0).toString(16).repeat(octets)}`;
  const strings: string[] = [];
  for (let left = octets; left > 0;) {
    const size = Math.min(left, 256);
    strings.push(`"${fill.repeat(size - 1)}"`);
    left -= size;
  }
  return strings.join(' ');
}
