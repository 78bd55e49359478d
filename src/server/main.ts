// `hostlens serve`: reads tokens, builds the services through the caller's factory (the
// embedded engine in practice), starts the server and shuts it down cleanly on SIGTERM/SIGINT.
import { readFile } from 'node:fs/promises';
import { canonicalRange } from '../services/embedded';
import type { Services } from '../contract/services';
import { tokenProblem } from './auth';
import { formatLog, streamLines, type LogFormat } from './log';
import { startServer, type ServerOptions } from './server';

export interface ServeArgs {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8787. */
  port?: number | string;
  /** Lets the web fetcher reach private, loopback and link-local addresses. */
  allowPrivate?: boolean;
  /**
   * Address ranges (CIDR) the guard lets through while it refuses every other private one: an
   * internal nameserver or site the service must reach. Also HOSTLENS_ALLOW_CIDR, commas.
   */
  allowCidr?: string[];
  /** One token per line; blank lines and `#` comments are skipped. */
  tokensFile?: string;
  /** `text` (default) or `json`. */
  logFormat?: string;
  /** Seconds running requests get to finish after SIGTERM/SIGINT. Default 10. */
  graceSeconds?: string;
  /** Per token: `N/min` (or `N/s`, `N/h`; a bare N is per minute). Default 600/min. */
  rateLimit?: string;
  /** Per token: requests that may arrive at once. Default 100, or a sixth of a set rate. */
  burst?: string;
  /** Per token: requests open at once (across instances with Redis). Default 64. */
  maxOpen?: string;
}

export type CreateServices = (options: {
  blockPrivate: boolean;
  /** with blockPrivate: the ranges the operator opened (--allow-cidr) */
  allowCidrs?: string[];
}) => Services | Promise<Services>;

/** Where serve() writes and which signals it listens to; tests pass their own. */
export interface ServeIo {
  out: (line: string) => void;
  err: (line: string) => void;
  signals: Pick<NodeJS.EventEmitter, 'on' | 'off'>;
  /** In-flight requests get this long to finish after a signal. Default 10 s. */
  graceMs?: number;
  /** Passed on to startServer (limits, timeouts). */
  server?: Partial<Omit<ServerOptions, 'services' | 'tokens' | 'host' | 'port'>>;
  /** Called once listening, with the base URL. */
  onListening?: (url: string) => void;
}

export const defaultIo = (): ServeIo => ({
  // The reader of either stream may go away (`| head -1`); the server keeps serving.
  out: streamLines(process.stdout),
  err: streamLines(process.stderr),
  signals: process,
});

export class ServeConfigError extends Error {}

