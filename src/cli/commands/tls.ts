// hostlens tls HOST[:PORT]: the domain service's `tls` operation with a short form. Exit 0 when
// the chain is trusted and no problem is an error, 1 otherwise, 2 when no answer came (a
// coded error: bad input, no address, a failed connection; commands.ts `errorExit`).
import { isIP } from 'node:net';
import { LookupError, printable } from '../../contract/errors';
import type { TlsParams } from '../../contract/services';
import { EmbeddedServices } from '../../services/embedded';
import { readCaFiles } from '../caFiles';
import { parseCommandArgs, type CommandRun } from '../commands';

export const run: CommandRun = async (args, io, command) => {
  const { values, positionals } = parseCommandArgs(command, args, {
    host: { type: 'string' },
    port: { type: 'string' },
    starttls: { type: 'string' },
    server: { type: 'string' },
    'ca-file': { type: 'string', multiple: true },
  });
  const target = values.host ?? positionals[0];
  if (target === undefined) {
    throw new LookupError('invalid_host', `A host is required\nusage: ${command.usage}`);
  }
  if (positionals.length > (values.host === undefined ? 1 : 0)) {
    throw new LookupError(
      'invalid_argument',
      `Unexpected argument "${printable(positionals[positionals.length - 1])}"\nusage: ${command.usage}`,
    );
  }
  const { host, port } = splitTarget(target);
  const params: TlsParams = { host };
  const chosenPort = values.port ?? port;
  if (chosenPort !== undefined) params.port = chosenPort;
  if (values.starttls !== undefined) params.starttls = values.starttls;
  if (values.server !== undefined) params.server = values.server;
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once('SIGINT', interrupt);
  try {
    const extraCa = readCaFiles(values['ca-file']);
    const result = await new EmbeddedServices(extraCa ? { extraCa } : {}).tls(params, {
      signal: controller.signal,
    });
    io.print(result, { host });
    return result.trusted && !result.problems.some((p) => p.severity === 'error') ? 0 : 1;
  } finally {
    process.off('SIGINT', interrupt);
  }
};

/** HOST, HOST:PORT, [IPv6]:PORT or a bare IPv6 address. */
export function splitTarget(target: string): { host: string; port?: string } {
  const bracketed = /^\[([^\]]+)\](?::(\d*))?$/.exec(target);
  if (bracketed) return { host: bracketed[1], ...(bracketed[2] ? { port: bracketed[2] } : {}) };
  if (isIP(target) === 6) return { host: target };
  const colon = target.lastIndexOf(':');
  if (colon < 0) return { host: target };
  return { host: target.slice(0, colon), port: target.slice(colon + 1) };
}
