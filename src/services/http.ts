// The HTTP backend: both service interfaces against a hosted (or self-hosted) HostLens
// service. The token is handed in by the caller (SecretStorage in the editor) and only ever
// goes to the two configured origins: https, or http when the host is loopback; no redirect
// is ever followed; it never appears in an error message.
import { Agent, type Dispatcher } from 'undici';
import { fromProblem, LookupError, type Problem } from '../contract/errors';
import { printable } from '../contract/errors';
import { OPERATIONS, type Operation } from '../contract/operations';
import type { CallOptions, DomainService, MetaService, Services } from '../contract/services';
import { DEFAULT_REQUEST_DEADLINE_MS } from '../contract/limits';
import { callDeadline } from './deadline';

export interface HttpServicesOptions {
  domainApiBaseUrl: string;
  metaApiBaseUrl: string;
  /** Read on every call, so a token set or cleared later is picked up. */
  token: () => Promise<string | undefined> | string | undefined;
  /** Whole call, connect to last body byte. Default 30 s. */
  timeoutMs?: number;
  /** Largest response body accepted. Default 8 MiB. */
  maxResponseBytes?: number;
  /** Default: an Agent owned (and closed) by this object. */
  dispatcher?: Dispatcher;
}

const LABEL = { domain: 'domain service', meta: 'web metadata service' } as const;

// Where the token may go: in baseUrl.ts, which the editor reads without this client.
import { checkBaseUrl } from './baseUrl';
export { checkBaseUrl, isLoopbackHost } from './baseUrl';

function operation(method: string): Operation {
  const op = OPERATIONS.find((o) => o.method === method);
  if (!op) throw new Error(`No operation for ${method}`);
  return op;
}

