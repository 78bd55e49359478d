// The only place the validator touches the network: one question through the engine's DNS
// transport (transport.ts: EDNS0 over UDP, TCP when truncated, replies checked), with the DO
// bit (send the RRSIGs and denial records) and the CD bit (a validating upstream still hands
// over bogus data, so we can say why it is bogus). The validator sees just the `Exchange`
// signature.
import { LookupError } from '../../../contract/errors';
import { DNS_TIMEOUT_MS, DNS_TRIES } from '../../../contract/limits';
import { exchange, Session } from '../transport';
import { TYPE_CODES } from '../wire';

export interface Nameserver {
  address: string;
  port: number;
}

/** One question, the answer message as received; throws LookupError (upstream_timeout, upstream_error, cancelled). */
export type Exchange = (
  name: string,
  type: string,
  server: Nameserver,
  signal?: AbortSignal,
) => Promise<Buffer>;

export interface ExchangeOptions {
  /** per try, in milliseconds */
  timeoutMs?: number;
  /** tries before giving up on a nameserver that does not answer */
  tries?: number;
}

export function createExchange(options: ExchangeOptions = {}): Exchange {
  const timeoutMs = options.timeoutMs ?? DNS_TIMEOUT_MS;
  const tries = options.tries ?? DNS_TRIES;
  // The questions of a whole validation share sockets: one UDP socket per nameserver while
  // any question to it is in flight.
  const session = new Session('whileBusy');
  return async (name, type, server, signal) => {
    const code = (TYPE_CODES as Record<string, number>)[type];
    if (code === undefined) {
      throw new LookupError('invalid_type', `The validator does not ask for ${type} records`);
    }
    for (let attempt = 1; ; attempt++) {
      try {
        const reply = await exchange(
          { name, type: code },
          { transport: 'dns', address: server.address, port: server.port },
          {
            dnssecOk: true,
            checkingDisabled: true,
            timeoutMs,
            session,
            ...(signal ? { signal } : {}),
          },
        );
        return reply.message;
      } catch (err) {
        const retry = err instanceof LookupError && err.code === 'upstream_timeout';
        if (!retry || attempt >= tries) throw err;
      }
    }
  };
}
