import * as vscode from 'vscode';

/** A node of the results tree: knows how to draw itself and its children. */
export abstract class ResultNode {
  abstract toTreeItem(): vscode.TreeItem;

  children(): ResultNode[] {
    return [];
  }

  /** The JSON "Copy as JSON" puts on the clipboard, when the node has one. */
  json(): unknown {
    return undefined;
  }

  /** The text "Copy value" puts on the clipboard, when the node has one. */
  value(): string | undefined {
    return undefined;
  }
}

/** A leaf that explains a state: an error, no records, nothing found. */
export class MessageNode extends ResultNode {
  constructor(
    private readonly label: string,
    private readonly icon: vscode.ThemeIcon,
    private readonly tooltip?: string,
  ) {
    super();
  }

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.None);
    item.iconPath = this.icon;
    item.tooltip = this.tooltip ?? this.label;
    item.contextValue = 'message';
    return item;
  }
}

export const icons = {
  error: new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground')),
  warning: new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  info: new vscode.ThemeIcon('info'),
  empty: new vscode.ThemeIcon('circle-slash'),
};