/** The query string of a call: repeated names for arrays, absent values left out. */
export function queryString(op: Operation, params: object): string {
  const search = new URLSearchParams();
  const values = params as Record<string, unknown>;
  for (const spec of op.params) {
    const value = values[spec.name];
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      search.append(spec.name, String(item));
    }
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

export class HttpServices implements DomainService, MetaService, Services {
  private readonly bases: { domain: URL | LookupError; meta: URL | LookupError };
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private closed = false;

  constructor(private readonly options: HttpServicesOptions) {
    // A bad URL fails each call (a typed error in the editor), not construction.
    const check = (value: string, setting: string) => {
      try {
        return checkBaseUrl(value, setting);
      } catch (err) {
        return err as LookupError;
      }
    };
    this.bases = {
      domain: check(options.domainApiBaseUrl, 'The domain API base URL'),
      meta: check(options.metaApiBaseUrl, 'The metadata API base URL'),
    };
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_DEADLINE_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? 8 * 1024 * 1024;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? new Agent({ connections: 16 });
  }

  get domain(): DomainService {
    return this;
  }

  get meta(): MetaService {
    return this;
  }

  // Every operation is one GET described by the operation table.
  readonly query: DomainService['query'] = (p, o) => this.call(operation('query'), p, o);
  readonly domainKeys: DomainService['domainKeys'] = (p, o) =>
    this.call(operation('domainKeys'), p, o);
  readonly senderPolicyRanges: DomainService['senderPolicyRanges'] = (p, o) =>
    this.call(operation('senderPolicyRanges'), p, o);
  readonly whois: DomainService['whois'] = (p, o) => this.call(operation('whois'), p, o);
  readonly tls: DomainService['tls'] = (p, o) => this.call(operation('tls'), p, o);
  readonly mtaSts: DomainService['mtaSts'] = (p, o) => this.call(operation('mtaSts'), p, o);
  readonly icons: MetaService['icons'] = (p, o) => this.call(operation('icons'), p, o);
  readonly redirects: MetaService['redirects'] = (p, o) => this.call(operation('redirects'), p, o);
  readonly unfurl: MetaService['unfurl'] = (p, o) => this.call(operation('unfurl'), p, o);
  readonly image: MetaService['image'] = (p, o) => this.call(operation('image'), p, o);
  readonly link: MetaService['link'] = (p, o) => this.call(operation('link'), p, o);

  /** Closes the connection pool this object created (not a dispatcher passed in). */
  async close(): Promise<void> {
    if (!this.ownsDispatcher || this.closed) return;
    this.closed = true;
    await this.dispatcher.close();
  }

  private async call<T>(op: Operation, params: object, options: CallOptions = {}): Promise<T> {
    const base = this.bases[op.service];
    if (base instanceof LookupError) throw base;
    if (options.signal?.aborted) throw cancelled(options.signal.reason);
    const secret = await this.readToken();
    const redact = (text: string) => text.split(secret).join('[token]');
    const label = LABEL[op.service];
    const timeoutMs = Math.min(this.timeoutMs, options.timeoutMs ?? Infinity);
    const deadline = callDeadline(timeoutMs, options.signal);
    try {
      const response = await this.dispatcher.request({
        origin: base.origin,
        path: `${base.pathname}${op.path}${queryString(op, params)}`,
        method: 'GET',
        headers: { authorization: secret, accept: 'application/json' },
        signal: deadline.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        // Turns off a redirect interceptor a caller's dispatcher may carry.
        maxRedirections: 0,
      } as Dispatcher.RequestOptions);
      const body = await this.readBody(response, label);
      return answerFrom(response, body, label, redact) as T;
    } catch (err) {
      if (err instanceof LookupError) throw err;
      if (options.signal?.aborted) throw cancelled(options.signal.reason);
      if (deadline.expired()) {
        throw new LookupError(
          'upstream_timeout',
          `The ${label} did not answer within ${timeoutMs} ms`,
        );
      }
      throw transportError(err, label, base.origin, redact);
    } finally {
      deadline.dispose();
    }
  }

  /** The token as a header can carry it; `unauthorized` when there is none. */
  private async readToken(): Promise<string> {
    let token: string | undefined;
    try {
      token = await this.options.token();
    } catch (err) {
      throw new LookupError('unauthorized', 'The API token could not be read', { cause: err });
    }
    token = token?.trim();
    if (token === undefined || token === '') {
      throw new LookupError('unauthorized', 'No API token is set');
    }
    if (/[^\x20-\x7e]/.test(token)) {
      throw new LookupError('unauthorized', 'The API token holds characters a header cannot carry');
    }
    return token;
  }

  private async readBody(response: Dispatcher.ResponseData, label: string): Promise<string> {
    const declared = Number(response.headers['content-length']);
    // Destroying the body makes undici emit an abort error; nobody else is listening for it.
    response.body.on('error', () => undefined);
    if (Number.isFinite(declared) && declared > this.maxResponseBytes) {
      response.body.destroy();
      throw tooLarge(label, this.maxResponseBytes);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      const buf = chunk as Buffer;
      size += buf.length;
      if (size > this.maxResponseBytes) {
        response.body.destroy();
        throw tooLarge(label, this.maxResponseBytes);
      }
      chunks.push(buf);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}

/** The JSON object of a 2xx answer; a typed error for redirects, problems and non-objects. */
function answerFrom(
  response: Dispatcher.ResponseData,
  body: string,
  label: string,
  redact: (text: string) => string,
): object {
  const status = response.statusCode;
  if (status >= 300 && status < 400) {
    throw new LookupError(
      'upstream_error',
      `The ${label} answered with a redirect (HTTP ${status}); redirects are not followed`,
    );
  }
  if (status >= 400) throw errorFrom(status, response.headers, body, label, redact);
  const parsed = parseObject(body);
  if (parsed === undefined) {
    throw new LookupError(
      'upstream_error',
      `The ${label} answered with a body that is not a JSON object`,
    );
  }
  return parsed;
}

function parseObject(text: string): object | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? parsed
      : undefined;
  } catch {
    return undefined;
  }
}

function cancelled(reason: unknown): LookupError {
  return new LookupError('cancelled', 'The request was cancelled', { cause: reason });
}

function tooLarge(label: string, max: number): LookupError {
  return new LookupError('response_too_large', `The ${label} sent more than ${max} bytes`);
}

function errorFrom(
  status: number,
  headers: Dispatcher.ResponseData['headers'],
  body: string,
  label: string,
  redact: (text: string) => string,
): LookupError {
  const type = String(headers['content-type'] ?? '');
  let problem: Partial<Problem> | undefined;
  if (/json/i.test(type)) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (typeof parsed === 'object' && parsed !== null) problem = parsed;
    } catch {
      problem = undefined;
    }
  }
  const fallback = body.trim() === '' ? '' : `: ${printable(redact(body.trim()), 200)}`;
  const base = problem
    ? fromProblem(problem, status)
    : fromProblem({ detail: `The ${label} answered HTTP ${status}${fallback}` }, status);
  const retry = Number(headers['retry-after']);
  return new LookupError(base.code, printable(redact(base.detail), 500), {
    retryAfter: Number.isFinite(retry) && retry >= 0 ? retry : undefined,
  });
}

function transportError(
  err: unknown,
  label: string,
  origin: string,
  redact: (text: string) => string,
): LookupError {
  const code = (err as { code?: unknown }).code;
  const tag = typeof code === 'string' ? code : err instanceof Error ? err.name : 'error';
  if (
    tag === 'UND_ERR_HEADERS_TIMEOUT' ||
    tag === 'UND_ERR_BODY_TIMEOUT' ||
    tag === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return new LookupError('upstream_timeout', `The ${label} at ${origin} timed out (${tag})`);
  }
  return new LookupError(
    'upstream_error',
    redact(`Could not reach the ${label} at ${origin} (${tag})`),
    {
      cause: err,
    },
  );
}
