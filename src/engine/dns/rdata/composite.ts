// Field kinds of the older and rarer types whose presentation and wire forms differ in shape:
// one token that is several wire fields (an ATM or NSAP address), fields whose form depends on
// the field before them (the gateway of IPSECKEY, the relay of AMTRELAY, the suffix of A6), and
// lists (APL items, WKS ports, NXT types). Each follows its RFC, and refuses what BIND 9.18
// refuses, in both directions (text and wire).
import type { FieldCodec } from './field-codec';
import { ipv6Text, readIPv4, readIPv6 } from './addresses';
import { name } from './name-field';
import { fail, NoPresentation, type TokenReader, type WireReader } from './reader';
import { servicePortByName } from './services';
import { coveredType, typeMnemonic } from './types';
import { WireWriter } from './writer';

/** Where `json` and `value` let `print` write the wire form they do not keep. */
const discard = new WireWriter();

/** A codec whose JSON value and value are its printed text. */
function printedText(codec: Pick<FieldCodec, 'read' | 'print'>): FieldCodec {
  const text = (w: WireReader) => {
    discard.reset();
    return codec.print(w, discard);
  };
  return {
    ...codec,
    value: text,
    json(w, record, key) {
      record[key] = text(w);
    },
  };
}

const HEX_DIGIT = /^[0-9a-fA-F]$/;

/** A decimal number token of at most `max`, or the failure BIND gives. */
function decimal(r: TokenReader, what: string, max: number): number {
  const at = r.index;
  const text = r.next(what).text;
  if (!/^\d+$/.test(text)) fail('bad-number', `${what} "${text}" is not a number`, at);
  if (Number(text) > max)
    fail('bad-number', `${what} ${text} is out of range (at most ${max})`, at);
  return Number(text);
}

/**
 * RFC 1706 section 5: an NSAP address is "0x" and an even number of hex digits, dots allowed
 * anywhere between them for readability.
 */
const nsap = printedText({
  read(r, out) {
    const at = r.index;
    const text = r.next('an NSAP address').text;
    const digits = text.slice(2).replace(/\./g, '');
    if (!/^0x/i.test(text) || !/^([0-9a-fA-F]{2})+$/.test(digits)) {
      fail('bad-nsap', `"${text}" is not 0x and pairs of hex digits`, at);
    }
    out.octets(Buffer.from(digits, 'hex'));
    return `0x${digits.toLowerCase()}`;
  },
  print(w, out) {
    const rest = w.rest();
    if (rest.length === 0) w.malformed('an empty NSAP address');
    out.octets(rest);
    return `0x${Buffer.from(rest).toString('hex')}`;
  },
});

/**
 * ATM Forum af-dans-0152.000 (the ATMA type): "+" and E.164 digits (format 1), or an AESA in
 * hex digit pairs (format 0); single dots may separate digits, not lead or trail.
 */
const atma = printedText({
  read(r, out) {
    const at = r.index;
    const text = r.next('an ATM address').text;
    const e164 = text.startsWith('+');
    const body = e164 ? text.slice(1) : text;
    const digit = e164 ? /^[0-9]$/ : HEX_DIGIT;
    const parts = body.split('.');
    const joined = parts.join('');
    if (
      parts.some((p) => p === '') ||
      ![...joined].every((c) => digit.test(c)) ||
      (!e164 && joined.length % 2 !== 0)
    ) {
      fail('bad-atma', `"${text}" is not +E.164 digits or AESA hex pairs`, at);
    }
    out.u8(e164 ? 1 : 0);
    out.octets(e164 ? Buffer.from(joined, 'latin1') : Buffer.from(joined, 'hex'));
    return e164 ? `+${joined}` : joined.toLowerCase();
  },
  print(w, out) {
    const format = w.u8('the ATM address format');
    const rest = w.rest();
    if (rest.length === 0) w.malformed('an empty ATM address');
    if (format === 1 && !rest.every((c) => c >= 0x30 && c <= 0x39)) {
      w.malformed('an E.164 ATM address of other than digits');
    }
    if (format > 1) throw new NoPresentation();
    out.u8(format);
    out.octets(rest);
    const bytes = Buffer.from(rest);
    return format === 1 ? `+${bytes.toString('latin1')}` : bytes.toString('hex');
  },
});

/**
 * RFC 2874 section 3.1: prefix length, the address suffix (the octets past the prefix, its bits
 * of the prefix zero) unless the length is 128, the prefix name unless it is 0. BIND clears the
 * prefix's bits rather than refuse them, and prints two blanks where a 128 has no suffix.
 */
