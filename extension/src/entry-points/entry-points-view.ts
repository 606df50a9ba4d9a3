import * as vscode from 'vscode';

import type { LintService } from '../lint/lint-worker-client.js';
import type { EntryPointListing } from '../lint/lint-engine.js';
import { readSource, workspaceSourceFiles } from '../lint/workspace-check.js';
import { checksFiles, enabledRules, type Settings } from '../settings.js';
import { entryPointTree, settled, type EntryPointNode } from './entry-point-tree.js';

export const entryPointsViewId = 'idempotency.entryPoints';
export const refreshEntryPointsCommand = 'idempotency.refreshEntryPoints';
/** The view's own: opens a place of a file (a handler, its boundary, a finding) with the cursor on it. */
const openPlaceCommand = 'idempotency.openEntryPointPlace';

export interface EntryPointsParts {
  engine: () => Promise<LintService>;
  settings: (uri: vscode.Uri) => Settings;
  log: (line: string) => void;
}

/**
 * The Entry Points view in the explorer: every handler the analysis finds in the workspace, the
 * map a reviewer wants before a release. The workspace is read in the lint worker, one file at a
 * time, the first time the view is shown and on Refresh; a saved file is read again on its own.
 */
export class EntryPointsView implements vscode.TreeDataProvider<EntryPointNode>, vscode.Disposable {
  private readonly byFile = new Map<string, EntryPointListing[]>();
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<EntryPointNode>;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Counts scans, so that a scan a newer one replaced stops. */
  private generation = 0;
  private scanned = false;

  constructor(private readonly parts: EntryPointsParts) {
    this.view = vscode.window.createTreeView(entryPointsViewId, { treeDataProvider: this, showCollapseAll: true });
    this.subscriptions.push(
      this.view,
      this.changed,
      vscode.commands.registerCommand(refreshEntryPointsCommand, () => this.scan()),
      vscode.commands.registerCommand(openPlaceCommand, (file: string, line: number, column: number) => {
        const at = new vscode.Position(Math.max(line - 1, 0), Math.max(column - 1, 0));
        return vscode.window.showTextDocument(vscode.Uri.file(file), { selection: new vscode.Range(at, at) });
      }),
      vscode.workspace.onDidSaveTextDocument((document) => void this.relist(document)),
    );
  }

  getChildren(node?: EntryPointNode): EntryPointNode[] {
    if (node) return 'children' in node ? node.children : [];
    if (!this.scanned) void this.scan();
    return entryPointTree(this.byFile);
  }

  getTreeItem(node: EntryPointNode): vscode.TreeItem {
    switch (node.type) {
      case 'kind':
      case 'library': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
        item.description = String(node.count);
        return item;
      }
      case 'entry': {
        const { entry, file } = node;
        const item = new vscode.TreeItem(entry.name, vscode.TreeItemCollapsibleState.Collapsed);
        const findings = entry.findings.length;
        item.description = `${vscode.workspace.asRelativePath(file)}:${entry.start.line} · ${shortRepeats(entry)}${findings > 0 ? ` · ${findings} finding${findings === 1 ? '' : 's'}` : ''}`;
        item.tooltip = new vscode.MarkdownString().appendText(
          `${entry.label} ${entry.name}\nRepeats: ${entry.repeats.what}\n${findings} finding${findings === 1 ? '' : 's'}`,
        );
        item.iconPath = new vscode.ThemeIcon(
          entry.repeats.by === 'unread' ? 'question' : settled(entry.repeats) && findings === 0 ? 'pass' : 'warning',
        );
        item.command = openAt({ file, line: entry.start.line, column: entry.start.column });
        return item;
      }
      case 'repeats': {
        const item = new vscode.TreeItem(`Repeats: ${node.repeats.what}`);
        item.iconPath = new vscode.ThemeIcon(settled(node.repeats) ? 'shield' : 'circle-slash');
        if (node.repeats.at) item.command = openAt(node.repeats.at);
        return item;
      }
      case 'finding': {
        const item = new vscode.TreeItem(node.finding.rule);
        item.description = node.finding.message;
        item.tooltip = node.finding.message;
        item.iconPath = new vscode.ThemeIcon('warning');
        item.command = openAt(node.at);
        return item;
      }
    }
  }

  /** Reads every source file of the workspace again. */
  async scan(): Promise<void> {
    this.scanned = true;
    const generation = ++this.generation;
    this.view.message = 'Looking for entry points…';
    await vscode.window.withProgress({ location: { viewId: entryPointsViewId } }, async () => {
      try {
        const files = await workspaceSourceFiles(this.parts.settings);
        const found = new Map<string, EntryPointListing[]>();
        for (const uri of files) {
          if (generation !== this.generation) return;
          const entries = await this.list(uri);
          if (entries && entries.length > 0) found.set(uri.fsPath, entries);
        }
        this.byFile.clear();
        for (const [file, entries] of found) this.byFile.set(file, entries);
      } catch (error) {
        this.parts.log(`Entry points could not be listed: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    if (generation !== this.generation) return;
    this.view.message =
      this.byFile.size === 0 ? 'No entry points found: no consumer, webhook or job handler in this workspace.' : '';
    this.changed.fire(undefined);
  }

  private async relist(document: vscode.TextDocument): Promise<void> {
    if (!this.scanned || !/\.(?:[cm]?[jt]s|[jt]sx)$/.test(document.uri.fsPath)) return;
    const entries = await this.list(document.uri, document.getText());
    if (entries === undefined) return;
    if (entries.length > 0) this.byFile.set(document.uri.fsPath, entries);
    else this.byFile.delete(document.uri.fsPath);
    if (this.byFile.size > 0) this.view.message = '';
    this.changed.fire(undefined);
  }

  /** The entry points of one file, from its editor's text when it is open; undefined when it is not checked. */
  private async list(uri: vscode.Uri, given?: string): Promise<EntryPointListing[] | undefined> {
    const settings = this.parts.settings(uri);
    if (!checksFiles(settings)) return undefined;
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
    const text = given ?? open?.getText() ?? (await readSource(uri, settings));
    if (text === undefined) return undefined;
    const report = await (
      await this.parts.engine()
    ).lint({
      text,
      fileName: uri.fsPath,
      rules: enabledRules(settings),
      declarations: settings.declarations,
      folder: settings.folder,
      entryPoints: true,
    });
    // Code the recommended config leaves alone has none; a file that does not parse keeps what it had.
    if (report.kind === 'not-service-code') return [];
    return report.kind === 'linted' ? (report.entryPoints ?? []) : undefined;
  }

  dispose(): void {
    this.generation += 1;
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

/** "inbox claim", "provider idempotency key", "nothing found": the head of what settles repeats. */
function shortRepeats(entry: EntryPointListing): string {
  return entry.repeats.what.split(/[:;]/)[0];
}

function openAt(place: { file: string; line: number; column: number }): vscode.Command {
  return { title: 'Open', command: openPlaceCommand, arguments: [place.file, place.line, place.column] };
}
