// The result of "Compare Zone with Live DNS" in the results view: one node per nameserver with
// the serial it serves (flagged when it is not the file's: a stale secondary) and, under it,
// each record that differs with the file's and the live value.
import * as vscode from 'vscode';
import type { DriftEntry, DriftResult, ServerSerial } from '../../../services/zone';
import type { ZoneDriftEntry } from '../history';
import { icons, MessageNode, ResultNode, treeItem } from './base';

const KIND_LABELS: Record<DriftEntry['kind'], string> = {
  missing: 'only in the file',
  extra: 'only live',
  changed: 'different',
};

function differences(count: number): string {
  return `${count} difference${count === 1 ? '' : 's'}`;
}

/**
 * What a compare found, for the results view: a file matches only the servers that answered,
 * and with none answering nothing was compared.
 */
function shortVerdict({ drift, serials }: DriftResult): string {
  const answered = serials.filter((s) => s.serial !== null).length;
  if (answered === 0) return 'no nameserver answered';
  const partly = answered < serials.length ? ` (${answered} of ${serials.length} answered)` : '';
  return drift.length === 0
    ? `matches the live zone${partly}`
    : `${differences(drift.length)}${partly}`;
}

/** The same as a sentence about the zone, for the notification. */
export function driftVerdict(apex: string, result: DriftResult): string {
  const verdict = shortVerdict(result);
  return result.drift.length === 0
    ? `${apex} ${verdict}`
    : `${apex}: ${verdict} from the live zone`;
}

export class ZoneDriftNode extends ResultNode {
  constructor(readonly entry: ZoneDriftEntry) {
    super();
  }

  toTreeItem(): vscode.TreeItem {
    const { drift, serials } = this.entry.result;
    const item = new vscode.TreeItem('Zone drift', vscode.TreeItemCollapsibleState.Expanded);
    item.id = `zone-drift:${this.entry.host}@${this.entry.server ?? ''}`;
    item.description = shortVerdict(this.entry.result);
    const answered = serials.filter((s) => s.serial !== null).length;
    item.iconPath =
      answered === 0
        ? icons.error
        : drift.length === 0 && answered === serials.length && !serials.some((s) => this.isStale(s))
          ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'))
          : icons.warning;
    item.tooltip = new vscode.MarkdownString(
      `**${this.entry.file}** compared with the live zone ${new Date(this.entry.at).toLocaleString()}`,
    );
    item.contextValue = 'zoneDrift';
    return item;
  }

  children(): ResultNode[] {
    return this.entry.result.serials.map(
      (s) =>
        new DriftServerNode(
          s,
          this.isStale(s),
          this.entry.result.drift.filter((d) => d.server === s.server),
        ),
    );
  }

  json(): unknown {
    return this.entry.result;
  }

  private isStale(s: ServerSerial): boolean {
    return (
      s.serial !== null && this.entry.fileSerial !== undefined && s.serial !== this.entry.fileSerial
    );
  }
}

class DriftServerNode extends ResultNode {
  constructor(
    private readonly serial: ServerSerial,
    private readonly stale: boolean,
    private readonly drift: DriftEntry[],
  ) {
    super();
  }

  toTreeItem(): vscode.TreeItem {
    const { server, serial, method, error } = this.serial;
    const how = method ? ` (${method.toUpperCase()})` : '';
    const description =
      serial === null
        ? `unreachable: ${error ?? 'no answer'}`
        : `serial ${serial}${how}${this.stale ? ', not the file’s' : ''}`;
    return treeItem(
      server,
      this.drift.length > 0 || serial === null
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.None,
      {
        description,
        iconPath:
          serial === null
            ? icons.error
            : this.stale || this.drift.length > 0
              ? icons.warning
              : new vscode.ThemeIcon('server'),
        tooltip: `${server}: ${description}; ${differences(this.drift.length)}`,
        contextValue: 'driftServer',
      },
    );
  }

  children(): ResultNode[] {
    if (this.serial.serial === null) {
      return [new MessageNode(this.serial.error ?? 'no answer', icons.error)];
    }
    return this.drift.map((d) => new DriftItemNode(d));
  }

  json(): unknown {
    return { ...this.serial, drift: this.drift };
  }
}

class DriftItemNode extends ResultNode {
  constructor(private readonly drift: DriftEntry) {
    super(drift);
  }

  toTreeItem(): vscode.TreeItem {
    const d = this.drift;
    const item = new vscode.TreeItem(`${d.name} ${d.type}`, vscode.TreeItemCollapsibleState.None);
    item.description = `${KIND_LABELS[d.kind]}: file ${d.file ?? '—'} · live ${d.live ?? '—'}`;
    item.iconPath = new vscode.ThemeIcon(
      d.kind === 'missing' ? 'diff-removed' : d.kind === 'extra' ? 'diff-added' : 'diff-modified',
    );
    item.tooltip = new vscode.MarkdownString(
      `**${d.name} ${d.type}** (${d.kind})\n\nFile: \`${d.file ?? 'none'}\`\n\nLive: \`${d.live ?? 'none'}\``,
    );
    item.contextValue = 'driftItem';
    return item;
  }

  value(): string {
    return this.drift.live ?? this.drift.file ?? '';
  }
}
