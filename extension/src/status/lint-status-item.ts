import * as path from 'node:path';

import * as vscode from 'vscode';

import type { SkippedSchema } from '../lint/engine-warnings.js';
import { describeState, type DocumentLintState, type ExtensionState, type SkippedSchemaNote } from './lint-state.js';

export const lintedLanguages = ['javascript', 'javascriptreact', 'typescript', 'typescriptreact'] as const;

/**
 * A language status item (the `{}` next to the language mode) telling what the extension did
 * with the active file: findings and when it last checked, or why it did not.
 */
export class LintStatusItem implements vscode.Disposable {
  private readonly item: vscode.LanguageStatusItem;
  private readonly documents = new Map<string, DocumentLintState>();
  private extensionState: ExtensionState = 'starting';
  /** Schema files the checker could not read, by path, until they change. */
  private readonly skippedSchemas = new Map<string, SkippedSchema>();
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
    // The first result of any document: the checker is up (or not needed), no longer starting.
    if (this.extensionState === 'starting' && state.kind !== 'waiting') this.extensionState = 'active';
    this.documents.set(uri.toString(), state);
    if (vscode.window.activeTextEditor?.document.uri.toString() === uri.toString()) this.render();
  }

  /** A schema file the checker skipped: the status of each document of its workspace folder says so. */
  noteSkippedSchema(skipped: SkippedSchema): void {
    this.skippedSchemas.set(skipped.file, skipped);
    this.render();
  }

  /** A file changed: if it was a skipped schema, the next check reads it again. */
  schemaChanged(file: string): void {
    if (this.skippedSchemas.delete(file)) this.render();
  }

  private skippedFor(uri: vscode.Uri): SkippedSchemaNote[] {
    const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath;
    return [...this.skippedSchemas.values()].flatMap((skipped) => {
      const schemaFolder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(skipped.file))?.uri.fsPath;
      if (schemaFolder !== folder) return [];
      const name = folder === undefined ? skipped.file : path.relative(folder, skipped.file).split(path.sep).join('/');
      return [{ name, readAs: skipped.readAs }];
    });
  }

  forget(uri: vscode.Uri): void {
    this.documents.delete(uri.toString());
  }

  private render(): void {
    const active = vscode.window.activeTextEditor?.document.uri;
    const folder = active ? vscode.workspace.getWorkspaceFolder(active)?.uri.fsPath : undefined;
    const status = describeState(
      this.extensionState,
      active ? this.documents.get(active.toString()) : undefined,
      active ? this.skippedFor(active) : [],
      (file) => (folder === undefined ? file : path.relative(folder, file).split(path.sep).join('/')),
    );
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
