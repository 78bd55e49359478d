// hostlens zone-check: a zone file checked as servers check it when they load it, for CI
// pipelines and pre-commit hooks. Exit 0 when there is no error (warnings allowed), 1 when
// there is one.
import { LookupError } from '../../contract/errors';
import { checkZoneFile } from '../../services/zone';
import type { CommandRun } from '../commands';
import { zoneArgs } from './zone-args';

export const run: CommandRun = (args, io, command) => {
  const { file, origin, server, print } = zoneArgs(command, args);
  if (server !== undefined) {
    throw new LookupError('invalid_argument', `--server is for zone-diff\nusage: ${command.usage}`);
  }
  const { problems, records, origin: zone } = checkZoneFile(file, origin, print);
  // The text names the file and the zone it was checked as; the JSON stays as it was.
  io.print(records === undefined ? { problems } : { problems, records }, { file, origin: zone });
  return Promise.resolve(problems.some((p) => p.severity === 'error') ? 1 : 0);
};
