// RDAP (RFC 9082 query, RFC 9083 response) located through the IANA bootstrap (RFC 9224).
// The bootstrap is validated as a whole: a file with any malformed entry is not trusted, and the
// caller falls back to the bundled snapshot (then to port 43).
import { readFile } from 'node:fs/promises';
import { request, type Dispatcher } from 'undici';
import { LookupError, throwIfAborted } from '../../contract/errors';
import type { WhoisDomain, WhoisRegistrar, WhoisResult } from '../../contract/shapes';
import { normalizeHost } from '../names';
import { normalizeDate } from './dates';
import snapshot from './data/rdap-bootstrap.json';

export const IANA_DNS_BOOTSTRAP = 'https://data.iana.org/rdap/dns.json';
export const MAX_RDAP_BYTES = 1024 * 1024;

export interface Bootstrap {
  publication?: string;
  /** each entry: the labels (TLDs or longer suffixes) and their base URLs */
  services: Array<{ labels: string[]; urls: string[] }>;
  /** where it came from: a URL, a file path, "snapshot", or "empty" (the operator's empty one) */
  source: string;
}

export interface HttpOptions {
  /** the caller's: aborting it is `cancelled` */
  signal?: AbortSignal;
  /** the whole look-up's deadline: firing is `upstream_timeout` */
  deadline?: AbortSignal;
  timeoutMs?: number;
  maxBytes?: number;
  dispatcher?: Dispatcher;
  /**
   * Used for every request a redirect leads to. In server mode it is the address-guarded agent:
   * the base comes from the operator's (or IANA's) bootstrap, but where it redirects to does not.
   */
  redirectDispatcher?: Dispatcher;
}

