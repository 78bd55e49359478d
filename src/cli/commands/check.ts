// hostlens check [PATH...]: the links, host names, mail domains and zone records of a workspace,
// through the services: the embedded engine, or a hosted service (`--api URL`, the origin
// `hostlens serve` prints; or HOSTLENS_DOMAIN_API_URL and HOSTLENS_META_API_URL, the editor's
// two base URL settings) with the token from HOSTLENS_API_TOKEN (never an argument: the
// command lines of a machine's processes are visible to all its users).
//   exit 0: no finding is an error; 1: one is; 2: the run itself failed.
import { pathToFileURL } from 'node:url';
import { LookupError } from '../../contract/errors';
import type { Services } from '../../contract/services';
import type { CheckProgress } from '../../services/check/index';
import { SERVICE_PREFIX } from '../../server/routes';
import { checkBaseUrl } from '../../services/baseUrl';
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
    backend: { type: 'string' },
    api: { type: 'string' },
  });
  const maxPerHost = positiveInteger(values['max-per-host'], '--max-per-host', command.usage);
  const expiryDays = positiveInteger(values['expiry-days'], '--expiry-days', command.usage);
  const backend = chooseBackend(values.backend, values.api, process.env, command.usage);
  const [{ checkWorkspace, toSarif }, services] = await Promise.all([
    import('../../services/check/index'),
    openServices(backend, process.env),
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

type Backend = { kind: 'embedded' } | { kind: 'remote'; domain: string; meta: string };

/**
 * `--backend embedded` wins over everything; `--api` (or `--backend remote`) asks for the
 * service; with neither, the service is used when both base URLs are in the environment, as
 * before. The base URLs are checked here: a bad one would otherwise fail every link.
 */
function chooseBackend(
  backend: string | undefined,
  api: string | undefined,
  env: NodeJS.ProcessEnv,
  usage: string,
): Backend {
  if (backend !== undefined && backend !== 'embedded' && backend !== 'remote') {
    throw new LookupError(
      'invalid_argument',
      `--backend is embedded or remote, not ${JSON.stringify(backend)}\nusage: ${usage}`,
    );
  }
  if (backend === 'embedded') {
    if (api !== undefined) {
      throw new LookupError(
        'invalid_argument',
        '--api names a service: not with --backend embedded',
      );
    }
    return { kind: 'embedded' };
  }
  let domain = env.HOSTLENS_DOMAIN_API_URL?.trim() || undefined;
  let meta = env.HOSTLENS_META_API_URL?.trim() || undefined;
  if (api !== undefined) {
    const origin = checkBaseUrl(api, '--api').href.replace(/\/+$/, '');
    domain = `${origin}${SERVICE_PREFIX.domain}`;
    meta = `${origin}${SERVICE_PREFIX.meta}`;
  }
  if (domain === undefined || meta === undefined) {
    if (backend === 'remote') {
      throw new LookupError(
        'invalid_argument',
        '--backend remote needs --api URL (or HOSTLENS_DOMAIN_API_URL and HOSTLENS_META_API_URL)',
      );
    }
    return { kind: 'embedded' };
  }
  checkBaseUrl(domain, 'HOSTLENS_DOMAIN_API_URL');
  checkBaseUrl(meta, 'HOSTLENS_META_API_URL');
  return { kind: 'remote', domain, meta };
}

async function openServices(backend: Backend, env: NodeJS.ProcessEnv): Promise<Services> {
  if (backend.kind === 'remote') {
    const { HttpServices } = await import('../../services/http');
    return new HttpServices({
      domainApiBaseUrl: backend.domain,
      metaApiBaseUrl: backend.meta,
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
