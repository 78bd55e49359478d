// hostlens <operation> …: the seed's operations on the command line, over the embedded
// engine, plus `hostlens serve` and the other extra commands. On a terminal the answer is
// text for people; piped, it is the same JSON as the HTTP API on one line (output.ts).
// Errors: one line on stderr, or problem JSON with JSON output.
//   exit 0: an answer; 1: the look-up failed; 2: bad input or usage.
import { parseArgs } from 'node:util';
import { LookupError } from '../contract/errors';
import { findOperation, OPERATIONS, type Operation } from '../contract/operations';
import { completionCommand } from './completion';
import { extraCommands, type ExtraCommand } from './extras';
import {
  decideOutput,
  OUTPUT_HELP,
  printError,
  printResult,
  processTerminal,
  takeOutputFlags,
  type Output,
  type Terminal,
} from './output';

const VERSION = '0.1.0';

// The short form for people: `hostlens query example.com MX TXT`, `hostlens whois example.com`.
const POSITIONAL_PARAMS: Record<string, string[]> = {
  query: ['host', 'types'],
  domain_keys: ['host', 'selectors'],
  sender_policy_ranges: ['host'],
  whois: ['host'],
  icons: ['url'],
  redirects: ['url'],
  unfurl: ['url'],
  image: ['url'],
};

export async function main(
  argv: string[],
  terminal: Terminal = processTerminal(),
): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(usage());
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const { rest, flags, error } = takeOutputFlags(args);
  const output = decideOutput(flags, terminal);
  // A bad --format is reported in the format the other flags (or the terminal) chose.
  if (error) return printError(error, output);
  const extra = commands().find((c) => c.name === command);
  if (extra) return runExtra(extra, rest, output, terminal);
  const operation = findOperation(command.replace(/-/g, '_'));
  if (!operation)
    return printError(
      new LookupError('invalid_argument', `Unknown command "${command}". Run "hostlens help".`),
      output,
    );
  return runOperation(operation, rest, output, terminal);
}

/** The extra commands and `completion`, which lists them all. */
function commands(): ExtraCommand[] {
  const extras = extraCommands();
  return [...extras, completionCommand(() => extras)];
}

async function runOperation(
  operation: Operation,
  args: string[],
  output: Output,
  terminal: Terminal,
): Promise<number> {
  let params: Record<string, string | string[]>;
  try {
    params = parseOperationArgs(operation, args);
  } catch (err) {
    return printError(err, output);
  }
  // Loaded on demand: `--version`, `help` and `completion` (run by every new shell that
  // sources it) then start without evaluating the engine and its dependencies.
  const { EmbeddedServices } = await import('../services/embedded');
  const services = new EmbeddedServices({});
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once('SIGINT', interrupt);
  try {
    const call = services[operation.service][operation.method as never] as (
      p: unknown,
      o: unknown,
    ) => Promise<unknown>;
    const result = await call.call(services[operation.service], params, {
      signal: controller.signal,
    });
    printResult(operation.name, result, params, output, terminal);
    return 0;
  } catch (err) {
    return printError(err, output);
  } finally {
    process.off('SIGINT', interrupt);
  }
}

function parseOperationArgs(
  operation: Operation,
  args: string[],
): Record<string, string | string[]> {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  for (const p of operation.params) {
    options[p.name] = p.flag ? { type: 'boolean' } : { type: 'string', multiple: p.repeated };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new LookupError(
      'invalid_argument',
      `${(err as Error).message}\n\n${operationUsage(operation)}`,
    );
  }
  const params: Record<string, string | string[]> = {};
  for (const p of operation.params) {
    const value = parsed.values[p.name];
    if (value === true) params[p.name] = 'true';
    else if (typeof value === 'string' || Array.isArray(value))
      params[p.name] = value as string | string[];
  }
  const positionalNames = POSITIONAL_PARAMS[operation.name] ?? [];
  const positionals = [...parsed.positionals];
  for (const name of positionalNames) {
    if (positionals.length === 0) break;
    const spec = operation.params.find((p) => p.name === name)!;
    if (spec.repeated) {
      params[name] = [...((params[name] as string[] | undefined) ?? []), ...positionals.splice(0)];
    } else if (params[name] === undefined) {
      params[name] = positionals.shift()!;
    }
  }
  if (positionals.length > 0) {
    throw new LookupError(
      'invalid_argument',
      `Unexpected argument "${positionals[0]}"\n\n${operationUsage(operation)}`,
    );
  }
  const missing = operation.params.find((p) => p.required && params[p.name] === undefined);
  if (missing) {
    const code = missing.name === 'url' ? 'invalid_url' : 'invalid_host';
    throw new LookupError(code, `--${missing.name} is required\n\n${operationUsage(operation)}`);
  }
  return params;
}

async function runExtra(
  command: ExtraCommand,
  args: string[],
  output: Output,
  terminal: Terminal,
): Promise<number> {
  try {
    const print = (value: unknown, params: Record<string, string | string[] | undefined> = {}) =>
      printResult(command.name, value, params, output, terminal);
    return await command.run(args, { print, printJson: (value) => print(value) });
  } catch (err) {
    return printError(err, output);
  }
}

function operationUsage(op: Operation): string {
  const flags = op.params
    .map((p) => {
      const flag = p.flag ? `--${p.name}` : `--${p.name} <${p.name}>${p.repeated ? '…' : ''}`;
      return p.required ? flag : `[${flag}]`;
    })
    .join(' ');
  return `usage: hostlens ${op.name} ${flags}`;
}

function usage(): string {
  const lines = [
    `hostlens ${VERSION}: DNS, mail authentication, WHOIS and web metadata from the command line`,
    '',
    'Operations (same parameters and JSON as the HTTP API):',
    ...OPERATIONS.map((op) => `  ${op.name.padEnd(22)} ${op.summary}\n      ${operationUsage(op)}`),
    '',
    'Other commands:',
    ...commands().map((c) => `  ${c.name.padEnd(22)} ${c.summary}\n      ${c.usage}`),
    '',
    'Short forms: hostlens query example.com MX TXT · hostlens whois example.com · hostlens unfurl example.com',
    ...OUTPUT_HELP,
    'Exit status: 0 answer, 1 look-up failed (the error on stderr), 2 bad input.',
    '',
  ];
  return lines.join('\n');
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.exitCode = printError(err, { format: 'json', errorColour: false });
    },
  );
}
