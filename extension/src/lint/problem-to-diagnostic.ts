import * as vscode from 'vscode';

import { diagnosticSource, showRulePageCommand, type RuleName } from '../rules.js';
import type { RuleLevel } from '../settings.js';
import type { LintProblem, OffsetEdit, Origin } from './lint-engine.js';

/** The parts of `vscode.TextDocument` the mapping needs. */
export type PositionSource = Pick<vscode.TextDocument, 'positionAt' | 'lineAt' | 'validateRange' | 'lineCount' | 'uri'>;

const severityOf: Record<Exclude<RuleLevel, 'off'>, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

/**
 * An ESLint finding as a diagnostic. ESLint counts lines and columns from 1 and VS Code from 0;
 * a finding without an end covers the rest of its line, so it is never an invisible point.
 */
export function problemToDiagnostic(
  problem: LintProblem,
  document: PositionSource,
  level: Exclude<RuleLevel, 'off'>,
): vscode.Diagnostic {
  const startLine = clamp(problem.line - 1, 0, document.lineCount - 1);
  const start = new vscode.Position(startLine, Math.max(problem.column - 1, 0));
  const end =
    problem.endLine !== undefined && problem.endColumn !== undefined
      ? new vscode.Position(Math.max(problem.endLine - 1, 0), Math.max(problem.endColumn - 1, 0))
      : document.lineAt(startLine).range.end;
  const diagnostic = new vscode.Diagnostic(
    document.validateRange(new vscode.Range(start, end)),
    problem.message,
    severityOf[level],
  );
  diagnostic.source = diagnosticSource;
  diagnostic.code = { value: problem.rule, target: rulePageTarget(problem.rule) };
  if (problem.origin) {
    // Where the finding comes from (the value's read, the check), in this file or in the helper
    // module it was read in: the Problems panel lists it under the finding, and a click goes there.
    diagnostic.relatedInformation = [
      new vscode.DiagnosticRelatedInformation(
        originLocation(problem.origin, document),
        problem.origin.note ?? 'the finding comes from here',
      ),
    ];
  }
  return diagnostic;
}

function originLocation(origin: Origin, document: PositionSource): vscode.Location {
  const column = Math.max(origin.column - 1, 0);
  // Another file's lines are not this document's to check: VS Code keeps a position past a line's end at its end.
  if (origin.file)
    return new vscode.Location(vscode.Uri.file(origin.file), new vscode.Position(Math.max(origin.line - 1, 0), column));
  const line = clamp(origin.line - 1, 0, document.lineCount - 1);
  return new vscode.Location(document.uri, document.validateRange(new vscode.Range(line, column, line, column)));
}

/**
 * The code's link opens the rule's page in the lesson panel, offline, through a command. Each
 * rule's link is made once: a lint can turn hundreds of findings into diagnostics.
 */
const rulePageTargets = new Map<RuleName, vscode.Uri>();

export function rulePageTarget(rule: RuleName): vscode.Uri {
  let target = rulePageTargets.get(rule);
  if (!target) {
    target = vscode.Uri.parse(`command:${showRulePageCommand}?${encodeURIComponent(JSON.stringify([rule]))}`);
    rulePageTargets.set(rule, target);
  }
  return target;
}

export function offsetEditToTextEdit(edit: OffsetEdit, document: PositionSource): vscode.TextEdit {
  return new vscode.TextEdit(
    new vscode.Range(document.positionAt(edit.range[0]), document.positionAt(edit.range[1])),
    edit.text,
  );
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), Math.max(high, low));
}
