import * as path from 'node:path';

import * as vscode from 'vscode';

import { checksFiles, enabledRules, type Settings } from '../settings.js';
import type { DocumentLintState } from '../status/lint-state.js';
import { lintedLanguages } from '../status/lint-status-item.js';
import type { DocumentFindings, Finding } from './document-findings.js';
import type { LintService } from './lint-worker-client.js';
import { offsetEditToTextEdit, problemToDiagnostic } from './problem-to-diagnostic.js';

export interface DocumentLinterParts {
  diagnostics: vscode.DiagnosticCollection;
  findings: DocumentFindings;
  status: { setDocumentState(uri: vscode.Uri, state: DocumentLintState): void; forget(uri: vscode.Uri): void };
  engine: () => Promise<LintService>;
  /** The settings that apply to a document: in a multi-root workspace, those of its folder. */
  settings: (uri: vscode.Uri) => Settings;
  log: (message: string) => void;
}

/** Schemes of read-only views of other content (diffs, logs): findings there could not be acted on. */
const ignoredSchemes = new Set(['git', 'output', 'vscode-scm', 'review', 'pr']);

const extensionOfLanguage: Record<string, string> = {
  javascript: '.js',
  javascriptreact: '.jsx',
  typescript: '.ts',
  typescriptreact: '.tsx',
};

/**
 * Lints documents and publishes their diagnostics: right away on open and save, and after a
 * pause in typing. The lint itself runs in the engine's worker thread; a report is published
 * only if the document is still at the version it was made for.
 */
export class DocumentLinter implements vscode.Disposable {
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  /**
   * The lint under way for each document, and whether it must run once more when it is done, on
   * the latest document object for its URI (one closed and opened again is a new object).
   */
  private readonly running = new Map<
    string,
    { finished: Promise<void>; again: boolean; document: vscode.TextDocument }
  >();
  /** The engine once it has loaded: closing a document must not be what loads it. */
  private loadedEngine: LintService | undefined;

  constructor(private readonly parts: DocumentLinterParts) {}

  static isLintable(document: vscode.TextDocument): boolean {
    return (
      (lintedLanguages as readonly string[]).includes(document.languageId) && !ignoredSchemes.has(document.uri.scheme)
    );
  }

