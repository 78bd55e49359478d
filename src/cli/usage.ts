// Usage text of the command line, from the operation table and the command table alone (no
// command module is loaded to print it).
import { OPERATIONS, type Operation } from '../contract/operations';
import { COMMANDS, type Command } from './commands';
import { OUTPUT_HELP } from './output';

export const VERSION = '0.1.0';

export function operationUsage(op: Operation): string {
  const flags = op.params
    .map((p) => {
      const flag = p.flag ? `--${p.name}` : `--${p.name} <${p.name}>${p.repeated ? '…' : ''}`;
      return p.required ? flag : `[${flag}]`;
    })
    .join(' ');
  return `usage: hostlens ${op.name} ${flags}`;
}

/** `hostlens help`: every operation and command. */
export function usage(): string {
  const lines = [
    `hostlens ${VERSION}: DNS, mail authentication, WHOIS and web metadata from the command line`,
    '',
    'Operations (same parameters and JSON as the HTTP API):',
    ...OPERATIONS.map((op) => `  ${op.name.padEnd(22)} ${op.summary}\n      ${operationUsage(op)}`),
    '',
    'Other commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(22)} ${c.summary}\n      ${c.usage}`),
    '',
    'Short forms: hostlens query example.com MX TXT · hostlens whois example.com · hostlens unfurl example.com',
    'hostlens COMMAND --help prints that command’s usage.',
    ...OUTPUT_HELP,
    'Exit status: 0 answer, 1 look-up failed (the error on stderr), 2 bad input.',
    '',
  ];
  return lines.join('\n');
}

/** `hostlens COMMAND --help`: one command's summary and usage. */
export function commandHelp(command: Operation | Command): string {
  const isOperation = 'params' in command;
  const lines = [
    `hostlens ${command.name}: ${command.summary}`,
    '',
    isOperation ? operationUsage(command) : `usage: ${command.usage}`,
    ...(isOperation ? ['(the same parameters and JSON as the HTTP API)'] : []),
    '',
    ...OUTPUT_HELP,
    '',
  ];
  return lines.join('\n');
}
