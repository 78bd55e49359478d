// Near misses on the command line: an option or a command a letter or two away from one that
// exists gets "did you mean", as git and cargo answer. Pure; main.ts, operation.ts and
// commands.ts call it.
import { LookupError } from '../contract/errors';

/**
 * Edits between two words, an adjacent swap counting as one (optimal string alignment):
 * `--hleo` is one edit from `--helo`, as people mistype it.
 */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2][j - 2] + 1);
      }
      rows[i][j] = best;
    }
  }
  return rows[a.length][b.length];
}

/** The one candidate near enough to `word` to be what was meant, if there is one. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const bare = (w: string) => w.replace(/^-+/, '').toLowerCase();
  const typed = bare(word);
  // Two edits in a long word, one in a short one: further than that is a different word.
  const limit = typed.length <= 4 ? 1 : 2;
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(typed, bare(candidate));
    if (distance <= limit && (best === undefined || distance < best.distance)) {
      best = { candidate, distance };
    }
  }
  return best?.candidate;
}

/**
 * A node:util parseArgs failure as the command line reports it: an unknown option with the
 * one it is near, other mistakes in parseArgs' words; the usage line after it.
 */
export function argumentError(
  err: unknown,
  options: readonly string[],
  usage: string,
): LookupError {
  const code = (err as { code?: unknown }).code;
  const message = (err as Error).message;
  const unknown = /^Unknown option '(-[^']*)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown !== undefined) {
    const near = closest(unknown, options);
    const guess = near === undefined ? '' : `: did you mean ${near}?`;
    return new LookupError('invalid_argument', `Unknown option ${unknown}${guess}\n${usage}`);
  }
  return new LookupError('invalid_argument', `${message}\n${usage}`);
}
