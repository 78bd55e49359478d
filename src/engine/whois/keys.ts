// What a WHOIS key means to the parser. Every question the reader asks about a key (which
// field it fills, whether it opens a section or a contact block, how a registrar block reads
// it) is answered once per distinct spelling and cached, so the per-line cost is one Map hit:
// the same few hundred spellings repeat across replies, and regex tests per line were most of
// the parse time.

import { codeUnits } from './chars';
import { FIELD_NAMES, type Field } from './tables/field-names';

export type { Field } from './tables/field-names';

/** Every field, in one place: a field's index here is its slot in a record's values (SLOT). */
export const FIELDS: readonly Field[] = [
  'ds',
  'domain',
  'id',
  'whois_server',
  'status',
  'ns',
  'dnssec',
  'created',
  'updated',
  'expires',
  'registrar',
  'registrar_current',
  'registrar_id',
  'registrar_handle',
  'registrar_url',
  'holder',
];

/**
 * Each field's slot in a record's values: its index in FIELDS. The reader fills a field named
 * by the key it meets, so the field is a value, not a property name in the code: an array read
 * at a number is one load, where an object read at a varying name was a dictionary-like look-up
 * (the engine's megamorphic path) on every field line. Written out, not derived from FIELDS, so
 * `SLOT.created` is a constant the compiler folds; a test holds the two in step.
 */
export const SLOT = {
  ds: 0,
  domain: 1,
  id: 2,
  whois_server: 3,
  status: 4,
  ns: 5,
  dnssec: 6,
  created: 7,
  updated: 8,
  expires: 9,
  registrar: 10,
  registrar_current: 11,
  registrar_id: 12,
  registrar_handle: 13,
  registrar_url: 14,
  holder: 15,
} as const satisfies Record<Field, number>;

/** No field: the slot of a key that fills none. */
export const NO_SLOT = -1;

/** A record's field values, each at its field's SLOT; undefined where the reply has none. */
export type FieldValues = Array<string | undefined>;

/** One value per field, none set: what a new record's values are copied from. */
const NO_VALUES: ReadonlyArray<string | undefined> = FIELDS.map(() => undefined);

export function emptyFields(): FieldValues {
  // A copy of a packed array is packed: its reads are not checked for holes, as they would be
  // on new Array(n).
  return NO_VALUES.slice();
}

export type SectionKind =
  'contact' | 'registrar' | 'ns' | 'status' | 'domain' | 'dates' | 'dnssec' | 'other';

/** How a line inside a registrar block or section is read; `overwrite` lets a later line win. */
export interface RegistrarAction {
  field: 'registrar' | 'registrar_id' | 'registrar_url' | 'whois_server';
  /** the field's SLOT */
  slot: number;
  overwrite: boolean;
}

export interface KeyInfo {
  /** lower case, dots/underscores/dashes/slashes/brackets as single spaces, no trailing index */
  key: string;
  /** the field a top-level "key: value" fills */
  field: Field | undefined;
  /** that field's SLOT, NO_SLOT for none */
  slot: number;
  /** the section a heading with this text opens */
  section: SectionKind | undefined;
  /** opens a RIPE-style contact object (skipped whole) when it starts a block */
  contactBlock: boolean;
  /** names a host inside a name-server section */
  nsKey: boolean;
  /** names the domain's own data (its name, dates, servers), not a contact's */
  domainKey: boolean;
  registrar: RegistrarAction | undefined;
  /** all of the above but `key` and `field`, packed (FACT_*) */
  facts: number;
}

// Keys are compared after normalising: lower case, dots/underscores/dashes as spaces. The table
// is tables/field-names.ts, one entry a field, in each language registries use.
const TOP_KEYS = new Map<string, Field>();
for (const [field, ...names] of FIELD_NAMES) for (const n of names) TOP_KEYS.set(n, field);

