// Markdown helpers for hovers, free of vscode so the text they make is unit-tested in Node.
import type { DnssecResult } from '../../contract/shapes';
import { STATUS_TEXT } from '../views/nodes/dnssecFacts';

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

/** The hover's DNSSEC line: the icon, the status as the results view says it, and why. */
export function dnssecLine(verdict: DnssecResult): string {
  const reason = verdict.reason.trim();
  const text = `${ICON[verdict.status]} ${escapeMd(STATUS_TEXT[verdict.status])}`;
  return reason === '' ? text : `${text} — ${escapeMd(reason)}`;
}
