// How a promise of the engine settled, in the contract's terms, for tests that check error
// paths: 'resolved', or the LookupError's stable code (and detail, when asked).
import { LookupError } from '../../src/contract/errors';

export async function code(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return 'resolved';
  } catch (err) {
    return err instanceof LookupError ? err.code : `not a LookupError: ${String(err)}`;
  }
}

/** As code, with the error's detail after its code: "upstream_error: The nameserver…". */
export async function codeAndDetail(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return 'resolved';
  } catch (err) {
    return err instanceof LookupError
      ? `${err.code}: ${err.detail}`
      : `not a LookupError: ${String(err)}`;
  }
}
