// The parser's shortcuts must give what the general rules give: the key filter that skips
// look-ups, the in-place date readers, the in-place name-server and status readers, and the
// single pass over the reply. Each is checked against an independent statement of the rule.
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import {
  FIELD_KEYS,
  FIELDS,
  hasReadings,
  keyInfo,
  FACT_ACTION_SHIFT,
  FACT_CONTACT_BLOCK,
  FACT_DOMAIN_KEY,
  FACT_NS_KEY,
  FACT_REGISTRAR_KEY,
  FACT_SECTION_MASK,
  FACT_SECTION_SHIFT,
  FACT_SLOT_MASK,
  frontSlotOf,
  keyFactsAt,
  keyInfoAt,
  mayBeField,
  NO_SLOT,
  REGISTRAR_ACTIONS,
  SECTION_KINDS,
  SLOT,
  STORE_WORDS,
  type KeyInfo,
} from '../../../../src/engine/whois/keys';
import { codeUnits } from '../../../../src/engine/whois/chars';
import { normalizeDate } from '../../../../src/engine/whois/dates';
import { bracketedLine, readRecords, tabbedLine } from '../../../../src/engine/whois/reader';
import { emptyRecord, setField } from '../../../../src/engine/whois/record';
import { corpusAvailable, loadReplies } from '../../../support/whois-corpus';
import { parseOrThrow } from '../../../support/whois-parse';

const SEPARATORS = [' ', '.', '_', '-', '/', '(', ')', '[', ']', '  ', ' - ', '\t'];

/** A registry's spelling of a normalised key: any case, any separators, maybe a number. */
const spelling = (key: string): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.array(fc.boolean(), { minLength: key.length, maxLength: key.length }),
      fc.array(fc.constantFrom(...SEPARATORS), { minLength: 8, maxLength: 8 }),
      fc.constantFrom('', ' 1', ' 12', '.', '-'),
    )
    .map(([upper, seps, tail]) => {
      let i = 0;
      const words = key
        .split(' ')
        .map((w) => [...w].map((c) => (upper[i++] ? c.toUpperCase() : c)).join(''));
      return words.map((w, n) => (n === 0 ? w : `${seps[n % seps.length]}${w}`)).join('') + tail;
    });

/** Instants whose year has four digits, a day from either end of them (any zone keeps them so). */
const fourDigitYears = fc.date({
  min: new Date(Date.UTC(1000, 0, 2)),
  max: new Date(Date.UTC(9999, 11, 30)),
  noInvalidDate: true,
});

