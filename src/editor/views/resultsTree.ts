// The results view: one node per look-up in the history, newest first.
import * as vscode from 'vscode';
import type { History } from './history';
import type { ResultNode } from './nodes/base';
import { hostNodes } from './nodes/host';

export class ResultsTreeProvider implements vscode.TreeDataProvider<ResultNode> {
  private readonly changed = new vscode.EventEmitter<ResultNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  /** Nodes above the history (the last link check's summary). */
  private pinned: ResultNode[] = [];

  constructor(private readonly history: History) {}

  setPinned(nodes: ResultNode[]): void {
    this.pinned = nodes;
    this.refresh();
  }

  /** Clear History empties the whole view, the pinned link check with the look-ups. */
  clearPinned(): void {
    this.pinned = [];
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: ResultNode): vscode.TreeItem {
    return node.toTreeItem();
  }

  getChildren(node?: ResultNode): ResultNode[] {
    if (node) return node.children();
    return [...this.pinned, ...hostNodes(this.history.all())];
  }

  dispose(): void {
    this.changed.dispose();
  }
}
