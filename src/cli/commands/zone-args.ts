// The arguments zone-check and zone-diff share: one zone file, its origin, a nameserver, and
// zone-check's --print.
import { LookupError } from '../../contract/errors';
import { parseCommandArgs, type Command } from '../commands';

export function zoneArgs(command: Command, args: string[]) {
  const { values, positionals } = parseCommandArgs(command, args, {
    origin: { type: 'string' },
    server: { type: 'string' },
    print: { type: 'boolean' },
  });
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0) {
    throw new LookupError('invalid_argument', `give one zone file\nusage: ${command.usage}`);
  }
  return { file, origin: values.origin, server: values.server, print: values.print === true };
}
