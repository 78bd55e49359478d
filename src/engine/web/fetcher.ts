// The one way the engine fetches a web page or image: undici with redirects followed by hand
// (each hop recorded, every connection re-checked by the address guard), bounded in time and
// bytes across the whole operation, with a cookie jar that lives for one chain only.
import type { LookupAddress } from 'node:dns';
import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';
import { buildConnector, type Dispatcher } from 'undici';
import { LookupError } from '../../contract/errors';
import type { RedirectHop } from '../../contract/shapes';
import { ChainCookieJar } from './cookies';
import type { SecureContext } from 'node:tls';
import { CONNECT_TIMEOUT_MS, guardedConnector } from '../agent';
import { createAddressGuard, systemResolveAll } from '../guard';
import { WebPool } from './pool';
import { sharedLookups } from './shared-lookups';

/** The names Node gives OpenSSL's certificate verification failures (X509_V_ERR_* less the prefix). */
const OPENSSL_VERIFY_CODE = /CERT|ISSUER|SELF_SIGNED|LEAF_SIGNATURE|CHAIN_TOO_LONG|PATH_LENGTH/;

export const USER_AGENT = 'HostLens/0.1 (+https://hostlens.dev)';

export interface WebLimits {
  /** TCP (and TLS) connection set-up, per connection */
  connectTimeoutMs: number;
  /** from request sent to response headers complete; also the longest pause inside a body */
  headersTimeoutMs: number;
  /** everything one operation does: the whole chain, the page, every icon probe */
  totalTimeoutMs: number;
  /** body bytes of a page after decompression */
  maxBodyBytes: number;
  /** body bytes of one image (icon probe, data: URI for the panel) after decompression */
  maxImageBytes: number;
  /** body bytes of a web app manifest */
  maxManifestBytes: number;
  maxRedirects: number;
  maxIcons: number;
}

export const DEFAULT_WEB_LIMITS: Readonly<WebLimits> = {
  connectTimeoutMs: CONNECT_TIMEOUT_MS,
  headersTimeoutMs: 10_000,
  totalTimeoutMs: 20_000,
  maxBodyBytes: 5 * 1024 * 1024,
  maxImageBytes: 1024 * 1024,
  maxManifestBytes: 256 * 1024,
  maxRedirects: 20,
  maxIcons: 20,
};

/** Resolves a host name to its addresses (tests inject one; the default is the system's). */
export type LookupFunction = (hostname: string) => Promise<LookupAddress[]>;

export interface WebOptions {
  signal?: AbortSignal;
  /** Refuse private, loopback, link-local, CGNAT, multicast, mapped and metadata addresses. */
  blockPrivate?: boolean;
  /** With blockPrivate: ranges the operator does want reachable (CIDR strings). */
  allowCidrs?: string[];
  limits?: Partial<WebLimits>;
  /** Name resolution used by the connector (tests: to change an answer between look-ups). */
  lookup?: LookupFunction;
  /**
   * Replaces how sockets are opened (tests: route every origin to one loopback server). The
   * guard still checks the address each socket really connected to.
   */
  connector?: buildConnector.connector;
  /**
   * A connection pool kept across operations (createWebPool, same options), for callers that
   * make many small fetches (the link check); the session then neither builds nor closes one.
   */
  agent?: WebPool;
  /** the CAs to verify https servers against, instead of Node's defaults */
  secureContext?: SecureContext;
}

export interface ChainEnd {
  hops: RedirectHop[];
  /** the URL that gave the last response */
  url: URL;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** the last response with its body unread; absent for HEAD and when the walk stopped on an error */
  response?: Dispatcher.ResponseData;
  error?: 'redirect_loop' | 'too_many_redirects';
}

