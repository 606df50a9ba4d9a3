import * as vscode from 'vscode';

import { checksFiles, enabledRules, type Settings } from '../settings.js';
import type { LintService } from './lint-worker-client.js';
import { problemToDiagnostic, type PositionSource } from './problem-to-diagnostic.js';

export const checkWorkspaceCommand = 'idempotency.checkWorkspace';

const sourceFiles = '**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}';
/** Never source of the workspace's own: dependencies, version control, build output. */
const alwaysExcluded = ['**/node_modules/**', '**/.git/**'];

export interface WorkspaceCheckParts {
  engine: () => Promise<LintService>;
  settings: (uri: vscode.Uri) => Settings;
  /** The check's own collection: an open document's findings come from its own lints. */
  diagnostics: vscode.DiagnosticCollection;
  isOpen: (uri: vscode.Uri) => boolean;
}

export interface WorkspaceCheckResult {
  files: number;
  findings: number;
  filesWithFindings: number;
  cancelled: boolean;
}

/**
 * Checks every source file of each workspace folder that checks files, in the lint worker, one
 * file at a time: a document's own lint, asked for while this runs, waits for one file at most.
 * Files open in an editor are left to their own lints; files larger than the size limit, and the
 * globs of `idempotency.workspaceCheck.exclude`, are skipped. Cancelling keeps what was found.
 */
export async function checkWorkspace(
  parts: WorkspaceCheckParts,
  progress: vscode.Progress<{ message?: string; increment?: number }>,
  token: vscode.CancellationToken,
): Promise<WorkspaceCheckResult> {
  const result: WorkspaceCheckResult = { files: 0, findings: 0, filesWithFindings: 0, cancelled: false };
  parts.diagnostics.clear();
  const files = await workspaceSourceFiles(parts.settings, token);
  const engine = await parts.engine();
  for (const [index, uri] of files.entries()) {
    if (token.isCancellationRequested) {
      result.cancelled = true;
      break;
    }
    progress.report({ message: `${index + 1} of ${files.length} files`, increment: 100 / files.length });
    if (parts.isOpen(uri)) continue;
    const settings = parts.settings(uri);
    const text = await readSource(uri, settings);
    if (text === undefined) continue;
    const report = await engine.lint({
      text,
      fileName: uri.fsPath,
      rules: enabledRules(settings),
      declarations: settings.declarations,
      folder: settings.folder,
    });
    result.files += 1;
    if (report.kind !== 'linted' || report.problems.length === 0 || parts.isOpen(uri)) continue;
    const positions = textPositions(uri, text);
    parts.diagnostics.set(
      uri,
      report.problems.map((problem) => {
        const level = settings.rules[problem.rule];
        return problemToDiagnostic(problem, positions, level === 'off' ? 'warning' : level);
      }),
    );
    result.findings += report.problems.length;
    result.filesWithFindings += 1;
  }
  if (token.isCancellationRequested) result.cancelled = true;
  return result;
}

/**
 * The source files of each workspace folder that checks files, without dependencies and the globs
 * of `idempotency.workspaceCheck.exclude`.
 */
export async function workspaceSourceFiles(
  settingsOf: (uri: vscode.Uri) => Settings,
  token?: vscode.CancellationToken,
): Promise<vscode.Uri[]> {
  const files: vscode.Uri[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const settings = settingsOf(folder.uri);
    if (!checksFiles(settings)) continue;
    const exclude = `{${[...alwaysExcluded, ...settings.workspaceExclude].join(',')}}`;
    files.push(
      ...(await vscode.workspace.findFiles(new vscode.RelativePattern(folder, sourceFiles), exclude, undefined, token)),
    );
  }
  return files;
}

/** The text of a file on disk, unless it is larger than the size limit, or gone or unreadable since it was listed. */
export async function readSource(uri: vscode.Uri, settings: Settings): Promise<string | undefined> {
  try {
    const bytes = await vscode.workspace.fs.readFile(uri);
    return bytes.byteLength > settings.maxFileSizeBytes ? undefined : new TextDecoder().decode(bytes);
  } catch {
    return undefined;
  }
}

/** Positions in a text that no editor has open, as problemToDiagnostic reads them from a document. */
export function textPositions(uri: vscode.Uri, text: string): PositionSource {
  const starts = [0];
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 13 && text.charCodeAt(index + 1) === 10) index += 1;
    if (code === 10 || code === 13) starts.push(index + 1);
  }
  const lineEnd = (line: number) => {
    const next = line + 1 < starts.length ? starts[line + 1] : text.length;
    let end = next;
    while (end > starts[line] && (text[end - 1] === '\n' || text[end - 1] === '\r')) end -= 1;
    return end - starts[line];
  };
  const clamp = (position: vscode.Position) => {
    const line = Math.min(Math.max(position.line, 0), starts.length - 1);
    return new vscode.Position(line, Math.min(Math.max(position.character, 0), lineEnd(line)));
  };
  return {
    uri,
    lineCount: starts.length,
    lineAt: ((line: number) => ({
      range: new vscode.Range(line, 0, line, lineEnd(line)),
    })) as unknown as PositionSource['lineAt'],
    validateRange: (range) => new vscode.Range(clamp(range.start), clamp(range.end)),
    positionAt: (offset) => {
      let low = 0;
      let high = starts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >>> 1;
        if (starts[middle] <= offset) low = middle;
        else high = middle - 1;
      }
      return new vscode.Position(low, offset - starts[low]);
    },
  };
}
