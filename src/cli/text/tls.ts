// `hostlens tls` for people: the verdict and the problems first (what to fix), then the
// handshake, then the chain as a tree from the leaf up, each certificate under the one it
// was issued for, with its dates, key, signature and names.
import type { TlsCertificate, TlsResult } from '../../contract/shapes';
import { renderer, type RenderContext } from './context';
import { fold, plural } from './layout';

export const renderTls = renderer<TlsResult>((result, context) => {
  const { style, glyphs } = context;
  const lines: string[] = [];
  const endpoint = `${result.host}:${result.port}`;
  const verdict =
    result.chain.length === 0
      ? style.red(`${glyphs.error} no TLS`)
      : result.trusted
        ? style.green(`${glyphs.ok} trusted`)
        : style.red(`${glyphs.error} not trusted`);
  lines.push(`${style.bold(endpoint)}  ${verdict}`);
  for (const problem of result.problems) {
    const paint = problem.severity === 'error' ? style.red : style.yellow;
    const sign = problem.severity === 'error' ? glyphs.error : glyphs.warn;
    lines.push(
      ...fold(`${paint(`${sign} ${problem.code}`)}  ${problem.message}`, context.width, 4),
    );
  }
  const handshake = [
    result.protocol,
    result.cipher,
    result.alpn !== '' ? `ALPN ${result.alpn}` : '',
    result.starttls !== undefined ? `STARTTLS ${result.starttls.toUpperCase()}` : '',
    result.address !== undefined ? style.dim(result.address) : '',
  ].filter((p) => p !== '');
  if (handshake.length > 0) lines.push('', handshake.join(glyphs.dot));
  if (result.dane !== undefined) {
    lines.push(
      `DANE ${result.dane.status} ${style.dim(`(${result.dane.name} ${plural(result.dane.records.length, 'TLSA record')}, DNSSEC ${result.dane.dnssec})`)}`,
    );
  }
  if (result.chain.length > 0) lines.push('', style.bold('Chain as sent'));
  result.chain.forEach((cert, depth) => {
    const lead = glyphs.space.repeat(depth) + glyphs.last;
    const under = glyphs.space.repeat(depth + 1);
    lines.push(`${lead}${style.bold(cert.subject)}`);
    for (const detail of details(cert, context))
      lines.push(...fold(`${under}${detail}`, context.width, under.length));
  });
  return lines.join('\n');
});

function details(cert: TlsCertificate, { style, glyphs }: RenderContext): string[] {
  const until = cert.not_after.slice(0, 10);
  const left =
    cert.days_left < 0
      ? style.red(`expired ${until} (${plural(-cert.days_left, 'day')} ago)`)
      : cert.days_left < 21
        ? style.yellow(`expires ${until} (in ${plural(cert.days_left, 'day')})`)
        : `expires ${until} ${style.dim(`(in ${plural(cert.days_left, 'day')})`)}`;
  const out = [
    `${left}${glyphs.dot}${style.dim(`from ${cert.not_before.slice(0, 10)}`)}`,
    `${cert.key_type} ${cert.key_bits}${glyphs.dot}${cert.signature_algorithm}${glyphs.dot}${style.dim(`serial ${cert.serial}`)}`,
  ];
  const names = [...cert.dns_names, ...cert.ip_addresses];
  if (names.length > 0) out.push(`${style.dim('names')} ${names.join(', ')}`);
  out.push(style.dim(`issuer ${cert.issuer}`));
  out.push(style.dim(`sha256 ${cert.sha256}`));
  return out;
}
