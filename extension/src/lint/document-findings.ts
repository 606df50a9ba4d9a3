import type * as vscode from 'vscode';

import type { RuleName } from '../rules.js';

/** A published diagnostic with what its code actions need, computed when it was linted. */
export interface Finding {
  diagnostic: vscode.Diagnostic;
  rule: RuleName;
  /** The rule's own fix, if it has one. */
  fix?: vscode.TextEdit;
  suggestions: { description: string; edit: vscode.TextEdit }[];
}

/**
 * The findings of each open document at the version they were linted for. Code actions receive
 * copies of diagnostics (they cross the process boundary), so a finding is matched by what it
 * says and where, not by identity; and edits are only offered for the version they were made for.
 */
export class DocumentFindings {
  private readonly byDocument = new Map<string, { version: number; findings: Finding[] }>();

  set(uri: vscode.Uri, version: number, findings: Finding[]): void {
    this.byDocument.set(uri.toString(), { version, findings });
  }

  delete(uri: vscode.Uri): void {
    this.byDocument.delete(uri.toString());
  }

  clear(): void {
    this.byDocument.clear();
  }

  /** The finding a diagnostic in a code-action request stands for, if it is still current. */
  find(document: Pick<vscode.TextDocument, 'uri' | 'version'>, diagnostic: vscode.Diagnostic): Finding | undefined {
    const entry = this.byDocument.get(document.uri.toString());
    if (!entry || entry.version !== document.version) return undefined;
    return entry.findings.find(
      (finding) =>
        finding.diagnostic.range.isEqual(diagnostic.range) &&
        finding.diagnostic.message === diagnostic.message &&
        codeValue(finding.diagnostic) === codeValue(diagnostic),
    );
  }
}

export function codeValue(diagnostic: vscode.Diagnostic): string | undefined {
  const code = diagnostic.code;
  if (code === undefined) return undefined;
  return typeof code === 'object' ? String(code.value) : String(code);
}
