/**
 * A tree view's data provider that loads the real one on first use: the view is registered at
 * activation, and its provider (which needs the body bundle) loads when VS Code first asks for items.
 */
import * as vscode from 'vscode';

export class LazyTreeProvider<T> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<T | undefined | void>();
  readonly onDidChangeTreeData = this.changed.event;
  private inner: Promise<vscode.TreeDataProvider<T>> | undefined;
  private forwarding: vscode.Disposable | undefined;

  constructor(private readonly load: () => Promise<vscode.TreeDataProvider<T>>) {}

  private provider(): Promise<vscode.TreeDataProvider<T>> {
    this.inner ??= this.load().then((provider) => {
      this.forwarding = provider.onDidChangeTreeData?.((e) => this.changed.fire(e as T | undefined));
      return provider;
    });
    this.inner.catch(() => (this.inner = undefined));
    return this.inner;
  }

  async getTreeItem(element: T): Promise<vscode.TreeItem> {
    return (await this.provider()).getTreeItem(element);
  }

  async getChildren(element?: T): Promise<T[]> {
    return (await (await this.provider()).getChildren(element)) ?? [];
  }

  dispose(): void {
    this.forwarding?.dispose();
    this.changed.dispose();
  }
}
