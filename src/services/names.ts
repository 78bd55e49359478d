// What the editor may check about a name before asking anything: the same rules the look-up
// applies (engine/dns/query.ts queryName), so a prompt can say what is wrong as the user types.
import { toLookupError } from '../contract/errors';
import { queryName } from '../engine/dns/query';

/** Why `host` cannot be looked up (the look-up's own words), or undefined when it can. */
export function hostProblem(host: string): string | undefined {
  try {
    queryName(host);
    return undefined;
  } catch (err) {
    return toLookupError(err).detail;
  }
}
