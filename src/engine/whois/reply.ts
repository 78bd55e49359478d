// What kind of reply a text without registration data is (not registered, reserved, refused for
// the query rate or a blocked client), and where a registry's reply refers the query next. Pure,
// like parse.ts.
//
// The kinds are told by what a line says, in the words registries use in every language they
// answer in, not by whole replies of known servers. Each pattern is matched against one line
// at a time, comment markers removed, so a phrase never spans a legal notice's sentences.
//
// Cost: a line is lower-cased once and the patterns, written in lower case, run without the
// `i` flag. Case-insensitive Unicode matching (`iu`) of long alternations is V8's slow path
// (one .es reply took 2.7 ms, 170x the corpus median); plain matching of lower-cased text is
// not. Every quantifier is bounded, so a line costs time linear in its (capped) length.

/** The name is not registered: no match, not found, free, available. */
const NOT_FOUND = [
  // English
  /\bno match(es|ing)?\b/,
  /\bno (entr(y|ies)|records?|data|objects?|domains?( records?)?|information|results?|such (domain|object))\b.{0,60}\b(found|match(es|ing)?|available|exists?|for)\b/,
  /^no (entries|data|records?|objects?|results?|information)\b/,
  /\bnot found\b/,
  /\bnothing found\b/,
  /\b(does|did) not exist\b/,
  /\bno such (domain|object|record)\b/,
  /\bnot (have|find|locate) (an? |any )?(entr(y|ies)|records?|data|domain|object)\b/,
  /\bcould not find\b/,
  /^no found\b/,
  /\bnot (yet )?assigned\b/,
  /\bnot (been |yet )?regist(e)?red\b/,
  /\bis not a registered\b/,
  /\b(is|are) (available|free)\b\.?$/,
  /\bavailable for (registration|purchase)\b/,
  /^(domain )?(status|state)\W+(available|free|not registered|no object found|unassigned|not found)\W*$/,
  /^(available|free|not registered)\W*$/,
  /\bquery_status\W+220 available\b/,
  /\breturned 0 objects\b/,
  /\bnot known in .* registry\b/,
  // French, Spanish, Portuguese, Italian
  /\baucun(e)? (résultat|objet|enregistrement|domaine|entrée)\b/,
  /\bn'existe pas\b|\bnon trouvé/,
  /\bno (se ha )?(encontr|exist)|\bno (está|esta) registrad|\bsin resultados\b/,
  /\bnão (foi )?(encontrad|existe|registrad)|\bnenhum (resultado|registro|objeto)\b/,
  /\bnon (trovat|esist|registrat)|\bnessun (risultato|dato|oggetto)\b/,
  // German, Dutch, Polish, Hungarian, Turkish, Czech
  /\bnicht (gefunden|registriert|vergeben)\b|\bkeine (daten|einträge|treffer|ergebnisse)\b|\bist frei\b/,
  /\bniet (gevonden|geregistreerd)\b|\bis vrij\b|\bgeen (resultaten|gegevens|overeenkomst)\b/,
  /\bnie znaleziono\b|\bbrak (danych|wyników|obiektu)\b|\bnie (jest )?zarejestrowan/,
  /\bnincs találat\b/,
  /bulunamadı|\bkayıt (yok|bulunamadı)|kayıtlı değil/,
  /\bnenalezen|\bneexistuje\b/,
  // Russian, Ukrainian
  /не найден|нет данных|не зарегистрирован|не знайден|не зареєстрован|відсутн|не существует/,
  // Chinese, Japanese, Korean
  /没有找到|未找到|无匹配|不存在|未注册|查無|沒有找到|未註冊|無符合/,
  /該当するデータがありません|見つかりません|登録されていません/,
  /검색 결과가 없습니다|등록되어 있지 않|존재하지 않|등록되지 않/,
];

/**
 * The server refused to answer: a rate or quota limit, or a blocked client. Declarative only
 * ("limit exceeded", "access denied"): terms of use forbid "excessive queries" in every reply.
 */