/** Validates an RFC 9224 registry. Throws `upstream_error` for anything malformed. */
export function parseBootstrap(json: unknown, source: string): Bootstrap {
  const bad = (why: string): LookupError =>
    new LookupError('upstream_error', `The RDAP bootstrap is malformed: ${why}`);
  if (typeof json !== 'object' || json === null) throw bad('not an object');
  const obj = json as { services?: unknown; publication?: unknown };
  if (!Array.isArray(obj.services) || obj.services.length === 0) throw bad('no services');
  const services: Bootstrap['services'] = [];
  for (const entry of obj.services as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 2) throw bad('a service is not [labels, urls]');
    const [labels, urls] = entry as [unknown, unknown];
    if (
      !Array.isArray(labels) ||
      !Array.isArray(urls) ||
      labels.length === 0 ||
      urls.length === 0
    ) {
      throw bad('a service has no labels or no URLs');
    }
    for (const l of labels)
      if (typeof l !== 'string' || l === '') throw bad('a label is not a name');
    for (const u of urls) if (!isHttpUrl(u)) throw bad(`"${String(u).slice(0, 60)}" is not a URL`);
    services.push({
      labels: (labels as string[]).map((l) => l.toLowerCase().replace(/\.$/, '')),
      urls: urls as string[],
    });
  }
  const result: Bootstrap = { services, source };
  if (typeof obj.publication === 'string') result.publication = obj.publication;
  return result;
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (/%(?![0-9a-f]{2})/i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

export function snapshotBootstrap(): Bootstrap {
  return parseBootstrap(snapshot, 'snapshot');
}

/** The base URL for a domain: the service whose label matches the most trailing labels. */
export function findRdapBase(bootstrap: Bootstrap, domain: string): string | undefined {
  const name = domain.toLowerCase();
  let best: { len: number; urls: string[] } | undefined;
  for (const { labels, urls } of bootstrap.services) {
    for (const label of labels) {
      if (name === label || name.endsWith(`.${label}`)) {
        const len = label.split('.').length;
        if (best === undefined || len > best.len) best = { len, urls };
      }
    }
  }
  if (best === undefined) return undefined;
  // RFC 9224: prefer https when the service lists both.
  return best.urls.find((u) => u.startsWith('https:')) ?? best.urls[0];
}

let cached: { bootstrap: Bootstrap; at: number } | undefined;
const CACHE_MS = 24 * 60 * 60 * 1000;

/**
 * The bootstrap to use. `source` (a URL or a file path) replaces IANA's; without it, IANA's
 * registry is fetched when `refresh` is set and cached for a day. An empty source is honoured as
 * an empty registry; a source that cannot be read or is malformed gives the snapshot.
 */
export async function loadBootstrap(
  source: string | undefined,
  refresh: boolean,
  http: HttpOptions = {},
): Promise<Bootstrap> {
  // An empty source is the operator saying "no RDAP services": every TLD goes to port 43.
  if (source !== undefined && source.trim() === '') return { services: [], source: 'empty' };
  try {
    if (source !== undefined) return await readBootstrap(source.trim(), http);
    if (!refresh) return snapshotBootstrap();
    if (cached !== undefined && Date.now() - cached.at < CACHE_MS) return cached.bootstrap;
    const fresh = await readBootstrap(IANA_DNS_BOOTSTRAP, { ...http, timeoutMs: 5000 });
    cached = { bootstrap: fresh, at: Date.now() };
    return fresh;
  } catch (err) {
    // A bootstrap the guard refused is an answer (the operator must allow its range), not a
    // broken source to replace with the snapshot.
    if (err instanceof LookupError && (err.code === 'cancelled' || err.code === 'blocked_target'))
      throw err;
    return snapshotBootstrap();
  }
}

async function readBootstrap(source: string, http: HttpOptions): Promise<Bootstrap> {
  const text = /^https?:\/\//i.test(source)
    ? (await getJson(source, http)).text
    : await readFile(source, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new LookupError('upstream_error', 'The RDAP bootstrap is not JSON', { cause: err });
  }
  return parseBootstrap(json, source);
}

interface HttpAnswer {
  status: number;
  text: string;
  retryAfter?: number;
}

/** GET with a deadline, a body cap and at most 3 redirects. */
async function getJson(url: string, http: HttpOptions): Promise<HttpAnswer> {
  const timeoutMs = http.timeoutMs ?? 10000;
  const maxBytes = http.maxBytes ?? MAX_RDAP_BYTES;
  const signals = [AbortSignal.timeout(timeoutMs)];
  if (http.signal) signals.push(http.signal);
  if (http.deadline) signals.push(http.deadline);
  const signal = AbortSignal.any(signals);
  let target = url;
  for (let hop = 0; hop <= 3; hop++) {
    throwIfAborted(http.signal);
    const dispatcher =
      hop > 0 && http.redirectDispatcher ? http.redirectDispatcher : http.dispatcher;
    let res: Dispatcher.ResponseData;
    try {
      res = await request(target, {
        method: 'GET',
        headers: { accept: 'application/rdap+json, application/json' },
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(dispatcher ? { dispatcher } : {}),
      });
    } catch (err) {
      throw transportError(err, target, http.signal);
    }
    const location = res.headers.location;
    if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
      res.body.resume();
      target = new URL(location, target).href;
      continue;
    }
    const text = await readCapped(res, maxBytes, target, http.signal);
    const answer: HttpAnswer = { status: res.statusCode, text };
    const retry = Number(res.headers['retry-after']);
    if (Number.isFinite(retry) && retry >= 0) answer.retryAfter = retry;
    return answer;
  }
  throw new LookupError('upstream_error', 'The RDAP server redirected too many times');
}

