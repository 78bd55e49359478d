// TLS in the results tree: a Certificate node (verdict, problems, the chain as sent with each
// certificate's dates, key, names and fingerprint, DANE), and the mail transport of a domain:
// each MX host's STARTTLS under "Transport", the MTA-STS policy with each MX host matched.
import * as vscode from 'vscode';
import type { ErrorCode } from '../../../contract/errors';
import type { MtaStsResult, TlsCertificate, TlsResult } from '../../../contract/shapes';
import { mxVerdict, type MxVerdict } from '../../../services/mxVerdict';
import type { TlsEntry } from '../history';
import { icons, LeafNode, MessageNode, ResultNode, treeItem } from './base';

interface Failed {
  error: { code: ErrorCode; message: string };
}

const pass = () => new vscode.ThemeIcon('pass');

/** Days left as people say it: "in 23 days", "expired 4 days ago". */
export function daysLeftText(days: number): string {
  if (days < 0) return `expired ${-days} day${days === -1 ? '' : 's'} ago`;
  return `${days} day${days === 1 ? '' : 's'} left`;
}

/** The line a Certificate node, a hover and the panel share: trust, days left, protocol. */
export function tlsSummary(result: TlsResult): string {
  if (result.chain.length === 0) return 'no TLS';
  const parts = [
    result.trusted ? 'trusted' : 'not trusted',
    daysLeftText(result.chain[0].days_left),
    result.protocol,
  ];
  if (result.dane) parts.push(`DANE ${result.dane.status}`);
  return parts.join(' · ');
}

export class CertificateNode extends ResultNode {
  constructor(
    private readonly result: TlsResult,
    private readonly label = 'Certificate',
    private readonly verdict?: MxVerdict,
  ) {
    super(result);
  }

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.Collapsed);
    const { result } = this;
    item.description = tlsSummary(result);
    const level =
      this.verdict?.level ??
      (!result.trusted || result.problems.some((p) => p.severity === 'error')
        ? 'error'
        : result.problems.length > 0
          ? 'warning'
          : 'ok');
    item.iconPath = level === 'error' ? icons.error : level === 'warning' ? icons.warning : pass();
    item.tooltip = `${result.host}:${result.port}${result.starttls ? ' (STARTTLS)' : ''} · ${item.description}`;
    item.contextValue = 'certificate';
    return item;
  }

  children(): ResultNode[] {
    const { result } = this;
    const nodes: ResultNode[] = [];
    if (this.verdict?.note) nodes.push(new MessageNode(this.verdict.note, icons.info));
    for (const p of result.problems) {
      nodes.push(
        new MessageNode(
          p.message,
          p.severity === 'error' ? icons.error : icons.warning,
          `${p.code}: ${p.message}`,
        ),
      );
    }
    if (result.protocol !== '') {
      const handshake = [result.protocol, result.cipher, result.alpn && `ALPN ${result.alpn}`]
        .filter(Boolean)
        .join(' · ');
      nodes.push(detailNode('Handshake', handshake, 'lock'));
    }
    if (result.dane) {
      nodes.push(
        detailNode(
          `DANE ${result.dane.status}`,
          `${result.dane.name} · DNSSEC ${result.dane.dnssec}`,
          'shield',
        ),
      );
    }
    nodes.push(...result.chain.map((cert) => new ChainCertificateNode(cert)));
    return nodes;
  }
}

class ChainCertificateNode extends ResultNode {
  constructor(private readonly cert: TlsCertificate) {
    super(cert);
  }

  toTreeItem(): vscode.TreeItem {
    return treeItem(this.cert.subject, vscode.TreeItemCollapsibleState.Collapsed, {
      description: `${this.cert.not_after.slice(0, 10)} · ${daysLeftText(this.cert.days_left)}`,
      iconPath: new vscode.ThemeIcon(
        'workspace-trusted',
        this.cert.days_left < 0 ? new vscode.ThemeColor('problemsErrorIcon.foreground') : undefined,
      ),
      tooltip: `${this.cert.subject}\nissued by ${this.cert.issuer}`,
      contextValue: 'certificate',
    });
  }

