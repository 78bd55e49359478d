// How a command's answer is printed: text for people on a terminal, JSON for scripts when
// piped (one line, byte for byte what it always was), either on request. Errors follow the
// same choice: one readable line, or the problem JSON.
import { toLookupError, toProblem, LookupError } from '../contract/errors';
import type { renderText } from './text/index';
import { isTerminal, processWriter, type Fd } from './stdio';
import { makeGlyphs, makeStyle } from './text/style';

export type Format = 'text' | 'json';

/** What the process runs under; tests pass their own. */
export interface Terminal {
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** the terminal's width in columns, when stdout is one */
  columns?: number;
  env: Readonly<Record<string, string | undefined>>;
  now(): Date;
  /** writes to stdout (1) or stderr (2); without it, process.stdout and process.stderr */
  write?: (fd: Fd, text: string) => void;
}

export function processTerminal(): Terminal {
  const stdoutIsTTY = isTerminal(1);
  const stderrIsTTY = isTerminal(2);
  return {
    stdoutIsTTY,
    stderrIsTTY,
    columns: stdoutIsTTY ? process.stdout.columns : undefined,
    env: process.env,
    now: () => new Date(),
    write: processWriter(stdoutIsTTY, stderrIsTTY),
  };
}

/** Writes to stdout (1) or stderr (2) as the terminal (or the output made for it) says. */
export function emit(to: Pick<Terminal, 'write'>, fd: Fd, text: string): void {
  if (to.write !== undefined) to.write(fd, text);
  else (fd === 1 ? process.stdout : process.stderr).write(text);
}

export interface OutputFlags {
  format?: Format;
  pretty: boolean;
  compact: boolean;
  noColor: boolean;
  ascii: boolean;
}

export interface Output {
  format: Format;
  /** JSON indented (a terminal, or --pretty) */
  pretty: boolean;
  colour: boolean;
  errorColour: boolean;
  ascii: boolean;
  /** the text renderers, loaded (by loadRenderer) only when the answer is printed as text */
  renderText?: typeof renderText;
  /** the terminal's writer */
  write?: Terminal['write'];
}

export const OUTPUT_OPTIONS = [
  '--format',
  '--json',
  '--no-color',
  '--ascii',
  '--pretty',
  '--compact',
] as const;
export const FORMATS: readonly Format[] = ['text', 'json'];

export const OUTPUT_HELP = [
  'Output: text on a terminal, JSON when piped (one line; --pretty indents it).',
  '  --format text|json   choose (--json is short for --format json)',
  '  --no-color           no colour (also when NO_COLOR is set or output is not a terminal)',
  '  --ascii              draw trees and marks with ASCII only',
];

/**
 * Takes the output options out of a command's arguments (anywhere before a `--`), so each
 * command parses only its own parameters. A bad value comes back as `error`, beside the
 * flags that did parse, so it can be reported the way the user asked.
 */
export function takeOutputFlags(
  args: string[],
  /** further --format values the command writes itself: left in `rest` for it to parse */
  commandFormats: readonly string[] = [],
): {
  rest: string[];
  flags: OutputFlags;
  error?: LookupError;
} {
  let error: LookupError | undefined;
  const flags: OutputFlags = { pretty: false, compact: false, noColor: false, ascii: false };
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      rest.push(...args.slice(i));
      break;
    }
    if (arg === '--json') flags.format = 'json';
    else if (arg === '--pretty') flags.pretty = true;
    else if (arg === '--compact') flags.compact = true;
    else if (arg === '--no-color' || arg === '--no-colour') flags.noColor = true;
    else if (arg === '--ascii') flags.ascii = true;
    else if (arg === '--format' || arg.startsWith('--format=')) {
      const value = arg === '--format' ? args[++i] : arg.slice('--format='.length);
      if (value === 'text' || value === 'json') flags.format = value;
      else if (value !== undefined && commandFormats.includes(value)) rest.push('--format', value);
      else
        error ??= new LookupError(
          'invalid_argument',
          `--format takes ${['text', 'json', ...commandFormats].map((f) => `"${f}"`).join(' or ')}${value === undefined ? '' : `, not "${value}"`}`,
        );
    } else rest.push(arg);
  }
  return error ? { rest, flags, error } : { rest, flags };
}

export function decideOutput(flags: OutputFlags, terminal: Terminal): Output {
  // --pretty and --compact shape JSON: asking for them asks for JSON.
  const format =
    flags.format ??
    (flags.pretty || flags.compact ? 'json' : terminal.stdoutIsTTY ? 'text' : 'json');
  // https://no-color.org: NO_COLOR set to anything but the empty string turns colour off.
  const noColor =
    flags.noColor || (terminal.env.NO_COLOR ?? '') !== '' || terminal.env.TERM === 'dumb';
  return {
    format,
    pretty: flags.pretty || (terminal.stdoutIsTTY && !flags.compact),
    colour: !noColor && terminal.stdoutIsTTY,
    errorColour: !noColor && terminal.stderrIsTTY,
    ascii: flags.ascii,
    write: terminal.write,
  };
}

/** Loads the text renderers when the output is text; JSON output never evaluates them. */
export async function loadRenderer(output: Output): Promise<Output> {
  if (output.format !== 'text' || output.renderText) return output;
  const { renderText } = await import('./text/index');
  return { ...output, renderText };
}

export function printResult(
  command: string,
  result: unknown,
  params: Record<string, string | string[] | undefined>,
  output: Output,
  terminal: Terminal,
): void {
  if (output.format === 'json' || !output.renderText) {
    emit(
      terminal,
      1,
      `${output.pretty ? JSON.stringify(result, null, 2) : JSON.stringify(result)}\n`,
    );
    return;
  }
  const text = output.renderText(command, result, {
    style: makeStyle(output.colour),
    glyphs: makeGlyphs(output.ascii),
    now: terminal.now(),
    // Folded to a terminal's width; piped text keeps one line per fact for grep.
    width: terminal.stdoutIsTTY && terminal.columns ? terminal.columns : Infinity,
    params,
  });
  emit(terminal, 1, `${text}\n`);
}

/** Prints a failure and answers the exit status: 2 for bad input, 1 for a failed look-up. */
export function printError(
  err: unknown,
  output: Pick<Output, 'format' | 'errorColour' | 'write'>,
): number {
  const error = toLookupError(err);
  if (output.format === 'json') {
    emit(output, 2, `${JSON.stringify(toProblem(error))}\n`);
  } else {
    const style = makeStyle(output.errorColour);
    // The first line is the error; what follows (a usage line) is help, printed after it.
    const [first = '', ...more] = error.detail.split('\n');
    const help = more.join('\n').trim();
    emit(
      output,
      2,
      `${style.bold('hostlens:')} ${style.red(`${error.code}:`)} ${first}\n${help === '' ? '' : `${help}\n`}`,
    );
  }
  return error.status === 400 ? 2 : 1;
}
