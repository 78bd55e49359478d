// hostlens <operation> …: the seed's operations on the command line, over the embedded
// engine, plus `hostlens serve` and the other commands of commands.ts. On a terminal the
// answer is text for people; piped, it is the same JSON as the HTTP API on one line
// (output.ts). Errors: one line on stderr, or problem JSON with JSON output.
//   exit 0: an answer; 1: the look-up failed; 2: bad input or usage.
// Only the tables are read here; an operation's engine, a command's module and the text
// renderers are imported when they are needed (bin.ts starts the process).
import { LookupError } from '../contract/errors';
import { findOperation, OPERATIONS, type Operation } from '../contract/operations';
import { COMMANDS, findCommand, type Command } from './commands';
import { closest } from './mistyped';
import {
  decideOutput,
  emit,
  loadRenderer,
  printError,
  printResult,
  processTerminal,
  takeOutputFlags,
  type Output,
  type Terminal,
} from './output';
import { commandHelp, usage, VERSION } from './usage';

// for the launcher (bin.ts), which ends a short run once its answer is written
export { outputPending } from './stdio';

const HELP_FLAGS = new Set(['--help', '-h']);

export async function main(
  argv: string[],
  terminal: Terminal = processTerminal(),
): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === 'help' || HELP_FLAGS.has(command)) {
    emit(terminal, 1, usage());
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-v') {
    emit(terminal, 1, `${VERSION}\n`);
    return 0;
  }
  const known = findCommand(command) ?? findOperation(command.replace(/-/g, '_'));
  // `hostlens COMMAND --help` (anywhere before a `--`) answers with the command's usage.
  const beforeDashes = args.indexOf('--') === -1 ? args : args.slice(0, args.indexOf('--'));
  if (known && beforeDashes.some((a) => HELP_FLAGS.has(a))) {
    emit(terminal, 1, commandHelp(known));
    return 0;
  }
  const commandFormats = known && 'load' in known ? (known.formats ?? []) : [];
  const { rest, flags, error } = takeOutputFlags(args, commandFormats);
  const output = decideOutput(flags, terminal);
  // A bad --format is reported in the format the other flags (or the terminal) chose.
  if (error) return printError(error, output);
  if (!known) {
    const near = closest(
      command,
      [...COMMANDS, ...OPERATIONS].map((c) => c.name),
    );
    const guess = near === undefined ? '' : ` Did you mean "${near}"?`;
    return printError(
      new LookupError(
        'invalid_argument',
        `Unknown command "${command}".${guess} Run "hostlens help".`,
      ),
      output,
    );
  }
  try {
    const ready = await loadRenderer(output);
    return 'load' in known
      ? await runCommand(known, rest, ready, terminal)
      : await runOperationCommand(known, rest, ready, terminal);
  } catch (err) {
    const exit = printError(err, output);
    return 'load' in known && known.errorExit !== undefined ? known.errorExit : exit;
  }
}

async function runCommand(
  command: Command,
  args: string[],
  output: Output,
  terminal: Terminal,
): Promise<number> {
  const { run } = await command.load();
  return run(
    args,
    {
      print: (value, params = {}) => printResult(command.name, value, params, output, terminal),
      write: (text) => emit(terminal, 1, text),
    },
    command,
  );
}

async function runOperationCommand(
  operation: Operation,
  args: string[],
  output: Output,
  terminal: Terminal,
): Promise<number> {
  const { runOperation } = await import('./operation');
  const { result, params } = await runOperation(operation, args);
  printResult(operation.name, result, params, output, terminal);
  return 0;
}