  /** Lints after the typing delay; a newer change restarts the wait. */
  lintSoon(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    clearTimeout(this.pending.get(key));
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        void this.lintNow(document);
      }, this.parts.settings(document.uri).typingDelayMs),
    );
  }

  /**
   * Lints now; resolves once the document's diagnostics are current. One lint per document runs
   * at a time: asked again while it runs (a file that takes longer to lint than the typing delay),
   * the document is linted once more when it returns, with whatever text it has by then, instead
   * of queueing a lint of every intermediate text in the worker.
   */
  lintNow(document: vscode.TextDocument): Promise<void> {
    const key = document.uri.toString();
    clearTimeout(this.pending.get(key));
    this.pending.delete(key);
    const running = this.running.get(key);
    if (running) {
      running.again = true;
      running.document = document;
      return running.finished;
    }
    const run = { finished: Promise.resolve(), again: false, document };
    this.running.set(key, run);
    run.finished = (async () => {
      try {
        do {
          run.again = false;
          await this.lintOnce(run.document, key);
        } while (run.again && !run.document.isClosed);
      } finally {
        this.running.delete(key);
      }
    })();
    return run.finished;
  }

  private async lintOnce(document: vscode.TextDocument, key: string): Promise<void> {
    const { diagnostics, findings, status, settings, log } = this.parts;
    const current = settings(document.uri);
    const rules = enabledRules(current);
    const measuredVersion = document.version;
    const text = document.getText();
    const sizeBytes = Buffer.byteLength(text, 'utf8');
    if (sizeBytes > current.maxFileSizeBytes) {
      this.clearDocument(document.uri);
      status.setDocumentState(document.uri, { kind: 'too-large', sizeBytes, limitBytes: current.maxFileSizeBytes });
      return;
    }

    let engine: LintService;
    try {
      engine = await this.parts.engine();
    } catch {
      return; // The engine loader has already told the user and the log.
    }
    this.loadedEngine = engine;
    // The wait for the engine may have outlived the document or the text measured above.
    if (document.isClosed) return;
    const version = document.version;
    const report = await engine.lint({
      text: version === measuredVersion ? text : document.getText(),
      fileName: lintedFileName(document),
      rules,
      documentKey: key,
      openDocuments: unsavedTextsBesides(document),
      declarations: current.declarations,
      folder: current.folder,
    });
    // Typed over or closed while the worker linted: a newer lint has the say, or none is needed.
    if (document.isClosed || document.version !== version) return;
    // Checking was turned off for the document's folder while the worker linted: it stays cleared.
    if (!checksFiles(settings(document.uri))) return;

    switch (report.kind) {
      case 'unparseable':
        // Keep the last findings: while a line is half typed they are still the best answer.
        status.setDocumentState(document.uri, { kind: 'unparseable', reason: report.reason, line: report.line });
        return;
      case 'not-service-code':
        this.clearDocument(document.uri);
        status.setDocumentState(document.uri, { kind: 'not-service-code' });
        return;
      case 'failed':
        log(`Checking ${document.uri.toString(true)} failed: ${report.reason}`);
        this.clearDocument(document.uri);
        status.setDocumentState(document.uri, { kind: 'failed', reason: report.reason });
        return;
      case 'linted': {
        const documentFindings: Finding[] = report.problems.map((problem) => {
          const level = current.rules[problem.rule];
          return {
            diagnostic: problemToDiagnostic(problem, document, level === 'off' ? 'warning' : level),
            rule: problem.rule,
            fix: problem.fix && offsetEditToTextEdit(problem.fix, document),
            suggestions: problem.suggestions.map((suggestion) => ({
              description: suggestion.description,
              edit: offsetEditToTextEdit(suggestion.edit, document),
            })),
          };
        });
        findings.set(document.uri, version, documentFindings);
        diagnostics.set(
          document.uri,
          documentFindings.map((finding) => finding.diagnostic),
        );
        status.setDocumentState(document.uri, {
          kind: 'linted',
          findings: documentFindings.length,
          durationMs: report.durationMs,
          at: new Date(),
          ...(report.read ? { read: report.read } : {}),
        });
        return;
      }
    }
  }

  /** A closed document keeps no diagnostics, timers or state. */
  forget(uri: vscode.Uri): void {
    const key = uri.toString();
    this.cancel(key);
    this.clearDocument(uri);
    this.parts.status.forget(uri);
    this.loadedEngine?.forget(key);
  }

  /** Stops checking a document (its folder's settings turned checking off): no timer, no diagnostics. */
  stop(uri: vscode.Uri): void {
    this.cancel(uri.toString());
    this.clearDocument(uri);
  }

  /** No lint waits for the typing delay, and the one under way, if any, does not run again. */
  private cancel(key: string): void {
    clearTimeout(this.pending.get(key));
    this.pending.delete(key);
    const running = this.running.get(key);
    if (running) running.again = false;
  }

  clearAll(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    this.parts.diagnostics.clear();
    this.parts.findings.clear();
  }

  private clearDocument(uri: vscode.Uri): void {
    this.parts.diagnostics.delete(uri);
    this.parts.findings.delete(uri);
  }

  dispose(): void {
    this.clearAll();
  }
}

/** The other open files with unsaved changes: what the analysis reads in place of their disk copies. */
function unsavedTextsBesides(document: vscode.TextDocument): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const other of vscode.workspace.textDocuments) {
    if (other !== document && other.isDirty && other.uri.scheme === 'file') texts[other.uri.fsPath] = other.getText();
  }
  return texts;
}

/**
 * The file name ESLint sees. A source file on disk keeps its path, so the analysis finds its
 * project: the schema, the migrations and the modules it imports. Otherwise only the extension
 * matters (it picks the parser): untitled documents and files without a usual extension get one
 * from their language.
 */
export function lintedFileName(
  document: Pick<vscode.TextDocument, 'fileName' | 'languageId'> & { uri: Pick<vscode.Uri, 'scheme'> },
): string {
  const base = path.basename(document.fileName);
  if (sourceName.test(base))
    return document.uri.scheme === 'file' && path.isAbsolute(document.fileName) ? document.fileName : base;
  return `${base || 'untitled'}${extensionOfLanguage[document.languageId] ?? '.js'}`;
}

const sourceName = /\.(?:[cm]?[jt]s|[jt]sx)$/;
