// zone-check and zone-diff for people: one `file:line:col: severity: message` line per finding,
// the form compilers and named-checkzone use, so terminals and editors can jump to the place;
// then one summary line.
import type { DriftEntry, DriftResult, ZoneCheckProblem } from '../../services/zone';
import { renderer, type RenderContext } from './context';
import { plural } from './layout';

type Severity = 'error' | 'warning';

function finding(
  where: string,
  severity: Severity,
  message: string,
  { style }: RenderContext,
): string {
  const word = severity === 'error' ? style.red(severity) : style.yellow(severity);
  return `${style.bold(`${where}:`)} ${word}: ${message}`;
}

function param(context: RenderContext, name: string): string | undefined {
  const value = context.params[name];
  return Array.isArray(value) ? value[0] : value;
}

function fileOf(context: RenderContext): string {
  return param(context, 'file') ?? '-';
}

export const renderZoneCheck = renderer<{
  problems: ZoneCheckProblem[];
  records?: string[];
}>((result, context) => {
  const file = fileOf(context);
  const origin = param(context, 'origin');
  // --print: the records as loaded, a zone file of their own, before what is wrong with them
  const printed = result.records === undefined ? [] : [...result.records, ''];
  const lines = result.problems.map((p) =>
    finding(
      `${p.file ?? file}:${p.line}:${p.column}`,
      p.severity,
      `${p.message} ${context.style.dim(`[${p.code}]`)}`,
      context,
    ),
  );
  if (lines.length === 0) {
    const zone = origin === undefined ? '' : ` (zone ${origin.replace(/\.?$/, '.')})`;
    return [...printed, `${file}: ${context.style.green('no problems')}${zone}`].join('\n');
  }
  const errors = result.problems.filter((p) => p.severity === 'error').length;
  lines.push(`${plural(errors, 'error')}, ${plural(result.problems.length - errors, 'warning')}`);
  return [...printed, ...lines].join('\n');
});

export const renderZoneDiff = renderer<DriftResult>((result, context) => {
  const { style } = context;
  const file = fileOf(context);
  const lines = result.drift.map((d) =>
    finding(
      d.line === undefined ? file : `${file}:${d.line}:${d.column ?? 1}`,
      'warning',
      driftMessage(d),
      context,
    ),
  );
  for (const s of result.serials) {
    if (s.serial === null) {
      lines.push(finding(file, 'error', `${s.server}: ${s.error ?? 'no answer'}`, context));
    } else {
      const how = s.method === undefined ? '' : ` (${s.method})`;
      lines.push(style.dim(`${s.server}: serial ${s.serial}${how}`));
    }
  }
  lines.push(summary(result, context));
  return lines.join('\n');
});

function driftMessage(d: DriftEntry): string {
  const what = `${d.name} ${d.type}`;
  if (d.kind === 'missing') return `${what} ${d.file ?? ''} is not served by ${d.server}`;
  if (d.kind === 'extra')
    return `${what} ${d.live ?? ''} is served by ${d.server}, not in the file`;
  return `${what} differs at ${d.server}: file ${d.file ?? '-'}, live ${d.live ?? '-'}`;
}

/**
 * The verdict in words. A server that did not answer was not compared: the file can only be
 * said to match the servers that answered.
 */
function summary(result: DriftResult, { style }: RenderContext): string {
  const answered = result.serials.filter((s) => s.serial !== null).length;
  const total = result.serials.length;
  if (answered === 0) return style.red('not compared: no nameserver answered');
  const count = result.drift.length;
  const partly = answered < total ? ` (${answered} of ${total} nameservers answered)` : '';
  if (count === 0) return style.green(`matches the live zone${partly}`);
  return style.yellow(`${plural(count, 'difference')} from the live zone${partly}`);
}
