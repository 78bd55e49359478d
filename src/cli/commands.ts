// The command line's commands beyond the seed's operations. Each is one row here (what help
// and completion show, read without loading anything) and one module under commands/, imported
// only when that command runs: `hostlens --version`, `help`, `completion` and every command's
// `--help` then start without evaluating the engine, and a command loads only its own part.
//
// Adding a command: write `commands/NAME.ts` exporting `run: CommandRun`, and add its row
// below with `load: () => import('./commands/NAME')`. Nothing else: main.ts dispatches, help
// lists it, `hostlens NAME --help` prints its usage and completion offers the options its
// usage line names (`--opt VALUE` takes a value, `--switch` does not).
import { parseArgs } from 'node:util';
import { argumentError } from './mistyped';
import { OUTPUT_OPTIONS } from './output';

export interface CommandIo {
  /**
   * Prints the command's answer as the user chose: text through the command's renderer in
   * text/index.ts (pretty JSON when it has none) or JSON. `params` are what the renderer may
   * show (the host, the IP asked…).
   */
  print(value: unknown, params?: Record<string, string | string[] | undefined>): void;
  /** Writes text to stdout as it is (a command that writes its own format). */
  write(text: string): void;
}

/** Runs a command with its arguments (the output options already taken out); the exit code. */
export type CommandRun = (args: string[], io: CommandIo, command: Command) => Promise<number>;

export interface Command {
  name: string;
  summary: string;
  /** one line, from `hostlens`; completion reads the options it names */
  usage: string;
  /** the exit status of any error, when the command's own scale differs from 1/2 (tls) */
  errorExit?: number;
  load(): Promise<{ run: CommandRun }>;
  /** --format values beyond text and json that the command writes itself */
  formats?: readonly string[];
}

export const COMMANDS: readonly Command[] = [
  {
    name: 'serve',
    summary:
      'serve the domain and metadata APIs over HTTP (tokens from HOSTLENS_TOKENS or --tokens-file)',
    usage:
      'hostlens serve [--host 127.0.0.1] [--port 8787] [--allow-private] [--allow-cidr CIDR]… [--tokens-file FILE] [--log-format text|json] [--grace SECONDS] [--rate-limit N/min] [--burst N] [--max-open N]',
    load: () => import('./commands/serve'),
  },
  {
    name: 'spf-check',
    summary: 'evaluate an SPF policy for a client IP (RFC 7208 check_host)',
    usage:
      'hostlens spf-check --host <domain> --ip <ip> [--sender <address>] [--helo <name>] [--server <ns>]',
    load: () => import('./commands/spf-check'),
  },
  {
    name: 'mail',
    summary:
      'the whole mail set-up of a domain: SPF tree, DKIM keys, DMARC, MTA-STS, TLS-RPT, BIMI, STARTTLS and DANE of each MX host, the MTA-STS policy',
    usage:
      'hostlens mail --host <domain> [--selectors S]… [--server <ns>] [--skip-transport] [--ca-file FILE]…',
    load: () => import('./commands/mail'),
  },
  {
    name: 'tls',
    summary:
      'a TLS endpoint: chain as sent, trust, CAA, DANE and problems; exit 0 trusted, 1 problems, 2 no connection',
    usage: 'hostlens tls HOST[:PORT] [--starttls smtp] [--server NS] [--ca-file FILE]…',
    errorExit: 2,
    load: () => import('./commands/tls'),
  },
  {
    name: 'openapi',
    summary: 'print the OpenAPI 3.1 description of the HTTP API (as GET /openapi.json serves it)',
    usage: 'hostlens openapi',
    load: () => import('./commands/openapi'),
  },
  {
    name: 'zone-check',
    summary:
      'check a zone file as BIND does when it loads it (errors exit 1, warnings do not); --print adds its records in canonical form',
    usage: 'hostlens zone-check FILE [--origin NAME] [--print]',
    load: () => import('./commands/zone-check'),
  },
  {
    name: 'zone-diff',
    summary:
      'compare a zone file with what its nameservers serve (AXFR when allowed); exit 1 on drift',
    usage: 'hostlens zone-diff FILE [--origin NAME] [--server NS]',
    load: () => import('./commands/zone-diff'),
  },
  {
    name: 'check',
    summary:
      'check the links, mail domains and zone records of files and directories (exit 1 on an error finding)',
    usage:
      'hostlens check [PATH...] [--format text|json|sarif] [--exclude GLOB]... [--cache FILE] [--server NS] [--max-per-host N] [--expiry-days N] [--backend embedded|remote] [--api URL]',
    formats: ['sarif'],
    load: () => import('./commands/check'),
  },
  {
    name: 'completion',
    summary: 'print a shell completion script (eval "$(hostlens completion bash)")',
    usage: 'hostlens completion bash|zsh|fish',
    load: () => import('./commands/completion'),
  },
];

/** A command by either spelling of its words (`spf-check`, `spf_check`), as operations are. */
export function findCommand(name: string): Command | undefined {
  const dashed = name.replace(/_/g, '-');
  return COMMANDS.find((c) => c.name === dashed);
}

type OptionSpecs = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

/** A command's own options parsed strictly; a mistake answers with the command's usage. */
export function parseCommandArgs<T extends OptionSpecs>(
  command: Command,
  args: string[],
  options: T,
) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    const known = [...Object.keys(options).map((o) => `--${o}`), ...OUTPUT_OPTIONS];
    throw argumentError(err, known, `usage: ${command.usage}`);
  }
}
