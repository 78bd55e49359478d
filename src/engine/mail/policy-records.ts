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

/** One tag of a tag-list as written: the name keeps its case and `lead` its leading space. */
export interface WrittenTag {
  name: string;
  value: string;
  lead: string;
}

interface CheckContext {
  /** every tag in record order, duplicates included */
  written: WrittenTag[];
  /** the name asked */
  name: string;
}

type Checker = (tags: Record<string, string>, flag: Flag, context: CheckContext) => void;
type Flag = (code: string, severity: 'error' | 'warning', message: string, tag?: string) => void;

/**
 * Picks the record of that kind among the TXT records of a name and checks it; null when
 * none carries its version tag (compared without case, so a mis-cased one is flagged, and
 * anywhere in the record, so one with the version out of place is flagged rather than missed).
 */
export function parseMailRecord(
  kind: Kind,
  name: string,
  texts: string[],
): ParsedMailRecord | null {
  const { version, check } = KINDS[kind];
  const isVersion = (t: WrittenTag) =>
    t.name.toLowerCase() === 'v' && t.value.toLowerCase() === version.toLowerCase();
  const mine = texts.filter((t) => writtenTags(t).some(isVersion));
  if (mine.length === 0) return null;
  const record = mine[0];
  const problems: MailRecordProblem[] = [];
  const flag: Flag = (code, severity, message, tag) =>
    problems.push({ code, severity, ...(tag !== undefined ? { tag } : {}), message });
  if (mine.length > 1) {
    flag('several_records', 'error', `${mine.length} records; receivers ignore them all`);
  }
  const written = writtenTags(record);
  const tags = Object.fromEntries(parseTagList(record));
  if (tags.v !== version) flag('bad_version', 'error', `The version must be "${version}"`, 'v');
  if (written[0]?.name.toLowerCase() !== 'v') {
    flag(
      'version_not_first',
      'error',
      'v= must be the first tag; receivers discard the record',
      'v',
    );
  }
  check(tags, flag, { written, name });
  return { name: fqdn(name), record, tags, problems };
}

/** The tags of a tag-list (RFC 6376 section 3.2) as written, in order, duplicates kept. */
export function writtenTags(text: string): WrittenTag[] {
  const out: WrittenTag[] = [];
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const raw = part.slice(0, eq);
    const name = raw.trim();
    if (name === '') continue;
    out.push({ name, value: part.slice(eq + 1).trim(), lead: /^\s*/.exec(raw)![0] });
  }
  return out;
}

// mailto:local@domain (RFC 6068), the domain's labels letters, digits and hyphens; any length
// of top-level label, one letter included.
const MAILTO =
  /^mailto:[^@\s,!]+@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.?$/i;
// An absolute URI (RFC 3986 section 4.3): a scheme, then anything without spaces or commas.
const ABSOLUTE_URI = /^[a-z][a-z0-9+.-]*:[^\s,]+$/i;
// RFC 7489 section 6.4: dmarc-uri = URI [ "!" 1*DIGIT [ "k" / "m" / "g" / "t" ] ]
const SIZE_LIMIT = /!\d+[kmgt]?$/i;
const MAX_UINT32 = 4294967295;

function uriList(value: string): string[] {
  return value
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
}

/** Whether a DMARC report URI is valid by section 6.4: any URI, a mailto: one well formed. */
function isDmarcUri(uri: string): boolean {
  const bare = uri.replace(SIZE_LIMIT, '');
  if (!ABSOLUTE_URI.test(bare)) return false;
  return !/^mailto:/i.test(bare) || MAILTO.test(bare);
}

const POLICIES = ['none', 'quarantine', 'reject'];

function checkDmarc(tags: Record<string, string>, flag: Flag, context: CheckContext): void {
  checkDmarcTagList(context, flag);
  checkDmarcPolicy(tags, flag, context);
  if (tags.sp !== undefined && !POLICIES.includes(tags.sp.toLowerCase())) {
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
  // Section 6.3: rf= is a colon-separated list of one or more report formats.
  if (tags.rf !== undefined && !/^[a-z0-9-]+(?:\s*:\s*[a-z0-9-]+)*$/i.test(tags.rf)) {
    flag('invalid_rf', 'error', `rf=${tags.rf} is not a list of report formats`, 'rf');
  }
  // Section 6.3: ri= is a 32-bit unsigned integer.
  if (tags.ri !== undefined && !(/^\d+$/.test(tags.ri) && Number(tags.ri) <= MAX_UINT32)) {
    flag('invalid_ri', 'error', `ri=${tags.ri} is not a 32-bit number of seconds`, 'ri');
  }
  for (const tag of ['rua', 'ruf']) {
    const v = tags[tag];
    if (v === undefined) continue;
    const uris = uriList(v);
    if (uris.length === 0) flag('invalid_report_uri', 'error', `${tag}= is empty`, tag);
    for (const uri of uris.filter((u) => !isDmarcUri(u))) {
      flag('invalid_report_uri', 'error', `"${uri}" is not a valid report URI`, tag);
    }
  }
  if (tags.rua === undefined && !isReportAuthorization(context.name)) {
    flag('no_reports', 'warning', 'No rua= tag: nobody receives aggregate reports', 'rua');
  }
}

/** The tag-list rules of sections 6.3 and 6.4 that the parsed tags no longer show. */
function checkDmarcTagList(context: CheckContext, flag: Flag): void {
  const seen = new Set<string>();
  for (const t of context.written) {
    const lower = t.name.toLowerCase();
    if (seen.has(lower)) {
      // RFC 6376 section 3.2, whose tag-list DMARC uses: a duplicate makes the list invalid.
      flag(
        'duplicate_tag',
        'error',
        `${lower}= is given twice: receivers reject the record`,
        lower,
      );
    }
    seen.add(lower);
    if (t.name !== lower) {
      flag('tag_case', 'warning', `"${t.name}" should be written "${lower}"`, lower);
    }
  }
  if (context.written[0]?.lead) {
    flag('leading_space', 'warning', 'The record should start with "v=", not with a space', 'v');
  }
}

/**
 * p= is required in a policy record, second after v= (section 6.3). Without a valid one, a
 * receiver that finds a valid rua= URI acts as if p=none was given (section 6.6.3), and a
 * report authorization record (section 7.1) has no policy at all.
 */
function checkDmarcPolicy(tags: Record<string, string>, flag: Flag, context: CheckContext): void {
  const p = tags.p?.toLowerCase();
  const position = context.written.findIndex((t) => t.name.toLowerCase() === 'p');
  if (p === undefined) {
    if (isReportAuthorization(context.name)) return;
    const reports = uriList(tags.rua ?? '').some(isDmarcUri);
    flag(
      'missing_policy',
      reports ? 'warning' : 'error',
      reports
        ? 'No p= tag: receivers act as p=none because rua= is valid'
        : 'No p= tag: the record has no policy',
      'p',
    );
  } else if (!POLICIES.includes(p)) {
    flag('invalid_policy', 'error', `p=${tags.p} is not none, quarantine or reject`, 'p');
  } else if (p === 'none') {
    flag(
      'policy_none',
      'warning',
      'p=none only monitors; move to quarantine or reject once the reports are clean (how long it has been none cannot be seen in DNS)',
      'p',
    );
  }
  if (position !== -1 && position !== 1)
    flag('policy_not_second', 'error', 'p= must come right after v=', 'p');
}

/** <domain>._report._dmarc.<reporting domain>: a reporting authorization, not a policy. */
function isReportAuthorization(name: string): boolean {
  return /\._report\._dmarc\./i.test(`${name.replace(/\.$/, '')}.`);
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
