import * as vscode from 'vscode';
import { wrapMessage } from './wrap';

/** A node of the results tree: knows how to draw itself and its children. */
export abstract class ResultNode {
  /** @param data what "Copy as JSON" puts on the clipboard, when the node has one */
  constructor(private readonly data?: unknown) {}

  abstract toTreeItem(): vscode.TreeItem;

  children(): ResultNode[] {
    return [];
  }

  /** The JSON "Copy as JSON" puts on the clipboard, when the node has one. */
  json(): unknown {
    return this.data;
  }

  /** The text "Copy value" puts on the clipboard, when the node has one. */
  value(): string | undefined {
    return undefined;
  }
}

/** What a tree item shows besides its label and whether it opens; the context value always. */
export type TreeItemParts = Pick<vscode.TreeItem, 'id' | 'description' | 'iconPath' | 'tooltip'> & {
  contextValue: string;
};

/** A tree item from its label, its collapsible state and its parts. */
export function treeItem(
  label: string,
  state: vscode.TreeItemCollapsibleState,
  parts: TreeItemParts,
): vscode.TreeItem {
  return Object.assign(new vscode.TreeItem(label, state), parts);
}

/** A tooltip showing `value` as JSON, under a bold heading when given. */
export function jsonTooltip(value: unknown, heading?: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(heading === undefined ? undefined : `**${heading}**\n\n`);
  md.appendCodeblock(JSON.stringify(value, null, 2), 'json');
  return md;
}

/**
 * A leaf of a label, a description and an icon (a range, a tag, a certificate's detail);
 * "Copy value" copies `copied`, the label unless told.
 */
export class LeafNode extends ResultNode {
  constructor(
    private readonly label: string,
    private readonly description: string,
    private readonly icon: string,
    private readonly copied: string = label,
    private readonly tooltip?: string,
  ) {
    super();
  }

  toTreeItem(): vscode.TreeItem {
    return treeItem(this.label, vscode.TreeItemCollapsibleState.None, {
      description: this.description,
      iconPath: new vscode.ThemeIcon(this.icon),
      ...(this.tooltip !== undefined ? { tooltip: this.tooltip } : {}),
      contextValue: 'record',
    });
  }

  value(): string {
    return this.copied;
  }
}

/**
 * A message explains a state: an error, a problem, no records. One that would not fit the side
 * bar at its default width (a tree cuts labels off, it never wraps them) shows its opening
 * words, and expands to the whole text in lines that fit.
 */
export class MessageNode extends ResultNode {
  constructor(
    private readonly label: string,
    private readonly icon: vscode.ThemeIcon,
    private readonly tooltip?: string,
  ) {
    super();
  }

  toTreeItem(): vscode.TreeItem {
    const lines = wrapMessage(this.label);
    return treeItem(
      lines.length === 1 ? this.label : `${lines[0]} …`,
      lines.length === 1
        ? vscode.TreeItemCollapsibleState.None
        : vscode.TreeItemCollapsibleState.Collapsed,
      { iconPath: this.icon, tooltip: this.tooltip ?? this.label, contextValue: 'message' },
    );
  }

  children(): ResultNode[] {
    const lines = wrapMessage(this.label);
    return lines.length === 1 ? [] : lines.map((line) => new MessageLineNode(line));
  }

  value(): string {
    return this.label;
  }
}

/** One line of a long message, under its node. */
class MessageLineNode extends ResultNode {
  constructor(private readonly line: string) {
    super();
  }

  toTreeItem(): vscode.TreeItem {
    return treeItem(this.line, vscode.TreeItemCollapsibleState.None, {
      contextValue: 'messageLine',
    });
  }
}

export const icons = {
  error: new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground')),
  warning: new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  info: new vscode.ThemeIcon('info'),
  empty: new vscode.ThemeIcon('circle-slash'),
};
