import * as vscode from 'vscode';

import { describeState, type DocumentLintState, type ExtensionState } from './lint-state.js';

export const lintedLanguages = ['javascript', 'javascriptreact', 'typescript', 'typescriptreact'] as const;

/**
 * A language status item (the `{}` next to the language mode) telling what the extension did
 * with the active file: findings and when it last checked, or why it did not.
 */
export class LintStatusItem implements vscode.Disposable {
  private readonly item: vscode.LanguageStatusItem;
  private readonly documents = new Map<string, DocumentLintState>();
  private extensionState: ExtensionState = 'active';
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor() {
    this.item = vscode.languages.createLanguageStatusItem('idempotency.status', [...lintedLanguages]);
    this.item.name = 'Idempotency Lens';
    this.item.command = { title: 'Show Log', command: 'idempotency.showLog' };
    this.subscriptions.push(vscode.window.onDidChangeActiveTextEditor(() => this.render()));
    this.render();
  }

  setExtensionState(state: ExtensionState): void {
    this.extensionState = state;
    this.render();
  }

  setDocumentState(uri: vscode.Uri, state: DocumentLintState): void {
    this.documents.set(uri.toString(), state);
    if (vscode.window.activeTextEditor?.document.uri.toString() === uri.toString()) this.render();
  }

  forget(uri: vscode.Uri): void {
    this.documents.delete(uri.toString());
  }

  private render(): void {
    const active = vscode.window.activeTextEditor?.document.uri.toString();
    const status = describeState(this.extensionState, active ? this.documents.get(active) : undefined);
    this.item.text = status.text;
    this.item.detail = status.detail;
    this.item.busy = status.busy;
    this.item.severity = status.attention
      ? vscode.LanguageStatusSeverity.Warning
      : vscode.LanguageStatusSeverity.Information;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.item.dispose();
  }
}
