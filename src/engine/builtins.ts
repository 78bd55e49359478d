// Node modules that the zone check needs only for rare input, loaded on first use. node:net
// brings the stream machinery with it and node:crypto its own tree: together some 6 ms of a
// command-line `zone-check` that answers in tens of ms, spent at start even when no address
// in an unusual form and no DS record is ever read.
import type * as Crypto from 'node:crypto';
import type * as Net from 'node:net';

let net: typeof Net | undefined;
let crypto: typeof Crypto | undefined;

export function lazyNet(): typeof Net {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (net ??= require('node:net') as typeof Net);
}

export function lazyCrypto(): typeof Crypto {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (crypto ??= require('node:crypto') as typeof Crypto);
}