/** Tokens from HOSTLENS_TOKENS (comma separated) and the tokens file, both when both are set. */
export async function loadTokens(
  argv: Pick<ServeArgs, 'tokensFile'>,
  env: Record<string, string | undefined>,
): Promise<string[]> {
  const tokens: string[] = [];
  for (const part of (env.HOSTLENS_TOKENS ?? '').split(',')) {
    if (part.trim() !== '') tokens.push(part.trim());
  }
  if (argv.tokensFile !== undefined) {
    let text: string;
    try {
      text = await readFile(argv.tokensFile, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new ServeConfigError(`cannot read the tokens file ${argv.tokensFile} (${code})`);
    }
    for (const line of text.split(/\r?\n/)) {
      const token = line.trim();
      if (token !== '' && !token.startsWith('#')) tokens.push(token);
    }
  }
  tokens.forEach((token, i) => {
    const problem = tokenProblem(token);
    // Say which token by position only: the value itself must never be printed.
    if (problem) throw new ServeConfigError(`token #${i + 1}: ${problem}`);
  });
  return [...new Set(tokens)];
}

/**
 * The ranges of --allow-cidr (each flag may hold several, by commas) or, without the flag,
 * HOSTLENS_ALLOW_CIDR, in canonical form (10.1.2.3/8 is 10.0.0.0/8); a bad one stops start-up.
 */
export function allowedRanges(
  argv: Pick<ServeArgs, 'allowCidr'>,
  env: Record<string, string | undefined>,
): string[] {
  const given = argv.allowCidr ?? (env.HOSTLENS_ALLOW_CIDR ?? '').split(',');
  const ranges = new Set<string>();
  for (const part of given.flatMap((v) => v.split(','))) {
    const text = part.trim();
    if (text === '') continue;
    const range = canonicalRange(text);
    if (range === undefined) {
      throw new ServeConfigError(
        `--allow-cidr takes address ranges such as 10.20.0.0/16 or fd00:1::/64, not "${text}"`,
      );
    }
    ranges.add(range);
  }
  return [...ranges];
}

function parseLogFormat(value: string | undefined): LogFormat {
  if (value === undefined || value === 'text' || value === 'json') return value ?? 'text';
  throw new ServeConfigError('--log-format must be text or json');
}

/** Shared limits and the cache, from HOSTLENS_REDIS_URL, HOSTLENS_CACHE, HOSTLENS_CACHE_WEB_TTL. */
function sharedStateOptions(
  env: Record<string, string | undefined>,
): Pick<ServerOptions, 'redisUrl' | 'cache' | 'cacheWebTtlMs'> {
  const redisUrl = env.HOSTLENS_REDIS_URL?.trim() || undefined;
  if (redisUrl === undefined) return {};
  if (!/^rediss?:\/\//i.test(redisUrl)) {
    throw new ServeConfigError('HOSTLENS_REDIS_URL must be a redis:// or rediss:// URL');
  }
  const cache = /^(1|true|on|yes)$/i.test(env.HOSTLENS_CACHE ?? '');
  const ttl = env.HOSTLENS_CACHE_WEB_TTL;
  if (ttl !== undefined && !/^\d{1,6}$/.test(ttl.trim())) {
    throw new ServeConfigError('HOSTLENS_CACHE_WEB_TTL must be a number of seconds');
  }
  return {
    redisUrl,
    cache,
    ...(ttl !== undefined ? { cacheWebTtlMs: Number(ttl.trim()) * 1000 } : {}),
  };
}

const PER_MINUTE: Record<string, number> = {
  s: 60,
  sec: 60,
  min: 1,
  m: 1,
  h: 1 / 60,
  hour: 1 / 60,
};

/**
 * The per-token limits from the flags, else from HOSTLENS_RATE_LIMIT, HOSTLENS_BURST and
 * HOSTLENS_MAX_OPEN; what neither sets keeps its default.
 */
export function tokenLimitOptions(
  argv: Pick<ServeArgs, 'rateLimit' | 'burst' | 'maxOpen'>,
  env: Record<string, string | undefined>,
): Pick<ServerOptions, 'rateLimit' | 'maxOpenPerToken'> {
  const rate = argv.rateLimit ?? env.HOSTLENS_RATE_LIMIT;
  const burst = argv.burst ?? env.HOSTLENS_BURST;
  const maxOpen = argv.maxOpen ?? env.HOSTLENS_MAX_OPEN;
  const options: Pick<ServerOptions, 'rateLimit' | 'maxOpenPerToken'> = {};
  let perMinute = 600;
  if (rate !== undefined) {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*([a-z]+))?\s*$/i.exec(rate);
    const unit = PER_MINUTE[(m?.[2] ?? 'min').toLowerCase()];
    perMinute = m ? Number(m[1]) * (unit ?? NaN) : NaN;
    if (!(perMinute > 0) || !Number.isFinite(perMinute))
      throw new ServeConfigError('--rate-limit takes requests per minute: N/min (or N/s, N/h)');
  }
  const burstCount = burst === undefined ? undefined : positiveInteger(burst, '--burst');
  if (rate !== undefined || burstCount !== undefined) {
    options.rateLimit = {
      perMinute,
      // The default burst of the default rate; a set rate alone gets a sixth of it.
      burst: burstCount ?? (rate === undefined ? 100 : undefined),
    };
  }
  if (maxOpen !== undefined) options.maxOpenPerToken = positiveInteger(maxOpen, '--max-open');
  return options;
}

function positiveInteger(value: string, flag: string): number {
  const n = /^\s*\d{1,9}\s*$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1)) throw new ServeConfigError(`${flag} takes a whole number of at least 1`);
  return n;
}

function parseGrace(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,4}(\.\d+)?$/.test(value.trim())) {
    throw new ServeConfigError('--grace must be a number of seconds');
  }
  return Number(value.trim()) * 1000;
}

