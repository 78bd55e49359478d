// hostlens check [PATH...]: the links, mail domains and zone records of a workspace, through
// the services (the embedded engine, or the hosted service when HOSTLENS_DOMAIN_API_URL and
// HOSTLENS_META_API_URL are set, with HOSTLENS_API_TOKEN, the editor's remote settings).
//   exit 0: no finding is an error; 1: one is; 2: the run itself failed.
import { pathToFileURL } from 'node:url';
import { LookupError } from '../../contract/errors';
import type { Services } from '../../contract/services';
import type { CheckProgress } from '../../services/check/index';
import { parseCommandArgs, type CommandRun } from '../commands';
import { VERSION } from '../usage';

export const run: CommandRun = async (args, io, command) => {
  const { values, positionals } = parseCommandArgs(command, args, {
    format: { type: 'string' },
    exclude: { type: 'string', multiple: true },
    cache: { type: 'string' },
    server: { type: 'string' },
    'max-per-host': { type: 'string' },
    'expiry-days': { type: 'string' },
  });
  const maxPerHost = positiveInteger(values['max-per-host'], '--max-per-host', command.usage);
  const expiryDays = positiveInteger(values['expiry-days'], '--expiry-days', command.usage);
  const [{ checkWorkspace, toSarif }, services] = await Promise.all([
    import('../../services/check/index'),
    openServices(process.env),
  ]);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  const progress = process.stderr.isTTY ? terminalProgress() : undefined;
  try {
    const cwd = process.cwd();
    const report = await checkWorkspace(services, {
      cwd,
      paths: positionals,
      ...(values.exclude ? { exclude: values.exclude } : {}),
      ...(values.cache ? { cacheFile: values.cache } : {}),
      ...(values.server ? { server: values.server } : {}),
      ...(maxPerHost !== undefined ? { maxPerHost } : {}),
      ...(expiryDays !== undefined ? { expiryDays } : {}),
      signal: controller.signal,
      ...(progress ? { onProgress: progress.update } : {}),
    });
    progress?.clear();
    if (values.format === 'sarif') {
      const root = pathToFileURL(cwd.endsWith('/') ? cwd : `${cwd}/`).href;
      process.stdout.write(`${JSON.stringify(toSarif(report, VERSION, root), null, 2)}\n`);
    } else io.print(report);
    return report.findings.some((f) => f.severity === 'error') ? 1 : 0;
  } catch (err) {
    progress?.clear();
    // The run failed (an unreadable path, a cancelled run): not a verdict on the links.
    const error = err instanceof LookupError ? err : new LookupError('internal_error', String(err));
    process.stderr.write(`hostlens: ${error.code}: ${error.message}\n`);
    return 2;
  } finally {
    process.removeListener('SIGINT', onSigint);
    await (services as { close?: () => Promise<void> }).close?.();
  }
};

async function openServices(env: NodeJS.ProcessEnv): Promise<Services> {
  const domain = env.HOSTLENS_DOMAIN_API_URL?.trim();
  const meta = env.HOSTLENS_META_API_URL?.trim();
  if (domain && meta) {
    const { HttpServices } = await import('../../services/http');
    return new HttpServices({
      domainApiBaseUrl: domain,
      metaApiBaseUrl: meta,
      token: () => env.HOSTLENS_API_TOKEN?.trim() || undefined,
    });
  }
  const { EmbeddedServices } = await import('../../services/embedded');
  return new EmbeddedServices({});
}

function positiveInteger(value: string | undefined, flag: string, usage: string) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new LookupError(
      'invalid_argument',
      `${flag} takes a whole number from 1\nusage: ${usage}`,
    );
  }
  return n;
}

/** One line on stderr, redrawn at most ten times a second. */
function terminalProgress() {
  let last = 0;
  return {
    update: (p: CheckProgress) => {
      const now = Date.now();
      if (now - last < 100 && p.done < p.total) return;
      last = now;
      process.stderr.write(`\r\u001b[Kchecking ${p.done}/${p.total}`);
    },
    clear: () => process.stderr.write('\r\u001b[K'),
  };
}
