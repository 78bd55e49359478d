// hostlens mail: the whole mail set-up of a domain.
import { LookupError } from '../../contract/errors';
import { EmbeddedServices } from '../../services/embedded';
import { mailSetup } from '../../services/mail';
import { readCaFiles } from '../caFiles';
import { parseCommandArgs, type CommandRun } from '../commands';

export const run: CommandRun = async (args, io, command) => {
  const { values, positionals } = parseCommandArgs(command, args, {
    host: { type: 'string' },
    selectors: { type: 'string', multiple: true },
    server: { type: 'string' },
    'skip-transport': { type: 'boolean' },
    'ca-file': { type: 'string', multiple: true },
  });
  const host = values.host ?? positionals[0];
  if (!host) throw new LookupError('invalid_host', `--host is required\nusage: ${command.usage}`);
  const extraCa = readCaFiles(values['ca-file']);
  const result = await mailSetup(new EmbeddedServices(extraCa ? { extraCa } : {}), host, {
    server: values.server,
    selectors: values.selectors,
    transport: values['skip-transport'] !== true,
  });
  io.print(result, { host });
  return 0;
};
