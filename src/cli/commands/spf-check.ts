// hostlens spf-check: RFC 7208 check_host for a client IP.
import { LookupError } from '../../contract/errors';
import { EmbeddedServices } from '../../services/embedded';
import { checkSpf } from '../../services/mail';
import { parseCommandArgs, type CommandRun } from '../commands';

export const run: CommandRun = async (args, io, command) => {
  const { values, positionals } = parseCommandArgs(command, args, {
    host: { type: 'string' },
    ip: { type: 'string' },
    sender: { type: 'string' },
    helo: { type: 'string' },
    server: { type: 'string' },
  });
  const domain = values.host ?? positionals[0];
  const ip = values.ip ?? positionals[1];
  if (!domain) throw new LookupError('invalid_host', `--host is required\nusage: ${command.usage}`);
  if (!ip) throw new LookupError('invalid_argument', `--ip is required\nusage: ${command.usage}`);
  const result = await checkSpf(new EmbeddedServices(), {
    domain,
    ip,
    sender: values.sender,
    helo: values.helo,
    server: values.server,
  });
  io.print(result, { host: domain, ip });
  return 0;
};
