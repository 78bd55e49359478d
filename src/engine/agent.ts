// HTTP connections through the address guard (guard.ts), for every undici client of the
// engine: the web fetcher's sessions and the RDAP requests of whois/. In server mode each
// connection is checked before it is made (the name's addresses, an address given as such)
// and on the address it really connected to.
import { isIP } from 'node:net';
import type { SecureContext } from 'node:tls';
import { Agent, buildConnector } from 'undici';
import { checkServerName } from './certificate-names';
import {
  blockedTarget,
  checkConnected,
  createAddressGuard,
  guardedLookup,
  type AddressGuard,
  type ResolveAll,
} from './guard';

/** How long a connection (TCP and TLS) may take to set up, unless told otherwise. */
export const CONNECT_TIMEOUT_MS = 5_000;

export interface ConnectorOptions {
  /** name resolution used by the connector (tests: to change an answer between look-ups) */
  lookup?: ResolveAll;
  /** replaces how sockets are opened (tests); the guard still checks what they connected to */
  connector?: buildConnector.connector;
  connectTimeoutMs?: number;
  /** the CAs to verify servers against (an MTA-STS policy host), instead of Node's defaults */
  secureContext?: SecureContext;
}

/** An undici connector whose connections pass `guard` (when there is one). */
export function guardedConnector(
  options: ConnectorOptions,
  guard: AddressGuard | undefined,
): buildConnector.connector {
  const lookup = guard || options.lookup ? guardedLookup(guard, options.lookup) : undefined;
  const base =
    options.connector ??
    buildConnector({
      timeout: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      ...(lookup ? { lookup } : {}),
      ...(options.secureContext ? { secureContext: options.secureContext } : {}),
      // OpenSSL's name check, the TLS look-up's, for every page, RDAP server and redirect
      checkServerIdentity: checkServerName,
    });
  if (!guard) return base;
  return (connectOptions, callback) => {
    const literal = connectOptions.hostname.replace(/^\[|\]$/g, '');
    const why = isIP(literal) !== 0 ? guard.refusal(literal) : undefined;
    if (why !== undefined) {
      callback(blockedTarget(why), null);
      return;
    }
    base(connectOptions, (err, socket) => {
      if (err) {
        callback(err, null);
        return;
      }
      try {
        checkConnected(socket, guard);
      } catch (refused) {
        callback(refused as Error, null);
        return;
      }
      callback(null, socket);
    });
  };
}

/**
 * An undici dispatcher whose every connection passes the server mode's address guard, for
 * requests outside a web session (RDAP redirects).
 */
export function createGuardedAgent(
  options: ConnectorOptions & { allowCidrs?: readonly string[] } = {},
): Agent {
  return new Agent({ connect: guardedConnector(options, createAddressGuard(options.allowCidrs)) });
}
