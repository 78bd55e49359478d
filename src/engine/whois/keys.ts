// What a WHOIS key means to the parser. Every question the reader asks about a key (which
// field it fills, whether it opens a section or a contact block, how a registrar block reads
// it) is answered once per distinct spelling and cached, so the per-line cost is one Map hit:
// the same few hundred spellings repeat across replies, and regex tests per line were most of
// the parse time.

export type Field =
  | 'ds'
  | 'domain'
  | 'id'
  | 'whois_server'
  | 'status'
  | 'ns'
  | 'dnssec'
  | 'created'
  | 'updated'
  | 'expires'
  | 'registrar'
  | 'registrar_current'
  | 'registrar_id'
  | 'registrar_handle'
  | 'registrar_url'
  | 'holder';

/** Every field, in one place, for the record's fixed-shape value object. */
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
 * A record's field values. An object with every field declared (not a Map): reads and writes
 * are plain property accesses, which the per-line walk does often.
 */
export type FieldValues = Record<Field, string | undefined>;

export function emptyFields(): FieldValues {
  return {
    ds: undefined,
    domain: undefined,
    id: undefined,
    whois_server: undefined,
    status: undefined,
    ns: undefined,
    dnssec: undefined,
    created: undefined,
    updated: undefined,
    expires: undefined,
    registrar: undefined,
    registrar_current: undefined,
    registrar_id: undefined,
    registrar_handle: undefined,
    registrar_url: undefined,
    holder: undefined,
  };
}

export type SectionKind =
  'contact' | 'registrar' | 'ns' | 'status' | 'domain' | 'dates' | 'dnssec' | 'other';

/** How a line inside a registrar block or section is read; `overwrite` lets a later line win. */
export interface RegistrarAction {
  field: 'registrar' | 'registrar_id' | 'registrar_url' | 'whois_server';
  overwrite: boolean;
}

export interface KeyInfo {
  /** lower case, dots/underscores/dashes/slashes/brackets as single spaces, no trailing index */
  key: string;
  /** the field a top-level "key: value" fills */
  field: Field | undefined;
  /** the section a heading with this text opens */
  section: SectionKind | undefined;
  /** opens a RIPE-style contact object (skipped whole) when it starts a block */
  contactBlock: boolean;
  /** names a host inside a name-server section */
  nsKey: boolean;
  /** names the domain's own data (its name, dates, servers), not a contact's */
  domainKey: boolean;
  registrar: RegistrarAction | undefined;
}

