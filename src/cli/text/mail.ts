// `hostlens mail`: the whole mail set-up of a domain on one screen: the SPF tree, the DKIM
// keys, then DMARC, MTA-STS, TLS-RPT and BIMI one line each with their verdict and their
// problems under them; then each MX host's STARTTLS and the MTA-STS policy against them.
import type { MailLookupError, MailRecordResult, MailSetup } from '../../services/mail';
import { renderer, type RenderContext } from './context';
import { dkimLines } from './dkim';
import { fold } from './layout';
import { spfTree } from './spf';
import { policyLines, transportLines } from './transport';

const RECORDS: Array<[keyof MailSetup, string]> = [
  ['dmarc', 'DMARC'],
  ['mta_sts', 'MTA-STS'],
  ['tls_rpt', 'TLS-RPT'],
  ['bimi', 'BIMI'],
];
const LABEL_WIDTH = 9;

export const renderMail = renderer<MailSetup>((setup, context) => {
  const { style } = context;
  const lines = [style.bold(`Mail set-up of ${setup.host}`), '', style.bold('SPF')];
  lines.push(
    ...indent(
      isError(setup.spf)
        ? [failure(setup.spf, context)]
        : spfTree(setup.spf, setup.host, { ...context, width: context.width - 2 }),
    ),
  );
  lines.push('', style.bold('DKIM'));
  lines.push(
    ...indent(
      isError(setup.dkim)
        ? [failure(setup.dkim, context)]
        : dkimLines(setup.dkim.domain_keys, context),
    ),
  );
  lines.push('');
  for (const [key, label] of RECORDS)
    lines.push(...recordLines(label, setup[key] as MailRecordResult, context));
  if (setup.transport !== undefined && setup.mta_sts_policy !== undefined) {
    lines.push('', style.bold('Transport (STARTTLS on port 25 of each MX host)'));
    lines.push(...indent(transportLines(setup.transport, setup.mta_sts_policy, context)));
    lines.push('', style.bold('MTA-STS policy'));
    lines.push(...indent(policyLines(setup.mta_sts_policy, context)));
  }
  return lines.join('\n');
});

function recordLines(label: string, result: MailRecordResult, context: RenderContext): string[] {
  const { style, glyphs } = context;
  const head = (mark: string, text: string) =>
    `${style.bold(label.padEnd(LABEL_WIDTH))}${mark} ${text}`;
  if (result === null) return [head(style.dim(glyphs.none), style.dim('no record'))];
  if (isError(result)) return [head(style.red(glyphs.error), failure(result, context))];
  const errors = result.problems.filter((p) => p.severity === 'error').length;
  const mark =
    errors > 0
      ? style.red(glyphs.error)
      : result.problems.length > 0
        ? style.yellow(glyphs.warn)
        : style.green(glyphs.ok);
  const lines = [head(mark, result.record)];
  for (const problem of result.problems) {
    const paint = problem.severity === 'error' ? style.red : style.yellow;
    const sign = problem.severity === 'error' ? glyphs.error : glyphs.warn;
    const tag = problem.tag !== undefined ? `${problem.tag}: ` : '';
    const line = `${' '.repeat(LABEL_WIDTH + 2)}${paint(`${sign} ${tag}${problem.message}`)}`;
    lines.push(...fold(line, context.width, LABEL_WIDTH + 4));
  }
  return lines;
}

function isError(value: unknown): value is MailLookupError {
  return typeof value === 'object' && value !== null && 'error' in value;
}

function failure(value: MailLookupError, { style }: RenderContext): string {
  return style.red(`${value.error.code}: ${value.error.message}`);
}

function indent(lines: string[]): string[] {
  return lines.map((line) => `  ${line}`);
}
