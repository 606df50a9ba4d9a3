import * as vscode from 'vscode';

import { rulePageTarget } from '../lint/problem-to-diagnostic.js';
import { showRulePageCommand, type RuleName } from '../rules.js';
import { ruleOfDiagnostic } from './idempotency-code-actions.js';

/**
 * "Learn why" in the hover of a finding (this extension's, or the ESLint extension's running the
 * same plugin): a link that opens the rule's page in the lesson panel. Its markdown may run that
 * one command and no other.
 */
export class LearnWhyHover implements vscode.HoverProvider {
  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const rules = new Set<RuleName>();
    for (const diagnostic of vscode.languages.getDiagnostics(document.uri)) {
      const rule = diagnostic.range.contains(position) ? ruleOfDiagnostic(diagnostic) : undefined;
      if (rule) rules.add(rule);
    }
    if (rules.size === 0) return undefined;
    const links = [...rules].map((rule) => `[Learn why: ${rule}](${rulePageTarget(rule).toString()})`);
    const markdown = new vscode.MarkdownString(links.join(' · '));
    markdown.isTrusted = { enabledCommands: [showRulePageCommand] };
    return new vscode.Hover(markdown);
  }
}
