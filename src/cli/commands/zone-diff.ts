// hostlens zone-diff: a zone file against what its nameservers serve. Exit 1 on drift or when
// a nameserver's serial could not be read.
import { LookupError } from '../../contract/errors';
import { diffZoneFile } from '../../services/zone-drift';
import type { CommandRun } from '../commands';
import { zoneArgs } from './zone-args';

export const run: CommandRun = async (args, io, command) => {
  const { file, origin, server, print } = zoneArgs(command, args);
  if (print) {
    throw new LookupError('invalid_argument', `--print is for zone-check\nusage: ${command.usage}`);
  }
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const result = await diffZoneFile(file, { origin, server, signal: controller.signal });
    io.print(result, { file });
    return result.drift.length > 0 || result.serials.some((s) => s.serial === null) ? 1 : 0;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
};