// Keys are compared after normalising: lower case, dots/underscores/dashes as spaces. One table
// for every registry: a key is listed once for what it means, in each language registries use,
// never per server. Bilingual keys ("Estado / Status", "Servidores de nombre (Domain servers)")
// are read part by part (keyCandidates), so each language's word is enough on its own.
const TOP_KEYS = new Map<string, Field>();
function keys(field: Field, ...names: string[]): void {
  for (const n of names) TOP_KEYS.set(n, field);
}
keys(
  'domain',
  'domain name',
  'domain',
  'domainname',
  'domain name ascii',
  'complete domain name',
  'query',
  // fr, es, pt, it, nl, de, pl, tr, ro, cs, sv, fi, da
  'nom de domaine',
  'nombre de dominio',
  'dominio',
  'nome de domínio',
  'nome do domínio',
  'nome di dominio',
  'nome a dominio',
  'domeinnaam',
  'domainname',
  'domänenname',
  'nazwa domeny',
  'domena',
  'alan adı',
  'domeniu',
  'doména',
  'domän',
  'verkkotunnus',
  'domænenavn',
  // ru, uk, zh, ja, ko
  'домен',
  'доменное имя',
  'доменне імя',
  '域名',
  '域名名称',
  'ドメイン名',
  '도메인 이름',
  '도메인명',
);
keys('id', 'registry domain id', 'domain id', 'roid', 'domain handle', 'registry id');
keys(
  'whois_server',
  'registrar whois server',
  'registry whois server',
  'whois server',
  'whois',
  'registrar whois',
);
keys(
  'status',
  'domain status',
  'status',
  'state',
  'eppstatus',
  'epp status',
  'domain state',
  'query status',
  'registration status',
  'estado',
  'estatus',
  'estatus del dominio',
  'estado del dominio',
  'situação',
  'état',
  'etat',
  'stato',
  'stan',
  'durum',
  'tila',
  'состояние',
  'статус',
  'стан',
  '状态',
  '域名状态',
  '狀態',
  '状態',
  '상태',
);
keys(
  'ns',
  'name server',
  'nameserver',
  'nameservers',
  'name servers',
  'nserver',
  'ns',
  'host name',
  'ns name',
  'primary server',
  'secondary server',
  'primary ns',
  'secondary ns',
  'ns hostname',
  'domain server',
  'dns',
  'servidor de nombre',
  'servidores de nombre',
  'servidor dns',
  'servidores dns',
  'serveur de noms',
  'serveurs de noms',
  'serveur dns',
  'server dns',
  'nameserver dns',
  'namensserver',
  'naamserver',
  'serwer dns',
  'serwery dns',
  'dns sunucusu',
  'сервер dns',
  'серверы dns',
  'dns сервер',
  'dns сервери',
  '域名服务器',
  'dns服务器',
  '名稱伺服器',
  'ネームサーバ',
  '네임서버',
  '1차 네임서버',
  '2차 네임서버',
);
keys('dnssec', 'dnssec', 'signed', 'domain dnssec', 'dnssec status', 'domain signed');
// A published DS record (AFNIC's key1-*, ds-rdata, JPRS's signing key) means a signed delegation.
keys('ds', 'key1 tag', 'ds rdata', 'ds record', 'signing key', 'ds list');
keys(
  'created',
  'creation date',
  'created',
  'created on',
  'created date',
  'create date',
  'created at',
  'date created',
  'creation',
  'registered',
  'registered on',
  'registered date',
  'registration',
  'registration date',
  'registration time',
  'date registered',
  'date approved',
  'domain registration date',
  'record created',
  'record created on',
  'activated on',
  'domain creation date',
  'entry created',
  'first registration date',
  'first registered',
  'domain name commencement date',
  'domain create date',
  'domain created',
  'domain record activated',
  'domain registered',
  'activated',
  'fecha de registro',
  'fecha de creación',
  'fecha de creacion',
  'fecha de alta',
  'fecha registro',
  'data de registo',
  'data de registro',
  'data de criação',
  'criado',
  'criado em',
  'date de création',
  'date de creation',
  'création',
  'créé le',
  'data di creazione',
  'data registrazione',
  'data di registrazione',
  'creato',
  'registriert',
  'registriert am',
  'erstellt',
  'erstellt am',
  'angelegt',
  'registratiedatum',
  'datum registratie',
  'geregistreerd',
  'data rejestracji',
  'utworzono',
  'kayıt tarihi',
  'oluşturulma tarihi',
  'дата регистрации',
  'дата создания',
  'создан',
  'зарегистрирован',
  'дата реєстрації',
  'створено',
  '注册时间',
  '注册日期',
  '創建日期',
  '註冊日期',
  '登録年月日',
  '등록일',
);
keys(
  'updated',
  'updated date',
  'last updated',
  'last updated date',
  'last update',
  'last modified',
  'modified',
  'changed',
  'updated',
  'updated on',
  'update date',
  'date updated',
  'domain last updated date',
  'domain last updated',
  'last updated on',
  'modification date',
  'domain updated',
  'domain record last updated',
  'domain datelastmodified',
  'record last updated',
  'record last updated on',
  'record changed',
  'record changed on',
  'entry updated',
  'fecha de modificación',
  'fecha de modificacion',
  'fecha de actualización',
  'fecha de actualizacion',
  'última actualización',
  'ultima actualizacion',
  'última modificación',
  'ultima modificacion',
  'data de alteração',
  'data de atualização',
  'última alteração',
  'atualizado',
  'atualizado em',
  'dernière modification',
  'derniere modification',
  'date de modification',
  'mis à jour',
  'ultimo aggiornamento',
  'data ultimo aggiornamento',
  'data di aggiornamento',
  'geändert',
  'zuletzt geändert',
  'letzte änderung',
  'aktualisiert',
  'laatst gewijzigd',
  'datum laatste wijziging',
  'data modyfikacji',
  'ostatnia modyfikacja',
  'güncelleme tarihi',
  'son güncelleme',
  'дата изменения',
  'изменен',
  'последнее изменение',
  'змінено',
  'дата зміни',
  '更新时间',
  '更新日期',
  '最終更新',
  '更新日',
  '최근 정보 변경일',
  '정보 변경일',
);
keys(
  'expires',
  'registry expiry date',
  'registrar registration expiration date',
  'expiration date',
  'expiry date',
  'expires',
  'expires on',
  'expire date',
  'expire',
  'expired',
  'expires at',
  'expiration',
  'paid till',
  'expiration time',
  'record expires',
  'record expires on',
  'domain expiration date',
  'domain currently expires',
  'valid until',
  'valid till',
  'expiry',
  'renewal',
  'renewal date',
  'date renewal',
  'domain expires',
  'record will expire on',
  'fecha de vencimiento',
  'fecha de expiración',
  'fecha de expiracion',
  'fecha de caducidad',
  'vencimiento',
  'data de expiração',
  'data de validade',
  'expiração',
  'validade',
  "date d'expiration",
  'date d expiration',
  'expire le',
  'data di scadenza',
  'scadenza',
  'ablaufdatum',
  'ablauf',
  'gültig bis',
  'verloopdatum',
  'vervaldatum',
  'data wygaśnięcia',
  'wygasa',
  'bitiş tarihi',
  'sona erme tarihi',
  'дата окончания',
  'оплачен до',
  'действует до',
  'діє до',
  'дата закінчення',
  '过期时间',
  '到期日期',
  '到期时间',
  '有效期限',
  '有効期限',
  '만료일',
  '사용 종료일',
);
keys(
  'registrar',
  'registrar',
  'registrar name',
  'sponsoring registrar',
  'registration service provider',
  'authorized agency',
  'registrar organization',
  'sponsoring registrar organization',
  'sponsoring registrar name',
  'registar created',
  'registrado por',
  'registrador',
  'agente registrador',
  "bureau d'enregistrement",
  'bureau d enregistrement',
  'registrar de',
  'rejestrator',
  'kayıt kuruluşu',
  'регистратор',
  'реєстратор',
  '注册商',
  '註冊商',
  '등록대행자',
);
keys('registrar_current', 'current registrar', 'current registar');
// Who holds the name: not in the seed's shape, but a record that names one is a registration.
keys(
  'holder',
  'owner',
  'holder',
  'titular',
  'titulaire',
  'titular do domínio',
  'inhaber',
  'houder',
  'владелец',
  '注册人',
  '登録者',
  '등록인',
);
keys('registrar_id', 'registrar iana id', 'sponsoring registrar iana id', 'registrar id');
// The registry's own handle for the registrar: the id when no IANA id is published.
keys('registrar_handle', 'sponsoring registrar id', 'registrar handle');
keys(
  'registrar_url',
  'registrar url',
  'referral url',
  'registration service url',
  'registrar website',
  'registrar web',
  'registrar www',
  'registration url',
  'sponsoring registrar url',
  'sponsoring registrar website',
  'www',
  'url',
);

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
 * False when the raw key str[from, to), read as a whole, cannot normalise to a field key (its
 * other readings are hasReadings' question). Only ASCII letters,
 * digits, spaces and the separators normalizeKey turns into a space are judged; anything else
 * (and a key starting with a separator, which normalising shifts) may be a field key.
 */
export function mayBeField(str: string, from: number, to: number): boolean {
  if (to - from < 2) return false;
  let c0 = str.charCodeAt(from);
  if (c0 >= 65 && c0 <= 90) c0 += 32;
  else if (!(c0 >= 97 && c0 <= 122)) return true;
  let c1 = str.charCodeAt(from + 1);
  if (c1 >= 65 && c1 <= 90) c1 += 32;
  else if (isSeparator(c1)) c1 = 32;
  else if (!(c1 >= 97 && c1 <= 122)) return true;
  let c2 = to - from > 2 ? str.charCodeAt(from + 2) : 32;
  if (c2 >= 65 && c2 <= 90) c2 += 32;
  else if (isSeparator(c2)) c2 = 32;
  // a numbered key ("ns1", "nameserver2") is read unnumbered too
  else if (!(c2 >= 97 && c2 <= 122)) return true;
  const s1 = c1 === 32 ? 26 : c1 - 97;
  const s2 = c2 === 32 ? 26 : c2 - 97;
  if ((FIELD_STARTS[(c0 - 97) * 27 + s1] & (1 << s2)) === 0) {
    // An enumerated key ("a. Domain Name") is looked up.
    return c1 === 32 && str.charCodeAt(from + 1) === 46;
  }
  // "Registrant Name", "Registrant Street", ...: a dozen contact lines in every gTLD reply start
  // like "Registrar" and "Registration date"; no field key starts with "registrant".
  return !(c0 === 114 && to - from > 10 && startsRegistrant(str, from));
}

function startsRegistrant(str: string, from: number): boolean {
  for (let i = 0; i < 10; i++) if ((str.charCodeAt(from + i) | 32) !== REGISTRANT[i]) return false;
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
  if (
    /(registrant|admin|tech|billing|holder|contact|onsite|reseller|abuse|owner|organi[sz]ation|data validation|zone c|trademark|registry|ns keys|keys|registered for|titular|titulaire|contacto|contato|cobranza|responsável|responsable|entidade|inhaber|houder|abonent|владел|администр|联系人|注册人|登録者|등록인)/.test(
      key,
    )
  )
    return 'contact';
  return undefined;
}

function registrarAction(key: string): RegistrarAction | undefined {
  if (/^(name|registrar|registrar name)$/.test(key)) return { field: 'registrar', overwrite: true };
  if (key === 'registrar iana id') return { field: 'registrar_id', overwrite: false };
  if (key === 'registrar url') return { field: 'registrar_url', overwrite: false };
  if (/^(organi[sz]ation|org)$/.test(key)) return { field: 'registrar', overwrite: false };
  if (/^(url|website|www|web|referral url|registration url|homepage)$/.test(key)) {
    return { field: 'registrar_url', overwrite: false };
  }
  if (/^(iana id|id)$/.test(key)) return { field: 'registrar_id', overwrite: false };
  if (/whois server/.test(key)) return { field: 'whois_server', overwrite: false };
  return undefined;
}

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
  const info: KeyInfo = {
    key,
    field,
    section,
    contactBlock: /^(nic hdl|person|role|contact|holder c|admin c|tech c)$/.test(key),
    nsKey: /^(host ?name|nserver|name ?server|ns|.* server|.* server (host ?name|name))$/.test(key),
    domainKey:
      (field !== undefined || section === 'ns') &&
      /\b(domain|record|dominio|domaine|domínio|domein|domäne|domena)\b/.test(key),
    registrar: registrarAction(key),
  };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(raw, info);
  return info;
}

