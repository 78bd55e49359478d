// The first request a fresh process answers pays for work done once: V8 compiling the
// request handler, the routes, the parameter checks and the answer writers on first call,
// Node's HTTP parser and writer warming up. A server that has just started (a restart, a new
// instance behind the load balancer) does that work before it listens, on a throwaway server
// of its own: the same code, a token of its own, nothing counted in the real server's limits,
// metrics or log. Its services are a stand-in (the engine warms itself up on its own), so the
// warm-up never reaches the network nor calls the real services, whatever they are.
import { randomBytes } from 'node:crypto';
import { get } from 'node:http';
import { LookupError } from '../contract/errors';
import type { Services } from '../contract/services';

/** What a throwaway server needs to offer the warm-up. */
export interface WarmTarget {
  url: string;
  token: string;
  close(): Promise<unknown>;
}

/**
 * Requests that walk the handler's whole path: the public routes, a refused token, a missing
 * parameter, then authorised calls through the route, the parameters, the limits, the work
 * gate, the service call and both answer writers (JSON and problem).
 */
const WARM_REQUESTS: Array<{ path: string; authorised: boolean }> = [
  { path: '/healthz', authorised: false },
  { path: '/domain/query?host=warm.invalid', authorised: false },
  { path: '/domain/query', authorised: true },
  { path: '/domain/query?host=warm.invalid', authorised: true },
  { path: '/domain/domain_keys?host=warm.invalid', authorised: true },
  { path: '/meta/unfurl?url=https%3A%2F%2Fwarm.invalid%2F', authorised: true },
];

/**
 * The throwaway server's services. Names under `.invalid` never exist (RFC 6761 section
 * 6.4), so NXDOMAIN is the true answer to every look-up of one; the other operations refuse.
 */
export function warmUpServices(): Services {
  const refuse = () => Promise.reject(new LookupError('not_found', 'warm.invalid does not exist'));
  return {
    domain: {
      query: () => Promise.resolve({ records: [], status: 'NXDOMAIN' }),
      domainKeys: refuse,
      senderPolicyRanges: refuse,
      whois: refuse,
      tls: refuse,
      mtaSts: refuse,
    },
    meta: { icons: refuse, redirects: refuse, unfurl: refuse, image: refuse, link: refuse },
  };
}

/** Rounds over WARM_REQUESTS: enough for the handler's functions to be compiled and warm. */
const ROUNDS = 3;
const REQUEST_TIMEOUT_MS = 2000;

export function warmToken(): string {
  return randomBytes(24).toString('hex');
}

/**
 * Starts a throwaway server, runs the warm-up against it, then closes it. Never rejects: a
 * warm-up that cannot run leaves the first request slower, nothing else.
 */
export async function warmUpServer(start: () => Promise<WarmTarget>): Promise<void> {
  let target: WarmTarget;
  try {
    target = await start();
  } catch {
    return;
  }
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const { path, authorised } of WARM_REQUESTS) {
        await fetchOnce(`${target.url}${path}`, authorised ? target.token : undefined);
      }
    }
  } catch {
    // as above: only time is lost
  } finally {
    await target.close();
  }
}

function fetchOnce(url: string, token: string | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const req = get(
      url,
      { agent: false, headers: token ? { authorization: token } : {} },
      (res) => {
        res.resume();
        res.once('end', () => resolve());
        res.once('error', reject);
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('warm-up request timed out')));
    req.once('error', reject);
  });
}
