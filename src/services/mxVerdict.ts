// One MX host's transport verdict, weighing its STARTTLS result against DANE and MTA-STS.
// Pure and engine-free, so the editor's tree imports it without loading the engine.
import type { ErrorCode } from '../contract/errors';
import type { MtaStsResult, TlsResult } from '../contract/shapes';

interface MailLookupError {
  error: { code: ErrorCode; message: string };
}

/** PKIX findings a DANE sender does not look at once a usable TLSA record matches. */
const PKIX_CODES = new Set([
  'untrusted',
  'self_signed',
  'incomplete_chain',
  'name_mismatch',
  'expired',
  'not_yet_valid',
  'expires_soon',
]);

export interface MxVerdict {
  level: 'ok' | 'warning' | 'error';
  /** why the level differs from what the TLS problems alone say */
  note?: string;
}

/**
 * One MX host's transport verdict for the senders that check it. A DANE match authenticates
 * the server whatever PKIX says (RFC 7672 section 3.1: DANE-EE ignores names and dates), but an
 * MTA-STS policy in force still needs a PKIX-valid certificate (RFC 8461 section 4.2).
 */
export function mxVerdict(
  tls: TlsResult | MailLookupError,
  policy: MtaStsResult | MailLookupError,
): MxVerdict {
  if ('error' in tls) return { level: 'error' };
  const enforced =
    !('error' in policy) && policy.policy !== null && policy.policy.mode === 'enforce';
  if (tls.dane?.status === 'match') {
    if (enforced && !tls.trusted) {
      return {
        level: 'error',
        note: 'DANE matches, but the MTA-STS policy needs a PKIX-valid certificate as well',
      };
    }
    const other = tls.problems.filter((p) => !PKIX_CODES.has(p.code));
    const pkix = tls.problems.length - other.length;
    const level = other.some((p) => p.severity === 'error')
      ? 'error'
      : other.length > 0
        ? 'warning'
        : 'ok';
    return pkix > 0
      ? { level, note: 'DANE matches: DANE senders do not look at the PKIX findings (RFC 7672)' }
      : { level };
  }
  if (!tls.trusted || tls.problems.some((p) => p.severity === 'error')) return { level: 'error' };
  return { level: tls.problems.length > 0 ? 'warning' : 'ok' };
}