export interface ChainRequest {
  accept: string;
  /** GET unless asked; a HEAD chain is followed with HEAD at every hop */
  method?: 'GET' | 'HEAD';
  /**
   * A GET whose bodies are not wanted (a link check's GET after a refused HEAD): each answer is
   * its status and headers, the body read off and dropped as it comes, within the bounds of
   * discard(). The chain's end then has no `response`.
   */
  statusOnly?: boolean;
  language?: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Connections a session's pool opens to one origin (the link check asks for 4 by default). */
const CONNECTIONS_PER_ORIGIN = 8;

/** One operation's fetching context: limits, deadline, guard and connection pool. */
export class WebSession {
  readonly limits: WebLimits;
  /**
   * Why the operation was stopped (cancelled, or past its deadline); every wait in flight is
   * ended with it at once.
   */
  private stopped: LookupError | undefined;
  /**
   * Built when something first asks for `signal`: a link check's HEAD needs none, and one
   * controller and signal for each of thousands of links was a measurable part of a check.
   */
  private controller: AbortController | undefined;
  /** What to end when the operation is stopped: each answer waited for (see answer()). */
  private onStop: Set<AnswerWait> | undefined;
  private readonly agent: WebPool;
  private readonly ownsAgent: boolean;
  private readonly timer: NodeJS.Timeout;
  /** Takes the listener off the caller's signal (none without one: a link check's HEADs). */
  private readonly detach: (() => void) | undefined;

  constructor(options: WebOptions = {}) {
    this.limits = options.limits
      ? { ...DEFAULT_WEB_LIMITS, ...options.limits }
      : DEFAULT_WEB_LIMITS;
    const outer = options.signal;
    if (outer) {
      if (outer.aborted) this.abortAsCancelled(outer.reason);
      const onAbort = () => this.abortAsCancelled(outer.reason);
      outer.addEventListener('abort', onAbort, { once: true });
      this.detach = () => outer.removeEventListener('abort', onAbort);
    }
    const seconds = this.limits.totalTimeoutMs / 1000;
    this.timer = setTimeout(() => {
      this.stop(new LookupError('upstream_timeout', `The site did not answer within ${seconds} s`));
    }, this.limits.totalTimeoutMs);
    this.timer.unref();
    this.ownsAgent = options.agent === undefined;
    this.agent = options.agent ?? createWebPool(options, this.limits);
  }

  /** Aborted, with the reason, once the operation is cancelled or past its deadline. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.stopped) this.controller.abort(this.stopped);
    }
    return this.controller.signal;
  }

  close(): void {
    clearTimeout(this.timer);
    this.detach?.();
    // Not awaited: a connection still being set up must not hold the caller's answer back.
    if (this.ownsAgent) void this.agent.destroy().catch(() => undefined);
  }

  /**
   * Requests `start` and follows redirects by hand. Every hop is recorded; a loop or more
   * than maxRedirects hops ends the walk with `error` and the hops so far.
   */
  async follow(start: URL, request: ChainRequest): Promise<ChainEnd> {
    // made when a response first sets a cookie: most chains never see one
    let jar: ChainCookieJar | undefined;
    const hops: RedirectHop[] = [];
    // What the chain's requests asked, made at its first redirect (one request is no loop).
    // A revisit is only a loop if nothing changed: a cookie set on the way may send the same
    // URL somewhere new (consent and login redirects).
    let seen: Set<string> | undefined;
    let url = start;
    for (;;) {
      const cookie = jar?.header(url);
      if (seen !== undefined) {
        const key = visit(url, cookie);
        if (seen.has(key))
          return {
            hops,
            url,
            status: hops.at(-1)?.status_code ?? 0,
            headers: {},
            error: 'redirect_loop',
          };
        seen.add(key);
      }
      // a GET's response, with a body to read or let go; a HEAD's answer has none, and a
      // status-only GET's body is dropped as it comes
      const full =
        request.method === 'HEAD' || request.statusOnly
          ? undefined
          : await this.request(url, request, cookie);
      const response = full ?? (await this.answer(url, request, cookie));
      const setCookie = response.headers['set-cookie'];
      if (setCookie !== undefined) (jar ??= new ChainCookieJar()).store(url, setCookie);
      const location = header(response.headers, 'location');
      const next =
        REDIRECT_STATUSES.has(response.statusCode) && location !== undefined
          ? resolveLocation(location, url)
          : undefined;
      if (next === undefined) {
        const end: ChainEnd = { hops, url, status: response.statusCode, headers: response.headers };
        if (full) end.response = full;
        return end;
      }
      if (full) discard(full);
      seen ??= new Set([visit(url, cookie)]);
      hops.push({ status_code: response.statusCode, location: next.href });
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        return { hops, url, status: response.statusCode, headers: response.headers };
      }
      if (hops.length > this.limits.maxRedirects) {
        return {
          hops,
          url,
          status: response.statusCode,
          headers: response.headers,
          error: 'too_many_redirects',
        };
      }
      url = next;
    }
  }