  children(): ResultNode[] {
    const c = this.cert;
    const names = [...c.dns_names, ...c.ip_addresses];
    return [
      detailNode('Issuer', c.issuer, 'account'),
      detailNode(
        'Valid',
        `${c.not_before.slice(0, 10)} to ${c.not_after.slice(0, 10)}`,
        'calendar',
      ),
      detailNode('Key', `${c.key_type} ${c.key_bits} · ${c.signature_algorithm}`, 'key'),
      ...(names.length > 0 ? [detailNode('Names', names.join(', '), 'globe')] : []),
      detailNode('Serial', c.serial, 'symbol-number'),
      detailNode('SHA-256', c.sha256, 'symbol-key'),
    ];
  }

  value(): string {
    return this.cert.sha256;
  }
}

/** A label with its value as description; "Copy value" copies the value. */
function detailNode(label: string, detail: string, icon: string): LeafNode {
  return new LeafNode(label, detail, icon, detail, `${label}: ${detail}`);
}

/** "Transport": STARTTLS of each MX host, judged with DANE and the MTA-STS policy. */
export class TransportNode extends ResultNode {
  constructor(
    private readonly transport: Array<{
      host: string;
      preference: number;
      tls: TlsResult | Failed;
    }>,
    private readonly policy: MtaStsResult | Failed,
  ) {
    super(transport);
  }

  private verdicts(): MxVerdict[] {
    return this.transport.map((mx) => mxVerdict(mx.tls, this.policy));
  }

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem('Transport', vscode.TreeItemCollapsibleState.Expanded);
    const levels = this.verdicts().map((v) => v.level);
    item.description =
      this.transport.length === 0
        ? 'no MX host'
        : `STARTTLS of ${this.transport.length} MX host${this.transport.length === 1 ? '' : 's'}`;
    item.iconPath = levels.includes('error')
      ? icons.error
      : levels.includes('warning')
        ? icons.warning
        : pass();
    item.contextValue = 'transport';
    return item;
  }

  children(): ResultNode[] {
    if (this.transport.length === 0) {
      return [new MessageNode('No MX host: the domain accepts no mail', icons.empty)];
    }
    const verdicts = this.verdicts();
    return this.transport.map((mx, i) =>
      'error' in mx.tls
        ? new MessageNode(
            `${mx.host}: ${mx.tls.error.message}`,
            icons.error,
            `${mx.tls.error.code}: ${mx.tls.error.message}`,
          )
        : new CertificateNode(mx.tls, mx.host, verdicts[i]),
    );
  }
}

/** "MTA-STS policy": mode and max_age, each MX host against the mx: patterns, problems. */
export class MtaStsPolicyNode extends ResultNode {
  constructor(private readonly result: MtaStsResult) {
    super(result);
  }

  toTreeItem(): vscode.TreeItem {
    const { result } = this;
    const { policy } = result;
    return treeItem(
      'MTA-STS policy',
      result.record === null
        ? vscode.TreeItemCollapsibleState.None
        : vscode.TreeItemCollapsibleState.Collapsed,
      {
        description:
          result.record === null
            ? 'none (no _mta-sts record)'
            : policy === null
              ? 'not available to senders'
              : `${policy.mode} · max_age ${policy.max_age ?? '?'}`,
        iconPath:
          result.record === null
            ? icons.empty
            : result.problems.some((p) => p.severity === 'error')
              ? icons.error
              : result.problems.length > 0
                ? icons.warning
                : pass(),
        tooltip: result.policy_url,
        contextValue: 'mtaStsPolicy',
      },
    );
  }

  children(): ResultNode[] {
    const { result } = this;
    return [
      ...result.problems.map(
        (p) =>
          new MessageNode(
            p.message,
            p.severity === 'error' ? icons.error : icons.warning,
            `${p.code}: ${p.message}`,
          ),
      ),
      ...result.mx.map((mx) =>
        mx.pattern !== null
          ? detailNode(mx.host, `matches ${mx.pattern}`, 'pass')
          : detailNode(mx.host, 'matches no mx: pattern', 'error'),
      ),
      ...(result.policy?.mx ?? []).map((pattern) => detailNode('mx', pattern, 'symbol-field')),
    ];
  }
}

/** The Certificate node of a host's TLS look-up, or why it failed. */
export function tlsNode(entry: TlsEntry): ResultNode {
  const port = entry.port ?? 443;
  const label = port === 443 ? 'Certificate' : `Certificate (port ${port})`;
  if (entry.result) return new CertificateNode(entry.result, label);
  const error = entry.error ?? { code: 'internal_error', message: 'no answer' };
  return new MessageNode(
    `${label}: ${error.message}`,
    icons.error,
    `${error.code}: ${error.message}`,
  );
}
