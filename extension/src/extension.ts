import * as path from 'node:path';

import * as vscode from 'vscode';

import { IdempotencyCodeActions, openLessonCommand } from './code-actions/idempotency-code-actions.js';
import { LearnWhyHover } from './code-actions/learn-why-hover.js';
import { EntryPointsView } from './entry-points/entry-points-view.js';
import { exerciseAnchor } from './lesson/lesson-content.js';
import { LessonPanel, lessonViewType } from './lesson/lesson-panel.js';
import { parseLessonTarget, type LessonTarget } from './lesson/lesson-target.js';
import type { CodeCacheState } from './lint/code-cache.js';
import { DocumentFindings } from './lint/document-findings.js';
import { DocumentLinter } from './lint/document-linter.js';
import { skippedSchemaOf } from './lint/engine-warnings.js';
import { lintWorker, type LintWorker } from './lint/lint-worker-client.js';
import { watchDependencies } from './lint/workspace-changes.js';
import { checkWorkspace, checkWorkspaceCommand } from './lint/workspace-check.js';
import { isRuleName, ruleNames, showRulePageCommand } from './rules.js';
import { checksFiles, readSettings, type Settings } from './settings.js';
import { LintStatusItem, lintedLanguages } from './status/lint-status-item.js';

/**
 * Activation only wires things together; the lint engine (ESLint, the plugin, TypeScript's
 * parser) loads on first use, so opening a JavaScript file never waits for it.
 */
