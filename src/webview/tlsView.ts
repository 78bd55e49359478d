// The TLS section of the link preview: the verdict on the host's certificate, its problems
// (errors first), then the chain as sent, each certificate's subject, issuer, dates and key.
// Every string comes from the server's certificate: it goes in as text, never as markup.
import type { PreviewView, TlsResult } from '../protocol';
import { add, el, row, section } from './dom';

export function drawTls(root: HTMLElement, tls: NonNullable<PreviewView['tls']>): void {
  const box = section(root, 'TLS certificate');
  if ('error' in tls) {
    add(
      box,
      el('p', 'check-fail', `No certificate read: ${tls.error.message} (${tls.error.code})`),
    );
    return;
  }
  add(box, verdict(tls));
  if (tls.problems.length > 0) {
    const list = add(box, el('ul', 'checks'));
    for (const problem of tls.problems) {
      const level = problem.severity === 'error' ? 'fail' : 'warn';
      const item = add(list, el('li', `check check-${level}`));
      add(item, el('span', 'check-mark', level === 'fail' ? '✗' : '!'));
      add(item, el('span', undefined, `${problem.code}: ${problem.message}`));
    }
  }
  const handshake = [tls.protocol, tls.cipher, tls.alpn && `ALPN ${tls.alpn}`].filter(Boolean);
  const facts = add(box, el('dl', 'facts'));
  if (handshake.length > 0) row(facts, 'Handshake', handshake.join(' · '));
  if (tls.address) row(facts, 'Address', tls.address);
  if (tls.dane)
    row(facts, 'DANE', `${tls.dane.status} (${tls.dane.name}, DNSSEC ${tls.dane.dnssec})`);
  tls.chain.forEach((cert, i) => {
    add(box, el('h3', undefined, i === 0 ? 'Leaf' : `Intermediate ${i}`));
    const list = add(box, el('dl', 'facts'));
    row(list, 'Subject', cert.subject);
    row(list, 'Issuer', cert.issuer);
    const until = el('span');
    add(until, el('span', 'date', cert.not_after.slice(0, 10)));
    until.append(' ');
    const level = cert.days_left < 0 ? 'past' : cert.days_left < 21 ? 'soon' : 'normal';
    add(
      until,
      el(
        'span',
        `relative level-${level}`,
        cert.days_left < 0 ? `expired ${-cert.days_left} days ago` : `${cert.days_left} days left`,
      ),
    );
    row(list, 'Valid until', until);
    const names = [...cert.dns_names, ...cert.ip_addresses];
    if (names.length > 0) row(list, 'Names', names.join(', '));
    row(list, 'Key', `${cert.key_type} ${cert.key_bits} · ${cert.signature_algorithm}`);
    row(list, 'SHA-256', cert.sha256);
  });
}

function verdict(tls: TlsResult): HTMLElement {
  const errors = tls.problems.some((p) => p.severity === 'error');
  const ok = tls.trusted && !errors;
  const line = el('p', ok ? 'check-pass' : 'check-fail');
  line.textContent = `${ok ? '✓ Trusted' : '✗ Not trusted'} for ${tls.host}:${tls.port}`;
  return line;
}
