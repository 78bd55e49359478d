// What registries write when a name is not registered, when they refuse a query, and when they
// hold a name back: one pattern a phrase, lower case (reply.ts folds each line once), matched
// against one line at a time; and the trigger words that find the lines worth matching. Data
// only; reply.ts reads them.
//
// A gap between a phrase's two parts (".{0,60}?") is lazy: a pattern is only tested, never
// asked for its match, and a lazy quantifier accepts exactly the lines the greedy one does
// (backtracking tries every length either way), but it meets the second part where it
// usually is, right after the first: "No entries found in the AFNIC Database." took 153 ns
// to match greedily (the gap ran to the line's end and backed off a character at a time),
// 39 ns lazily.

// "No entries found", "No data available", "No records exist for": the two parts of the phrase
// in any order of words.
const NO_ENTRIES_FOUND =
  /\b(no entr(y|ies)|no records?|no data|no objects?|no domains?( records?)?|no information|no results?|no such (domain|object))\b.{0,60}?\b(found|match(es|ing)?|available|exists?|for)\b/;

// .nz (NZRS, the Domain Name Commission's registry): "query_status: 220 Available", its code
// for a free name.
const NZRS_AVAILABLE = /\bquery_status\W+220 available\b/;

// The patterns that hold a line whole, from its start or up to its end (see LINE_SHAPES).
const NO_ENTRIES_LINE =
  /^(no entries|no data|no records?|no objects?|no results?|no information)\b/;
const NO_FOUND_LINE = /^no found\b/;
const IS_AVAILABLE = /\b(is|are) (available|free)\b\.?$/;
const STATUS_FREE_LINE =
  /^(domain )?(status|state)\W+(available|free|not registered|no object found|unassigned|not found)\W*$/;
const AVAILABLE_LINE = /^(available|free|not registered)\W*$/;
const RESERVED_LINE = /^(status\W+)?reserved\W*$/;
const NOT_AVAILABLE_LINE = /^(the )?domain (name )?(is )?not available\b/;

