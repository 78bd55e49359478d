// The workspace check (issue 21): what the command line and the editor call.
export {
  checkWorkspace,
  checkTexts,
  findingDomain,
  type CheckOptions,
  type CheckInput,
} from './check';
export { toSarif } from './sarif';
export { listFiles } from './files';
export { headingSlugs, slug } from './anchors';
export { DEFAULT_CACHE_TTL_MS } from './cache';
export {
  DEFAULT_SEVERITY,
  FINDING_KINDS,
  type CheckProgress,
  type CheckReport,
  type Finding,
  type FindingKind,
  type Severity,
} from './types';
