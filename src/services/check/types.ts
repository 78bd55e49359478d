// The workspace check's findings, as `hostlens check --format json` prints them and the editor
// turns them into diagnostics.

export const FINDING_KINDS = [
  'broken_link',
  'redirected_link',
  'missing_fragment',
  'unresolvable_host',
  'registrable_domain',
  'expiring_domain',
  'dangling_record',
  'timeout',
  'rate_limited',
  'blocked_target',
  'lookup_failed',
] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export type Severity = 'error' | 'warning' | 'info';

/**
 * A broken thing breaks the build; what may be transient (a timeout, a rate limit) or is a
 * matter of upkeep (a redirect, a lapse still weeks away) warns. A link the service may not
 * fetch (server mode, private address) is not known to be broken: it warns. A look-up that
 * failed (DNS, WHOIS) is said, not skipped, but says nothing about the link: it informs.
 */
export const DEFAULT_SEVERITY: Readonly<Record<FindingKind, Severity>> = {
  broken_link: 'error',
  unresolvable_host: 'error',
  registrable_domain: 'error',
  dangling_record: 'error',
  redirected_link: 'warning',
  missing_fragment: 'warning',
  expiring_domain: 'warning',
  timeout: 'warning',
  rate_limited: 'warning',
  blocked_target: 'warning',
  lookup_failed: 'info',
};

export interface Finding {
  /** relative to the directory the check ran in, with forward slashes */
  file: string;
  /** 1-based */
  line: number;
  /** 1-based, in UTF-16 code units as editors count them */
  column: number;
  /** the URL, address, path or name as written */
  target: string;
  kind: FindingKind;
  severity: Severity;
  message: string;
  /** redirected_link: where the permanent redirects end */
  final_url?: string;
}

export interface CheckReport {
  findings: Finding[];
  checked: { urls: number; hosts: number };
}

export interface CheckProgress {
  /** distinct things to check, known so far */
  total: number;
  done: number;
}
