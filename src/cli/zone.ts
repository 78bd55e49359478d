// hostlens zone-check: a zone file checked as servers check it when they load it, for CI
// pipelines and pre-commit hooks. Exit 0 when there is no error (warnings allowed), 1 when
// there is one.
import { LookupError } from '../contract/errors';
import { checkZoneFile, diffZoneFile } from '../services/zone';
import type { ExtraCommand } from './extras';
import { parseArgs } from 'node:util';

function options(command: ExtraCommand, args: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { origin: { type: 'string' }, server: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new LookupError('invalid_argument', `${(err as Error).message}\nusage: ${command.usage}`);
  }
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length > 0) {
    throw new LookupError('invalid_argument', `give one zone file\nusage: ${command.usage}`);
  }
  return { file, origin: parsed.values.origin, server: parsed.values.server };
}

export const zoneCheckCommand: ExtraCommand = {
  name: 'zone-check',
  summary: 'check a zone file as BIND does when it loads it (errors exit 1, warnings do not)',
  usage: 'hostlens zone-check FILE [--origin NAME]',
  run(args, io) {
    const { file, origin, server } = options(this, args);
    if (server !== undefined) {
      throw new LookupError('invalid_argument', `--server is for zone-diff\nusage: ${this.usage}`);
    }
    const { problems, origin: zone } = checkZoneFile(file, origin);
    // The text names the file and the zone it was checked as; the JSON stays {problems}.
    io.print({ problems }, { file, origin: zone });
    return Promise.resolve(problems.some((p) => p.severity === 'error') ? 1 : 0);
  },
};

export const zoneDiffCommand: ExtraCommand = {
  name: 'zone-diff',
  summary:
    'compare a zone file with what its nameservers serve (AXFR when allowed); exit 1 on drift',
  usage: 'hostlens zone-diff FILE [--origin NAME] [--server NS]',
  async run(args, io) {
    const { file, origin, server } = options(this, args);
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
  },
};

export const zoneCommands: ExtraCommand[] = [zoneCheckCommand, zoneDiffCommand];
