// hostlens check as text: one line a finding, as compilers print them (file:line:column, so
// terminals and editors link them), then what was checked.
import type { CheckReport } from '../../services/check/index';
import { renderer } from './context';
import { plural } from './layout';

export const renderCheck = renderer<CheckReport>((report, { style, glyphs }) => {
  const lines = report.findings.map((f) => {
    const mark =
      f.severity === 'error'
        ? style.red(`${glyphs.error} error`)
        : f.severity === 'warning'
          ? style.yellow(`${glyphs.warn} warning`)
          : style.cyan('info');
    const moved = f.final_url ? ` ${glyphs.arrow} ${f.final_url}` : '';
    return `${style.bold(`${f.file}:${f.line}:${f.column}`)} ${mark} ${style.dim(f.kind)} ${f.message}${f.final_url && !f.message.includes(f.final_url) ? moved : ''}`;
  });
  const errors = report.findings.filter((f) => f.severity === 'error').length;
  const warnings = report.findings.filter((f) => f.severity === 'warning').length;
  const { urls, hosts } = report.checked;
  const summary = `${plural(urls, 'URL')} and ${plural(hosts, 'host')} checked: ${
    report.findings.length === 0
      ? style.green(`${glyphs.ok} no findings`)
      : `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`
  }`;
  return [...lines, ...(lines.length > 0 ? [''] : []), summary].join('\n');
});
