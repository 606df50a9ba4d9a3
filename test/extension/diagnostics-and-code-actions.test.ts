import { describe, expect, it, vi } from 'vitest';

vi.mock('vscode', async () => await import('./support/fake-vscode.js'));

import { IdempotencyCodeActions } from '../../extension/src/code-actions/idempotency-code-actions.js';
import { LearnWhyHover } from '../../extension/src/code-actions/learn-why-hover.js';
import { DocumentFindings, type Finding } from '../../extension/src/lint/document-findings.js';
import type { LintProblem } from '../../extension/src/lint/lint-engine.js';
import { offsetEditToTextEdit, problemToDiagnostic } from '../../extension/src/lint/problem-to-diagnostic.js';
import {
  Diagnostic,
  DiagnosticSeverity,
  FakeDiagnosticCollection,
  FakeTextDocument,
  Position,
  Range,
  Uri,
  fakeEditor,
  type Hover,
  type WorkspaceEdit,
} from './support/fake-vscode.js';

const consumer = [
  "import { Kafka } from 'kafkajs';",
  'async function handle(message) {',
  '  const effectId = message.id;',
  '}',
].join('\n');

function documentOf(text: string): FakeTextDocument {
  return new FakeTextDocument(Uri.file('/work/consumer.js'), 'javascript', text);
}

const problem: LintProblem = {
  rule: 'no-delivery-id-effect-key',
  message: 'The effect key comes from the delivery id',
  line: 3,
  column: 20,
  endLine: 3,
  endColumn: 30,
  suggestions: [{ description: 'Key on the business id', edit: { range: [85, 95], text: 'message.orderId' } }],
};

describe('a finding as a diagnostic', () => {
  it('has 0-based range, the idempotency source, the rule as code and a link that opens the rule page in the panel', () => {
    const document = documentOf(consumer);
    const diagnostic = problemToDiagnostic(problem, document as never, 'error') as unknown as Diagnostic;
    expect(diagnostic.range.isEqual(new Range(2, 19, 2, 29))).toBe(true);
    expect(diagnostic.severity).toBe(DiagnosticSeverity.Error);
    expect(diagnostic.source).toBe('idempotency');
    expect(diagnostic.message).toBe(problem.message);
    expect(diagnostic.code).toEqual({
      value: 'no-delivery-id-effect-key',
      target: Uri.parse('command:idempotency.showRulePage?%5B%22no-delivery-id-effect-key%22%5D'),
    });
  });

  it('points its related information at the line the value came from, when the rule says', () => {
    const document = documentOf(consumer);
    const withOrigin = problemToDiagnostic(
      { ...problem, origin: { line: 3, column: 20, note: 'the check is here' } },
      document as never,
      'error',
    ) as unknown as Diagnostic;
    expect(withOrigin.relatedInformation).toHaveLength(1);
    const [related] = withOrigin.relatedInformation!;
    expect(related.message).toBe('the check is here');
    expect(related.location.uri).toBe(document.uri);
    expect((related.location.range as Range).start).toEqual(new Position(2, 19));
    expect(
      (problemToDiagnostic(problem, document as never, 'error') as unknown as Diagnostic).relatedInformation,
    ).toBeUndefined();
  });

  it('points its related information into the helper module the value was read in, at its line', () => {
    const inHelper = problemToDiagnostic(
      { ...problem, origin: { line: 12, column: 9, file: '/work/keys.js', note: 'the value is read here' } },
      documentOf(consumer) as never,
      'warning',
    ) as unknown as Diagnostic;
    const [related] = inHelper.relatedInformation!;
    expect(related.message).toBe('the value is read here');
    expect(related.location.uri.toString()).toBe(Uri.file('/work/keys.js').toString());
    // Line 12 lies beyond the consumer's four lines: it is the helper's line, not clamped to this document.
    expect(related.location.range).toEqual(new Position(11, 8));
  });

  it('maps each configured level to its severity', () => {
    const document = documentOf(consumer) as never;
    const severities = (['error', 'warning', 'information', 'hint'] as const).map(
      (level) => (problemToDiagnostic(problem, document, level) as unknown as Diagnostic).severity,
    );
    expect(severities).toEqual([
      DiagnosticSeverity.Error,
      DiagnosticSeverity.Warning,
      DiagnosticSeverity.Information,
      DiagnosticSeverity.Hint,
    ]);
  });

  it('covers the rest of the line when the rule gives no end, and stays inside the document', () => {
    const document = documentOf(consumer) as never;
    const open = problemToDiagnostic({ ...problem, endLine: undefined, endColumn: undefined }, document, 'warning');
    expect((open.range as unknown as Range).isEqual(new Range(2, 19, 2, 30))).toBe(true);
    const beyond = problemToDiagnostic({ ...problem, line: 3, endLine: 40, endColumn: 1 }, document, 'warning');
    expect((beyond.range as unknown as Range).isEqual(new Range(2, 19, 3, 0))).toBe(true);
  });

  it("turns ESLint's offset edits into ranges of the document", () => {
    const edit = offsetEditToTextEdit(problem.suggestions[0].edit, documentOf(consumer) as never);
    expect((edit.range as unknown as Range).isEqual(new Range(2, 19, 2, 29))).toBe(true);
    expect(edit.newText).toBe('message.orderId');
  });
});

