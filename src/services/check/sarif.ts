// Findings as SARIF 2.1.0 (OASIS), the format GitHub code scanning and other CI tools read to
// show findings on the lines they are about. One rule per finding kind.
import { DEFAULT_SEVERITY, FINDING_KINDS, type CheckReport, type FindingKind } from './types';

const RULE_TEXT: Record<FindingKind, string> = {
  broken_link: 'The link does not lead to a page, file or mailbox',
  redirected_link: 'The link is permanently redirected; link to where it ends',
  missing_fragment: 'The page or file has no anchor the #fragment names',
  unresolvable_host: 'The host name does not resolve (NXDOMAIN)',
  registrable_domain: 'The domain is not registered: anyone can register it',
  expiring_domain: 'The domain expires soon',
  dangling_record: 'A zone record points at a name that does not exist or can be registered',
  timeout: 'The link did not answer in time',
  rate_limited: 'The host kept answering 429 or 503',
  blocked_target: 'The service may not fetch this address (private or loopback)',
  lookup_failed: 'A DNS or WHOIS look-up failed, so what it would tell is unknown',
};

const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

/**
 * `root` is the directory the findings' paths are relative to, as a file: URI ending in "/".
 */
export function toSarif(report: CheckReport, version: string, root: string): object {
  const index = new Map(FINDING_KINDS.map((kind, i) => [kind, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'HostLens',
            version,
            rules: FINDING_KINDS.map((kind) => ({
              id: kind,
              shortDescription: { text: RULE_TEXT[kind] },
              defaultConfiguration: { level: LEVEL[DEFAULT_SEVERITY[kind]] },
            })),
          },
        },
        originalUriBaseIds: { SRCROOT: { uri: root } },
        results: report.findings.map((f) => ({
          ruleId: f.kind,
          ruleIndex: index.get(f.kind),
          level: LEVEL[f.severity],
          message: { text: f.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: {
                  uri: f.file.split('/').map(encodeURIComponent).join('/'),
                  uriBaseId: 'SRCROOT',
                },
                region: {
                  startLine: f.line,
                  startColumn: f.column,
                  endColumn: f.column + f.target.length,
                },
              },
            },
          ],
          ...(f.final_url ? { properties: { final_url: f.final_url } } : {}),
        })),
      },
    ],
  };
}
