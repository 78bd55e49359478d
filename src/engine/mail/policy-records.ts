// The policy records of a domain's mail set-up beside SPF and DKIM: DMARC (RFC 7489), MTA-STS
// (RFC 8461), TLS-RPT (RFC 8460) and BIMI TXT records, parsed into tags with the usual
// mistakes flagged. Pure: services/mail.ts asks for the records over any DomainService.
import { fqdn } from '../names';
import { parseTagList } from './dkim';

export interface MailRecordProblem {
  /** stable snake_case identifier */
  code: string;
  severity: 'error' | 'warning';
  /** the tag at fault, when one is */
  tag?: string;
  message: string;
}

export interface ParsedMailRecord {
  /** the name asked, with a trailing dot */
  name: string;
  /** the record text (the first one when there are several) */
  record: string;
  /** tag names lower case, values trimmed, in record order */
  tags: Record<string, string>;
  problems: MailRecordProblem[];
}

export type MailRecordKind = 'dmarc' | 'mta_sts' | 'tls_rpt' | 'bimi';

export const MAIL_RECORD_KINDS: readonly MailRecordKind[] = ['dmarc', 'mta_sts', 'tls_rpt', 'bimi'];
type Kind = MailRecordKind;

/** where each kind lives under the domain, and the version tag that opens it */
export const KINDS: Record<Kind, { prefix: string; version: string; check: Checker }> = {
  dmarc: { prefix: '_dmarc', version: 'DMARC1', check: checkDmarc },
  mta_sts: { prefix: '_mta-sts', version: 'STSv1', check: checkMtaSts },
  tls_rpt: { prefix: '_smtp._tls', version: 'TLSRPTv1', check: checkTlsRpt },
  bimi: { prefix: 'default._bimi', version: 'BIMI1', check: checkBimi },
};

type Checker = (tags: Record<string, string>, flag: Flag) => void;
type Flag = (code: string, severity: 'error' | 'warning', message: string, tag?: string) => void;

/**
 * Picks the record of that kind among the TXT records of a name and checks it; null when
 * none starts with its version tag (compared without case, so a mis-cased one is flagged).
 */
export function parseMailRecord(
  kind: Kind,
  name: string,
  texts: string[],
): ParsedMailRecord | null {
  const { version, check } = KINDS[kind];
  const mine = texts.filter((t) => new RegExp(`^\\s*v\\s*=\\s*${version}\\s*(;|$)`, 'i').test(t));
  if (mine.length === 0) return null;
  const record = mine[0];
  const problems: MailRecordProblem[] = [];
  const flag: Flag = (code, severity, message, tag) =>
    problems.push({ code, severity, ...(tag !== undefined ? { tag } : {}), message });
  if (mine.length > 1) {
    flag('several_records', 'error', `${mine.length} records; receivers ignore them all`);
  }
  const tags = Object.fromEntries(parseTagList(record));
  if (tags.v !== version) flag('bad_version', 'error', `The version must be "${version}"`, 'v');
  check(tags, flag);
  return { name: fqdn(name), record, tags, problems };
}

const MAILTO = /^mailto:[^@\s,!]+@[a-z0-9.-]+\.[a-z]{2,}(?:![0-9]+[kmgt]?)?$/i;

function uriList(value: string): string[] {
  return value
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
}

function checkDmarc(tags: Record<string, string>, flag: Flag): void {
  const p = tags.p?.toLowerCase();
  if (p === undefined) {
    flag('missing_policy', 'error', 'No p= tag: the record has no policy', 'p');
  } else if (!['none', 'quarantine', 'reject'].includes(p)) {
    flag('invalid_policy', 'error', `p=${tags.p} is not none, quarantine or reject`, 'p');
  } else if (p === 'none') {
    flag(
      'policy_none',
      'warning',
      'p=none only monitors; move to quarantine or reject once the reports are clean (how long it has been none cannot be seen in DNS)',
      'p',
    );
  }
  if (tags.sp !== undefined && !['none', 'quarantine', 'reject'].includes(tags.sp.toLowerCase())) {
    flag('invalid_policy', 'error', `sp=${tags.sp} is not none, quarantine or reject`, 'sp');
  }
  if (tags.pct !== undefined) {
    const n = /^\d{1,3}$/.test(tags.pct) ? Number(tags.pct) : NaN;
    if (!(n >= 0 && n <= 100)) {
      flag('invalid_pct', 'error', `pct=${tags.pct} is not a whole number 0-100`, 'pct');
    }
  }
  for (const tag of ['adkim', 'aspf']) {
    const v = tags[tag];
    if (v !== undefined && !['r', 's'].includes(v.toLowerCase())) {
      flag('invalid_alignment', 'error', `${tag}=${v} is not r or s`, tag);
    }
  }
  if (tags.fo !== undefined && !/^[01ds](?:\s*:\s*[01ds])*$/i.test(tags.fo)) {
    flag('invalid_fo', 'error', `fo=${tags.fo} is not a list of 0, 1, d and s`, 'fo');
  }
  if (tags.ri !== undefined && !/^\d+$/.test(tags.ri)) {
    flag('invalid_ri', 'error', `ri=${tags.ri} is not a number of seconds`, 'ri');
  }
  for (const tag of ['rua', 'ruf']) {
    const v = tags[tag];
    if (v === undefined) continue;
    const uris = uriList(v);
    if (uris.length === 0) flag('invalid_report_uri', 'error', `${tag}= is empty`, tag);
    for (const uri of uris.filter((u) => !MAILTO.test(u))) {
      flag('invalid_report_uri', 'error', `"${uri}" is not a mailto: address`, tag);
    }
  }
  if (tags.rua === undefined) {
    flag('no_reports', 'warning', 'No rua= tag: nobody receives aggregate reports', 'rua');
  }
}

function checkMtaSts(tags: Record<string, string>, flag: Flag): void {
  if (tags.id === undefined || tags.id === '') {
    flag('missing_id', 'error', 'No id= tag: senders cannot tell when the policy changes', 'id');
  } else if (!/^[a-z0-9]{1,32}$/i.test(tags.id)) {
    flag('invalid_id', 'error', `id=${tags.id} must be 1-32 letters and digits`, 'id');
  }
}

function checkTlsRpt(tags: Record<string, string>, flag: Flag): void {
  if (tags.rua === undefined) {
    flag('missing_rua', 'error', 'No rua= tag: reports have nowhere to go', 'rua');
    return;
  }
  const uris = uriList(tags.rua);
  if (uris.length === 0) flag('invalid_report_uri', 'error', 'rua= is empty', 'rua');
  for (const uri of uris) {
    if (!MAILTO.test(uri) && !/^https:\/\/[^\s/]+/i.test(uri)) {
      flag('invalid_report_uri', 'error', `"${uri}" is not a mailto: or https: URI`, 'rua');
    }
  }
}

function checkBimi(tags: Record<string, string>, flag: Flag): void {
  const l = tags.l;
  if (l === undefined) {
    flag('missing_logo', 'error', 'No l= tag: no logo location', 'l');
  } else if (l === '') {
    flag('declined', 'warning', 'l= is empty: the domain declines to publish a logo', 'l');
  } else if (!/^https:\/\/\S+$/i.test(l)) {
    flag('invalid_logo_uri', 'error', `l=${l} must be an https: URL`, 'l');
  }
  if (tags.a !== undefined && tags.a !== '' && !/^https:\/\/\S+$/i.test(tags.a)) {
    flag('invalid_authority_uri', 'error', `a=${tags.a} must be an https: URL`, 'a');
  }
}
