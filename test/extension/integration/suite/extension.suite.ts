import * as assert from 'node:assert/strict';
import * as path from 'node:path';

import * as vscode from 'vscode';

import { expectedFindings } from '../../../support/example-markers.js';

const extensionId = 'idempotency-toolkit.idempotency-lens';

function examplesRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the suite runs with eslint-plugin/examples open');
  return folder.uri.fsPath;
}

async function diagnosticsOf(
  uri: vscode.Uri,
  until: (found: vscode.Diagnostic[]) => boolean,
): Promise<vscode.Diagnostic[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.source === 'idempotency');
    if (until(found) || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function ruleOf(diagnostic: vscode.Diagnostic): string {
  const code = diagnostic.code;
  return typeof code === 'object' ? String(code.value) : String(code);
}

export function registerSuite(): void {
  describe('Idempotency Lens in the extension host', () => {
    const findings = () => expectedFindings(examplesRoot());

    it('reports each marked finding on its line with its rule, page link and source', async () => {
      const expected = findings();
      assert.ok(expected.length > 0, 'the examples mark findings');
      for (const file of new Set(expected.map((finding) => finding.file))) {
        const uri = vscode.Uri.file(path.join(examplesRoot(), file));
        await vscode.window.showTextDocument(uri);
        const wanted = expected.filter((finding) => finding.file === file);
        const found = await diagnosticsOf(uri, (list) =>
          wanted.every((finding) =>
            list.some((d) => d.range.start.line === finding.line - 1 && ruleOf(d) === finding.rule),
          ),
        );
        for (const finding of wanted) {
          const diagnostic = found.find((d) => d.range.start.line === finding.line - 1 && ruleOf(d) === finding.rule);
          assert.ok(diagnostic, `${file}:${finding.line} ${finding.rule}`);
          const code = diagnostic.code as { value: string; target: vscode.Uri };
          assert.match(code.target.toString(), new RegExp(`docs/rules/${finding.rule}\\.md$`));
        }
      }
      assert.equal(vscode.extensions.getExtension(extensionId)?.isActive, true);
    });

    it('offers "Learn why" and the disable actions, and disabling for the line clears the finding', async () => {
      const [finding] = findings();
      const uri = vscode.Uri.file(path.join(examplesRoot(), finding.file));
      const editor = await vscode.window.showTextDocument(uri);
      const [diagnostic] = (await diagnosticsOf(uri, (list) => list.length > 0)).filter(
        (d) => d.range.start.line === finding.line - 1,
      );
      assert.ok(diagnostic);
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        uri,
        diagnostic.range,
      );
      const titles = actions.map((action) => action.title);
      assert.ok(titles.includes('Learn why: open lesson'), titles.join(' | '));
      const disable = actions.find((action) => action.title === `Disable ${finding.rule} for this line`);
      assert.ok(disable?.edit);
      await vscode.workspace.applyEdit(disable.edit);
      const after = await diagnosticsOf(
        uri,
        (list) => !list.some((d) => ruleOf(d) === finding.rule && d.range.start.line === finding.line),
      );
      assert.ok(
        !after.some((d) => ruleOf(d) === finding.rule && d.range.start.line === finding.line),
        'the finding is gone after the disable comment',
      );
      await vscode.commands.executeCommand('undo');
      await editor.document.save();
    });

    it('stops reporting a rule that is turned off in settings', async () => {
      const finding = findings()[0];
      const uri = vscode.Uri.file(path.join(examplesRoot(), finding.file));
      await vscode.window.showTextDocument(uri);
      const config = vscode.workspace.getConfiguration('idempotency');
      await config.update('rules', { [finding.rule]: 'off' }, vscode.ConfigurationTarget.Workspace);
      try {
        const found = await diagnosticsOf(uri, (list) => !list.some((d) => ruleOf(d) === finding.rule));
        assert.ok(!found.some((d) => ruleOf(d) === finding.rule));
      } finally {
        await config.update('rules', undefined, vscode.ConfigurationTarget.Workspace);
      }
    });

    it('opens one lesson panel, and reuses it for the next lesson link', async () => {
      await vscode.commands.executeCommand('idempotency.openLesson', 'idempotent-consumers#q1');
      await vscode.commands.executeCommand('idempotency.openLesson', 'idempotent-consumers#q4');
      const panels = vscode.window.tabGroups.all
        .flatMap((group) => group.tabs)
        .filter(
          (tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('idempotency.lesson'),
        );
      assert.equal(panels.length, 1);
    });
  });
}
