// Presentation text of record data of every type of the table, from a seed: valid data from
// the field kinds (kept to the rules across fields that BIND checks), and data broken in one
// place. The type-table round trip and the zone differential against BIND both write theirs
// with it.
import { serviceNames } from '../../src/engine/dns/rdata/services';
import { TYPES, type FieldKind } from '../../src/engine/dns/rdata/types';

export type Random = () => number;

export const int = (r: Random, min: number, max: number) => min + Math.floor(r() * (max - min + 1));
export const pick = <T>(r: Random, items: readonly T[]): T => items[int(r, 0, items.length - 1)];
export const bytes = (r: Random, n: number) =>
  Buffer.from(Array.from({ length: n }, () => int(r, 0, 255)));

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-';
// Label octets written escaped: every one RFC 1035 section 5.1 gives a meaning (BIND prints them
// `\X`), non-printable ones, an escaped letter and digit (printed plain) and an escaped plain
// character
const LABEL_ESCAPES = [
  ...['\\.', '\\;', '\\"', '\\(', '\\)', '\\\\', '\\@', '\\$'],
  ...['\\032', '\\200', '\\000', '\\127', '\\065', '\\057', '\\a', '\\-'],
];
// Label octets written as they are, after a label's first (where `$` would start a directive,
// `@` be the origin, `*` a wildcard, `#` the RFC 3597 form): printed plain by BIND but `@` and
// `$`, which BIND escapes; and UTF-8, printed `\DDD`
const LABEL_PLAIN = [..."@$!#%&'*+,/:<=>?[]^_`{|}~", 'é'];

/** A label as a zone file may write it, with the escapes and odd octets above now and then. */
export function label(r: Random): string {
  let out = '';
  const length = int(r, 1, 12);
  for (let i = 0; i < length; i++) {
    const roll = r();
    if (roll < 0.08) out += pick(r, LABEL_ESCAPES);
    else if (roll < 0.12 && i > 0) out += pick(r, LABEL_PLAIN);
    else out += LETTERS[int(r, 0, LETTERS.length - 2)];
  }
  return out;
}

export function name(r: Random): string {
  const roll = r();
  if (roll < 0.1) return '@';
  if (roll < 0.15) return '.';
  const labels = Array.from({ length: int(r, 1, 3) }, () => label(r)).join('.');
  return roll < 0.5 ? labels : `${labels}.${pick(r, ['example.', 'test.', 'Example.ORG.'])}`;
}

