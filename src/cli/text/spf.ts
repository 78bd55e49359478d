// The SPF include tree: each policy with its ranges, how many DNS look-ups it costs
// (RFC 7208 section 4.6.4: include, a, mx, ptr, exists and redirect count; ip4, ip6 and all
// do not) and the problems found in it, drawn with box-drawing or ASCII branches.
import { SPF_MAX_LOOKUPS, SPF_MAX_VOID_LOOKUPS } from '../../contract/limits';
import type { SpfNode, SpfProblem, SpfRoot } from '../../contract/shapes';
import { fqdn, renderer, type RenderContext } from './context';
import { fold, plural, wrapItems } from './layout';

const WIDTH = 76;

export const renderSpf = renderer<SpfRoot>((root, context) =>
  spfTree(root, fqdn(context.params.host).replace(/\.$/, ''), context).join('\n'),
);

export function spfTree(root: SpfRoot, domain: string, context: RenderContext): string[] {
  const { style, glyphs } = context;
  const problems = root.problems ?? [];
  const lookups = root.lookup_count ?? subtreeLookups(root);
  const voids = root.void_lookup_count ?? 0;
  const count = `${lookups}/${SPF_MAX_LOOKUPS} look-ups`;
  const voidCount = `${voids}/${SPF_MAX_VOID_LOOKUPS} void`;
  const head = [
    style.bold(domain),
    lookups > SPF_MAX_LOOKUPS ? style.red(`${count} (over the limit)`) : style.dim(count),
    voids > SPF_MAX_VOID_LOOKUPS
      ? style.red(`${voidCount} (over the limit)`)
      : style.dim(voidCount),
  ].join(style.dim(glyphs.dot));
  const detailPrefix = style.dim(root.includes.length > 0 ? glyphs.pipe : glyphs.space);
  const lines = [
    head,
    ...details(root.policy, root.ips, problemsOf(problems, domain), detailPrefix, context),
  ];
  root.includes.forEach((child, i) =>
    lines.push(...nodeLines(child, '', i === root.includes.length - 1, problems, context)),
  );
  return lines;
}

function nodeLines(
  node: SpfNode,
  prefix: string,
  last: boolean,
  problems: SpfProblem[],
  context: RenderContext,
): string[] {
  const { style, glyphs } = context;
  const mine = problemsOf(problems, node.domain);
  const label = [
    style.bold(node.domain),
    node.via === 'redirect' ? style.dim('redirect') : '',
    style.dim(plural(subtreeLookups(node), 'look-up')),
    node.policy === '' ? style.red(`${glyphs.error} no SPF record`) : '',
  ]
    .filter((part) => part !== '')
    .join(style.dim(glyphs.dot));
  const inner = prefix + (last ? glyphs.space : glyphs.pipe);
  const lines = [`${style.dim(prefix + (last ? glyphs.last : glyphs.branch))}${label}`];
  const detailPrefix = inner + (node.includes.length > 0 ? glyphs.pipe : glyphs.space);
  lines.push(...details(node.policy, node.ips, mine, style.dim(detailPrefix), context));
  node.includes.forEach((child, i) =>
    lines.push(...nodeLines(child, inner, i === node.includes.length - 1, problems, context)),
  );
  return lines;
}

function details(
  policy: string,
  ips: SpfRoot['ips'],
  problems: SpfProblem[],
  prefix: string,
  { style, glyphs, width }: RenderContext,
): string[] {
  const lines: string[] = [];
  if (policy !== '') lines.push(prefix + style.dim(policy));
  const ranges = ips.map((ip) => ip.cidr_block);
  for (const line of wrapItems(ranges, WIDTH)) lines.push(prefix + line);
  for (const problem of problems) {
    const term = problem.term !== undefined ? `${problem.term}: ` : '';
    // An error makes receivers answer permerror (as spf-check would); a warning does not.
    const error = problem.severity === 'error';
    const mark = error ? glyphs.error : glyphs.warn;
    const line = prefix + (error ? style.red : style.yellow)(`${mark} ${term}${problem.message}`);
    lines.push(...fold(line, width, `${prefix}  `));
  }
  return lines;
}

/** Problems reported on a node, matched by domain without case or trailing dot. */
function problemsOf(problems: SpfProblem[], domain: string): SpfProblem[] {
  const key = (d: string) => d.toLowerCase().replace(/\.$/, '');
  return problems.filter((p) => key(p.domain) === key(domain));
}

/** DNS-querying terms of this policy and of everything it includes or redirects to. */
export function subtreeLookups(node: Pick<SpfNode, 'policy' | 'includes'>): number {
  return (
    ownLookups(node.policy) + node.includes.reduce((sum, child) => sum + subtreeLookups(child), 0)
  );
}

function ownLookups(policy: string): number {
  return policy
    .split(/\s+/)
    .slice(1)
    .filter(
      (term) =>
        /^[+\-~?]?(include:|a(?:[:/]|$)|mx(?:[:/]|$)|ptr(?::|$)|exists:)/i.test(term) ||
        /^redirect=/i.test(term),
    ).length;
}
