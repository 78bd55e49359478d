// The parser as the port-43 look-up uses it for one reply: the registration, or the verdict of a
// reply without one thrown as the contract's LookupError (port43.ts does the same).
import type { WhoisResult } from '../../src/contract/shapes';
import {
  isVerdict,
  parseWhois,
  verdictError,
  type ParseOptions,
} from '../../src/engine/whois/parse';

export function parseOrThrow(text: string, options: ParseOptions = {}): WhoisResult {
  const reading = parseWhois(text, options);
  if (isVerdict(reading)) throw verdictError(reading);
  return reading;
}
