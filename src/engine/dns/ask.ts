// The questions of one look-up: every type at once, each tried at each nameserver in turn
// until one answers, all within one deadline, sharing the look-up's TCP/TLS connections.
import { LookupError } from '../../contract/errors';
import type { RecordType } from '../../contract/shapes';
import { ExchangeError, type TryFailure } from './errors';
import { outcomeOf, type TypeOutcome } from './records';
import { exchange, Session, type ExchangeOptions, type NameServer, type Reply } from './transport';
import { RCODE, type Labels } from './wire';

export interface AskPlan {
  servers: NameServer[];
  /** per try */
  timeoutMs: number;
  /** rounds over the nameservers */
  tries: number;
  /** epoch milliseconds after which nothing more is asked */
  deadline: number;
  options: Pick<ExchangeOptions, 'signal' | 'ca'>;
}

/**
 * One outcome per type, in the order asked; rejects only with `cancelled`. The questions share
 * `shared` when given (an operation's session, left open), else a session of their own.
 */
export async function askTypes(
  name: Labels,
  types: readonly RecordType[],
  plan: AskPlan,
  shared?: Session,
): Promise<TypeOutcome[]> {
  const session = shared ?? new Session();
  try {
    return await Promise.all(types.map((type) => askType(name, type, plan, session)));
  } finally {
    if (shared === undefined) session.close();
  }
}

async function askType(
  name: Labels,
  type: RecordType,
  plan: AskPlan,
  session: Session,
): Promise<TypeOutcome> {
  let last: TryFailure | 'servfail' | 'refused' = 'upstream_timeout';
  let reason: string | undefined;
  const failed = (): TypeOutcome => ({
    kind: 'failed',
    code: last,
    ...(reason !== undefined ? { reason } : {}),
  });
  for (let round = 0; round < plan.tries; round++) {
    for (let i = 0; i < plan.servers.length; i++) {
      const remaining = plan.deadline - Date.now();
      if (remaining <= 0) return failed();
      const server = plan.servers[i];
      const options: ExchangeOptions = {
        ...plan.options,
        session,
        timeoutMs: Math.min(plan.timeoutMs, remaining),
      };
      let reply: Reply;
      try {
        reply = await exchangeWithFallback(name, type, server, options);
      } catch (err) {
        if (err instanceof ExchangeError) {
          last = err.failure;
          reason = err.detail;
          continue;
        }
        throw err instanceof LookupError ? err : new LookupError('upstream_error', String(err));
      }
      const outcome = outcomeOf(reply.parsed, name, type);
      // Another nameserver of the list may know better; the last one's word stands.
      const another = plan.servers.length > 1 && i < plan.servers.length - 1;
      if (outcome.kind === 'failed' && another) {
        last = outcome.code;
        reason = undefined;
        continue;
      }
      return outcome;
    }
  }
  return failed();
}

/**
 * RFC 6891 section 7: a server that does not know EDNS answers FORMERR without an OPT record;
 * it is asked again without one.
 */
async function exchangeWithFallback(
  name: Labels,
  type: RecordType,
  server: NameServer,
  options: ExchangeOptions,
): Promise<Reply> {
  const reply = await exchange({ name, type }, server, options);
  if (reply.parsed.rcode !== RCODE.FORMERR || reply.parsed.opt !== undefined) return reply;
  return exchange({ name, type }, server, { ...options, edns: false });
}
