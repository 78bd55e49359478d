// hostlens <operation> …: the seed's operations on the command line, over the embedded
// engine, plus `hostlens serve`. Output is the same JSON as the HTTP API (pretty on a
// terminal, one line otherwise); errors are problem JSON on stderr.
//   exit 0: an answer; 1: the look-up failed; 2: bad input or usage.
import { parseArgs } from 'node:util';
import { LookupError, toLookupError, toProblem } from '../contract/errors';
import { EmbeddedServices } from '../services/embedded';
import { findOperation, OPERATIONS, type Operation } from '../contract/operations';
import { extraCommands, type ExtraCommand } from './extras';

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

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(usage());
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const extra = extraCommands().find((c) => c.name === command);
  if (extra) return runExtra(extra, rest);
  const operation = findOperation(command.replace(/-/g, '_'));
  if (!operation)
    return fail(
      new LookupError('invalid_argument', `Unknown command "${command}". Run "hostlens help".`),
    );
  return runOperation(operation, rest);
}

async function runOperation(operation: Operation, args: string[]): Promise<number> {
  let params: Record<string, string | string[]>;
  let output: OutputOptions;
  try {
    ({ params, output } = parseOperationArgs(operation, args));
  } catch (err) {
    return fail(err);
  }
  const services = new EmbeddedServices({});
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  try {
    const call = services[operation.service][operation.method as never] as (
      p: unknown,
      o: unknown,
    ) => Promise<unknown>;
    const result = await call.call(services[operation.service], params, {
      signal: controller.signal,
    });
    printJson(result, output);
    return 0;
  } catch (err) {
    return fail(err);
  }
}

interface OutputOptions {
  pretty: boolean;
}

function parseOperationArgs(
  operation: Operation,
  args: string[],
): { params: Record<string, string | string[]>; output: OutputOptions } {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {
    pretty: { type: 'boolean' },
    compact: { type: 'boolean' },
  };
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
  const pretty =
    parsed.values.pretty === true ||
    (process.stdout.isTTY === true && parsed.values.compact !== true);
  return { params, output: { pretty } };
}

async function runExtra(command: ExtraCommand, args: string[]): Promise<number> {
  try {
    return await command.run(args, {
      printJson: (v) => printJson(v, { pretty: process.stdout.isTTY === true }),
    });
  } catch (err) {
    return fail(err);
  }
}

function printJson(value: unknown, output: OutputOptions): void {
  process.stdout.write(
    `${output.pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)}\n`,
  );
}

function fail(err: unknown): number {
  const error = toLookupError(err);
  process.stderr.write(`${JSON.stringify(toProblem(error))}\n`);
  return error.status === 400 ? 2 : 1;
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
    ...extraCommands().map((c) => `  ${c.name.padEnd(22)} ${c.summary}\n      ${c.usage}`),
    '',
    'Short forms: hostlens query example.com MX TXT · hostlens whois example.com · hostlens unfurl example.com',
    'Output: pretty JSON on a terminal, one line otherwise (--pretty / --compact to choose).',
    'Exit status: 0 answer, 1 look-up failed (problem JSON on stderr), 2 bad input.',
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
      process.exitCode = fail(err);
    },
  );
}