const a6 = printedText({
  read(r, out) {
    const length = decimal(r, 'the A6 prefix length', 128);
    out.u8(length);
    let text = `${length} `;
    if (length !== 128) {
      const at = r.index;
      const address = r.next('the A6 address suffix').text;
      const bytes = Buffer.alloc(16);
      if (readIPv6(address, bytes, 0) === undefined) {
        fail('bad-address', `"${address}" is not an IPv6 address`, at);
      }
      text += suffix(bytes, length, out);
    }
    if (length === 0) return text;
    return `${text} ${name.read(r, out)}`;
  },
  print(w, out) {
    const length = w.u8('the A6 prefix length');
    if (length > 128) w.malformed(`A6 prefix length ${length}`);
    out.u8(length);
    let text = `${length} `;
    if (length !== 128) {
      const octets = 16 - (length >> 3);
      const bytes = Buffer.alloc(16);
      bytes.set(w.take(octets, 'the A6 address suffix'), 16 - octets);
      text += suffix(bytes, length, out);
    }
    if (length === 0) return text;
    return `${text} ${name.print(w, out)}`;
  },
});

/** The suffix of a 16-octet address past `length` bits into `out`, and the address's text. */
function suffix(bytes: Buffer, length: number, out: WireWriter): string {
  const first = length >> 3;
  bytes.fill(0, 0, first);
  bytes[first] &= 0xff >> (length & 7);
  out.octets(bytes.subarray(first));
  return ipv6Text(bytes);
}

/**
 * RFC 3123 section 4: items `[!]afi:address/prefix`, address family 1 (IPv4) or 2 (IPv6); on
 * the wire the address without its trailing zero octets.
 */
const apl = printedText({
  read(r, out) {
    const items: string[] = [];
    while (!r.done()) {
      const at = r.index;
      const text = r.next('an APL item').text;
      const m = /^(!?)(\d+):([^/]*)\/(\d+)$/.exec(text);
      if (m === null) fail('bad-apl', `"${text}" is not [!]afi:address/prefix`, at);
      const family = Number(m[2]);
      if (family !== 1 && family !== 2) {
        fail('bad-apl', `address family ${m[2]} is not 1 (IPv4) or 2 (IPv6)`, at);
      }
      const size = family === 1 ? 4 : 16;
      const bytes = Buffer.alloc(size);
      const ok = family === 1 ? readIPv4(m[3], bytes, 0) : readIPv6(m[3], bytes, 0) !== undefined;
      if (!ok) fail('bad-address', `"${m[3]}" is not an address of family ${family}`, at);
      const prefix = Number(m[4]);
      if (prefix > size * 8) fail('bad-apl', `prefix /${m[4]} is longer than the address`, at);
      let used = size;
      while (used > 0 && bytes[used - 1] === 0) used--;
      out.u16(family);
      out.u8(prefix);
      out.u8((m[1] === '!' ? 0x80 : 0) | used);
      out.octets(bytes.subarray(0, used));
      items.push(aplText(m[1] === '!', family, prefix, bytes));
    }
    return items.join(' ');
  },
  print(w, out) {
    const items: string[] = [];
    const from = w.at;
    while (!w.done()) {
      const family = w.u16('the APL address family');
      const prefix = w.u8('the APL prefix');
      const negation = w.u8('the APL address length');
      const used = negation & 0x7f;
      const part = w.take(used, 'the APL address');
      if (family !== 1 && family !== 2) throw new NoPresentation();
      const size = family === 1 ? 4 : 16;
      if (prefix > size * 8) w.malformed(`APL prefix /${prefix}`);
      if (used > size) w.malformed(`an APL address of ${used} octets`);
      if (used > 0 && part[used - 1] === 0) w.malformed('an APL address with trailing zeros');
      const bytes = Buffer.alloc(size);
      bytes.set(part);
      items.push(aplText((negation & 0x80) !== 0, family, prefix, bytes));
    }
    out.octets(w.message.subarray(from, w.at));
    return items.join(' ');
  },
});

function aplText(negated: boolean, family: number, prefix: number, bytes: Buffer): string {
  const address = family === 1 ? [...bytes].join('.') : ipv6Text(bytes);
  return `${negated ? '!' : ''}${family}:${address}/${prefix}`;
}

/**
 * IP protocols by the names WKS may give them (RFC 1010's "Assigned Numbers", as the system's
 * protocols file spells them; BIND asks getprotobyname, which matches case exactly).
 */
const PROTOCOLS: Record<string, number> = {
  ip: 0,
  IP: 0,
  icmp: 1,
  ICMP: 1,
  igmp: 2,
  IGMP: 2,
  tcp: 6,
  TCP: 6,
  egp: 8,
  EGP: 8,
  udp: 17,
  UDP: 17,
};

