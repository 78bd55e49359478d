// Markdown helpers for hovers, free of vscode so the text they make is unit-tested in Node.
import { RECORD_TYPES, type DnssecResult } from '../../contract/shapes';
import { notAResolver, NOT_CHECKED_TEXT, STATUS_TEXT } from '../views/nodes/dnssecFacts';

export function escapeMd(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

const RANK: Record<DnssecResult['status'], number> = {
  secure: 0,
  insecure: 1,
  indeterminate: 2,
  bogus: 3,
};

/** Codicons, drawn by a MarkdownString with supportThemeIcons. */
const ICON: Record<DnssecResult['status'], string> = {
  secure: '$(lock)',
  insecure: '$(unlock)',
  indeterminate: '$(warning)',
  bogus: '$(warning)',
};

/**
 * One verdict for a hover whose types came from several queries (some from the cache): the
 * worst, as the engine ranks them for the types of one query. Undefined when none was asked.
 */
export function worstVerdict(verdicts: Array<DnssecResult | undefined>): DnssecResult | undefined {
  let worst: DnssecResult | undefined;
  for (const v of verdicts) {
    if (v !== undefined && (worst === undefined || RANK[v.status] > RANK[worst.status])) worst = v;
  }
  return worst;
}

/**
 * The hover's DNSSEC line: the icon, the status as the results view says it, and why. A
 * nameserver that cannot give the chain of trust (an authoritative server, not a validating
 * resolver) gets one quiet line instead of a warning longer than the answer.
 */
export function dnssecLine(verdict: DnssecResult): string {
  if (notAResolver(verdict)) return `$(circle-slash) ${escapeMd(NOT_CHECKED_TEXT)}`;
  const reason = withoutTypePrefix(verdict.reason.trim());
  const text = `${ICON[verdict.status]} ${escapeMd(STATUS_TEXT[verdict.status])}`;
  return reason === '' ? text : `${text} — ${escapeMd(reason)}`;
}

const TYPE_PREFIX = new RegExp(`^(?:${RECORD_TYPES.join('|')}): `);

/**
 * The reason without the "A: " the engine puts before it when a query asked several types
 * (dnssec/index.ts): a hover's answers may come from several queries (the cache), so the type
 * named there need not be one the hover shows; the reason itself names the record at fault.
 */
function withoutTypePrefix(reason: string): string {
  return reason.replace(TYPE_PREFIX, '');
}