/** The normalised keys that fill a field (for tests of the look-up shortcuts). */
export const FIELD_KEYS: ReadonlyMap<string, Field> = TOP_KEYS;

// The first three characters of every field key (a key's end reads as a space), as a bitmap over
// ASCII triples: a top-level line whose key cannot start like one fills no field, and needs no
// look-up (half the lines of a gTLD reply are Admin/Tech/Billing contact lines). Three, not two:
// the synonyms of many languages start like English contact keys ("bitiş" and "billing"). Over
// a-z and space only (27 x 27 words of 27 bits, 3 KB, so it stays in cache); a key starting with
// anything else is never filtered.
const FIELD_STARTS = new Uint32Array(27 * 27);
/** a-z as 0-25, space as 26, anything else -1 */
function slot(c: number): number {
  return c >= 97 && c <= 122 ? c - 97 : c === 32 ? 26 : -1;
}
for (const key of TOP_KEYS.keys()) {
  const s0 = slot(key.charCodeAt(0));
  const s1 = slot(key.charCodeAt(1));
  const s2 = key.length > 2 ? slot(key.charCodeAt(2)) : 26;
  if (s0 >= 0 && s1 >= 0 && s2 >= 0) FIELD_STARTS[s0 * 27 + s1] |= 1 << s2;
}

/**
 * False when the raw key u[from, to) (code units), read as a whole, cannot normalise to a field key (its
 * other readings are hasReadings' question). Only ASCII letters,
 * digits, spaces and the separators normalizeKey turns into a space are judged; anything else
 * (and a key starting with a separator, which normalising shifts) may be a field key.
 */
export function mayBeField(u: Uint16Array, from: number, to: number): boolean {
  if (to - from < 2) return false;
  let c0 = u[from];
  if (c0 >= 65 && c0 <= 90) c0 += 32;
  else if (!(c0 >= 97 && c0 <= 122)) return true;
  let c1 = u[from + 1];
  if (c1 >= 65 && c1 <= 90) c1 += 32;
  else if (isSeparator(c1)) c1 = 32;
  else if (!(c1 >= 97 && c1 <= 122)) return true;
  let c2 = to - from > 2 ? u[from + 2] : 32;
  if (c2 >= 65 && c2 <= 90) c2 += 32;
  else if (isSeparator(c2)) c2 = 32;
  // a numbered key ("ns1", "nameserver2") is read unnumbered too
  else if (!(c2 >= 97 && c2 <= 122)) return true;
  const s1 = c1 === 32 ? 26 : c1 - 97;
  const s2 = c2 === 32 ? 26 : c2 - 97;
  if ((FIELD_STARTS[(c0 - 97) * 27 + s1] & (1 << s2)) === 0) {
    // An enumerated key ("a. Domain Name") is looked up.
    return c1 === 32 && u[from + 1] === 46;
  }
  // "Registrant Name", "Registrant Street", ...: a dozen contact lines in every gTLD reply start
  // like "Registrar" and "Registration date"; no field key starts with "registrant".
  return !(c0 === 114 && to - from > 10 && startsRegistrant(u, from));
}

function startsRegistrant(u: Uint16Array, from: number): boolean {
  // The last letter first: the keys this is asked about are mostly "Registrar ..." and
  // "Registry ...", which it tells apart there, not after comparing nine letters.
  if ((u[from + 9] | 32) !== 116) return false;
  for (let i = 0; i < 9; i++) if ((u[from + i] | 32) !== REGISTRANT[i]) return false;
  return true;
}

const REGISTRANT = [...'registrant'].map((c) => c.charCodeAt(0));

/**
 * True when the raw key str[from, to) has other readings (keyCandidates): a bilingual
 * "Estado / Status" or an aside "Servidores de nombre (Domain servers)". Such a key may fill a
 * field whatever mayBeField says of its start; the reader asks this only when mayBeField says no.
 */
