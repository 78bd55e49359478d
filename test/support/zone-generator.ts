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
  }
  return { head, body };
}