export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Idempotency Lens', { log: true });
  const status = new LintStatusItem();
  const findings = new DocumentFindings();
  const diagnostics = vscode.languages.createDiagnosticCollection('idempotency');
  // In a multi-root workspace each folder's settings apply to its own files. They are asked for on
  // every keystroke, for the edited document and every other open one, and change only with the
  // configuration: each document's are read once until then.
  const settingsByDocument = new Map<string, Settings>();
  // A malformed value is logged once, not each time a document's settings are read again.
  const settingsProblemsLogged = new Set<string>();
  const settingsOf = (uri: vscode.Uri): Settings => {
    const key = uri.toString();
    let settings = settingsByDocument.get(key);
    if (!settings) {
      settings = readSettings(
        vscode.workspace.getConfiguration('idempotency', uri),
        vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath,
      );
      settingsByDocument.set(key, settings);
      for (const problem of settings.unreadable) {
        if (settingsProblemsLogged.has(problem)) continue;
        settingsProblemsLogged.add(problem);
        log.warn(problem);
      }
    }
    return settings;
  };

  const worker = lintWorker(
    path.join(context.extensionPath, 'dist', 'lint-worker.js'),
    {
      onLoaded: ({ loadMs, codeCache }) =>
        log.info(`Checker ready in ${Math.round(loadMs)} ms (${codeCacheNote[codeCache]})`),
      onFailure: (reason) => {
        log.error(`The checker could not start: ${reason}`);
        status.setExtensionState('engine-unavailable');
        void vscode.window
          .showErrorMessage('Idempotency Lens could not start its checker. Details are in its log.', 'Show Log')
          .then((choice) => choice && log.show());
      },
      onStopped: (reason) => log.warn(`The checker stopped (${reason}); the next check starts it again`),
      onWarning: (message) => {
        log.warn(message);
        const skipped = skippedSchemaOf(message);
        if (!skipped) return;
        status.noteSkippedSchema(skipped);
        // Said once for each file: the plugin warns once for each file it cannot read.
        const name = vscode.workspace.asRelativePath(skipped.file);
        void vscode.window
          .showWarningMessage(
            `Idempotency Lens skipped ${name}: it could not be read as ${skipped.readAs}, so the unique keys declared there are unknown to the check.`,
            'Open File',
            'Show Log',
          )
          .then((choice) => {
            if (choice === 'Open File') void vscode.window.showTextDocument(vscode.Uri.file(skipped.file));
            else if (choice === 'Show Log') log.show();
          });
      },
    },
    {},
    // V8's compiled code of the engine, kept between sessions in the extension's own storage.
    context.globalStorageUri?.scheme === 'file' ? path.join(context.globalStorageUri.fsPath, 'code-cache') : undefined,
  );
  const engine = worker.engine;
  const linter = new DocumentLinter({
    diagnostics,
    findings,
    status,
    engine,
    settings: settingsOf,
    log: (line) => log.warn(line),
  });
  const lessonPanel = new LessonPanel(context.extensionUri, context.workspaceState, log);
  const workspaceDiagnostics = vscode.languages.createDiagnosticCollection('idempotency-workspace');
  let workspaceCheck: Promise<void> | undefined;

  const shouldLint = (document: vscode.TextDocument, settings = settingsOf(document.uri)) =>
    checksFiles(settings) && DocumentLinter.isLintable(document);

  /** Lints a document now, or, where its folder's settings say not to, clears it and says why. */
  const check = (document: vscode.TextDocument) => {
    if (!DocumentLinter.isLintable(document)) return;
    const settings = settingsOf(document.uri);
    if (shouldLint(document, settings)) {
      void linter.lintNow(document);
      return;
    }
    linter.stop(document.uri);
    status.setDocumentState(document.uri, { kind: 'off', because: settings.enable ? 'deferred' : 'disabled' });
  };

  const openLesson = async (argument?: unknown) => {
    lessonPanel.show(
      await lessonTargetOf(argument, engine, vscode.Uri.joinPath(context.extensionUri, 'dist', 'lessons').fsPath),
    );
  };

  context.subscriptions.push(
    log,
    worker,
    status,
    diagnostics,
    linter,
    lessonPanel,
    workspaceDiagnostics,
    new EntryPointsView({ engine, settings: settingsOf, log: (line) => log.warn(line) }),
    // An open document's findings come from its own lints, not from the last workspace check.
    vscode.workspace.onDidOpenTextDocument((document) => {
      workspaceDiagnostics.delete(document.uri);
      check(document);
    }),
    vscode.workspace.onDidChangeTextDocument(({ document, contentChanges }) => {
      if (contentChanges.length === 0) return;
      const settings = settingsOf(document.uri);
      if (settings.run === 'onType' && shouldLint(document, settings)) linter.lintSoon(document);
    }),
    vscode.workspace.onDidSaveTextDocument(check),
    vscode.workspace.onDidCloseTextDocument((document) => {
      settingsByDocument.delete(document.uri.toString());
      linter.forget(document.uri);
    }),
    // Another file changed: the open documents that may depend on it are checked again, after the
    // typing delay (the changed document, if open, is checked by its own events).
    watchDependencies((changed) => {
      status.schemaChanged(changed.fsPath);
      for (const document of vscode.workspace.textDocuments) {
        if (document.uri.toString() !== changed.toString() && shouldLint(document)) linter.lintSoon(document);
      }
    }),
    vscode.workspace.onDidChangeConfiguration((change) => {
      settingsByDocument.clear();
      if (change.affectsConfiguration('idempotency'))
        for (const document of vscode.workspace.textDocuments) check(document);
    }),
    // A folder added or removed may change which folder's settings an open file is under.
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      settingsByDocument.clear();
      for (const document of vscode.workspace.textDocuments) check(document);
    }),
    vscode.languages.registerCodeActionsProvider(
      lintedLanguages.map((language) => ({ language })),
      new IdempotencyCodeActions(findings),
      { providedCodeActionKinds: IdempotencyCodeActions.providedCodeActionKinds },
    ),
    vscode.languages.registerHoverProvider(
      lintedLanguages.map((language) => ({ language })),
      new LearnWhyHover(),
    ),
    vscode.commands.registerCommand(openLessonCommand, openLesson),
    vscode.commands.registerCommand(showRulePageCommand, async (rule?: unknown) => {
      const chosen =
        typeof rule === 'string' && isRuleName(rule)
          ? rule
          : await vscode.window.showQuickPick(ruleNames, { placeHolder: 'The rule whose page to show' });
      if (!chosen || !isRuleName(chosen)) return;
      // The page says how this editor reports the rule: by the settings of the file in front, or the workspace's.
      const active = vscode.window.activeTextEditor?.document.uri;
      const settings = active ? settingsOf(active) : readSettings(vscode.workspace.getConfiguration('idempotency'));
      lessonPanel.showRule(chosen, { level: settings.rules[chosen], deferred: settings.deferToProjectEslint });
    }),
    vscode.commands.registerCommand('idempotency.showLog', () => log.show()),
    vscode.commands.registerCommand(
      checkWorkspaceCommand,
      () =>
        (workspaceCheck ??= Promise.resolve(
          vscode.window.withProgress(
            {
              location: vscode.ProgressLocation.Notification,
              title: 'Idempotency: checking the workspace',
              cancellable: true,
            },
            async (progress, token) => {
              try {
                const isOpen = (uri: vscode.Uri) =>
                  vscode.workspace.textDocuments.some((document) => document.uri.toString() === uri.toString());
                const result = await checkWorkspace(
                  { engine, settings: settingsOf, diagnostics: workspaceDiagnostics, isOpen },
                  progress,
                  token,
                );
                log.info(
                  `Workspace check${result.cancelled ? ' cancelled' : ''}: ${result.files} files checked, ${result.findings} findings in ${result.filesWithFindings} files`,
                );
              } catch (error) {
                log.error(`The workspace check failed: ${error instanceof Error ? error.message : String(error)}`);
              }
            },
          ),
        ).finally(() => (workspaceCheck = undefined))),
    ),
    vscode.window.registerWebviewPanelSerializer(lessonViewType, lessonPanel.serializer()),
  );

  for (const document of vscode.workspace.textDocuments) check(document);
}

const codeCacheNote: Record<CodeCacheState, string> = {
  used: 'compiled code reused from the last session',
  created: 'compiled code kept for the next session',
  rejected: 'compiled code of the last session did not fit this one; kept anew',
  off: 'no storage for compiled code',
};

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}

/**
 * The command takes a rule (from "Learn why"; with `practise`, its exercise instead of its place),
 * a `lesson#anchor` string (from other tools), or nothing (the command palette: the lesson from its start).
 */
async function lessonTargetOf(
  argument: unknown,
  engine: LintWorker['engine'],
  lessonsRoot: string,
): Promise<LessonTarget | undefined> {
  if (typeof argument === 'string') return parseLessonTarget(argument);
  const { rule, practise } = (argument as { rule?: unknown; practise?: unknown } | undefined) ?? {};
  if (typeof rule === 'string' && isRuleName(rule)) {
    try {
      const lesson = (await engine()).docsOf(rule).lesson;
      const target = lesson ? parseLessonTarget(lesson) : undefined;
      if (!target || practise !== true) return target;
      const exercise = exerciseAnchor(lessonsRoot, target.lesson, rule);
      return exercise ? { lesson: target.lesson, anchor: exercise } : target;
    } catch {
      return undefined; // Without the checker the lesson still opens, at its start.
    }
  }
  return undefined;
}