async function readCapped(
  res: Dispatcher.ResponseData,
  maxBytes: number,
  url: string,
  userSignal: AbortSignal | undefined,
): Promise<string> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.body.destroy();
    throw new LookupError('response_too_large', `${host(url)} sent more than ${maxBytes} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      size += buf.length;
      if (size > maxBytes) {
        res.body.destroy();
        throw new LookupError(
          'response_too_large',
          `${host(url)} sent more than ${maxBytes} bytes`,
        );
      }
      chunks.push(buf);
    }
  } catch (err) {
    if (err instanceof LookupError) throw err;
    throw transportError(err, url, userSignal);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function host(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the server';
  }
}

function transportError(
  err: unknown,
  url: string,
  userSignal: AbortSignal | undefined,
): LookupError {
  if (userSignal?.aborted)
    return new LookupError('cancelled', 'The request was cancelled', { cause: err });
  // The address guard's refusal (blocked_target) comes through undici's connector as it is.
  if (err instanceof LookupError) return err;
  const name = err instanceof Error ? err.name : '';
  const code = (err as { code?: string } | undefined)?.code ?? '';
  if (name === 'TimeoutError' || name === 'AbortError' || /TIMEOUT/.test(code)) {
    return new LookupError('upstream_timeout', `${host(url)} did not answer in time`, {
      cause: err,
    });
  }
  return new LookupError('upstream_error', `Could not reach ${host(url)}`, { cause: err });
}

/** Looks a domain up at an RDAP base URL and maps the answer to the seed's shape. */
export async function lookupRdap(
  domain: string,
  base: string,
  http: HttpOptions = {},
): Promise<WhoisResult> {
  const url = `${base.endsWith('/') ? base : `${base}/`}domain/${encodeURIComponent(domain)}`;
  const answer = await getJson(url, http);
  if (answer.status === 404) throw new LookupError('not_found', 'The domain is not registered');
  if (answer.status === 429) {
    const opts = answer.retryAfter === undefined ? {} : { retryAfter: answer.retryAfter };
    throw new LookupError('rate_limited', `${host(url)} is rate limiting queries`, opts);
  }
  if (answer.status !== 200) {
    throw new LookupError('upstream_error', `${host(url)} answered HTTP ${answer.status}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch (err) {
    throw new LookupError('upstream_error', `${host(url)} sent a reply that is not JSON`, {
      cause: err,
    });
  }
  return rdapToWhois(json, answer.text, domain);
}

type Json = Record<string, unknown>;

const REDACTED = /redacted|not disclosed|withheld|data protected|non-public|privacy/i;

/**
 * RFC 9083 domain object -> the seed's WHOIS shape. Throws `upstream_error` for non-domains.
 * `asked` is the name the look-up asked for: RFC 9083 (section 5.3) does not require a domain
 * object to carry its ldhName, and one without it (the ICANN profile's test replies have none)
 * is the asked name's.
 */
export function rdapToWhois(json: unknown, raw: string, asked?: string): WhoisResult {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new LookupError('upstream_error', 'The RDAP reply is not an object');
  }
  const obj = json as Json;
  if (obj.objectClassName !== 'domain') {
    throw new LookupError('upstream_error', 'The RDAP reply is not a domain object');
  }
  const named = typeof obj.ldhName === 'string' && obj.ldhName !== '' ? obj.ldhName : asked;
  if (named === undefined) {
    throw new LookupError('upstream_error', 'The RDAP domain object names no domain');
  }
  const ldh = named.toLowerCase().replace(/\.$/, '');
  const domain: WhoisDomain = {};
  if (typeof obj.handle === 'string' && obj.handle !== '') domain.id = obj.handle;
  domain.domain =
    typeof obj.unicodeName === 'string' && obj.unicodeName !== ''
      ? obj.unicodeName.toLowerCase().replace(/\.$/, '')
      : ldh;
  domain.punycode = ldh;
  const dot = ldh.lastIndexOf('.');
  domain.name = dot < 0 ? ldh : ldh.slice(0, dot);
  if (dot >= 0) domain.extension = ldh.slice(dot + 1);
  if (typeof obj.port43 === 'string' && obj.port43 !== '')
    domain.whois_server = obj.port43.toLowerCase();
  const status = strings(obj.status).map((s) => s.toLowerCase().replace(/\s+/g, ''));
  if (status.length > 0) domain.status = [...new Set(status)];
  const ns = array(obj.nameservers)
    .map(nameserverName)
    .filter((n) => n !== '');
  if (ns.length > 0) domain.name_servers = [...new Set(ns)];
  if (isSigned(obj.secureDNS)) domain.dnssec = true;
  for (const ev of array(obj.events)) {
    if (!isObj(ev) || typeof ev.eventDate !== 'string') continue;
    // RFC 9083 section 10.2.3 registers the actions in lower case; one written otherwise
    // still says the same thing.
    const action = typeof ev.eventAction === 'string' ? ev.eventAction.toLowerCase() : '';
    const key =
      action === 'registration'
        ? 'created_date'
        : action === 'last changed'
          ? 'updated_date'
          : action === 'expiration'
            ? 'expiration_date'
            : undefined;
    const iso = normalizeDate(ev.eventDate);
    if (key === undefined || iso === undefined || domain[key] !== undefined) continue;
    domain[key] = iso;
    domain[`${key}_in_time`] = iso;
  }
  return { domain, registrar: registrarOf(obj), source: 'rdap', raw };
}

