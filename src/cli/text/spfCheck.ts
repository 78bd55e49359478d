// `hostlens spf-check`: the check_host() result in one line, then what decided it.
import type { checkSpf } from '../../services/mail';
import { renderer } from './context';
import { plural } from './layout';

type CheckResult = Awaited<ReturnType<typeof checkSpf>>;

export const renderSpfCheck = renderer<CheckResult>((result, context) => {
  const { style, glyphs } = context;
  const ip = String(context.params.ip ?? '');
  const host = String(context.params.host ?? '');
  const paint =
    result.result === 'pass'
      ? style.green
      : result.result === 'fail' || result.result.endsWith('error')
        ? style.red
        : style.yellow;
  const lines = [`${paint(style.bold(result.result))}  ${ip} ${glyphs.arrow} ${host}`];
  if (result.mechanism !== undefined) lines.push(`matched   ${result.mechanism}`);
  if (result.reason !== undefined) lines.push(style.red(`reason    ${result.reason}`));
  if (result.explanation !== undefined) lines.push(`explained ${result.explanation}`);
  for (const problem of result.problems ?? []) lines.push(style.yellow(`note      ${problem}`));
  lines.push(
    style.dim(
      `${plural(result.lookups, 'DNS look-up')}, ${plural(result.void_lookups, 'void look-up')}`,
    ),
  );
  return lines.join('\n');
});