export function hasReadings(str: string, from: number, to: number): boolean {
  for (let i = from + 1; i < to; i++) {
    const c = str.charCodeAt(i);
    if (c === 40 || (c === 47 && str.charCodeAt(i - 1) === 32)) return true;
  }
  return false;
}

/** What normalizeKey turns into a space: its separators ._-/()[] and ASCII whitespace. */
function isSeparator(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 46 ||
    c === 95 ||
    c === 45 ||
    c === 47 ||
    c === 40 ||
    c === 41 ||
    c === 91 ||
    c === 93
  );
}
function sectionKind(key: string): SectionKind | undefined {
  if (
    /^(registrar|sponsoring registrar|registrar information|registration service provider)$/.test(
      key,
    )
  )
    return 'registrar';
  if (
    /^((current|domain|registered|authoritative) )?(name ?servers?|nameservers?|domain ?name ?servers|domain servers|dns servers?|servers|dns|host ?names?)( information| in (the )?listed order| listed in order)?$/.test(
      key,
    ) ||
    /^(primary|secondary) name server$|^\d+(st|nd|rd|th) name server$/.test(key)
  )
    return 'ns';
  if (/^(registration status|domain status|status)$/.test(key)) return 'status';
  if (/^(domain name|domain)$/.test(key)) return 'domain';
  if (/^(relevant dates|dates|important dates)$/.test(key)) return 'dates';
  // A heading over the domain's own details ends the contact block before it.
  if (/^(domain|registration) (details|information|info|data)$/.test(key)) return 'other';
  if (key === 'dnssec') return 'dnssec';
  // Contacts, and parties that are not the registrar: a reseller ("Registered through:", the
  // heading Nominet's .uk replies give the reseller, whose URL is not the registrar's).
  if (
    /(registrant|admin|tech|billing|holder|contact|onsite|reseller|abuse|owner|organi[sz]ation|data validation|zone c|trademark|registry|ns keys|keys|registered for|registered through|titular|titulaire|contacto|contato|cobranza|responsável|responsable|entidade|inhaber|houder|abonent|владел|администр|联系人|注册人|登録者|등록인)/.test(
      key,
    )
  )
    return 'contact';
  return undefined;
}

function registrarActionOf(field: RegistrarAction['field'], overwrite: boolean): RegistrarAction {
  return Object.freeze({ field, slot: SLOT[field], overwrite });
}

/**
 * Every way a registrar block reads a line, one object each: a key's facts name one by its
 * index here (FACT_ACTION), index 0 for none.
 */
export const REGISTRAR_ACTIONS: ReadonlyArray<RegistrarAction | undefined> = [
  undefined,
  registrarActionOf('registrar', true),
  registrarActionOf('registrar_id', false),
  registrarActionOf('registrar_url', false),
  registrarActionOf('registrar', false),
  registrarActionOf('whois_server', false),
];

/** The index in REGISTRAR_ACTIONS of how a registrar block reads the key; 0 for not at all. */
function registrarActionIndex(key: string): number {
  if (/^(name|registrar|registrar name)$/.test(key)) return 1;
  if (key === 'registrar iana id') return 2;
  if (key === 'registrar url') return 3;
  if (/^(organi[sz]ation|org)$/.test(key)) return 4;
  if (/^(url|website|www|web|referral url|registration url|homepage)$/.test(key)) return 3;
  if (/^(iana id|id)$/.test(key)) return 2;
  if (/whois server/.test(key)) return 5;
  return 0;
}