function quoted(r: Random, max: number): string {
  let out = '';
  const length = int(r, 0, max);
  for (let i = 0; i < length; i++) {
    const roll = r();
    if (roll < 0.05) out += '\\"';
    else if (roll < 0.1) out += '\\\\';
    else if (roll < 0.15) out += `\\${String(int(r, 0, 255)).padStart(3, '0')}`;
    else if (roll < 0.2) out += ' ';
    else out += String.fromCharCode(int(r, 0x21, 0x7e)).replace(/["\\]/, 'x');
  }
  return `"${out}"`;
}

/** Splits text in two tokens now and then (base64 and hex may be written in pieces). */
function pieces(r: Random, text: string): string {
  if (text.length < 8 || r() < 0.5) return text;
  const at = int(r, 1, text.length - 1);
  return `${text.slice(0, at)} ${text.slice(at)}`;
}

function ipv6(r: Random): string {
  // now and then an address BIND prints with an IPv4 tail (mapped, compatible)
  if (r() < 0.1) return pick(r, ['::ffff:', '::']) + bytes(r, 4).join('.');
  const groups = ['2001', 'db8'];
  for (let i = 0; i < 6; i++) groups.push(r() < 0.4 ? '0' : int(r, 1, 0xffff).toString(16));
  return groups.join(':');
}

/**
 * Types of the table registered after BIND 9.18 (and Knot 3.2): the BIND differentials leave
 * them out and check that BIND still calls them unknown; their own tests hold them to their
 * registrations.
 */
export const NOT_IN_BIND_918 = new Set(['CLA', 'IPN']);

/** WKS service names the table has for TCP. */
const TCP_SERVICES = [...serviceNames()]
  .filter(([, lines]) => lines.some((l) => l.protocols.includes('t')))
  .map(([name]) => name);

/** Mnemonics the generated data names (bit maps, covered types): those BIND 9.18 knows. */
export const TYPE_NAMES = Object.keys(TYPES).filter((t) => !NOT_IN_BIND_918.has(t));

function sigTime(r: Random): string {
  // 2030 to 2037: in the future and inside the 32-bit range
  const seconds = int(r, 1893456000, 2145916800);
  if (r() < 0.2) return String(seconds);
  return new Date(seconds * 1000).toISOString().replace(/[-T:]/g, '').slice(0, 14);
}

function svcParams(r: Random): string {
  const params: string[] = [];
  if (r() < 0.5) params.push(`alpn=${pick(r, ['h2', 'h3', '"h2,h3"', 'http/1.1'])}`);
  if (params.length > 0 && r() < 0.3) params.push('no-default-alpn');
  if (r() < 0.5) params.push(`port=${int(r, 1, 65535)}`);
  if (r() < 0.4) {
    const n = int(r, 1, 3);
    params.push(`ipv4hint=${Array.from({ length: n }, () => bytes(r, 4).join('.')).join(',')}`);
  }
  if (r() < 0.3) params.push(`ech=${bytes(r, int(r, 1, 20)).toString('base64')}`);
  if (r() < 0.3) params.push(`ipv6hint=${ipv6(r)}`);
  if (r() < 0.3) params.push(`key${int(r, 9, 65279)}=${quoted(r, 10)}`);
  // RFC 9461 (BIND prints it key7) and RFC 9540's key 8, written as BIND 9.18 reads them
  if (r() < 0.2) params.push(pick(r, ['dohpath=/dns-query{?dns}', 'dohpath="/q{?dns,x}"']));
  if (r() < 0.1) params.push('key8');
  if (params.length > 1 && r() < 0.3) {
    const key = params[int(r, 0, params.length - 1)].split('=')[0];
    if (key !== 'no-default-alpn') params.push(`mandatory=${key}`);
  }
  for (let i = params.length - 1; i > 0; i--) {
    const j = int(r, 0, i);
    [params[i], params[j]] = [params[j], params[i]];
  }
  return params.join(' ');
}

function loc(r: Random): string {
  const coordinate = (max: number, hemispheres: string) =>
    `${int(r, 0, max - 1)} ${int(r, 0, 59)} ${int(r, 0, 59)}.${String(int(r, 0, 999)).padStart(3, '0')} ${pick(r, [...hemispheres])}`;
  const altitude = `${int(r, -10000, 100000)}.${String(int(r, 0, 99)).padStart(2, '0')}m`;
  const size = () => pick(r, ['0.50m', '1m', '10m', '100m', '2000m', '30000m', '0.01m']);
  return `${coordinate(90, 'NS')} ${coordinate(180, 'EW')} ${altitude} ${size()} ${size()} ${size()}`;
}

/** Presentation text of one field of `kind`. */
export function field(r: Random, kind: FieldKind): string {
  switch (kind) {
    case 'u8':
      return String(int(r, 0, 255));
    case 'u16':
    case 'port':
      return String(int(r, 0, 65535));
    case 'u32':
      return String(int(r, 0, 4294967295));
    case 'u64': {
      // decimal, or the high and low halves joined by a dot (IPN's two forms)
      const [high, low] = [int(r, 0, 4294967295), int(r, 0, 4294967295)];
      if (r() < 0.3) return `${high}.${low}`;
      return ((BigInt(high) << 32n) | BigInt(low)).toString();
    }
    case 'ttl':
      return r() < 0.2 ? `${int(r, 1, 9)}h${int(r, 1, 59)}m` : String(int(r, 0, 2147483647));
    case 'caa-flags':
      return pick(r, ['0', '128']);
    case 'alg':
    case 'alg-name':
      return pick(r, ['8', '13', '15', 'ECDSAP256SHA256', 'rsasha256']);
    case 'ipv4':
      return bytes(r, 4).join('.');
    case 'ipv6':
      return ipv6(r);
    case 'name':
      return name(r);
    case 'string':
      return quoted(r, 40);
    case 'strings':
      return Array.from({ length: int(r, 1, 3) }, () => quoted(r, 60)).join(' ');
    case 'caa-tag':
      return pick(r, ['issue', 'issuewild', 'iodef', `tag${int(r, 0, 99)}`]);
    case 'caa-value':
      return quoted(r, 30);
    case 'uri-target':
      return `"https://${Array.from({ length: int(r, 1, 12) }, () => pick(r, [...'abcxyz019-'])).join('')}.example/${int(r, 0, 999)}"`;
    case 'base64':
      return pieces(r, bytes(r, int(r, 1, 64)).toString('base64'));
    case 'hex':
      return pieces(r, bytes(r, int(r, 1, 40)).toString('hex'));
    case 'salt':
      return r() < 0.3 ? '-' : bytes(r, int(r, 1, 8)).toString('hex');
    case 'b32hex':
      return base32hex(bytes(r, 20));
    case 'types': {
      const codes = new Set(Array.from({ length: int(r, 1, 6) }, () => pick(r, TYPE_NAMES)));
      if (r() < 0.3) codes.add(`TYPE${int(r, 260, 65534)}`);
      return [...codes].join(' ');
    }
    case 'time':
      return sigTime(r);
    case 'type':
      return r() < 0.2 ? `TYPE${int(r, 260, 65534)}` : pick(r, TYPE_NAMES);
    case 'svcparams':
      return svcParams(r);
    case 'loc':
      return loc(r);
    case 'string-opt':
      return r() < 0.4 ? '' : quoted(r, 20);
    case 'ilnp64':
      return Array.from({ length: 4 }, () =>
        int(r, 0, 0xffff)
          .toString(16)
          .padStart(int(r, 1, 4), '0'),
      ).join(':');
    case 'eui48':
    case 'eui64':
      return [...bytes(r, kind === 'eui48' ? 6 : 8)]
        .map((b) => b.toString(16).padStart(2, '0'))
        .map((h) => (r() < 0.2 ? h.toUpperCase() : h))
        .join('-');
    case 'base64-opt':
      return r() < 0.2 ? '' : bytes(r, int(r, 1, 40)).toString('base64');
    case 'date':
      return new Date(int(r, 1893456000, 2145916800) * 1000)
        .toISOString()
        .replace(/[-T:]/g, '')
        .slice(0, 14);
    case 'cert-type':
      return pick(r, ['PKIX', 'PGP', 'ipgp', 'URI', 'OID', String(int(r, 0, 65535))]);
    case 'sig-type':
      return r() < 0.2 ? String(int(r, 260, 65534)) : pick(r, TYPE_NAMES);
    case 'hex-upper':
      return pieces(r, bytes(r, int(r, 1, 30)).toString('hex'));
    case 'base64-dash':
      return r() < 0.3 ? '-' : pieces(r, bytes(r, int(r, 1, 40)).toString('base64'));
    case 'dsync-scheme':
      return pick(r, ['NOTIFY', 'notify', '1', String(int(r, 0, 255))]);
    case 'nsap':
      return `0x${dotted(r, bytes(r, int(r, 1, 20)).toString('hex'))}`;
    case 'atma':
      return r() < 0.5
        ? `+${dotted(r, String(int(r, 1, 999999999999)))}`
        : dotted(r, bytes(r, int(r, 1, 20)).toString('hex'));
    case 'a6': {
      const length = pick(r, [0, 128, int(r, 0, 128)]);
      const parts = [String(length)];
      if (length !== 128) parts.push(ipv6(r));
      if (length !== 0) parts.push(name(r));
      return parts.join(' ');
    }
    case 'apl':
      return Array.from({ length: int(r, 0, 3) }, () => {
        const v4 = r() < 0.5;
        const address = v4 ? bytes(r, 4).join('.') : ipv6(r);
        return `${r() < 0.3 ? '!' : ''}${v4 ? 1 : 2}:${address}/${int(r, 0, v4 ? 32 : 128)}`;
      }).join(' ');
    case 'proto':
      return pick(r, ['tcp', 'udp', 'icmp', '6', '17', String(int(r, 0, 255))]);
    case 'wks-ports':
      return Array.from({ length: int(r, 0, 5) }, () => String(int(r, 0, 1100))).join(' ');
    case 'nxt-types': {
      const low = TYPE_NAMES.filter((t) => TYPES[t].code < 128);
      return Array.from({ length: int(r, 0, 5) }, () =>
        r() < 0.2 ? String(int(r, 1, 127)) : pick(r, low),
      ).join(' ');
    }
    case 'ipseckey-gateway': {
      const type = int(r, 0, 3);
      const gateway = [() => '.', () => bytes(r, 4).join('.'), () => ipv6(r), () => name(r)][type];
      return `${type} ${int(r, 0, 255)} ${gateway()}`;
    }
    case 'amt-relay': {
      const type = int(r, 0, 3);
      const relay = [() => '.', () => bytes(r, 4).join('.'), () => ipv6(r), () => name(r)][type];
      return `${int(r, 0, 1)} ${type} ${relay()}`;
    }
    case 'hip': {
      const servers = Array.from({ length: int(r, 0, 2) }, () => name(r));
      const hit = bytes(r, int(r, 1, 20)).toString('hex');
      const key = bytes(r, int(r, 1, 60)).toString('base64');
      return [String(int(r, 0, 255)), hit, key, ...servers].join(' ');
    }
  }
}

/** Hex or decimal digits with single dots here and there (never first or last). */
function dotted(r: Random, digits: string): string {
  let out = digits[0];
  for (let i = 1; i < digits.length; i++) out += (r() < 0.15 ? '.' : '') + digits[i];
  return out;
}

function base32hex(octets: Buffer): string {
  const digits = '0123456789abcdefghijklmnopqrstuv';
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const b of octets) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += digits[(acc >>> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
  }
  return bits > 0 ? out + digits[(acc << (5 - bits)) & 31] : out;
}

/**
 * Fields whose RFC ties them to another field (a digest's length to its type, a fingerprint's to
 * its type): the generated data keeps to those rules, as BIND checks them.
 */
export function constrained(r: Random, type: string, fields: string[]): string[] {
  const digest = (lengths: Record<string, number>, at: number) => {
    const key = pick(r, Object.keys(lengths));
    fields[at] = key;
    fields[at + 1] = bytes(r, lengths[key]).toString('hex');
  };
  switch (type) {
    case 'DS':
    case 'CDS':
    case 'TA':
    case 'DLV':
      digest({ 1: 20, 2: 32, 4: 48 }, 2);
      break;
    case 'ZONEMD':
      digest({ 1: 48, 2: 64, 240: 12 + int(r, 0, 40) }, 2);
      break;
    case 'SSHFP':
      digest({ 1: 20, 2: 32 }, 1);
      break;
    case 'TLSA':
    case 'SMIMEA':
      digest({ 0: 40, 1: 32, 2: 64 }, 2);
      break;
    case 'SVCB':
    case 'HTTPS':
      // ServiceMode (RFC 9460 section 2.4.3): AliasMode, priority 0, takes no parameters
      fields[0] = String(int(r, 1, 65535));
      break;
    case 'SIG':
      // BIND prints a SIG's covered type it has no mnemonic for as a bare number, not TYPEnnn
      // (RFC 3597 section 5); the generated SIGs keep to known types
      fields[0] = pick(r, ['A', 'NS', 'MX', 'TXT']);
      fields[2] = String(int(r, 5, 255));
      break;
    case 'RRSIG':
      // RFC 4035 section 5.3.1: the owner's labels are at least the signer's (at most 5 here)
      fields[2] = String(int(r, 5, 255));
      break;
    case 'NAPTR':
      // RFC 3403 section 4.1: flags from A-Z and 0-9; a regexp "delim ERE delim repl delim flags"
      fields[2] = `"${pick(r, ['', 'U', 'S', 'A', 'P', 'u'])}"`;
      fields[4] = pick(r, ['""', '"!^.*$!sip:info@example.com!"', '"/(.*)/\\\\1@example.net/i"']);
      break;
    case 'KEY':
      // RFC 2535 section 3.1.2: flags 0xC000 go without a key, all others with one
      if ((Number(fields[0]) & 0xc000) === 0xc000) fields[3] = '';
      else if (fields[3] === '') fields[3] = bytes(r, 8).toString('base64');
      fields[1] = '3';
      break;
    case 'KEYDATA':
      // as KEY's, three fields on: flags 0xC000 go without a key, all others with one
      if ((Number(fields[3]) & 0xc000) === 0xc000) fields[6] = '';
      else if (fields[6] === '') fields[6] = bytes(r, 8).toString('base64');
      break;
    case 'DNSKEY':
    case 'CDNSKEY':
      fields[1] = '3'; // RFC 4034 section 2.1.2: the protocol field is 3
      break;
    case 'RKEY':
      fields[0] = '0'; // the one flags value defined
      break;
    case 'WKS':
      // service names are the protocol's: TCP's here, any of the table's, now and then in capitals
      fields[1] = 'tcp';
      if (r() < 0.5) {
        const service = pick(r, TCP_SERVICES);
        fields[2] = `${fields[2]} ${r() < 0.2 ? service.toUpperCase() : service}`.trim();
      }
      break;
    case 'X25':
      // RFC 1183 section 3.1: decimal digits (BIND asks for 4 at least)
      fields[0] = `"${String(int(r, 1000, 99999999))}"`;
      break;
  }
  return fields;
}

/**
 * Presentation text of one field of `kind` broken the way people break it: a number past its
 * range or not a number, an address or encoding that does not read, a label or string over its
 * limit, a mnemonic that does not exist.
 */
export function badField(r: Random, kind: FieldKind): string {
  const long = (n: number) => 'x'.repeat(n);
  switch (kind) {
    case 'u8':
    case 'caa-flags':
    case 'dsync-scheme':
      return pick(r, ['256', '-1', 'x']);
    case 'u16':
    case 'port':
      return pick(r, ['65536', '1x']);
    case 'u32':
      return pick(r, ['4294967296', '1.5']);
    case 'u64':
      return pick(r, ['18446744073709551616', '1.2.3', '4294967296.0', '-1', '0x10']);
    case 'ttl':
      return pick(r, ['1x', '4294967296', '1h1']);
    case 'alg':
    case 'alg-name':
      return pick(r, ['NOSUCHALG', '256']);
    case 'ipv4':
      return pick(r, ['1.2.3.256', '1.2.3', '01.2.3.4', '1.2.3.4.5']);
    case 'ipv6':
      return pick(r, ['2001:db8::g', '2001:db8:::1', '1:2:3:4:5:6:7:8:9', '::1%eth0']);
    case 'name':
      return pick(r, [`${long(64)}.example.`, `${Array(5).fill(long(60)).join('.')}.`, 'a..b']);
    case 'string':
    case 'string-opt':
    case 'caa-value':
      return `"${long(256)}"`;
    case 'strings':
      return `"ok" "${long(256)}"`;
    case 'caa-tag':
      return pick(r, ['is-sue', '""']);
    case 'uri-target':
      return 'https://unquoted.example/';
    case 'base64':
    case 'base64-opt':
    case 'base64-dash':
      return pick(r, ['A', 'AAA', '!!!!']);
    case 'hex':
    case 'hex-upper':
      return pick(r, ['abc', 'zz', '0']);
    case 'salt':
      return pick(r, ['abc', 'xyz']);
    case 'b32hex':
      return pick(r, ['w', 'zzzz', '0']);
    case 'types':
    case 'type':
    case 'sig-type':
      return pick(r, ['NOSUCH', 'TYPE65536']);
    case 'time':
    case 'date':
      return pick(r, ['20301301000000', '2030', 'x']);
    case 'svcparams':
      return pick(r, ['nosuchkey=1', 'port=x', 'alpn', 'mandatory=mandatory']);
    case 'loc':
      return pick(r, ['91 0 0 N 0 0 0 E 0m', '1 2 3 X 0 0 0 E 0m', '1 N']);
    case 'ilnp64':
      return pick(r, ['1:2:3', '1:2:3:4:5', '12345:0:0:0']);
    case 'eui48':
      return pick(r, ['00-11-22', '00:11:22:33:44:55']);
    case 'eui64':
      return pick(r, ['00-11-22-33-44-55-66', '0-11-22-33-44-55-66-77']);
    case 'cert-type':
      return pick(r, ['NOSUCH', '65536']);
    case 'nsap':
      return pick(r, ['0x1', '47', '0x']);
    case 'atma':
      return pick(r, ['+1a', '1', '..39', '+']);
    case 'a6':
      return pick(r, ['129 :: a.', '64 pfx.', '0 ::1 extra.']);
    case 'apl':
      return pick(r, ['3:1.2.3.4/8', '1:1.2.3.0/33', '1:1.2.3.4', '2:1.2.3.4/8']);
    case 'proto':
      return pick(r, ['nosuchproto', '256', 'Tcp']);
    case 'wks-ports':
      return pick(r, ['65536', 'nosuchservice']);
    case 'nxt-types':
      return pick(r, ['TYPE200', 'NOSUCH', 'CAA']);
    case 'ipseckey-gateway':
      return pick(r, ['4 2 .', '0 2 gw.example.', '1 2 2001:db8::1', '2 2 192.0.2.1']);
    case 'amt-relay':
      return pick(r, ['2 0 .', '0 4 a.', '0 0 a.', '0 1 ::1']);
    case 'hip':
      return pick(r, ['2 zz AwEA', '2 - AwEA', '2 2001', '256 20 AwEA']);
  }
}