describe('whois parser shortcuts', function () {
  it("stores each field at its slot: SLOT is the index in FIELDS, and every key's slot its field's", function () {
    // SLOT is written out so its entries are constants; a field missing or misplaced there
    // would put a value where build() reads another field.
    assert.deepEqual(Object.keys(SLOT), [...FIELDS]);
    for (const [i, field] of FIELDS.entries()) assert.equal(SLOT[field], i, field);
    for (const [key, field] of FIELD_KEYS) assert.equal(keyInfo(key).slot, SLOT[field], key);
    assert.equal(keyInfo('no such key at all').slot, NO_SLOT);
    const rec = readRecords(
      FIELDS.map((field) => {
        const key = [...FIELD_KEYS].find(([, f]) => f === field)![0];
        return `${key}: ${field === 'ns' ? 'ns1.example.net' : `value of ${field}`}`;
      }).join('\n'),
    )[0];
    for (const field of FIELDS) {
      if (field === 'status' || field === 'ns') continue;
      assert.equal(rec.fields[SLOT[field]], `value of ${field}`, field);
    }
    assert.deepEqual(rec.ns, ['ns1.example.net']);
    // a phrase of letters is one status, written without spaces
    assert.deepEqual(rec.status, ['valueofstatus']);
  });

  it('never filters out a key that fills a field', function () {
    const keys = [...FIELD_KEYS.keys()];
    fc.assert(
      fc.property(
        fc.constantFrom(...keys).chain(spelling),
        (raw) =>
          keyInfo(raw).field === undefined ||
          mayBeField(codeUnits(raw), 0, raw.length) ||
          hasReadings(raw, 0, raw.length),
      ),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30 }),
        (raw) =>
          keyInfo(raw).field === undefined ||
          mayBeField(codeUnits(raw), 0, raw.length) ||
          hasReadings(raw, 0, raw.length),
      ),
      { numRuns: 3000 },
    );
    for (const key of keys) assert.ok(mayBeField(codeUnits(key), 0, key.length), key);
  });

  it('looks a key up in place exactly as keyInfo reads its text', function () {
    // Spellings of one key that differ in one character, and more keys than the table's
    // slots: each must still get its own answer, also when they alternate or are evicted.
    const keys = [...FIELD_KEYS.keys()];
    const collide = ['Name Server', 'Name Sxrver', 'Nxme Server', 'Registrar', 'Registrxr'];
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom(...keys).chain(spelling),
            fc.constantFrom(...collide),
            fc.string({ maxLength: 60 }),
          ),
          { minLength: 1, maxLength: 8 },
        ),
        fc.string({ maxLength: 3 }),
        (raws, pad) => {
          for (const raw of [...raws, ...raws.reverse()]) {
            const line = `${pad}${raw}${pad}`;
            const got = keyInfoAt(line, pad.length, pad.length + raw.length, codeUnits(line));
            assert.deepEqual(got, keyInfo(raw));
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('tells apart keys that share a slot and differ only in their last code unit or length', function () {
    // The table compares keys two code units a word: a compare that stopped a word short, or
    // read an odd key's last word with the unit after it, would answer for the wrong key only
    // when both keys hash to the same slots, so such keys are searched for here.
    const lookUp = (raw: string): KeyInfo => keyInfoAt(raw, 0, raw.length, codeUnits(raw));
    const sameSlot = (make: (c: number) => string): [string, string] => {
      const seen = new Map<number, string>();
      for (let c = 0; c < 0x10000; c++) {
        const key = make(c);
        const slot = frontSlotOf(key);
        const other = seen.get(slot);
        // keys that read alike ("Registrar", "RegistraR") would not show a wrong answer
        if (other !== undefined && !isDeepStrictEqual(keyInfo(other), keyInfo(key))) {
          return [other, key];
        }
        seen.set(slot, key);
      }
      throw new Error('no two keys share a slot');
    };
    const pairs: Array<[string, string]> = [
      // odd length: the last word is one unit
      sameSlot((c) => `Registra${String.fromCharCode(c)}`),
      // even length: the last word's high half differs
      sameSlot((c) => `Name Serve${String.fromCharCode(c)}`),
      // a low half differs in a word before the last
      sameSlot((c) => `Dom${String.fromCharCode(c)}in Status`),
    ];
    // the same words, one unit longer: "key" and "key\0"
    for (let n = 0; pairs.length < 4 && n < 1_000_000; n++) {
      const key = `Key ${n}`;
      // an odd length: the key's last word and the longer key's are the same
      if (key.length % 2 === 1 && frontSlotOf(key) === frontSlotOf(`${key}\0`)) {
        pairs.push([key, `${key}\0`]);
      }
    }
    assert.equal(pairs.length, 4);
    for (const [a, b] of pairs) {
      for (const raw of [a, b, a, b, b, a]) {
        assert.deepEqual(lookUp(raw), keyInfo(raw), raw);
        assert.equal(keyFactsAt(raw, 0, raw.length, codeUnits(raw)), keyInfo(raw).facts, raw);
      }
    }
  });

  it('answers as keyInfo before and after its store of keys fills and starts again', function () {
    // Keys of 48 units (24 words, the longest the table holds), more than the store takes:
    // the table empties once (or more) on the way, and every key is looked up again after.
    const lookUp = (raw: string): KeyInfo => keyInfoAt(raw, 0, raw.length, codeUnits(raw));
    const known = ['Domain Name', 'Registrar', 'Name Server', 'Creation Date'];
    const count = Math.ceil(STORE_WORDS / 24) + 50;
    const keys: string[] = [];
    for (let n = 0; n < count; n++)
      keys.push(`Key ${String(n).padStart(6, '0')} ${'x'.repeat(37)}`);
    for (const raw of known) assert.deepEqual(lookUp(raw), keyInfo(raw), raw);
    for (const raw of keys) assert.deepEqual(lookUp(raw), keyInfo(raw), raw);
    for (const raw of [...known, ...keys.slice(0, 60), ...keys.slice(-60), ...known]) {
      assert.deepEqual(lookUp(raw), keyInfo(raw), raw);
      assert.equal(keyFactsAt(raw, 0, raw.length, codeUnits(raw)), keyInfo(raw).facts, raw);
    }
  });

  it("packs a key's facts so that each reads back as its KeyInfo says, in the table and out", function () {
    const raws = [
      ...FIELD_KEYS.keys(),
      'Registrar',
      'Sponsoring Registrar',
      'Name Servers',
      'Domain Status',
      'Relevant dates',
      'Domain Information',
      'DNSSEC',
      'Admin Contact',
      'nic-hdl',
      'person',
      'Server Name',
      'Name',
      'Organization',
      'Referral URL',
      'IANA ID',
      'Whois Server',
      'Registrar IANA ID',
      'Registrar URL',
      'Estado / Status',
      'Servidores de nombre (Domain servers)',
      'NOTICE',
      'x'.repeat(60),
    ];
    for (const raw of raws) {
      const info = keyInfo(raw);
      for (const facts of [info.facts, keyFactsAt(raw, 0, raw.length, codeUnits(raw))]) {
        assert.equal((facts & FACT_SLOT_MASK) - 1, info.slot, raw);
        assert.equal(
          SECTION_KINDS[(facts & FACT_SECTION_MASK) >> FACT_SECTION_SHIFT],
          info.section,
          raw,
        );
        assert.equal((facts & FACT_CONTACT_BLOCK) !== 0, info.contactBlock, raw);
        assert.equal((facts & FACT_NS_KEY) !== 0, info.nsKey, raw);
        assert.equal((facts & FACT_DOMAIN_KEY) !== 0, info.domainKey, raw);
        assert.equal((facts & FACT_REGISTRAR_KEY) !== 0, info.key === 'registrar', raw);
        assert.equal(REGISTRAR_ACTIONS[facts >>> FACT_ACTION_SHIFT], info.registrar, raw);
      }
    }
  });

  it('filters contact keys out, so they are not looked up', function () {
    for (const raw of ['Admin Name', 'Tech Email', 'Billing Phone', 'NOTICE', 'Phone', 'e-mail']) {
      assert.equal(mayBeField(codeUnits(raw), 0, raw.length), false, raw);
    }
  });

  it('reads ISO dates in place as the calendar says', function () {
    const zones: Array<[string, number]> = [
      ['Z', 0],
      ['', 0],
      ['+00:00', 0],
      ['-0700', -420],
      ['+05:30', 330],
      ['+0845', 525],
      ['-03', -180],
      ['+14:00', 840],
    ];
    fc.assert(
      fc.property(
        fourDigitYears,
        fc.constantFrom('T', ' ', '-T'),
        fc.constantFrom('', '.5', ',123', '.000001'),
        fc.constantFrom(...zones),
        (date, sep, fraction, [zone, minutes]) => {
          const wall = new Date(Math.floor(date.getTime() / 1000) * 1000);
          const text = wall.toISOString().slice(0, 19).replace('T', sep);
          const iso = normalizeDate(`${text}${fraction}${zone}`);
          const want = new Date(wall.getTime() - minutes * 60_000).toISOString();
          return iso === `${want.slice(0, -5)}Z`;
        },
      ),
      { numRuns: 3000 },
    );
    assert.equal(normalizeDate('2023-02-29'), undefined);
    assert.equal(normalizeDate('2024-02-29'), '2024-02-29T00:00:00Z');
    assert.equal(normalizeDate('2024-04-31T00:00:00Z'), undefined);
    assert.equal(normalizeDate('2024-01-31T23:00:00-0100'), '2024-02-01T00:00:00Z');
    assert.equal(normalizeDate('2024-01-01T00:00:00+15:00'), undefined);
    assert.equal(normalizeDate('2024-01-01T24:00:00Z'), '2024-01-02T00:00:00Z');
    assert.equal(normalizeDate('0999-12-31T23:00:00-0200'), '1000-01-01T01:00:00Z');
    assert.equal(normalizeDate('31-jul-2023'), '2023-07-31T00:00:00Z');
    assert.equal(normalizeDate('31-Abc-2023'), undefined);
    assert.equal(normalizeDate('31-Jun-2023'), undefined);
  });

  it('reads "DD-Mon-YYYY", with a time and a zone name, in place as the calendar says', function () {
    const MONTHS = [
      'jan',
      'feb',
      'mar',
      'apr',
      'may',
      'jun',
      'jul',
      'aug',
      'sep',
      'oct',
      'nov',
      'dec',
    ];
    const zones: Array<[string, number | undefined]> = [
      ['', 0],
      [' UTC', 0],
      [' gmt', 0],
      [' Z', 0],
      [' CET', 60],
      [' EEST', 180],
      [' CST', undefined], // two meanings: no date
      [' XYZ', undefined],
    ];
    fc.assert(
      fc.property(
        fourDigitYears,
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        fc.constantFrom('none', 'minutes', 'seconds'),
        fc.constantFrom(...zones),
        (date, upper, time, [zone, minutes]) => {
          const wall = new Date(Math.floor(date.getTime() / 60_000) * 60_000);
          const month = [...MONTHS[wall.getUTCMonth()]]
            .map((c, i) => (upper[i] ? c.toUpperCase() : c))
            .join('');
          const iso = wall.toISOString();
          const clock = time === 'none' ? '' : ` ${iso.slice(11, time === 'minutes' ? 16 : 19)}`;
          const at = time === 'none' ? new Date(iso.slice(0, 10)) : wall;
          const text = `${iso.slice(8, 10)}-${month}-${iso.slice(0, 4)}${clock}${time === 'none' ? '' : zone}`;
          const read = normalizeDate(text);
          if (time !== 'none' && minutes === undefined) return read === undefined;
          const want = new Date(at.getTime() - (time === 'none' ? 0 : minutes!) * 60_000);
          return read === `${want.toISOString().slice(0, -5)}Z`;
        },
      ),
      { numRuns: 3000 },
    );
    assert.equal(normalizeDate('31-Feb-2023 10:00:00 UTC'), undefined);
    assert.equal(normalizeDate('26-Mar-2002 06:48:27  UTC'), '2002-03-26T06:48:27Z');
    assert.equal(normalizeDate('0500-01-01'), '0500-01-01T00:00:00Z');
  });

  it('reads dates in numbers ("2004/10/30", "22.10.2010 10:20", "11/08/2008") in place as the calendar says', function () {
    fc.assert(
      fc.property(
        fourDigitYears,
        fc.constantFrom('year first', 'day first'),
        fc.constantFrom('/', '.', '-'),
        fc.constantFrom('', ' HH:MM', ' HH:MM:SS'),
        fc.constantFrom('unknown', 'dmy', 'mdy'),
        (date, layout, sep, time, order) => {
          const iso = new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString();
          const [y, mo, d] = [iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10)];
          const clock = time === '' ? '' : ` ${iso.slice(11, time === ' HH:MM' ? 16 : 19)}`;
          const hms =
            time === '' ? '00:00:00' : time === ' HH:MM' ? `${clock.slice(1)}:00` : clock.slice(1);
          const want = `${iso.slice(0, 10)}T${hms}Z`;
          if (layout === 'year first') {
            // "YYYY-MM-DD" is ISO's, read as such
            return normalizeDate(`${y}${sep}${mo}${sep}${d}${clock}`, order) === want;
          }
          const read = normalizeDate(`${d}${sep}${mo}${sep}${y}${clock}`, order);
          // with slashes the order is the reply's; both readings dates and no order said: none
          if (sep !== '/' || +d > 12 || d === mo) return read === want;
          if (order === 'dmy') return read === want;
          const swapped = normalizeDate(`${y}-${d}-${mo}${clock}`);
          return order === 'mdy' ? read === swapped : read === undefined;
        },
      ),
      { numRuns: 3000 },
    );
    assert.equal(normalizeDate('11/08/2008'), undefined);
    assert.equal(normalizeDate('11/08/2008', 'mdy'), '2008-11-08T00:00:00Z');
    assert.equal(normalizeDate('11/18/2008'), '2008-11-18T00:00:00Z');
    assert.equal(normalizeDate('2008.02.30'), undefined);
    assert.equal(normalizeDate('30-02-2008 10:00'), undefined);
  });

  it('tries only the date readers a value can open like', function () {
    // The digits a value opens with (none, one or two, four, eight or more) pick the regexes
    // tried; each spelling below is one that only its own regex reads.
    const cases: Array<[string, string | undefined]> = [
      ['2003-11-07 12:00:00 CET', '2003-11-07T11:00:00Z'], // four digits, "-": ISO_LIKE
      ['2003/11/07 12:00:00 (JST)', '2003-11-07T03:00:00Z'], // four digits, "/": YMD_DOTS
      ['2001-Aug-23.', '2001-08-23T00:00:00Z'], // four digits, "-", a month: YMD_TEXT
      ['2003 November 7', '2003-11-07T00:00:00Z'], // four digits, a space: YMD_TEXT
      ['7.11.2003', '2003-11-07T00:00:00Z'], // one digit: DMY_NUM
      ['07-Nov-2003 12:00:00 UTC', '2003-11-07T12:00:00Z'], // two digits, "-", a month: DMY_TEXT
      ['7th November 2003', '2003-11-07T00:00:00Z'], // one digit, letters: DMY_TEXT
      ['Friday, 7 Nov 2003', '2003-11-07T00:00:00Z'], // a weekday: DMY_TEXT
      ['November 7, 2003', '2003-11-07T00:00:00Z'], // letters: MDY_TEXT
      ['Thu Aug 05 2004', '2004-08-05T00:00:00Z'], // a weekday, a month: MDY_TEXT
      ['Tue Mar 03 12:00:00 GMT 2020', '2020-03-03T12:00:00Z'], // letters, a time: CTIME
      ['20031107T120000Z', '2003-11-07T12:00:00Z'], // eight digits: COMPACT
      ['200311071', undefined], // nine digits and nothing else
      ['123-11-2003', undefined], // three digits: no reader
      ['20031-11-07', undefined], // five digits: no reader
      ['-2003-11-07', undefined], // a sign: no reader
    ];
    for (const [raw, want] of cases) assert.equal(normalizeDate(raw), want, raw);
  });

  it('reads name servers and statuses in place', function () {
    const got = parseOrThrow(
      [
        'Domain Name: EXAMPLE.COM',
        'Domain Status: clientTransferProhibited https://icann.org/epp#clientTransferProhibited',
        'Domain Status: ACTIVE, Not Delegated',
        'Name Server: 192.0.2.1 NS1.EXAMPLE.COM.',
        'Name Server: [OK] ns2.example.com, ns3.example.com',
        'Name Server: ns..bad.com',
        'Name Server: ns.\u212Aelvin.com',
        'Name Server: ns.ex\u00e4mple.com ns4.example.com',
        '',
      ].join('\n'),
    );
    assert.deepEqual(got.domain.status, ['clienttransferprohibited', 'active', 'notdelegated']);
    // The Kelvin sign lower-cases to an ASCII k, so that word is a host name; "ä" never is.
    assert.deepEqual(got.domain.name_servers, [
      'ns1.example.com',
      'ns2.example.com',
      'ns.kelvin.com',
      'ns4.example.com',
    ]);
  });

  it("cuts statuses and name servers from the line's code units as the string rules read them", function () {
    // The rules as plain string code: parts split at commas, each trimmed; a part of one word,
    // or a word and a URL, is its first word lower-cased; a part of several words is split at
    // " / ", each piece without its remarks ("(...)", " - ...", a URL), and the piece's words
    // joined lower-cased when they are up to four words of letters and no sentence (a final
    // full stop), else its first word unless it is "no" or "none". For the name servers, the
    // first word of the value (or of a zone line's server after " NS ") that lower-cases to a
    // host name.
    const statuses = (value: string): string[] => {
      const out: string[] = [];
      const add = (token: string): void => {
        if (!out.includes(token)) out.push(token);
      };
      for (const part of value.split(/,\s*/)) {
        const v = part.trim();
        if (v === '') continue;
        const words = v.split(/\s+/);
        if (words.length === 1 || /^https?:/i.test(words[1])) {
          add(words[0].toLowerCase());
          continue;
        }
        for (const piece of v.split(/\s+\/\s+/)) {
          const bare = piece
            .replace(/\s+-(\s.*)?$/, '')
            // brackets and URLs in the order they come
            .replace(/\s*\([^)]*\)|\s+https?:\/\/\S*/gi, '')
            .trim();
          if (bare === '') continue;
          const ws = bare.split(/\s+/);
          const phrase =
            ws.length <= 4 && !bare.endsWith('.') && ws.every((w) => /^\p{L}[\p{L}_-]*$/u.test(w));
          const token = (phrase ? ws.join('') : ws[0]).toLowerCase();
          if (phrase || (token !== 'no' && token !== 'none')) add(token);
        }
      }
      return out;
    };
    const servers = (value: string): string[] => {
      const ns = value.indexOf('NS');
      const zone = ns > 0 && /\s/.test(value[ns - 1]) ? /\sNS\s+(\S+)/.exec(value) : null;
      for (const word of (zone ? zone[1] : value).split(/[\s,]+/)) {
        let host = word.toLowerCase();
        if (host.endsWith('.')) host = host.slice(0, -1);
        if (/^[a-z0-9_-]+(\.[a-z0-9_-]+)+$/.test(host) && !/^[\d.]+$/.test(host)) return [host];
      }
      return [];
    };
    const piece = fc.constantFrom(
      'ns1.example.com',
      'NS2.EXAMPLE.NET.',
      'NS',
      ' NS ',
      'example.pt NS ',
      ' ',
      ',',
      ', ',
      '192.0.2.1',
      '\u00a0',
      '\u212A',
      'é',
      '名',
      'not delegated',
      'Not Delegated',
      'CLIENT',
      ' HOLD',
      'A',
      'ok',
      'clientHold',
      'https://icann.org/epp#ok',
      '..',
      '.',
      '-',
      '_',
      '[OK]',
      ' / ',
      '(Expired)',
      ' - ',
      'in quarantine',
      'pending Delete',
      'No status listed.',
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 10 }), (parts) => {
        const value = parts.join('');
        if (value.trim() === '') return;
        // a "key: value" line, read from the reply's units
        const text = `Domain Name: example.com\nName Server: ${value}\nDomain Status: ${value}\n`;
        const rec = readRecords(text)[0];
        assert.deepEqual(rec.ns, servers(value.trim()), value);
        assert.deepEqual(rec.status, statuses(value.trim()), value);
        // a value given as a string (a bare line under a heading, a continuation line)
        const alone = emptyRecord();
        setField(alone, SLOT.ns, value);
        setField(alone, SLOT.status, value);
        assert.deepEqual(alone.ns, servers(value), value);
        assert.deepEqual(alone.status, statuses(value), value);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps a WHOIS server only where the value names a host or a URL', function () {
    const server = (value: string): string | undefined =>
      parseOrThrow(
        `Domain Name: example.ch\nCreation Date: 2001-01-01\nRegistrar WHOIS Server: ${value}\n`,
      ).domain.whois_server;
    assert.equal(server('whois.example.net'), 'whois.example.net');
    assert.equal(server('whois://whois.example.net'), 'whois.example.net');
    assert.equal(server('https://dns.pl/en/whois'), 'https://dns.pl/en/whois');
    // a sentence (SWITCH's "whois:" line), a placeholder, an operator's name: no server
    assert.equal(server('This information is subject to an Acceptable Use Policy.'), undefined);
    assert.equal(server('not defined'), undefined);
    assert.equal(server('NIRA'), undefined);
    assert.equal(server('@ CoCCA'), undefined);
  });

  it('leaves out a value that says there is none, and reads a YAML tag as no value', function () {
    const nominet = parseOrThrow(
      [
        'Domain name: example.co.uk',
        'Registered on: 01-Jan-2001',
        'Registrar:',
        '    No registrar listed.  This domain is registered directly with Nominet.',
        '',
      ].join('\n'),
    );
    assert.equal(nominet.registrar.name, undefined);
    const iedr = parseOrThrow(
      'Domain Name: example.ie\nCreation Date: 2001-01-01\nRegistrar IANA ID: not applicable\n',
    );
    assert.equal(iedr.registrar.id, undefined);
    // words that only start like such a value are a name
    const named = (name: string): string | undefined =>
      parseOrThrow(`Domain Name: example.ie\nCreation Date: 2001-01-01\nRegistrar: ${name}\n`)
        .registrar.name;
    assert.equal(named('Nonesuch Registrar Ltd'), 'Nonesuch Registrar Ltd');
    assert.equal(named('No-IP.com'), 'No-IP.com');
    assert.equal(named('N/A'), undefined);
    // SMALLREGISTRY's replies are YAML: "registrar: !Registrar" heads the registrar's block
    const yaml = parseOrThrow(
      [
        '--- !Domain ',
        'name: example.fr',
        'created: "2011-01-13T15:45:18+01:00"',
        'registrar: !Registrar ',
        '  name: EXAMPLE REGISTRAR',
        '  web: http://registrar.example',
        'registrant: !Contact ',
        '  nic-handle: FBB1-SMALL',
        '  name: A HOLDER',
        '',
      ].join('\n'),
    );
    assert.equal(yaml.registrar.name, 'EXAMPLE REGISTRAR');
    assert.equal(yaml.registrar.referral_url, 'http://registrar.example');
  });

  it('reads a status of several words whole, as the contract writes it, never as its first word', function () {
    // Before, every part was cut to its first word: SIDN's "in quarantine" gave "in".
    const cases: Array<[string, string[]]> = [
      ['in quarantine', ['inquarantine']],
      ['pending delete', ['pendingdelete']],
      ['CLIENT DELETE PROHIBITED', ['clientdeleteprohibited']],
      ['pendingDelete / redemptionPeriod', ['pendingdelete', 'redemptionperiod']],
      ['serverHold (Expired)', ['serverhold']],
      ['ok - Normal state.', ['ok']],
      ['clientHold https://icann.org/epp#clientHold', ['clienthold']],
      // a sentence is its first word (Nominet)
      ['Registered until expiry date.', ['registered']],
      ['OK-UNTIL 20140903121852', ['ok-until']],
      // a sentence saying there is none is none (Nominet)
      ['No registration status listed.', []],
    ];
    for (const [value, want] of cases) {
      const rec = readRecords(`Domain Name: example.nl\nStatus: ${value}\n`)[0];
      assert.deepEqual(rec.status, want, value);
    }
  });

  it('reads the statuses of several lines, the comma search shared between them', function () {
    // A status line's rest is searched for its comma once per reply, and the place found kept
    // for the lines after it: lines with and without commas, statuses given as bare lines
    // under a heading between them (searched in their own strings) and a reply read before,
    // must give what each line read alone gives.
    const value = fc.constantFrom(
      'ok',
      'clientHold https://icann.org/epp#clientHold',
      'ACTIVE, Not Delegated',
      ' , inactive,, ',
      'serverHold https://icann.org/epp#serverHold, ok',
      'CLIENT DELETE PROHIBITED',
      'é, ok',
    );
    const alone = (v: string): string[] => {
      const rec = emptyRecord();
      setField(rec, SLOT.status, v);
      return rec.status;
    };
    fc.assert(
      fc.property(
        fc.array(fc.tuple(value, fc.boolean()), { minLength: 1, maxLength: 6 }),
        (lines) => {
          const text = lines
            .map(([v, bare]) => (bare ? `Status:\n  ${v}\n` : `Domain Status: ${v}\n`))
            .join('');
          readRecords('Domain Status: x, y\n'.repeat(3));
          const want: string[] = [];
          for (const [v] of lines)
            for (const s of alone(v.trim())) if (!want.includes(s)) want.push(s);
          assert.deepEqual(readRecords(`Domain Name: example.com\n${text}`)[0].status, want, text);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('reads a list of bare name servers in place as the string rules read them', function () {
    // The rule as plain string code: a list marker and its spaces off, the first word, when it
    // is two or more labels of [a-z0-9_-] (maybe the root's dot after them), read as a value.
    const listed = (line: string): string[] => {
      const item = line.replace(/^[-*]\s+/, '');
      const word = item.split(/\s/)[0];
      if (!/^[a-z0-9_-]+(\.[a-z0-9_-]+)+\.?$/i.test(word)) return [];
      const rec = emptyRecord();
      setField(rec, SLOT.ns, word);
      return rec.ns;
    };
    const piece = fc.constantFrom(
      'ns1.example.com',
      'NS2.EXAMPLE.NET.',
      '192.0.2.1',
      '-',
      '*',
      ' ',
      '\u00a0',
      '.',
      '..',
      'é',
      '\u212A',
      '_x',
      'a',
      '[OK]',
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 8 }), (parts) => {
        const line = parts.join('').trim();
        // a colon makes a key line, a star a comment, dashes alone a ruler: none is listed
        if (line === '' || line.includes(':') || line.startsWith('*') || /^-{3,}$/.test(line)) {
          return;
        }
        const rec = readRecords(`Domain Name: example.com\nName Servers:\n  ${line}\n`)[0];
        assert.deepEqual(rec.ns, listed(line), line);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps four keys that share a set of slots, and answers for a fifth as keyInfo', function () {
    const lookUp = (raw: string): number => keyFactsAt(raw, 0, raw.length, codeUnits(raw));
    const sharing = (): string[] => {
      const bySet = new Map<number, string[]>();
      for (let n = 0; ; n++) {
        const key = `Domain Status ${n}`;
        const set = frontSlotOf(key);
        const keys = bySet.get(set) ?? [];
        keys.push(key);
        bySet.set(set, keys);
        if (keys.length === 5) return keys;
      }
    };
    const shared = sharing();
    for (let round = 0; round < 3; round++) {
      for (const raw of shared) assert.equal(lookUp(raw), keyInfo(raw).facts, raw);
      for (const raw of shared.slice(1)) assert.equal(lookUp(raw), keyInfo(raw).facts, raw);
    }
  });

  it('tells a value from none where the line ends in a colon', function () {
    const read = (line: string) => readRecords(`Domain Name: example.com\n${line}\n`)[0].fields;
    // "Key: :" and "Key:   :  " are empty (the doubled colon); a value may end in a colon
    assert.equal(read('Registrar: :')[SLOT.registrar], undefined);
    assert.equal(read('Registrar:   :  ')[SLOT.registrar], undefined);
    assert.equal(read('Registrar: ACME:')[SLOT.registrar], 'ACME:');
    assert.equal(read('Registrar: : ACME')[SLOT.registrar], 'ACME');
    assert.equal(read('Registrar:   ACME   ')[SLOT.registrar], 'ACME');
  });

  it('reads a reply beyond 64K characters (its own copy of code units) as a short one', function () {
    if (!corpusAvailable()) this.skip();
    // A comment line past 64K characters leaves the data as it is: the reader copies such a
    // reply's code units into an array of its own, a shorter one into the shared buffer.
    const filler = `\n%${'x'.repeat(70_000)}\n`;
    for (const reply of loadReplies('noterror')) {
      const short = parseOrThrow(reply.text, { domain: reply.domain });
      const long = parseOrThrow(`${reply.text}${filler}`, { domain: reply.domain });
      assert.deepEqual(
        { domain: long.domain, registrar: long.registrar },
        { domain: short.domain, registrar: short.registrar },
        reply.file,
      );
    }
  });

  it('reads a bracketed line in place as the regex reads it', function () {
    const BRACKETED = /^(?:[a-z]\.\s*)?\[(\S[^\]]{0,59})\]\s*(.*)$/i;
    const piece = fc.constantFrom(
      '[',
      ']',
      ' ',
      '\t',
      '\r',
      '\u2028',
      '\u00a0',
      'a.',
      'B.',
      '.',
      'Domain Name',
      'x',
      ':',
      '://',
      'é',
      '名',
    );
    const check = (line: string): void => {
      const m = BRACKETED.exec(line);
      assert.deepEqual(bracketedLine(line), m ? { key: m[1], value: m[2] } : undefined, line);
    };
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (parts) => check(parts.join(''))),
      {
        numRuns: 5000,
      },
    );
    // the key's limit: one character and 59 more before the "]"
    for (const n of [58, 59, 60, 61]) check(`[K${'k'.repeat(n)}]  value`);
    for (const line of [
      '[Domain Name]   EXAMPLE.JP',
      'a. [Domain Name] x',
      '[]] x',
      '[ notice ]',
    ]) {
      check(line);
    }
  });

  it('reads a line with a tab in place as the rewrite reads it', function () {
    // SWITCH's "Holder of domain name<tab>x", TRABIS' "NIC Handle<tab><tab>: x": the key up to
    // the first tab (no ":" or "." in it), the value after the tabs.
    const TABBED = /^(\s*)(\S[^\t:]*?)\t+(.+)$/;
    const piece = fc.constantFrom(
      '\t',
      ' ',
      ':',
      '.',
      '\r',
      '\u2028',
      '\u00a0',
      'Key',
      'x',
      'ns1.example.ch',
      'é',
      '名',
    );
    const check = (line: string): void => {
      const m = TABBED.exec(line.trimEnd());
      const want = m && !/[:.]/.test(m[2]) ? { key: m[2], value: m[3] } : undefined;
      assert.deepEqual(tabbedLine(line), want, JSON.stringify(line));
    };
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => check(parts.join(''))),
      {
        numRuns: 5000,
      },
    );
    for (const line of ['NIC Handle\t\t: mi154-metu', '  Holder\tGoogle Inc.', 'a.b\tc', '\tx']) {
      check(line);
    }
  });

  it('reads a reply the same whatever reply was read before it', function () {
    // The reader peeks a few characters past a line's end ("://" after a colon, "a. [" and
    // "Record " at a line's start); at the reply's end it must see nothing there, not what a
    // longer reply left in the shared buffer of code units. Each reply is read after one of
    // slashes, after one of letters and spaces, and alone: a key colon at the very end
    // ("Name Server:" opening a list) is a key only if no "//" is seen after it.
    const parts = [
      'Domain Name:',
      'Name Server:',
      'Registrar:',
      ' ',
      '\n',
      ':',
      'example.com',
      'ns1.example.net',
      '[Domain Name]',
      'a. [',
      'Record ',
      'R',
      '/',
      '//',
      '\t',
      '.',
    ];
    const read = (text: string) => JSON.stringify(readRecords(text));
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...parts), { maxLength: 12 }), (words) => {
        const text = words.join('');
        const alone = read(text);
        readRecords(`Registrar URL: ${'/'.repeat(text.length + 16)}`);
        assert.equal(read(text), alone);
        readRecords(`Domain Name: ${'Record a. [ '.repeat(text.length)}`);
        assert.equal(read(text), alone);
        readRecords(`x${'\0'.repeat(text.length + 16)}`);
        assert.equal(read(text), alone);
      }),
      { numRuns: 3000 },
    );
    // A list opened by the reply's last line, then a slash-filled reply before it.
    readRecords(`Registrar URL: ${'/'.repeat(64)}`);
    const rec = readRecords('Domain Name: example.com\nName Server:')[0];
    assert.equal(rec.fields[SLOT.domain], 'example.com');
  });

  it('reads the fields after a long colon-free stretch (a reply at the 1 MB cap)', function () {
    // The colon search is shared between lines; the fields at the very end must still be found.
    const prose = 'lorem ipsum\n'.repeat(80_000);
    const got = parseOrThrow(`${prose}Domain Name: example.com\nName Server: ns1.example.com\n`);
    assert.deepEqual(got.domain.name_servers, ['ns1.example.com']);
    assert.equal(got.domain.domain, 'example.com');
  });
});