/** The name is not registered: no match, not found, free, available. */
export const NOT_FOUND = [
  // English
  /\bno match(es|ing)?\b/,
  NO_ENTRIES_FOUND,
  NO_ENTRIES_LINE,
  /\bnot found\b/,
  /\bnothing found\b/,
  /\b(does|did) not exist\b/,
  /\bno such (domain|object|record)\b/,
  /\b(not have|not find|not locate) (an? |any )?(entr(y|ies)|records?|data|domain|object)\b/,
  /\bcould not find\b/,
  NO_FOUND_LINE,
  /\bnot (yet )?assigned\b/,
  /\b(not regist|not been regist|not yet regist)(e)?red\b/,
  /\bis not a registered\b/,
  IS_AVAILABLE,
  /\bavailable for (registration|purchase)\b/,
  STATUS_FREE_LINE,
  AVAILABLE_LINE,
  NZRS_AVAILABLE,
  /\breturned 0 objects\b/,
  /\bnot known in .*? registry\b/,
  // French, Spanish, Portuguese, Italian
  /\baucun(e)? (résultat|objet|enregistrement|domaine|entrée)\b/,
  /\bn'existe pas\b|\bnon trouvé/,
  /\b(no encontr|no exist|no se ha (encontr|exist))|\b(no está|no esta) registrad|\bsin resultados\b/,
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
export const RATE_LIMITED = [
  /\blimits? (has been |was )?(exceeded|reached)\b/,
  /\bexceeded\b.{0,40}?\b(quota|limit|rate|maximum|allowed|number of (queries|requests|lookups))\b/,
  /\b(quota|limit|rate|maximum number of (queries|requests|lookups|connections))\b.{0,60}?\b(has been |was |is )?(exceeded|reached)\b/,
  /\btoo many (requests|queries|connections|lookups|attempts)\b/,
  /\bonly \d+ (requests?|queries|lookups|connections) (per|a|each)\b/,
  /\bgo away for \d+/,
  /\bslow down\b/,
  // "is rate limited" alone is the service's policy, printed in every reply; being limited is not
  /\b(you|your (ip|address|client|queries|requests)|this (ip|address|client)) (have|has|are|is) (been )?(temporarily )?rate.?limited\b/,
  /\baccess control limit\b/,
  /\baccess denied\b/,
  /\bconnection refused\b/,
  /\b(ip|address|client|host|you)\b.{0,40}?\b(has|have) been (temporarily )?(blocked|banned|blacklisted|denied)\b/,
  /\b(ip|address|client|host)\b.{0,30}?\bis (temporarily )?(blocked|banned|blacklisted)\b/,
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
  /\btrop de requêtes\b|\blimite .{0,30}?(atteinte|dépassée)/,
  /\bzu viele (anfragen|abfragen)\b|\blimit .{0,30}?überschritten\b/,
  /\bdemasiadas (consultas|solicitudes|peticiones)\b|\blímite .{0,30}?(excedido|superado)/,
  /\b(excesso|muitas) (de )?(consultas|requisições)\b|\blimite .{0,30}?(excedido|atingido)/,
  /\btroppe (richieste|interrogazioni)\b|\blimite .{0,30}?(superato|raggiunto)/,
  /\bte veel (verzoeken|aanvragen|queries)\b/,
  /слишком много запросов|превышен .{0,30}?лимит|лимит .{0,30}?превышен|забагато запитів/,
  /查询过于频繁|请求过多|查詢過於頻繁|超过.{0,10}?(限制|次数)/,
  /アクセス制限|問い合わせが多すぎ|制限を超え/,
  /조회 (한도|제한)|요청이 너무 많/,
];

/** The registry holds the name back: reserved, restricted, not available for registration. */
export const RESERVED = [
  /\breserved (by|for|name|domain|word|under)\b/,
  /\b(is|has been|are) reserved\b/,
  RESERVED_LINE,
  /\brestricted from registration\b/,
  /^restricted\b|\brestricted (domain|name)\b/,
  /\bnot available (for|to) (second level |third level )?registration\b/,
  NOT_AVAILABLE_LINE,
  /\bréservé|\breservado\b|\briservat|\breserviert\b|\bgereserveerd\b|\bzarezerwowan/,
  /зарезервирован|保留|予約|예약/,
];

/**
 * Patterns read only on lines that hold a word of one required part of them, not any trigger
 * word they spell: their other words are common in prose ("available", "found", "exist"), where
 * they sent a notice's lines to patterns that cannot match them. reply-gate.test.ts checks that
 * every line such a pattern matches holds one of these words, as for the others.
 */
export const GATES = new Map<RegExp, readonly string[]>([
  [
    NO_ENTRIES_FOUND,
    [
      'no entr',
      'no record',
      'no data',
      'no object',
      'no domain',
      'no inform',
      'no result',
      'no such',
    ],
  ],
  [NZRS_AVAILABLE, ['220 availab']],
]);

/**
 * What every line an anchored pattern matches looks like at its ends, read as lower-case ASCII:
 * the letters it may start with (a pattern from `^`), and the words it may end with (one up to
 * `$`). A line a trigger word sent to such a pattern is tested only when it has that shape: the
 * words are common in prose ("free", "available"), and a notice's line that holds one is rarely
 * the pattern's whole line. Testing a regex costs a call (about 20 ns) even where it fails at
 * the first character; whois-parser's not-found replies made 136 tests, now 107 (.name's
 * notice 14, now 6). reply-gate.test.ts checks that every line such a pattern matches has its
 * shape.
 */
export const LINE_SHAPES = new Map<RegExp, { first?: string; last?: readonly string[] }>([
  [NO_ENTRIES_LINE, { first: 'n' }],
  [NO_FOUND_LINE, { first: 'n' }],
  [IS_AVAILABLE, { last: ['available', 'available.', 'free', 'free.'] }],
  [STATUS_FREE_LINE, { first: 'ds' }],
  [AVAILABLE_LINE, { first: 'afn' }],
  [RESERVED_LINE, { first: 'rs' }],
  [NOT_AVAILABLE_LINE, { first: 'dt' }],
]);

/**
 * Words, lower case and two characters or more, of which every line a pattern matches holds one:
 * each pattern is tried only on lines that hold a word of its own source (reply-gate.test.ts
 * generates lines from every pattern and checks that they do).
 */
export const TRIGGERS = [
  // "no" and "not" only with the word that follows them: alone they are in every legal notice
  // ("cannot", "is not liable", "no warranty"), and such a line met a dozen patterns.
  ...['no match', 'no entr', 'no record', 'no data', 'no object', 'no domain', 'no inform'],
  ...['no result', 'no such', 'no found', 'not have', 'not find', 'not locat', 'not regist'],
  ...['not been', 'not yet', 'not a regist', 'not known'],
  ...['found', 'exist', 'availab', 'not availab', 'available for', 'free', 'assign'],
  ...['returned 0', 'reserv', '220 availab'],
  // "limit" only as the patterns spell it: "limitations" and "unlimited" are in every notice
  ...['restrict', 'limited', 'limit ', 'limite ', 'control limit', 'exceed', 'reached'],
  ...['quota', 'too many', 'only ', 'go away'],
  ...['slow down', 'denied', 'refus', 'reject', 'block', 'bann', 'blacklist', 'throttl'],
  ...['again', 'wait'],
  // French, Spanish, Portuguese, Italian
  ...['aucun', "n'exist", 'non ', 'rejet', 'bloqu', 'trop de', 'réserv', 'sin result'],
  ...['no encontr', 'no exist', 'no se ha', 'no está', 'no esta'],
  ...['rechaz', 'negad', 'demasiadas', 'límite', 'não', 'nenhum', 'recusad', 'excesso'],
  ...['muitas', 'nessun', 'rifiut', 'negat', 'blocc', 'troppe', 'riservat'],
  // German, Dutch, Polish, Hungarian, Turkish, Czech
  ...['nicht', 'keine', 'frei', 'abgelehnt', 'verweiger', 'gesperrt', 'zu viele', 'niet'],
  ...['vrij', 'geen', 'geweigerd', 'geblokkeerd', 'te veel', 'nie ', 'brak', 'rezerw'],
  ...['nincs', 'bulunamad', 'kayıt', 'nenalez', 'neexist'],
  // Russian, Ukrainian
  ...['не ', 'нет', 'відсутн', 'отклон', 'запрещ', 'заблокир', 'повторите', 'слишком много'],
  ...['превышен', 'лимит', 'забагато', 'зарезерв'],
  // Chinese, Japanese, Korean
  ...['没有', '沒有', '未找', '未注', '未註', '无匹配', '不存在', '查無', '無符合', '拒绝'],
  ...['拒絕', '稍后', '稍後', '频繁', '頻繁', '过多', '超过', '保留', '該当', '見つかり'],
  ...['登録され', '拒否', 'しばらく', '制限', '多すぎ', '予約', '검색', '등록', '존재'],
  ...['거부', '잠시', '한도', '제한', '너무 많', '예약'],
];
