// `hostlens serve`: reads tokens, builds the services through the caller's factory (the
// embedded engine in practice), starts the server and shuts it down cleanly on SIGTERM/SIGINT.
import { readFile } from 'node:fs/promises';
import type { Services } from '../contract/services';
import { tokenProblem } from './auth';
import { startServer, type ServerOptions } from './server';

export interface ServeArgs {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8787. */
  port?: number | string;
  /** Lets the web fetcher reach private, loopback and link-local addresses. */
  allowPrivate?: boolean;
  /** One token per line; blank lines and `#` comments are skipped. */
  tokensFile?: string;
}

export type CreateServices = (options: { blockPrivate: boolean }) => Services | Promise<Services>;

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

const defaultIo = (): ServeIo => ({
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
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
  try {
    port = parsePort(argv.port);
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
  const services = await createServices({ blockPrivate: argv.allowPrivate !== true });
  let running;
  try {
    running = await startServer({
      ...io.server,
      services,
      tokens,
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
  io.out(
    `hostlens serve listening on ${server.url} (domain: ${server.url}/domain, meta: ${server.url}/meta)` +
      (argv.allowPrivate ? '; private addresses allowed' : ''),
  );
  io.onListening?.(server.url);

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      io.out(`hostlens serve: ${signal}, finishing in-flight requests`);
      server
        .close(io.graceMs ?? 10_000)
        .then(() => {
          io.signals.off('SIGTERM', onTerm);
          io.signals.off('SIGINT', onInt);
          io.out('hostlens serve: stopped');
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