function parsePort(value: number | string | undefined): number {
  if (value === undefined) return 8787;
  const port = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ServeConfigError(`--port must be a number from 0 to 65535`);
  }
  return port;
}

/** Runs until SIGTERM/SIGINT; resolves with the process exit code. */
export async function serve(
  argv: ServeArgs,
  env: Record<string, string | undefined>,
  createServices: CreateServices,
  io: ServeIo = defaultIo(),
): Promise<number> {
  let tokens: string[];
  let port: number;
  let logFormat: LogFormat;
  let graceMs: number | undefined;
  let shared: ReturnType<typeof sharedStateOptions>;
  let limits: ReturnType<typeof tokenLimitOptions>;
  let allowCidrs: string[];
  try {
    allowCidrs = allowedRanges(argv, env);
    port = parsePort(argv.port);
    logFormat = parseLogFormat(argv.logFormat);
    graceMs = parseGrace(argv.graceSeconds);
    shared = sharedStateOptions(env);
    limits = tokenLimitOptions(argv, env);
    tokens = await loadTokens(argv, env);
  } catch (err) {
    if (!(err instanceof ServeConfigError)) throw err;
    io.err(`hostlens serve: ${err.message}`);
    return 2;
  }
  if (tokens.length === 0) {
    io.err(
      'hostlens serve: no API tokens configured; set HOSTLENS_TOKENS (comma separated) or ' +
        'pass --tokens-file <file>. Refusing to run without authentication.',
    );
    return 2;
  }
  const blockPrivate = argv.allowPrivate !== true;
  const services = await createServices(
    blockPrivate && allowCidrs.length > 0 ? { blockPrivate, allowCidrs } : { blockPrivate },
  );
  let running;
  try {
    running = await startServer({
      logFormat,
      warmUp: true,
      ...shared,
      ...limits,
      ...io.server,
      services,
      tokens,
      cacheScope: cacheScope(blockPrivate, allowCidrs),
      host: argv.host ?? '127.0.0.1',
      port,
      log: io.server?.log ?? io.out,
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    io.err(`hostlens serve: cannot listen on ${argv.host ?? '127.0.0.1'}:${port} (${code})`);
    return 1;
  }
  const server = running;
  const say = (msg: string, level: 'info' | 'warn' = 'info') => {
    const line = `hostlens serve${msg.startsWith(' ') ? '' : ': '}${msg}`;
    const write = level === 'warn' ? io.err : io.out;
    write(logFormat === 'json' ? formatLog({ kind: 'notice', level, msg: line }, 'json') : line);
  };
  say(
    ` listening on ${server.url} (domain: ${server.url}/domain, meta: ${server.url}/meta)` +
      (argv.allowPrivate ? '; private addresses allowed' : '') +
      (blockPrivate && allowCidrs.length > 0 ? `; allowed ranges: ${allowCidrs.join(', ')}` : '') +
      (shared.redisUrl ? `; limits shared through Redis${shared.cache ? ', cache on' : ''}` : ''),
  );
  io.onListening?.(server.url);

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      say(`${signal}, finishing in-flight requests`);
      server
        .close(graceMs ?? io.graceMs ?? 10_000)
        .then(({ cut }) => {
          io.signals.off('SIGTERM', onTerm);
          io.signals.off('SIGINT', onInt);
          if (cut > 0) {
            say(`stopped; ${cut} request(s) cut after the grace period`, 'warn');
            resolve(1);
            return;
          }
          say('stopped');
          resolve(0);
        })
        .catch(() => resolve(1));
    };
    const onTerm = () => stop('SIGTERM');
    const onInt = () => stop('SIGINT');
    io.signals.on('SIGTERM', onTerm);
    io.signals.on('SIGINT', onInt);
  });
}

/**
 * What the guard allows, as the response cache's scope: answers are shared only between
 * instances that would reach the same addresses (a range one instance opened is closed to
 * another).
 */
export function cacheScope(blockPrivate: boolean, allowCidrs: readonly string[]): string {
  if (!blockPrivate) return 'open';
  return allowCidrs.length === 0 ? 'guarded' : `guarded+${[...allowCidrs].sort().join(',')}`;
}