const RATE_LIMITED = [
  /\blimits? (has been |was )?(exceeded|reached)\b/,
  /\bexceeded\b.{0,40}\b(quota|limit|rate|maximum|allowed|number of (queries|requests|lookups))\b/,
  /\b(quota|limit|rate|maximum number of (queries|requests|lookups|connections))\b.{0,60}\b(has been |was |is )?(exceeded|reached)\b/,
  /\btoo many (requests|queries|connections|lookups|attempts)\b/,
  /\bonly \d+ (requests?|queries|lookups|connections) (per|a|each)\b/,
  /\bgo away for \d+/,
  /\bslow down\b/,
  // "is rate limited" alone is the service's policy, printed in every reply; being limited is not
  /\b(you|your (ip|address|client|queries|requests)|this (ip|address|client)) (have|has|are|is) (been )?(temporarily )?rate.?limited\b/,
  /\baccess control limit\b/,
  /\baccess denied\b/,
  /\bconnection refused\b/,
  /\b(ip|address|client|host|you)\b.{0,40}\b(has|have) been (temporarily )?(blocked|banned|blacklisted|denied)\b/,
  /\b(ip|address|client|host)\b.{0,30}\bis (temporarily )?(blocked|banned|blacklisted)\b/,
  // a refused query, by what was refused and how; a wait before asking again
  /\b(your )?(query|queries|request|requests|access|connection|lookup)( to this server)? (has been |have been |was |were |is |are )?(temporarily )?(refused|rejected|denied|blocked|throttled)\b/,
  /\b(try|query|ask) again (in|after) \d+|\bplease wait \d+ (seconds?|minutes?)\b/,
  // French, German, Spanish, Portuguese, Italian, Dutch, Russian, Chinese, Japanese, Korean
  /\b(requête|demande|accès|connexion) (a été |est )?(refusée?|rejetée?|bloquée?)/,
  /\b(anfrage|abfrage|zugriff|verbindung) (wurde )?(abgelehnt|verweigert|gesperrt|blockiert)\b/,
  /\b(consulta|solicitud|petición|acceso|conexión) (ha sido |fue )?(rechazad|denegad|bloquead)/,
  /\b(consulta|requisição|acesso|conexão) (foi )?(recusad|negad|bloquead)/,
  /\b(richiesta|interrogazione|accesso|connessione) (è stat. )?(rifiutat|negat|bloccat)/,
  /\b(verzoek|aanvraag|toegang|verbinding) (is )?(geweigerd|geblokkeerd)\b/,
  /(запрос|доступ|соединение)\S* (был\S* )?(отклон|запрещ|заблокир)|повторите (попытку )?позже/,
  /(查询|查詢|访问|訪問|请求|請求|连接|連接)(被|已被)?拒绝|(查询|查詢|访问|訪問)(被|已被)?拒絕|请稍后再试|請稍後再試/,
  /(アクセス|問い合わせ|クエリ|接続)(が|は)?拒否|しばらく(時間を置いて|してから)/,
  /(조회|요청|접근|접속)(이|가)? 거부|잠시 후 다시/,
  /\btrop de requêtes\b|\blimite .{0,30}(atteinte|dépassée)/,
  /\bzu viele (anfragen|abfragen)\b|\blimit .{0,30}überschritten\b/,
  /\bdemasiadas (consultas|solicitudes|peticiones)\b|\blímite .{0,30}(excedido|superado)/,
  /\b(excesso|muitas) (de )?(consultas|requisições)\b|\blimite .{0,30}(excedido|atingido)/,
  /\btroppe (richieste|interrogazioni)\b|\blimite .{0,30}(superato|raggiunto)/,
  /\bte veel (verzoeken|aanvragen|queries)\b/,
  /слишком много запросов|превышен .{0,30}лимит|лимит .{0,30}превышен|забагато запитів/,
  /查询过于频繁|请求过多|查詢過於頻繁|超过.{0,10}(限制|次数)/,
  /アクセス制限|問い合わせが多すぎ|制限を超え/,
  /조회 (한도|제한)|요청이 너무 많/,
];

/** The registry holds the name back: reserved, restricted, not available for registration. */
const RESERVED = [
  /\breserved (by|for|name|domain|word|under)\b/,
  /\b(is|has been|are) reserved\b/,
  /^(status\W+)?reserved\W*$/,
  /\brestricted from registration\b/,
  /^restricted\b|\brestricted (domain|name)\b/,
  /\bnot available (for|to) (second level |third level )?registration\b/,
  /^(the )?domain (name )?(is )?not available\b/,
  /\bréservé|\breservado\b|\briservat|\breserviert\b|\bgereserveerd\b|\bzarezerwowan/,
  /зарезервирован|保留|予約|예약/,
];

