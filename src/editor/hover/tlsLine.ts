// The TLS line of a host hover: who issued the certificate on 443, how many days it has left
// and its problems. Asked beside the DNS question, within a short budget so a host without a
// TLS server does not hold the hover; answers are kept a few minutes per host and resolver.
import type { TlsResult } from '../../contract/shapes';
import type { Deps } from '../deps';
import { escapeMd } from './markdown';

/** How long a hover waits for the handshake before it shows the records without TLS. */
export const HOVER_TLS_BUDGET_MS = 4000;
const KEEP_MS = 5 * 60_000;
const MAX_KEPT = 200;

type Outcome = { result: TlsResult } | { error: string };

export class TlsHoverCache {
  private readonly kept = new Map<string, { at: number; outcome: Promise<Outcome> }>();

  /** The TLS outcome for host:443, asked once per KEEP_MS; undefined past the budget. */
  async get(
    deps: Deps,
    host: string,
    server: string | undefined,
    signal: AbortSignal,
  ): Promise<Outcome | undefined> {
    const key = `${host}@${server ?? ''}`;
    let entry = this.kept.get(key);
    if (entry === undefined || Date.now() - entry.at > KEEP_MS) {
      // Not tied to this hover's signal: the next hover of the same name reuses the answer.
      const outcome = deps
        .services()
        .domain.tls({ host, ...(server ? { server } : {}) })
        .then(
          (result): Outcome => ({ result }),
          (err: unknown): Outcome => ({ error: (err as { code?: string }).code ?? 'error' }),
        );
      entry = { at: Date.now(), outcome };
      this.kept.set(key, entry);
      if (this.kept.size > MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const budget = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), HOVER_TLS_BUDGET_MS);
      if (signal.aborted) resolve(undefined);
      else signal.addEventListener('abort', () => resolve(undefined), { once: true });
    });
    try {
      return await Promise.race([entry.outcome, budget]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** `TLS ✓ R3 · 63 days left`, then the problem codes; or why there is no certificate. */
export function tlsHoverLine(outcome: Outcome): string {
  if ('error' in outcome) return `TLS $(circle-slash) no answer on 443 (${outcome.error})`;
  const { result } = outcome;
  if (result.chain.length === 0) return 'TLS $(circle-slash) no certificate';
  const leaf = result.chain[0];
  const errors = result.problems.filter((p) => p.severity === 'error');
  const icon =
    !result.trusted || errors.length > 0
      ? '$(error)'
      : result.problems.length > 0
        ? '$(warning)'
        : '$(pass)';
  const days =
    leaf.days_left < 0 ? `expired ${-leaf.days_left} days ago` : `${leaf.days_left} days left`;
  const parts = [`TLS ${icon} ${escapeMd(issuerName(leaf.issuer))}`, days];
  if (result.problems.length > 0) parts.push(result.problems.map((p) => p.code).join(', '));
  return parts.join(' · ');
}

/** The CN (or O) of an issuer's distinguished name, as people name a CA. */
export function issuerName(dn: string): string {
  const cn = /(?:^|,\s*)CN=([^,]+)/.exec(dn)?.[1];
  const o = /(?:^|,\s*)O=([^,]+)/.exec(dn)?.[1];
  return (cn ?? o ?? dn).trim();
}