  /**
   * Reads a body after decompression, stopping with `response_too_large` past `maxBytes`
   * (a compression bomb is cut off as it inflates). `sink` returns true to stop early.
   */
  async readBody(
    end: ChainEnd,
    maxBytes: number,
    sink: (chunk: Buffer) => boolean | void,
  ): Promise<void> {
    const response = end.response;
    if (!response) return;
    const declared = Number(header(response.headers, 'content-length'));
    const encoding = (header(response.headers, 'content-encoding') ?? '').trim().toLowerCase();
    const inflater = decompressor(encoding);
    if (!inflater && declared > maxBytes) {
      abandon(response);
      throw tooLarge(maxBytes);
    }
    const stream: Readable = inflater
      ? pipeline(response.body, inflater, () => undefined)
      : response.body;
    let total = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (total > maxBytes) throw tooLarge(maxBytes);
        if (sink(chunk)) break;
      }
    } catch (err) {
      throw this.toError(err, end.url);
    } finally {
      discard(response);
      inflater?.destroy();
    }
  }

  /** Reads a whole body into one buffer, within `maxBytes`. */
  async readAll(end: ChainEnd, maxBytes: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    await this.readBody(end, maxBytes, (chunk) => {
      chunks.push(chunk);
    });
    return Buffer.concat(chunks);
  }

  /** Maps anything a fetch threw to a contract error, without internal addresses. */
  toError(err: unknown, url: URL): LookupError {
    if (this.stopped) return this.stopped;
    if (err instanceof LookupError) return err;
    const code = (err as { code?: string } | undefined)?.code ?? '';
    const host = url.hostname;
    if (code.endsWith('_TIMEOUT') || code === 'ETIMEDOUT') {
      return new LookupError('upstream_timeout', `${host} did not answer in time`, { cause: err });
    }
    if (code === 'ENOTFOUND') {
      return new LookupError('not_found', `${host} does not resolve`, { cause: err });
    }
    if (code === 'UND_ERR_HEADERS_OVERFLOW') {
      return new LookupError('response_too_large', `${host} sent oversized headers`, {
        cause: err,
      });
    }
    if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
      return new LookupError(
        'upstream_error',
        `${host} sent a body that does not match its length`,
        { cause: err },
      );
    }
    if (code.startsWith('Z_') || code === 'ERR__ERROR_FORMAT_PADDING_1') {
      return new LookupError('upstream_error', `${host} sent a body that does not decompress`, {
        cause: err,
      });
    }
    if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || OPENSSL_VERIFY_CODE.test(code)) {
      // Say so: a bad certificate is the commonest reason an https page cannot be fetched.
      return new LookupError(
        'upstream_error',
        `${host}'s certificate is refused: ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
    return new LookupError('upstream_error', `${host} could not be fetched`, { cause: err });
  }

  private async request(url: URL, request: ChainRequest, cookie: string | undefined) {
    const pending = this.agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: requestHeaders(request, cookie),
      signal: this.signal,
    });
    try {
      return await abortable(pending, this.signal);
    } catch (err) {
      throw this.toError(err, url);
    }
  }

  /**
   * A HEAD request, or a status-only GET: its status and headers, through undici's handler
   * interface. No body stream is built for it, none is let go (a link check makes thousands):
   * a HEAD's answer has no content (RFC 9110 section 9.3.2) and is given once complete; a GET's
   * is given at its headers, its body dropped as it comes.
   */
  private answer(url: URL, request: ChainRequest, cookie: string | undefined): Promise<HeadAnswer> {
    return new Promise((resolve, reject) => {
      const head = request.method === 'HEAD';
      const wait = new AnswerWait(this, url, head, resolve, reject);
      if (this.stopped) return wait.stop(this.stopped);
      (this.onStop ??= new Set()).add(wait);
      this.agent.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: head ? 'HEAD' : 'GET',
          headers: requestHeaders(request, cookie),
          // undici closes the connection after every HEAD by default (a server might send a
          // body anyway and garble the next answer): a link check's HEADs to one host would
          // each open a connection. Such a server's next answer fails to parse, an
          // upstream_error the link check tries again on a fresh connection.
          reset: false,
        },
        wait,
      );
    });
  }

  /** Why the session stopped (cancelled, past its deadline), or undefined while it runs. */
  get stopReason(): LookupError | undefined {
    return this.stopped;
  }

  /** An answer's wait is done with: the session no longer needs to end it. */
  forget(wait: AnswerWait): void {
    this.onStop?.delete(wait);
  }

  private abortAsCancelled(reason: unknown): void {
    this.stop(new LookupError('cancelled', 'The request was cancelled', { cause: reason }));
  }

  /** The first reason wins: a deadline after a cancel does not turn it into a timeout. */
  private stop(reason: LookupError): void {
    if (this.stopped) return;
    this.stopped = reason;
    this.controller?.abort(reason);
    if (!this.onStop) return;
    for (const wait of this.onStop) wait.stop(reason);
    this.onStop.clear();
  }
}

type HeadAnswer = Pick<Dispatcher.ResponseData, 'statusCode' | 'headers'>;

/**
 * One HEAD or status-only GET request's wait, as undici's handler: answered once a HEAD's
 * response is complete or a GET's headers are in, ended at once when its session stops, also
 * while still waiting for a connection. A GET's body is read off after the answer, within
 * DRAIN_BYTES and DRAIN_MS like discard()'s, then the request is cut off. One object, not a
 * closure per callback: a link check makes thousands.
 */
class AnswerWait implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private answer: HeadAnswer | undefined;
  private settled = false;
  /** the response has ended (or failed): nothing more to drop */
  private ended = false;
  private dropped = 0;
  private drainTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly session: WebSession,
    private readonly url: URL,
    private readonly head: boolean,
    private readonly resolve: (answer: HeadAnswer) => void,
    private readonly reject: (err: LookupError) => void,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    const stopped = this.session.stopReason;
    if (stopped) controller.abort(stopped);
  }

  onResponseStart(
    _c: Dispatcher.DispatchController,
    statusCode: number,
    headers: HeadAnswer['headers'],
  ): void {
    // 1xx interim answers are followed by the real one
    if (statusCode < 200) return;
    this.answer = { statusCode, headers };
    if (this.head) return;
    this.settle();
    // The body bounded in time too, once the read that brought the headers did not end it.
    queueMicrotask(() => {
      if (this.ended) return;
      this.drainTimer = setTimeout(() => this.cut(), DRAIN_MS);
      this.drainTimer.unref();
    });
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    this.dropped += chunk.length;
    if (this.dropped > DRAIN_BYTES) this.cut();
  }

  onResponseEnd(): void {
    this.end();
    this.settle();
  }

  onResponseError(_c: Dispatcher.DispatchController, err: Error): void {
    this.end();
    this.settle(err);
  }

  stop(reason: LookupError): void {
    this.controller?.abort(reason);
    this.settle(reason);
  }

  /** A body too long in bytes or time: its connection is closed rather than read on. */
  private cut(): void {
    if (!this.ended) this.controller?.abort(new Error('unwanted body cut off'));
  }

  private end(): void {
    this.ended = true;
    clearTimeout(this.drainTimer);
  }

  private settle(err?: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.session.forget(this);
    if (err === undefined && this.answer) this.resolve(this.answer);
    else this.reject(this.session.toError(err ?? new Error('no response'), this.url));
  }
}

/** A request of a chain, as loop detection compares them: the URL and the cookies sent. */
function visit(url: URL, cookie: string | undefined): string {
  return `${url.href}\n${cookie ?? ''}`;
}

/**
 * The headers of requests with no language and no cookie, by what they accept (a few kinds:
 * pages, images, manifests): one object each, as a link check sends thousands. undici only
 * reads them.
 */
const PLAIN_HEADERS = new Map<string, Readonly<Record<string, string>>>();
const MAX_PLAIN_HEADERS = 16;

/** What every request of a chain says about itself and what it accepts. */
function requestHeaders(
  request: ChainRequest,
  cookie: string | undefined,
): Readonly<Record<string, string>> {
  if (request.language !== undefined || cookie !== undefined) return ownHeaders(request, cookie);
  let headers = PLAIN_HEADERS.get(request.accept);
  if (headers === undefined) {
    headers = Object.freeze(ownHeaders(request, undefined));
    if (PLAIN_HEADERS.size < MAX_PLAIN_HEADERS) PLAIN_HEADERS.set(request.accept, headers);
  }
  return headers;
}

function ownHeaders(request: ChainRequest, cookie: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': USER_AGENT,
    accept: request.accept,
    'accept-encoding': 'gzip, deflate, br',
  };
  if (request.language !== undefined) headers['accept-language'] = request.language;
  if (cookie !== undefined) headers.cookie = cookie;
  return headers;
}

/**
 * The request, or the signal's reason as soon as it fires: undici leaves a request that is
 * still waiting for its connection pending after an abort. A late response is discarded.
 */
function abortable(
  pending: Promise<Dispatcher.ResponseData>,
  signal: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (response) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) abandon(response);
        else resolve(response);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/**
 * The connection pool of a session: the guard (server mode) on every connection it opens.
 * Where the pool resolves names itself (the guard's look-up, or a lookup given: a named
 * nameserver), a host's connections share one look-up (shared-lookups.ts); otherwise net's
 * own look-up is left as it is.
 */
export function createWebPool(
  options: WebOptions,
  limits: WebLimits = DEFAULT_WEB_LIMITS,
): WebPool {
  const guard = options.blockPrivate ? createAddressGuard(options.allowCidrs) : undefined;
  const resolve = options.lookup ?? (guard ? systemResolveAll : undefined);
  const connector = { ...options, connectTimeoutMs: limits.connectTimeoutMs };
  if (resolve) connector.lookup = sharedLookups(resolve);
  return new WebPool(
    {
      connect: guardedConnector(connector, guard),
      headersTimeout: limits.headersTimeoutMs,
      bodyTimeout: limits.headersTimeoutMs,
    },
    CONNECTIONS_PER_ORIGIN,
  );
}

/** Runs `work` in a fresh session and always releases its connections. */
export async function withSession<T>(
  options: WebOptions | undefined,
  work: (session: WebSession) => Promise<T>,
): Promise<T> {
  const session = new WebSession(options);
  try {
    return await work(session);
  } finally {
    session.close();
  }
}

/** Validates the language parameter before it becomes a header. */
export function checkLanguage(language: string | undefined): string | undefined {
  if (language === undefined) return undefined;
  const trimmed = language.trim();
  if (trimmed === '') return undefined;
  if (trimmed.length > 256 || !/^[\x20-\x7e]+$/.test(trimmed)) {
    throw new LookupError('invalid_argument', 'language must be a short Accept-Language value');
  }
  return trimmed;
}

export function header(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function resolveLocation(location: string, base: URL): URL | undefined {
  try {
    return new URL(location.trim(), base);
  } catch {
    return undefined;
  }
}

function decompressor(encoding: string) {
  if (encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate') return createUnzip();
  if (encoding === 'br') return createBrotliDecompress();
  return undefined;
}

function tooLarge(maxBytes: number): LookupError {
  return new LookupError('response_too_large', `The response is larger than ${maxBytes} bytes`);
}

/**
 * The most of an unwanted body read off so its connection can serve the next request to that
 * origin (a HEAD answer, a redirect, an error page), and how long that may take. Destroying an
 * unread body makes undici close the connection: a check of thousands of links then opened one
 * per request, and spent most of its time setting them up.
 */
const DRAIN_BYTES = 64 * 1024;
const DRAIN_MS = 2_000;

/** Lets go of a response body we will not read: drained when small, else cut off. */
export function discard(response: Dispatcher.ResponseData): void {
  const body = response.body;
  body.on('error', ignore);
  if (body.destroyed) return;
  const timer = setTimeout(() => body.destroy(), DRAIN_MS);
  timer.unref();
  body.dump({ limit: DRAIN_BYTES }).then(
    () => clearTimeout(timer),
    () => clearTimeout(timer),
  );
}

function ignore(): void {}

/** Cuts a response off without reading more of it (the caller gave up on it). */
function abandon(response: Dispatcher.ResponseData): void {
  response.body.on('error', () => undefined);
  response.body.destroy();
}