/** One pattern of many, matched against lower-cased text. */
function anyOf(patterns: RegExp[]): RegExp {
  return new RegExp(patterns.map((re) => `(?:${re.source})`).join('|'), 'u');
}

/** A limit notice that says the answer follows in a reduced form is not a refusal. */
const REDUCED = /\b(reduced|limited|partial) (information|answer|output|data)\b/;

const NOT_FOUND_ANY = anyOf(NOT_FOUND);
const RATE_LIMITED_ANY = anyOf(RATE_LIMITED);
const RESERVED_ANY = anyOf(RESERVED);

const CLASSIFY_BYTES = 64 * 1024;

export type ReplyKind = 'not_found' | 'rate_limited' | 'reserved';

export interface Classified {
  kind: ReplyKind;
  /** the line that says so, as the server wrote it (comment markers and addresses removed) */
  line: string;
}

// A line's text without comment markers, banner brackets and surrounding space; only the first
// 300 characters are read (no sentence worth reading is longer, and a 1 MB line stays cheap).
function lineText(raw: string): string {
  return raw
    .slice(0, 300)
    .replace(/^[\s%#*>;[\]-]+/, '')
    .replace(/[\s\]<]+$/, '');
}

/**
 * What a reply without registration data says it is. A refusal wins over "no entries found"
 * (AFNIC says both when it refuses), and "not found" over "reserved" ("All rights reserved").
 * Undefined when it says none of them: an error page, an empty or cut-off reply.
 */
export function classifyReply(text: string): Classified | undefined {
  let notFound: string | undefined;
  let reserved: string | undefined;
  let start = 0;
  // What a server says about the query comes before any megabyte of filler: only the first
  // CLASSIFY_BYTES are read (each line costs a few regex passes).
  const n = Math.min(text.length, CLASSIFY_BYTES);
  while (start < n) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = n;
    const line = lineText(text.slice(start, Math.min(end, start + 400)));
    start = end + 1;
    if (line === '') continue;
    const folded = line.toLowerCase();
    if (RATE_LIMITED_ANY.test(folded) && !REDUCED.test(folded)) {
      return { kind: 'rate_limited', line: clean(line) };
    }
    if (notFound === undefined && NOT_FOUND_ANY.test(folded)) notFound = line;
    else if (reserved === undefined && RESERVED_ANY.test(folded)) reserved = line;
  }
  if (notFound !== undefined) return { kind: 'not_found', line: clean(notFound) };
  if (reserved !== undefined) return { kind: 'reserved', line: clean(reserved) };
  return undefined;
}

/** A server's wording for an error detail: no client addresses, bounded. */
function clean(line: string): string {
  return line
    .replace(/\b\d{1,3}(\.\d{1,3}){3}\b/g, '<address>')
    .replace(/\b(?:[0-9a-f]{1,4}:){3,7}[0-9a-f]{1,4}\b|[0-9a-f]*::[0-9a-f:]*/gi, '<address>')
    .slice(0, 200);
}

/** True when the reply says the name is not registered (and not that it was refused). */
export function isNotFound(text: string): boolean {
  return classifyReply(text)?.kind === 'not_found';
}

/** True when the reply is a refusal for the query rate, a quota or a blocked client. */
export function isRateLimited(text: string): boolean {
  return classifyReply(text)?.kind === 'rate_limited';
}

// Built once (a regex literal in a function body is a new object on every call).
const REFERRAL = [
  /^\s*registrar whois server:\s*(\S+)/im,
  /^\s*whois server:\s*(\S+)/im,
  /^\s*referralserver:\s*(\S+)/im,
  /^\s*refer:\s*(\S+)/im,
  /^\s*whois:\s*(\S+)/im,
];

/** The next server a registry reply points to, as host or host:port, when it names one. */
export function findReferral(text: string): string | undefined {
  for (const re of REFERRAL) {
    const m = re.exec(text);
    if (!m) continue;
    const target = m[1]
      .replace(/^(r?whois):\/\//i, '')
      .replace(/\/.*$/, '')
      .toLowerCase();
    if (/^[a-z0-9.-]+\.[a-z]{2,}(:\d{1,5})?$/.test(target)) return target;
  }
  return undefined;
}
