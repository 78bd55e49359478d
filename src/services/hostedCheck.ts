// Before the editor saves a hosted service's address, it asks the service twice: GET /healthz
// (no token: is a HostLens service there at all?) and one authorised request the service
// answers without looking anything up (a query for a name that cannot exist: a 400
// invalid_host proves the path, the token and the API all at once). Both are bounded in time
// and size and follow no redirect.
import { Agent } from 'undici';
import { LookupError, toLookupError } from '../contract/errors';
import { type HostedBases } from './hostedBases';
import { HttpServices } from './http';

export { hostedBases, type HostedBases } from './hostedBases';

const CHECK_TIMEOUT_MS = 8000;
/** the name asked in the authorised request: an empty label, refused before any look-up */
const UNASKABLE_HOST = 'hostlens-check..invalid';

/** Resolves when the service answers both checks; throws a LookupError that says which failed. */
export async function checkHostedService(
  bases: HostedBases,
  token: string,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  const dispatcher = new Agent({ connections: 1 });
  try {
    await checkHealth(bases.origin, dispatcher, timeoutMs, options.signal);
    const services = new HttpServices({
      domainApiBaseUrl: bases.domainApiBaseUrl,
      metaApiBaseUrl: bases.metaApiBaseUrl,
      token: () => token,
      timeoutMs,
      maxResponseBytes: 64 * 1024,
      dispatcher,
    });
    try {
      await services.domain.query(
        { host: UNASKABLE_HOST, types: ['A'] },
        { signal: options.signal },
      );
    } catch (err) {
      const error = toLookupError(err);
      if (error.code === 'invalid_host') return;
      if (error.code === 'unauthorized')
        throw new LookupError('unauthorized', `${bases.origin} refused the API token`);
      if (error.code === 'not_found')
        throw new LookupError(
          'not_found',
          `${bases.domainApiBaseUrl}/query does not exist: is ${bases.origin} where hostlens serve listens?`,
        );
      throw error;
    }
    throw new LookupError(
      'upstream_error',
      `${bases.origin} answered a query it should have refused: it is not a HostLens service`,
    );
  } finally {
    await dispatcher.close();
  }
}

async function checkHealth(
  origin: string,
  dispatcher: Agent,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const url = `${origin}/healthz`;
  let status: number;
  try {
    const response = await dispatcher.request({
      origin: new URL(url).origin,
      path: new URL(url).pathname,
      method: 'GET',
      signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    status = response.statusCode;
    // Only the status matters: the body is read and dropped, at most 4 KB of it.
    await response.body.dump({ limit: 4096 });
  } catch (err) {
    if (signal?.aborted) throw new LookupError('cancelled', 'The check was cancelled');
    const reason = deadline.aborted
      ? `did not answer in ${timeoutMs / 1000} s`
      : `could not be reached (${err instanceof Error ? err.message : String(err)})`;
    throw new LookupError('upstream_error', `${url} ${reason}`);
  }
  if (status !== 200) {
    throw new LookupError(
      'upstream_error',
      `${url} answered HTTP ${status}: is ${origin} where hostlens serve listens?`,
    );
  }
}