describe('code actions on a finding', () => {
  const document = documentOf(consumer);
  const diagnostic = problemToDiagnostic(problem, document as never, 'warning');
  const findings = new DocumentFindings();
  const finding: Finding = {
    diagnostic,
    rule: problem.rule,
    suggestions: [
      {
        description: 'Key on the business id',
        edit: offsetEditToTextEdit(problem.suggestions[0].edit, document as never),
      },
    ],
  };
  findings.set(document.uri as never, document.version, [finding]);
  const provider = new IdempotencyCodeActions(findings);

  const actionsFor = (diagnostics: unknown[]) =>
    provider.provideCodeActions(document as never, diagnostic.range, {
      diagnostics,
      triggerKind: 1,
      only: undefined,
    } as never);

  it('offers the suggestion, then "Learn why", then disabling for the line and the file', () => {
    const copy = new Diagnostic(diagnostic.range as never, diagnostic.message, diagnostic.severity);
    copy.source = diagnostic.source;
    copy.code = diagnostic.code as never;
    expect(actionsFor([copy]).map((action) => action.title)).toEqual([
      'Key on the business id',
      'Learn why: open lesson',
      'Disable no-delivery-id-effect-key for this line',
      'Disable no-delivery-id-effect-key for this file',
    ]);
  });

  it('opens the lesson through a command that names the rule', () => {
    const learn = actionsFor([diagnostic]).find((action) => action.title.startsWith('Learn why'));
    expect(learn?.command).toMatchObject({
      command: 'idempotency.openLesson',
      arguments: [{ rule: 'no-delivery-id-effect-key' }],
    });
  });

  it('inserts an indented eslint-disable-next-line comment above the finding, as a snippet whose reason is selected', () => {
    const disable = actionsFor([diagnostic]).find((action) => action.title.endsWith('for this line'));
    const [{ edit }] = (disable?.edit as unknown as WorkspaceEdit).edits as unknown as [
      { edit: { range: Range; snippet: { value: string } } },
    ];
    expect(edit.range.isEqual(new Range(2, 0, 2, 0))).toBe(true);
    expect(edit.snippet.value).toBe(
      '  // eslint-disable-next-line idempotency/no-delivery-id-effect-key -- ${1:reason}\n',
    );
  });

  it('offers no suggestion once the document has changed since it was linted', () => {
    const changed = documentOf(consumer);
    changed.version = 2;
    const titles = provider
      .provideCodeActions(changed as never, diagnostic.range, {
        diagnostics: [diagnostic],
        triggerKind: 1,
        only: undefined,
      })
      .map((action) => action.title);
    expect(titles).not.toContain('Key on the business id');
    expect(titles).toContain('Learn why: open lesson');
  });

  it("offers the lesson for the ESLint extension's findings of the same plugin, and nothing for other rules", () => {
    const fromEslint = new Diagnostic(new Range(2, 0, 2, 5), 'x');
    fromEslint.source = 'eslint';
    fromEslint.code = { value: 'idempotency/no-amount-effect-key', target: Uri.parse('https://docs.test') };
    const unrelated = new Diagnostic(new Range(2, 0, 2, 5), 'y');
    unrelated.source = 'eslint';
    unrelated.code = 'no-console';
    expect(actionsFor([fromEslint, unrelated]).map((action) => action.title)).toEqual([
      'Learn why: open lesson',
      'Disable no-amount-effect-key for this line',
      'Disable no-amount-effect-key for this file',
    ]);
  });
});

describe('"Learn why" in the hover', () => {
  it('offers for each rule under the pointer "Learn why" to the lesson, as the quick fix does, and the rule page by its own name; it may run only those commands', () => {
    const document = documentOf(consumer);
    const ours = problemToDiagnostic(problem, document as never, 'warning');
    const fromEslint = new Diagnostic(new Range(2, 8, 2, 16), 'x');
    fromEslint.source = 'eslint';
    fromEslint.code = 'idempotency/no-amount-effect-key';
    const collection = new FakeDiagnosticCollection();
    collection.set(document.uri, [ours as unknown as Diagnostic, fromEslint]);
    fakeEditor.collections.push(collection);
    try {
      const hover = new LearnWhyHover();
      const at = (line: number, character: number) =>
        hover.provideHover(document as never, new Position(line, character) as never) as unknown as Hover | undefined;
      expect(at(2, 25)?.contents.value).toBe(
        'no-delivery-id-effect-key: [Learn why: open lesson](command:idempotency.openLesson?%5B%7B%22rule%22%3A%22no-delivery-id-effect-key%22%7D%5D) · [Practise: open exercise](command:idempotency.openLesson?%5B%7B%22rule%22%3A%22no-delivery-id-effect-key%22%2C%22practise%22%3Atrue%7D%5D) · [Show rule page](command:idempotency.showRulePage?%5B%22no-delivery-id-effect-key%22%5D)',
      );
      expect(at(2, 10)?.contents.value).toBe(
        'no-amount-effect-key: [Learn why: open lesson](command:idempotency.openLesson?%5B%7B%22rule%22%3A%22no-amount-effect-key%22%7D%5D) · [Practise: open exercise](command:idempotency.openLesson?%5B%7B%22rule%22%3A%22no-amount-effect-key%22%2C%22practise%22%3Atrue%7D%5D) · [Show rule page](command:idempotency.showRulePage?%5B%22no-amount-effect-key%22%5D)',
      );
      expect(at(2, 25)?.contents.isTrusted).toEqual({
        enabledCommands: ['idempotency.openLesson', 'idempotency.showRulePage'],
      });
      expect(at(0, 3)).toBeUndefined();
    } finally {
      fakeEditor.collections.pop();
    }
  });
});