describe('whois reply classification: lines folded once, patterns in lower case', () => {
  it('reads a line in any letter case, in every script the patterns cover', async () => {
    const { classifyReply } = await import('../../../../src/engine/whois/reply');
    const cases: Array<[string, string]> = [
      ['NO MATCH FOR "EXAMPLE.TEST".', 'not_found'],
      ['% ДОМЕН НЕ НАЙДЕН', 'not_found'],
      ['Domain Status: NOT FOUND', 'not_found'],
      ['ERROR: Too Many Requests, slow down', 'rate_limited'],
      ['Zu Viele Anfragen von Ihrer Adresse', 'rate_limited'],
      ['DOMAIN IS RESERVED BY THE REGISTRY', 'reserved'],
      // refusals and waits of servers in no corpus, by their meaning
      ['Query refused.', 'rate_limited'],
      ['Your request has been temporarily rejected', 'rate_limited'],
      ['Please try again in 60 seconds', 'rate_limited'],
      ['Requête refusée : trop de connexions', 'rate_limited'],
      ['Ihre Anfrage wurde abgelehnt', 'rate_limited'],
      ['Su consulta ha sido rechazada', 'rate_limited'],
      ['Запрос отклонен, повторите попытку позже', 'rate_limited'],
      ['查询被拒绝，请稍后再试', 'rate_limited'],
      ['アクセスが拒否されました', 'rate_limited'],
      ['요청이 거부되었습니다', 'rate_limited'],
    ];
    for (const [line, kind] of cases) {
      assert.equal(classifyReply(`Header\n${line}\n`)?.kind, kind, line);
      // the line reported is the server's own, not the folded copy
      assert.equal(classifyReply(`${line}\n`)?.line, line.replace(/^% /, ''), line);
    }
  });
});