// A key's facts packed in one integer, for the reader's walk: what a key line asks (its
// field's slot, the section it opens, whether it opens a contact object...) is a few bit tests
// on a number kept in the look-up table beside the key's place, not loads through the key's
// KeyInfo object somewhere else in the heap.
/** the field's SLOT plus one; 0 for no field */
export const FACT_SLOT_MASK = 31;
/** the section's index in SECTION_KINDS (0: none), from this bit, four bits */
export const FACT_SECTION_SHIFT = 5;
export const FACT_SECTION_MASK = 15 << FACT_SECTION_SHIFT;
export const FACT_CONTACT_BLOCK = 1 << 9;
export const FACT_NS_KEY = 1 << 10;
export const FACT_DOMAIN_KEY = 1 << 11;
/** the key is "registrar" itself */
export const FACT_REGISTRAR_KEY = 1 << 12;
/** the index in REGISTRAR_ACTIONS (0: none), from this bit */
export const FACT_ACTION_SHIFT = 13;

/** The sections a key's facts name, by index; index 0 is none. */
export const SECTION_KINDS: ReadonlyArray<SectionKind | undefined> = [
  undefined,
  'contact',
  'registrar',
  'ns',
  'status',
  'domain',
  'dates',
  'dnssec',
  'other',
];

export function normalizeKey(raw: string): string {
  return keyInfo(raw).key;
}

// Bounded: keys repeat across replies, but a hostile reply must not grow the cache forever.
const CACHE_LIMIT = 10000;
const cache = new Map<string, KeyInfo>();

/**
 * The readings of a raw key, most literal first, each normalised: the whole key; without an
 * enumeration ("a.", "1b.") or a trailing "#"; without parenthesised asides, and each aside;
 * each half of a bilingual "Estado / Status"; with numbered words unnumbered ("ns1 hostname").
 */
function keyCandidates(raw: string): string[] {
  const whole = normalise(raw);
  const out = [whole];
  const add = (text: string): void => {
    const key = normalise(text);
    if (key !== '' && !out.includes(key)) out.push(key);
  };
  // Each further reading only where its sign is present: most keys have none, and a miss in
  // the key cache (every distinct short line is asked as a heading) must stay cheap.
  let bare = raw;
  const last = raw.charCodeAt(raw.length - 1);
  if (ENUMERATED.test(raw) || last === 35 || last === 46) {
    bare = raw.replace(ENUMERATED, '').replace(/[\s#.]+$/, '');
    add(bare);
  }
  let plain = bare;
  if (bare.includes('(')) {
    plain = bare.replace(/\([^)]*\)/g, ' ');
    add(plain);
    for (const m of bare.matchAll(/\(([^)]*)\)/g)) add(m[1]);
  }
  if (plain.includes(' /')) for (const part of plain.split(/\s\/\s*/)) add(part);
  if (/[a-z]\d/.test(whole)) {
    for (const key of [...out]) {
      const unnumbered = key.replace(/([a-z])\d+\b/g, '$1');
      if (unnumbered !== key) add(unnumbered);
    }
  }
  return out;
}

const ENUMERATED = /^\s*(\d{1,2}[a-z]?|[a-z])\.\s+/i;

