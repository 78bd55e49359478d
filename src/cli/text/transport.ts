// Mail transport for people: each MX host's STARTTLS verdict (certificate, DANE) one line with
// its problems under it, and the MTA-STS policy with each MX host against its mx: patterns.
// `hostlens mail` shows both; `hostlens mta_sts` shows the policy alone.
import type { MtaStsResult, TlsResult } from '../../contract/shapes';
import { mxVerdict, type MailLookupError, type MxTransport } from '../../services/mail';
import { renderer, type RenderContext } from './context';
import { fold, plural } from './layout';

export const renderMtaSts = renderer<MtaStsResult>((result, context) =>
  [context.style.bold(`MTA-STS of ${result.host}`), ...policyLines(result, context)].join('\n'),
);

/** One line per MX host: STARTTLS, trust, days left, DANE; then its problems. */
export function transportLines(
  transport: MxTransport[] | MailLookupError,
  policy: MtaStsResult | MailLookupError,
  context: RenderContext,
): string[] {
  const { style, glyphs } = context;
  if ('error' in transport) return [failure(transport, context)];
  if (transport.length === 0)
    return [style.dim(`${glyphs.none} no MX host (mail is not accepted)`)];
  const lines: string[] = [];
  for (const mx of transport) {
    const head = `${style.bold(mx.host)} ${style.dim(`(${mx.preference})`)}`;
    if ('error' in mx.tls) {
      lines.push(`${style.red(glyphs.error)} ${head}  ${failure(mx.tls, context)}`);
      continue;
    }
    const verdict = mxVerdict(mx.tls, policy);
    lines.push(`${mark(verdict.level, context)} ${head}  ${summary(mx.tls, context)}`);
    if (verdict.note !== undefined)
      lines.push(...fold(`    ${style.dim(verdict.note)}`, context.width, 4));
    for (const problem of mx.tls.problems) {
      const paint = problem.severity === 'error' ? style.red : style.yellow;
      const sign = problem.severity === 'error' ? glyphs.error : glyphs.warn;
      lines.push(
        ...fold(`    ${paint(`${sign} ${problem.code}`)}  ${problem.message}`, context.width, 6),
      );
    }
  }
  return lines;
}

/** The policy: mode, max_age and patterns, each MX host matched or not, then the problems. */
export function policyLines(
  result: MtaStsResult | MailLookupError,
  context: RenderContext,
): string[] {
  const { style, glyphs } = context;
  if ('error' in result) return [failure(result, context)];
  if (result.record === null) {
    return [style.dim(`${glyphs.none} no _mta-sts record: senders use no policy`)];
  }
  const lines: string[] = [];
  const policy = result.policy;
  if (policy === null) {
    lines.push(`${style.red(glyphs.error)} ${style.dim(result.policy_url)}`);
  } else {
    const age = policy.max_age === null ? '?' : `${policy.max_age} s`;
    const mode =
      policy.mode === 'enforce'
        ? style.green(policy.mode)
        : policy.mode === 'testing'
          ? style.yellow(policy.mode)
          : style.red(policy.mode || '?');
    lines.push(
      `mode ${mode}${glyphs.dot}max_age ${age}${glyphs.dot}mx ${policy.mx.join(', ') || '-'}`,
    );
    for (const mx of result.mx) {
      lines.push(
        mx.pattern !== null
          ? `  ${style.green(glyphs.ok)} ${mx.host} ${style.dim(`matches ${mx.pattern}`)}`
          : `  ${style.red(glyphs.error)} ${mx.host} ${style.dim('matches no mx: pattern')}`,
      );
    }
  }
  for (const problem of result.problems) {
    const paint = problem.severity === 'error' ? style.red : style.yellow;
    const sign = problem.severity === 'error' ? glyphs.error : glyphs.warn;
    lines.push(
      ...fold(`${paint(`${sign} ${problem.code}`)}  ${problem.message}`, context.width, 4),
    );
  }
  return lines;
}

function mark(level: 'ok' | 'warning' | 'error', { style, glyphs }: RenderContext): string {
  if (level === 'error') return style.red(glyphs.error);
  return level === 'warning' ? style.yellow(glyphs.warn) : style.green(glyphs.ok);
}

function summary(tls: TlsResult, { style, glyphs }: RenderContext): string {
  if (tls.chain.length === 0) return style.red('no STARTTLS');
  const leaf = tls.chain[0];
  const parts = [
    `STARTTLS ${tls.protocol}`,
    tls.trusted ? style.green('trusted') : style.red('not trusted'),
    leaf.days_left < 0
      ? style.red(`expired ${plural(-leaf.days_left, 'day')} ago`)
      : `${plural(leaf.days_left, 'day')} left`,
  ];
  if (tls.dane !== undefined) parts.push(`DANE ${tls.dane.status}`);
  return parts.join(glyphs.dot);
}

function failure(value: MailLookupError, { style }: RenderContext): string {
  return style.red(`${value.error.code}: ${value.error.message}`);
}
