// The independent implementations the differential suites compare with, each with the version
// its suite's expectations were written for. A suite asks here for its tool before it runs:
// a missing tool is a visible skip (with the Debian package to install), a tool of another
// series is a clear failure (its known disagreements and readings of output may not hold), and
// the tool, its version and the options of the run are printed with the suite's figure. So a
// machine with other tools never changes what a figure means without saying so.
import { spawnSync } from 'node:child_process';
import { findTool } from './knot';

interface Spec {
  /** the Debian package that installs it */
  debian: string;
  versionArgs: string[];
  /** reads the version out of what versionArgs print */
  version: RegExp;
  /** the series (major.minor) the suites' expectations were written for */
  series: string;
}

const KNOT: Omit<Spec, 'debian'> = {
  versionArgs: ['--version'],
  version: /\(Knot DNS\), version (\d+\.\d+\.\d+)/,
  series: '3.2',
};
const BIND: Omit<Spec, 'debian'> = {
  versionArgs: ['-v'],
  version: /(\d+\.\d+\.\d+)/,
  series: '9.18',
};

const SPECS = {
  knotd: { debian: 'knot', ...KNOT },
  kdig: { debian: 'knot-dnsutils', ...KNOT },
  kzonecheck: { debian: 'knot-dnssecutils', ...KNOT },
  'named-checkzone': { debian: 'bind9-utils', ...BIND },
  'named-compilezone': { debian: 'bind9-utils', ...BIND },
  'dnssec-keygen': { debian: 'bind9-utils', ...BIND, versionArgs: ['-V'] },
  'dnssec-dsfromkey': { debian: 'bind9-utils', ...BIND, versionArgs: ['-V'] },
  'dnssec-signzone': { debian: 'bind9-utils', ...BIND, versionArgs: ['-V'] },
  delv: { debian: 'bind9-dnsutils', ...BIND },
  openssl: {
    debian: 'openssl',
    versionArgs: ['version'],
    version: /^OpenSSL (\d+\.\d+\.\d+)/,
    series: '3.0',
  },
} satisfies Record<string, Spec>;

export type ToolName = keyof typeof SPECS;

export interface ReferenceTool {
  name: ToolName;
  path: string;
  version: string;
}

const found = new Map<ToolName, ReferenceTool | string>();

/**
 * The tool, or why it cannot run here (a string: the skip reason). Throws when the tool is
 * there but of another series than the suites were written for, or prints no version.
 */
export function referenceTool(name: ToolName): ReferenceTool | string {
  const known = found.get(name);
  if (known !== undefined) return known;
  const spec: Spec = SPECS[name];
  const path = findTool(name);
  let result: ReferenceTool | string;
  if (path === undefined) {
    result = `${name} is not installed (Debian package ${spec.debian})`;
  } else {
    const run = spawnSync(path, spec.versionArgs, { encoding: 'utf8', timeout: 10000 });
    const version = spec.version.exec(`${run.stdout ?? ''}${run.stderr ?? ''}`)?.[1];
    checkSeries(name, path, version, spec.series);
    result = { name, path, version: version! };
  }
  found.set(name, result);
  return result;
}

/** Fails with a message that says what to do when `version` is not of `series`. */
export function checkSeries(
  name: string,
  path: string,
  version: string | undefined,
  series: string,
): void {
  if (version === undefined) {
    throw new Error(`${path} printed no version: is it the ${name} the suites compare with?`);
  }
  if (version !== series && !version.startsWith(`${series}.`)) {
    throw new Error(
      `${name} ${version} (${path}) is not the ${series} series the suite's expectations were ` +
        `written for; re-check the suite against it, then update the series in ` +
        `test/support/reference-tools.ts`,
    );
  }
}

/**
 * The tools a suite needs: every one found, or the first reason to skip (printed). Call it in a
 * before() or it(); a tool of another series throws there.
 */
export function needTools(
  ctx: Mocha.Context,
  ...names: ToolName[]
): Record<ToolName, ReferenceTool> {
  const tools = {} as Record<ToolName, ReferenceTool>;
  for (const name of names) {
    const tool = referenceTool(name);
    if (typeof tool === 'string') {
      console.log(`    (skipped: ${tool})`);
      ctx.skip();
    }
    tools[name] = tool;
  }
  return tools;
}

/** The line printed with a figure: which tool, which version, and how it was run. */
export function describeTool(tool: ReferenceTool, options: string): string {
  return `reference: ${tool.name} ${tool.version} (${tool.path}), ${options}`;
}