/**
 * A name server object's name in A-labels, without the root's dot; '' when it has none. The
 * ldhName is the one RFC 9083 (section 5.2) has every server give; an IDN server named only by
 * its unicodeName is converted as a name the user types is (normalizeHost).
 */
function nameserverName(n: unknown): string {
  if (!isObj(n)) return '';
  if (typeof n.ldhName === 'string' && n.ldhName !== '') {
    return n.ldhName.toLowerCase().replace(/\.$/, '');
  }
  if (typeof n.unicodeName !== 'string') return '';
  try {
    return normalizeHost(n.unicodeName);
  } catch {
    return ''; // no valid name: the server is left out, as one without a name is
  }
}

/**
 * Whether the secureDNS member says the delegation is signed: delegationSigned, or DS records
 * (or keys) listed without it (RFC 9083 section 5.3: the flag says whether the parent holds DS
 * records, which dsData lists).
 */
function isSigned(secure: unknown): boolean {
  if (!isObj(secure)) return false;
  if (typeof secure.delegationSigned === 'boolean') return secure.delegationSigned;
  return array(secure.dsData).length > 0 || array(secure.keyData).length > 0;
}

function registrarOf(obj: Json): WhoisRegistrar {
  const registrar: WhoisRegistrar = {};
  // Roles are registered in lower case (RFC 9083 section 10.2.4); read whatever the case.
  const entity = array(obj.entities).find(
    (e) => isObj(e) && strings(e.roles).some((role) => role.toLowerCase() === 'registrar'),
  );
  if (!isObj(entity)) return registrar;
  for (const pid of array(entity.publicIds)) {
    if (
      isObj(pid) &&
      typeof pid.type === 'string' &&
      pid.type.toLowerCase() === 'iana registrar id' &&
      typeof pid.identifier === 'string'
    ) {
      registrar.id = pid.identifier;
    }
  }
  // A redacted card may keep "fn" empty (RFC 6350 requires one) and name the registrar in "org".
  const name = vcardValue(entity.vcardArray, 'fn') || vcardValue(entity.vcardArray, 'org');
  if (name !== undefined && name !== '' && !REDACTED.test(name)) registrar.name = name;
  const url =
    vcardValue(entity.vcardArray, 'url') ??
    array(entity.links)
      .filter(isObj)
      .find((l) => l.rel === 'about' || (l.rel !== 'self' && l.type === 'text/html'))?.href;
  if (typeof url === 'string' && url !== '') registrar.referral_url = url;
  return registrar;
}

/**
 * The first text value of a jCard property (RFC 7095); tolerant of malformed cards. jCard
 * writes property names in lower case, vCard's own are of any case (RFC 6350 section 3.3): a
 * card written with "FN" names the same property.
 */
function vcardValue(card: unknown, prop: string): string | undefined {
  if (!Array.isArray(card) || card[0] !== 'vcard' || !Array.isArray(card[1])) return undefined;
  for (const p of card[1] as unknown[]) {
    if (!Array.isArray(p) || typeof p[0] !== 'string' || p[0].toLowerCase() !== prop) continue;
    const v: unknown = p[3];
    if (typeof v === 'string') return v.trim();
    if (Array.isArray(v) && typeof v[0] === 'string') return v[0].trim();
  }
  return undefined;
}

function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function array(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function strings(v: unknown): string[] {
  return array(v).filter((s): s is string => typeof s === 'string');
}
