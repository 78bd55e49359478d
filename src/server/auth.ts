// Token checks for the server. Every configured token is compared on each request, through
// fixed-length SHA-256 digests, so neither the token's length nor which token matched shows
// up in the response time.
import { hash, timingSafeEqual } from 'node:crypto';

const MIN_TOKEN_LENGTH = 16;
// Visible ASCII only: a token travels in a header and is split on commas and whitespace.
const TOKEN_SHAPE = /^[\x21-\x2b\x2d-\x7e]+$/;

function digest(value: string): Buffer {
  // The one-shot form: a third cheaper than a Hash object on every request.
  return hash('sha256', value, 'buffer');
}

/** Why a configured token cannot be used, or undefined when it is fine. Never echoes it. */
export function tokenProblem(token: string): string | undefined {
  if (!TOKEN_SHAPE.test(token)) {
    return 'tokens may hold only visible ASCII characters (no spaces or commas)';
  }
  if (token.length < MIN_TOKEN_LENGTH) {
    return `tokens must be at least ${MIN_TOKEN_LENGTH} characters long`;
  }
  return undefined;
}

/** The token of an `Authorization` header: the bare token, or `Bearer <token>`. */
export function tokenFromHeader(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  const bearer = /^bearer(?:\s+(.*))?$/i.exec(trimmed);
  const token = bearer ? (bearer[1] ?? '').trim() : trimmed;
  return token === '' ? undefined : token;
}

export class TokenSet {
  private readonly digests: Buffer[];
  private readonly keys: string[];

  constructor(tokens: readonly string[]) {
    if (tokens.length === 0) throw new Error('At least one API token is required');
    this.digests = tokens.map(digest);
    this.keys = this.digests.map((d) => d.toString('hex').slice(0, 32));
  }

  /**
   * A stable id of the configured token at `index` for keying its limits, the same on every
   * instance that has the token; the token cannot be recovered from it.
   */
  keyOf(index: number): string {
    return this.keys[index];
  }

  /** Index of the configured token the header carries, or -1. */
  match(header: string | undefined): number {
    const token = tokenFromHeader(header);
    // Hash something even when there is no token so a missing header costs the same.
    const presented = digest(token ?? '');
    let found = -1;
    for (let i = 0; i < this.digests.length; i++) {
      if (timingSafeEqual(presented, this.digests[i]) && token !== undefined && found === -1) {
        found = i;
      }
    }
    return found;
  }
}
