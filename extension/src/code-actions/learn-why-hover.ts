import * as vscode from 'vscode';

import { rulePageTarget } from '../lint/problem-to-diagnostic.js';
import { showRulePageCommand, type RuleName } from '../rules.js';
import { learnWhyTitle, openLessonCommand, ruleOfDiagnostic } from './idempotency-code-actions.js';

/**
 * The hover of a finding (this extension's, or the ESLint extension's running the same plugin)
 * offers what the quick-fix menu offers under the same name, "Learn why" (the lesson, at the
 * place that teaches the rule), then the lesson's exercise for the rule, and the rule's page. Its
 * markdown may run those two commands and no other.
 */
export class LearnWhyHover implements vscode.HoverProvider {
  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const rules = new Set<RuleName>();
    for (const diagnostic of vscode.languages.getDiagnostics(document.uri)) {
      const rule = diagnostic.range.contains(position) ? ruleOfDiagnostic(diagnostic) : undefined;
      if (rule) rules.add(rule);
    }
    if (rules.size === 0) return undefined;
    const lines = [...rules].map(
      (rule) =>
        `${rule}: [${learnWhyTitle}](${learnWhyTarget(rule).toString()}) · [${practiseTitle}](${learnWhyTarget(rule, true).toString()}) · [${rulePageTitle}](${rulePageTarget(rule).toString()})`,
    );
    const markdown = new vscode.MarkdownString(lines.join('\n\n'));
    markdown.isTrusted = { enabledCommands: [openLessonCommand, showRulePageCommand] };
    return new vscode.Hover(markdown);
  }
}

/** The name of the link that opens the lesson at the exercise for the rule. */
export const practiseTitle = 'Practise: open exercise';

/** The name of the action that opens a rule's page, wherever it is offered. */
export const rulePageTitle = 'Show rule page';

function learnWhyTarget(rule: RuleName, practise = false): vscode.Uri {
  const argument = practise ? { rule, practise } : { rule };
  return vscode.Uri.parse(`command:${openLessonCommand}?${encodeURIComponent(JSON.stringify([argument]))}`);
}