/** A WKS service: a port number, or a name of the services table for the record's protocol. */
function servicePort(text: string, protocol: number): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  return servicePortByName(text, protocol);
}

const proto: FieldCodec = {
  read(r, out) {
    const at = r.index;
    const text = r.next('the protocol').text;
    const number = /^\d+$/.test(text) ? Number(text) : PROTOCOLS[text];
    if (number === undefined) fail('bad-wks', `unknown protocol "${text}"`, at);
    if (number > 255) fail('bad-wks', `protocol ${text} is out of range (at most 255)`, at);
    out.u8(number);
    return String(number);
  },
  print(w, out) {
    const number = w.u8('the protocol');
    out.u8(number);
    return String(number);
  },
  json(w, record, key) {
    record[key] = w.u8('the protocol');
  },
  value: (w) => w.u8('the protocol'),
};

/**
 * A list as one bit map, bit n for number n, to the last octet with a bit set (no trailing
 * zero octet: BIND refuses one on the wire): WKS's ports, NXT's types.
 */
function flatBitmap(spec: {
  what: string;
  /** the highest number the map may hold */
  max: number;
  /** a token's number, or why it is none; `previous` is the octet written before the map */
  parse(text: string, previous: number): number | { code: string; message: string };
  text(value: number): string;
}): FieldCodec {
  const listText = (bitmap: ArrayLike<number>) => {
    const items: string[] = [];
    for (let i = 0; i < bitmap.length * 8; i++) {
      if (bitmap[i >> 3] & (0x80 >> (i & 7))) items.push(spec.text(i));
    }
    return items.join(' ');
  };
  return printedText({
    read(r, out) {
      const previous = out.buffer[out.length - 1];
      const bitmap: number[] = [];
      while (!r.done()) {
        const at = r.index;
        const text = r.next(spec.what).text;
        const value = spec.parse(text, previous);
        if (typeof value !== 'number') fail(value.code, value.message, at);
        if (value > spec.max) {
          fail('bad-number', `${spec.what} ${text} is out of range (at most ${spec.max})`, at);
        }
        while (bitmap.length <= value >> 3) bitmap.push(0);
        bitmap[value >> 3] |= 0x80 >> (value & 7);
      }
      out.octets(bitmap);
      return listText(bitmap);
    },
    print(w, out) {
      const bitmap = w.rest();
      if (bitmap.length > (spec.max + 8) >> 3) w.malformed(`a bit map past ${spec.max}`);
      if (bitmap.length > 0 && bitmap[bitmap.length - 1] === 0) {
        w.malformed('a bit map with a trailing zero octet');
      }
      out.octets(bitmap);
      return listText(bitmap);
    },
  });
}

/**
 * RFC 1035 section 3.4.2: WKS's services, a port or a name registered for the protocol (the
 * octet before the map).
 */
const wksPorts = flatBitmap({
  what: 'port',
  max: 65535,
  parse: (text, protocol) =>
    servicePort(text, protocol) ?? {
      code: 'bad-wks',
      message:
        `unknown service "${text}"${protocol === 6 ? ' for TCP' : protocol === 17 ? ' for UDP' : ''}: ` +
        "BIND looks service names up in its server's services file, and HostLens knows the " +
        'names common to all of them; write the port number, which reads the same everywhere',
    },
  text: String,
});

/** RFC 2535 section 5.2: NXT's types, 1 to 127 (the map has no room for more). */
const nxtTypes = flatBitmap({
  what: 'type',
  max: 127,
  parse(text) {
    const code = coveredType(text);
    return typeof code === 'number' ? code : { code: 'unknown-type', message: code.failure };
  },
  text: typeMnemonic,
});

/**
 * A gateway or relay by its type (RFC 4025 section 2.5, RFC 8777 section 4.2.3): 0 none ("."),
 * 1 an IPv4 address, 2 an IPv6 address, 3 a domain name (uncompressed).
 */
function readGateway(r: TokenReader, out: WireWriter, type: number): string {
  const at = r.index;
  if (type === 3) return name.read(r, out);
  const text = r.next('the gateway').text;
  if (type === 0) {
    if (text !== '.') fail('bad-gateway', `gateway type 0 takes ".", not "${text}"`, at);
    return '.';
  }
  const canonical =
    type === 1
      ? readIPv4(text, out.buffer, out.reserve(4)) && text
      : readIPv6(text, out.buffer, out.reserve(16));
  if (canonical === undefined || canonical === false) {
    fail('bad-address', `"${text}" is not an IPv${type === 1 ? 4 : 6} address`, at);
  }
  return canonical;
}

