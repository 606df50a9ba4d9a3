import * as vscode from 'vscode';

import { codeValue, type DocumentFindings } from '../lint/document-findings.js';
import { diagnosticSource, qualifiedRuleId, ruleNameOf, isRuleName, type RuleName } from '../rules.js';
import { disableRuleForFile, disableRuleForLine, type CommentEdit } from './disable-comments.js';

export const openLessonCommand = 'idempotency.openLesson';
/** "Learn why" always opens the lesson at the place that teaches the rule: in the quick-fix menu, the hover and a rule's page. */
export const learnWhyTitle = 'Learn why: open lesson';

/** The rule a diagnostic reports: ours, or the ESLint extension's when it runs the same plugin. */
export function ruleOfDiagnostic(diagnostic: vscode.Diagnostic): RuleName | undefined {
  const code = codeValue(diagnostic);
  if (code === undefined) return undefined;
  if (diagnostic.source === diagnosticSource) return isRuleName(code) ? code : undefined;
  if (diagnostic.source === 'eslint') return ruleNameOf(code);
  return undefined;
}

/**
 * Quick fixes for each finding under the cursor: the rule's own fix and suggestions, "Learn
 * why" (the lesson at the rule's place, as in the hover), and the usual
 * ways to silence a rule on one line or in one file.
 */
export class IdempotencyCodeActions implements vscode.CodeActionProvider {
  static readonly providedCodeActionKinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly findings: DocumentFindings) {}

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range | vscode.Selection,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const edits: vscode.CodeAction[] = [];
    const lessons: vscode.CodeAction[] = [];
    const silencers: vscode.CodeAction[] = [];
    const seenRules = new Set<RuleName>();

    for (const diagnostic of context.diagnostics) {
      const rule = ruleOfDiagnostic(diagnostic);
      if (!rule) continue;

      const finding = diagnostic.source === diagnosticSource ? this.findings.find(document, diagnostic) : undefined;
      if (finding?.fix) {
        edits.push(editAction(`Fix: ${rule}`, document.uri, finding.fix, diagnostic, true));
      }
      for (const [index, suggestion] of (finding?.suggestions ?? []).entries()) {
        edits.push(
          editAction(suggestion.description, document.uri, suggestion.edit, diagnostic, !finding?.fix && index === 0),
        );
      }

      if (seenRules.has(rule)) continue;
      seenRules.add(rule);

      const learn = new vscode.CodeAction(learnWhyTitle, vscode.CodeActionKind.QuickFix);
      learn.diagnostics = [diagnostic];
      learn.command = { title: learnWhyTitle, command: openLessonCommand, arguments: [{ rule }] };
      lessons.push(learn);

      const qualified = qualifiedRuleId(rule);
      silencers.push(
        commentAction(
          `Disable ${rule} for this line`,
          document,
          disableRuleForLine(document, diagnostic.range.start.line, qualified),
          diagnostic,
        ),
        commentAction(`Disable ${rule} for this file`, document, disableRuleForFile(document, qualified), diagnostic),
      );
    }
    // Order as in the menu: repairs first, then the lesson, then ways to silence.
    return [...edits, ...lessons, ...silencers];
  }
}

function editAction(
  title: string,
  uri: vscode.Uri,
  edit: vscode.TextEdit,
  diagnostic: vscode.Diagnostic,
  preferred: boolean,
): vscode.CodeAction {
  const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
  action.diagnostics = [diagnostic];
  action.isPreferred = preferred;
  action.edit = new vscode.WorkspaceEdit();
  action.edit.replace(uri, edit.range, edit.newText);
  return action;
}

function commentAction(
  title: string,
  document: vscode.TextDocument,
  comment: CommentEdit,
  diagnostic: vscode.Diagnostic,
): vscode.CodeAction {
  const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
  action.diagnostics = [diagnostic];
  action.edit = new vscode.WorkspaceEdit();
  const at = new vscode.Position(comment.line, comment.character);
  if (comment.reasonAt === undefined) {
    action.edit.insert(document.uri, at, comment.text);
    return action;
  }
  // As a snippet, the editor leaves the word `reason` selected, to be typed over.
  const snippet = new vscode.SnippetString()
    .appendText(comment.text.slice(0, comment.reasonAt))
    .appendPlaceholder('reason')
    .appendText(comment.text.slice(comment.reasonAt + 'reason'.length));
  action.edit.set(document.uri, [vscode.SnippetTextEdit.insert(at, snippet)]);
  return action;
}