function normalise(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/[._\-/()[\]#’']+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/ \d+$/, '');
}

/** The section a key line without a value opens when it names a field of a list or a block. */
function fieldSection(field: Field | undefined): SectionKind | undefined {
  if (field === 'ns') return 'ns';
  if (field === 'status') return 'status';
  if (field === 'domain') return 'domain';
  if (field === 'registrar') return 'registrar';
  return undefined;
}

/** Everything the parser needs to know about a raw key (or a short bare line read as a heading). */
export function keyInfo(raw: string): KeyInfo {
  const hit = cache.get(raw);
  if (hit !== undefined) return hit;
  const candidates = keyCandidates(raw);
  let key = candidates[0];
  let field: Field | undefined;
  let section: SectionKind | undefined;
  for (const c of candidates) {
    const f = TOP_KEYS.get(c);
    if (f !== undefined && field === undefined) {
      field = f;
      key = c;
    }
    section ??= sectionKind(c) ?? fieldSection(f);
  }
  const slot = field === undefined ? NO_SLOT : SLOT[field];
  const contactBlock = /^(nic hdl|person|role|contact|holder c|admin c|tech c)$/.test(key);
  const nsKey = /^(host ?name|nserver|name ?server|ns|.* server|.* server (host ?name|name))$/.test(
    key,
  );
  const domainKey =
    (field !== undefined || section === 'ns') &&
    /\b(domain|record|dominio|domaine|domínio|domein|domäne|domena)\b/.test(key);
  const action = registrarActionIndex(key);
  const info: KeyInfo = {
    key,
    field,
    slot,
    section,
    contactBlock,
    nsKey,
    domainKey,
    registrar: REGISTRAR_ACTIONS[action],
    facts:
      (slot + 1) |
      (SECTION_KINDS.indexOf(section) << FACT_SECTION_SHIFT) |
      (contactBlock ? FACT_CONTACT_BLOCK : 0) |
      (nsKey ? FACT_NS_KEY : 0) |
      (domainKey ? FACT_DOMAIN_KEY : 0) |
      (key === 'registrar' ? FACT_REGISTRAR_KEY : 0) |
      (action << FACT_ACTION_SHIFT),
  };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(raw, info);
  return info;
}

// A table in front of the cache, looked up by the key's place in the reply: no substring is
// made and no string hash computed for a key met before (Map.get on a fresh slice hashes it
// first, and that was a tenth of the parse). The slot is picked by a hash of the key's code
// units, and a hit is confirmed character by character against them (kept in a typed array: a
// slice of the reply would be read through its parent string), so it answers exactly what
// keyInfo answers for the same text.
// Every unit counts in the hash: a hash of a few sampled characters put the spellings of one
// key ("Domain Status", "Domain status") in one slot, where they evicted each other at every
// reply. Each hash picks a set of four slots (32 bytes of frontEntry, within one cache line),
// the key met last in the first: up to four keys that share the set all stay. With pairs, the
// weppos corpus's 1,100 keys and heading-like lines put three or more in 37 of the 2,048
// pairs, and each such key missed at every reply (a tenth of its look-ups); with sets of four
// none overflows. 4096 slots hold the keys and short heading-like lines of the registries a
// process meets.
// A key is held and compared two code units at a time, as one 32-bit word (the first unit in
// the low half): half the loads and compares of reading it unit by unit. Hashing packs the
// words anyway; they are kept in keyWords, so the compare reads the key's units only once. An
// odd-length key's last word has a zero high half, in the store and in keyWords alike (the
// lengths must also agree, so "a" never matches "a\0").
// The keys' words are not kept in their slots but one after another in a store, in the order
// they were first met, and a slot holds where its key starts: a reply's keys (met together the
// first time) lie together, in a few cache lines. In slots of their own (a key's longest, 96
// bytes each, 400 KB in all) each look-up read memory far from the last one, which a corpus of
// replies from many registries evicted between two uses of a key: a cache miss per key line.
// The store is filled once; when full, the table starts again empty (a hostile stream of
// distinct keys cannot grow it).
const FRONT_BITS = 12;
const FRONT_SLOTS = 1 << FRONT_BITS;
/** Longer keys are rare and rarely repeat: they go straight to keyInfo. */
const FRONT_MAX = 48;
/** words a key takes at most: FRONT_MAX units, two a word */
const FRONT_WORDS = FRONT_MAX / 2;
/**
 * Each slot's key and its facts, side by side (a hit reads one cache line): at 2 * slot where
 * its words start in frontStore, shifted left by 8, with its length in the low 8 bits (0 for an
 * empty slot: no key is empty); at 2 * slot + 1 its KeyInfo's `facts`.
 */
const frontEntry = new Int32Array(2 * FRONT_SLOTS);
const frontInfo: KeyInfo[] = new Array<KeyInfo>(FRONT_SLOTS);
/** the words of the keys in the table, each key's after the one stored before it */
export const STORE_WORDS = 1 << 16;
const frontStore = new Int32Array(STORE_WORDS);
let storeUsed = 0;
/** the words of the key frontSet hashed last */
const keyWords = new Int32Array(FRONT_WORDS);

/** Slots a key may take: its set's first (what frontSet gives) and the three after it. */
const FRONT_WAYS = 4;

/**
 * The first slot of the key units[from, to)'s set, leaving the key's words in keyWords: a
 * multiplicative hash taking two code units a step (the multiplications depend on each other:
 * half as many as one unit a step), its top bits (the best mixed) the slot.
 */
function frontSet(units: Uint16Array, from: number, to: number): number {
  let h = to - from;
  let i = from;
  let w = 0;
  for (; i + 1 < to; i += 2) {
    const word = units[i] | (units[i + 1] << 16);
    keyWords[w++] = word;
    h = Math.imul(h ^ word, 0x9e3779b1);
  }
  if (i < to) {
    keyWords[w] = units[i];
    h = Math.imul(h ^ units[i], 0x9e3779b1);
  }
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  return (h >>> (32 - FRONT_BITS)) & (FRONT_SLOTS - FRONT_WAYS);
}

/** Whether the slot holds the key of length n whose `words` words are in keyWords. */
function frontHolds(slot: number, n: number, words: number): boolean {
  const key = frontEntry[2 * slot];
  if ((key & 255) !== n) return false;
  const base = key >>> 8;
  let i = 0;
  while (i < words && frontStore[base + i] === keyWords[i]) i++;
  return i === words;
}

/**
 * The slot of the key str.slice(from, to) in the table, which it enters (with keyInfo's
 * answer) when it is not there; -1 for a key the table does not hold (empty or too long).
 * `units` are str's UTF-16 code units (units[i] is str.charCodeAt(i)): the key is read from
 * them, as charCodeAt dispatches on the string's representation at every character, and
 * confirming keys that way was a tenth of reading a long reply.
 */
function frontSlot(str: string, from: number, to: number, units: Uint16Array): number {
  const n = to - from;
  if (n <= 0 || n > FRONT_MAX) return -1;
  const first = frontSet(units, from, to);
  const words = (n + 1) >> 1;
  for (let slot = first; slot < first + FRONT_WAYS; slot++) {
    if (frontHolds(slot, n, words)) return slot;
  }
  const info = keyInfo(str.slice(from, to));
  if (storeUsed + words > STORE_WORDS) {
    frontEntry.fill(0);
    storeUsed = 0;
  }
  // The set's keys move one slot down (its last leaves); the key just met takes the first.
  for (let slot = first + FRONT_WAYS - 1; slot > first; slot--) {
    frontEntry[2 * slot] = frontEntry[2 * slot - 2];
    frontEntry[2 * slot + 1] = frontEntry[2 * slot - 1];
    frontInfo[slot] = frontInfo[slot - 1];
  }
  frontEntry[2 * first] = (storeUsed << 8) | n;
  frontEntry[2 * first + 1] = info.facts;
  frontInfo[first] = info;
  for (let i = 0; i < words; i++) frontStore[storeUsed + i] = keyWords[i];
  storeUsed += words;
  return first;
}

/** keyInfo(str.slice(from, to)), without the slice when that key was asked for lately. */
export function keyInfoAt(str: string, from: number, to: number, units: Uint16Array): KeyInfo {
  const slot = frontSlot(str, from, to, units);
  return slot < 0 ? keyInfo(str.slice(from, to)) : frontInfo[slot];
}

/** keyInfoAt(...).facts, read beside the key in the table. */
export function keyFactsAt(str: string, from: number, to: number, units: Uint16Array): number {
  const slot = frontSlot(str, from, to, units);
  return slot < 0 ? keyInfo(str.slice(from, to)).facts : frontEntry[2 * slot + 1];
}

/** The first slot of the set keyInfoAt gives `key` in its table (for tests that make keys share sets). */
export function frontSlotOf(key: string): number {
  return frontSet(codeUnits(key), 0, key.length);
}