function printGateway(w: WireReader, out: WireWriter, type: number): string {
  if (type === 0) return '.';
  if (type === 3) return name.print(w, out);
  const bytes = w.take(type === 1 ? 4 : 16, 'the gateway');
  out.octets(bytes);
  return type === 1 ? bytes.join('.') : ipv6Text(bytes);
}

/** RFC 4025 section 2: gateway type (0 to 3), algorithm, gateway. */
const ipseckeyGateway = printedText({
  read(r, out) {
    const type = decimal(r, 'the gateway type', 255);
    if (type > 3) fail('bad-gateway', `gateway type ${type} is not 0 to 3`, r.index - 1);
    const algorithm = decimal(r, 'the algorithm', 255);
    out.u8(type);
    out.u8(algorithm);
    return `${type} ${algorithm} ${readGateway(r, out, type)}`;
  },
  print(w, out) {
    const type = w.u8('the gateway type');
    const algorithm = w.u8('the algorithm');
    if (type > 3) w.malformed(`gateway type ${type}`);
    out.u8(type);
    out.u8(algorithm);
    return `${type} ${algorithm} ${printGateway(w, out, type)}`;
  },
});

/**
 * RFC 8777 section 4: the discovery-optional bit (0 or 1), the relay type (0 to 3 in text; a
 * later type read from the wire BIND keeps, printed in the RFC 3597 form) and the relay.
 */
const amtRelay = printedText({
  read(r, out) {
    const discovery = decimal(r, 'the discovery-optional flag', 1);
    const type = decimal(r, 'the relay type', 127);
    if (type > 3) fail('bad-gateway', `relay type ${type} is not 0 to 3`, r.index - 1);
    out.u8((discovery << 7) | type);
    return `${discovery} ${type} ${readGateway(r, out, type)}`;
  },
  print(w, out) {
    const octet = w.u8('the relay type');
    const type = octet & 0x7f;
    if (type > 3) throw new NoPresentation();
    out.u8(octet);
    return `${octet >> 7} ${type} ${printGateway(w, out, type)}`;
  },
});

/**
 * RFC 8005 section 5: algorithm, HIT (hex), public key (base64), rendezvous servers; on the
 * wire HIT length, algorithm, key length, HIT, key, servers.
 */
const hip = printedText({
  read(r, out) {
    const algorithm = decimal(r, 'the algorithm', 255);
    let at = r.index;
    const hitText = r.next('the HIT').text;
    if (!/^([0-9a-fA-F]{2})+$/.test(hitText) || hitText.length > 510) {
      fail('bad-hex', `bad HIT "${hitText}"`, at);
    }
    at = r.index;
    const keyText = r.next('the public key').text;
    if (!/^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(keyText)) {
      fail('bad-base64', 'bad base64 data', at);
    }
    const hit = Buffer.from(hitText, 'hex');
    const key = Buffer.from(keyText, 'base64');
    if (key.length === 0 || key.length > 65535) fail('bad-base64', 'bad public key length', at);
    out.u8(hit.length);
    out.u8(algorithm);
    out.u16(key.length);
    out.octets(hit);
    out.octets(key);
    const servers: string[] = [];
    while (!r.done()) servers.push(name.read(r, out));
    return hipText(algorithm, hit, key, servers);
  },
  print(w, out) {
    const hitLength = w.u8('the HIT length');
    const algorithm = w.u8('the algorithm');
    const keyLength = w.u16('the key length');
    if (hitLength === 0 || keyLength === 0) w.malformed('an empty HIT or key');
    const hit = w.take(hitLength, 'the HIT');
    const key = w.take(keyLength, 'the public key');
    out.u8(hitLength);
    out.u8(algorithm);
    out.u16(keyLength);
    out.octets(hit);
    out.octets(key);
    const servers: string[] = [];
    while (!w.done()) servers.push(name.print(w, out));
    return hipText(algorithm, Buffer.from(hit), Buffer.from(key), servers);
  },
});

function hipText(algorithm: number, hit: Buffer, key: Buffer, servers: string[]): string {
  const head = `${algorithm} ${hit.toString('hex').toUpperCase()} ${key.toString('base64')}`;
  return servers.length === 0 ? head : `${head} ${servers.join(' ')}`;
}

export const COMPOSITE_CODECS = {
  nsap,
  atma,
  a6,
  apl,
  proto,
  'wks-ports': wksPorts,
  'nxt-types': nxtTypes,
  'ipseckey-gateway': ipseckeyGateway,
  'amt-relay': amtRelay,
  hip,
} satisfies Record<string, FieldCodec>;