// A direct-mapped table in front of the cache, looked up by the key's place in the reply: no
// substring is made and no string hash computed for a key met before (Map.get on a fresh slice
// hashes it first, and that was a tenth of the parse). A slot is picked from the key's length
// and a few of its characters, and a hit is confirmed character by character against the key's
// UTF-16 code units (kept in a typed array: a slice of the reply would be read through its
// parent string), so it answers exactly what keyInfo answers for the same text.
// 4096 slots hold the keys and short heading-like lines of the registries a process meets
// without evicting each other (1024 missed often enough to cost a tenth of the parse); the
// table is 400 KB, allocated once.
const FRONT_SLOTS = 4096;
/** Longer keys are rare and rarely repeat: they go straight to keyInfo. */
const FRONT_MAX = 48;
const frontUnits = new Uint16Array(FRONT_SLOTS * FRONT_MAX);
/** the key's length in each slot; 0 for an empty slot */
const frontLength = new Uint8Array(FRONT_SLOTS);
const frontInfo: KeyInfo[] = new Array<KeyInfo>(FRONT_SLOTS);

/** keyInfo(str.slice(from, to)), without the slice when that key was asked for lately. */
export function keyInfoAt(str: string, from: number, to: number): KeyInfo {
  const n = to - from;
  if (n <= 0 || n > FRONT_MAX) return keyInfo(str.slice(from, to));
  const slot =
    (n * 97 +
      str.charCodeAt(from) * 31 +
      str.charCodeAt(from + (n >> 1)) * 7 +
      str.charCodeAt(to - 1) * 3 +
      str.charCodeAt(from + (n >> 2))) &
    (FRONT_SLOTS - 1);
  const base = slot * FRONT_MAX;
  if (frontLength[slot] === n) {
    let i = 0;
    while (i < n && frontUnits[base + i] === str.charCodeAt(from + i)) i++;
    if (i === n) return frontInfo[slot];
  }
  const info = keyInfo(str.slice(from, to));
  for (let i = 0; i < n; i++) frontUnits[base + i] = str.charCodeAt(from + i);
  frontLength[slot] = n;
  frontInfo[slot] = info;
  return info;
}
