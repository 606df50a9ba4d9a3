import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('vscode', async () => await import('./support/fake-vscode.js'));

import { DocumentFindings } from '../../extension/src/lint/document-findings.js';
import { DocumentLinter, lintedFileName } from '../../extension/src/lint/document-linter.js';
import type { LintRequest } from '../../extension/src/lint/lint-engine.js';
import type { LintService } from '../../extension/src/lint/lint-worker-client.js';
import { defaultLevelOn, ruleNames } from '../../extension/src/rules.js';
import { readSettings } from '../../extension/src/settings.js';
import type { DocumentLintState } from '../../extension/src/status/lint-state.js';
import { FakeDiagnosticCollection, FakeTextDocument, Uri, fakeEditor } from './support/fake-vscode.js';

/**
 * `whileLinting` runs while the engine has the text, as the editor's typing does while the worker
 * lints; the engine answers once what it returns has settled.
 */
function setup(configuration: Record<string, unknown> = {}, whileLinting: () => unknown = () => {}) {
  const requests: LintRequest[] = [];
  const forgotten: string[] = [];
  const engine: LintService = {
    async lint(request) {
      requests.push(request);
      await whileLinting();
      return {
        kind: 'linted',
        durationMs: 1,
        problems: [
          {
            rule: 'no-amount-effect-key',
            message: 'amount key',
            line: 1,
            column: 1,
            endLine: 1,
            endColumn: 4,
            suggestions: [],
          },
        ],
      };
    },
    docsOf: () => ({ url: 'https://docs.test/no-amount-effect-key' }),
    forget: (documentKey) => forgotten.push(documentKey),
  };
  const diagnostics = new FakeDiagnosticCollection();
  const states = new Map<string, DocumentLintState>();
  const linter = new DocumentLinter({
    diagnostics: diagnostics as never,
    findings: new DocumentFindings(),
    status: {
      setDocumentState: (uri, state) => states.set(uri.toString(), state),
      forget: (uri) => states.delete(uri.toString()),
    },
    engine: async () => engine,
    settings: () => readSettings({ get: <T>(key: string) => configuration[key] as T }),
    log: () => {},
  });
  const document = new FakeTextDocument(Uri.file('/work/consumer.ts'), 'typescript', 'key = amount;\n');
  return { linter, diagnostics, states, requests, forgotten, document };
}

/** As `setup`, with the engine's first answer held back until `answer()`; later ones come at once. */
function setupWithFirstCheckHeld() {
  let release = () => {};
  const checked = setup({}, () =>
    checked.requests.length === 1 ? new Promise<void>((resolve) => (release = resolve)) : undefined,
  );
  return { ...checked, answer: () => release() };
}

/** The engine was asked once, and its answer reached neither the diagnostics nor the status. */
function expectCheckedOnceAndNothingShown(checked: ReturnType<typeof setup>): void {
  expect(checked.requests).toHaveLength(1);
  expect(checked.diagnostics.byUri.has(checked.document.uri.toString())).toBe(false);
  expect(checked.states.size).toBe(0);
}

describe('the document linter', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('publishes diagnostics and records when it checked', async () => {
    const { linter, diagnostics, states, document } = setup();
    await linter.lintNow(document as never);
    expect(diagnostics.byUri.get(document.uri.toString())?.map((diagnostic) => diagnostic.message)).toEqual([
      'amount key',
    ]);
    expect(states.get(document.uri.toString())).toMatchObject({ kind: 'linted', findings: 1 });
  });

  it('publishes no findings for a text that changed while the engine checked it', async () => {
    const checked = setup({}, () => checked.document.setText('key = amount + 2;\n'));
    await checked.linter.lintNow(checked.document as never);
    expectCheckedOnceAndNothingShown(checked);
  });

  it('checks a document that changed during its check once more afterwards, with its latest text, not once per change', async () => {
    const { answer, ...checked } = setupWithFirstCheckHeld();
    const { linter, requests, diagnostics, document } = checked;
    const first = linter.lintNow(document as never);
    await vi.advanceTimersByTimeAsync(0);
    document.setText('key = amount + 1;\n');
    const second = linter.lintNow(document as never);
    document.setText('key = amount + 2;\n');
    const third = linter.lintNow(document as never);
    expect(requests).toHaveLength(1);
    answer();
    await Promise.all([first, second, third]);
    expect(requests.map((request) => request.text)).toEqual(['key = amount;\n', 'key = amount + 2;\n']);
    expect(diagnostics.byUri.get(document.uri.toString())?.map((diagnostic) => diagnostic.message)).toEqual([
      'amount key',
    ]);
  });

  it('publishes nothing for a check that returns after checking was turned off for the document', async () => {
    const configuration: Record<string, unknown> = {};
    const checked = setup(configuration, () => {
      configuration.enable = false;
      checked.linter.stop(checked.document.uri as never);
    });
    await checked.linter.lintNow(checked.document as never);
    expectCheckedOnceAndNothingShown(checked);
  });

  it('does not check a document again once it closed during its check', async () => {
    const { answer, ...checked } = setupWithFirstCheckHeld();
    const { linter, requests, document } = checked;
    const first = linter.lintNow(document as never);
    await vi.advanceTimersByTimeAsync(0);
    document.setText('key = amount + 1;\n');
    const second = linter.lintNow(document as never);
    linter.forget(document.uri as never);
    answer();
    await Promise.all([first, second]);
    expect(requests).toHaveLength(1);
  });

  it('checks a document closed and opened again during the check of its old copy, once that check returns', async () => {
    const { answer, ...checked } = setupWithFirstCheckHeld();
    const { linter, requests, diagnostics, document } = checked;
    const first = linter.lintNow(document as never);
    await vi.advanceTimersByTimeAsync(0);
    document.isClosed = true;
    linter.forget(document.uri as never);
    const reopened = new FakeTextDocument(document.uri, 'typescript', 'key = amount + 3;\n');
    const second = linter.lintNow(reopened as never);
    answer();
    await Promise.all([first, second]);
    expect(requests.map((request) => request.text)).toEqual(['key = amount;\n', 'key = amount + 3;\n']);
    expect(diagnostics.byUri.get(document.uri.toString())?.map((diagnostic) => diagnostic.message)).toEqual([
      'amount key',
    ]);
  });

  it('lints once after typing stops, with the latest text', async () => {
    const { linter, requests, document } = setup({ typingDelay: 200 });
    linter.lintSoon(document as never);
    await vi.advanceTimersByTimeAsync(150);
    document.setText('key = amount + 1;\n');
    linter.lintSoon(document as never);
    await vi.advanceTimersByTimeAsync(150);
    expect(requests).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(60);
    expect(requests.map((request) => request.text)).toEqual(['key = amount + 1;\n']);
  });

  it('passes only the rules that are not off', async () => {
    const { linter, requests, document } = setup({
      rules: { 'no-amount-effect-key': 'off', 'no-check-then-insert': 'hint' },
    });
    await linter.lintNow(document as never);
    expect(requests[0]?.rules).toEqual(
      ruleNames.filter((name) => name !== 'no-amount-effect-key' && defaultLevelOn(name)),
    );
    expect(requests[0]?.rules).toContain('no-check-then-insert');
  });

  it('skips a file over the size limit, says so, and drops its old diagnostics', async () => {
    const { linter, diagnostics, states, requests, document } = setup({ maxFileSizeKB: 1 });
    await linter.lintNow(document as never);
    document.setText('x'.repeat(2048));
    await linter.lintNow(document as never);
    expect(requests).toHaveLength(1);
    expect(diagnostics.byUri.has(document.uri.toString())).toBe(false);
    expect(states.get(document.uri.toString())).toEqual({ kind: 'too-large', sizeBytes: 2048, limitBytes: 1024 });
  });

  it("clears diagnostics, state, pending work and the engine's parse when a document closes", async () => {
    const { linter, diagnostics, states, requests, forgotten, document } = setup();
    await linter.lintNow(document as never);
    linter.lintSoon(document as never);
    linter.forget(document.uri as never);
    await vi.advanceTimersByTimeAsync(1000);
    expect(requests).toHaveLength(1);
    expect(diagnostics.byUri.size).toBe(0);
    expect(states.size).toBe(0);
    expect(forgotten).toEqual([document.uri.toString()]);
  });

  it('hands the engine the unsaved texts of the other open files, not their disk copies', async () => {
    const { linter, requests, document } = setup();
    const schema = new FakeTextDocument(
      Uri.file('/work/prisma/schema.prisma'),
      'prisma',
      'model Refund { key String @unique }\n',
    );
    const saved = new FakeTextDocument(Uri.file('/work/helpers.ts'), 'typescript', 'export const x = 1;\n');
    schema.isDirty = true;
    document.isDirty = true;
    fakeEditor.documents.push(document, schema, saved);
    try {
      await linter.lintNow(document as never);
    } finally {
      fakeEditor.documents.length = 0;
    }
    expect(requests[0]?.openDocuments).toEqual({
      '/work/prisma/schema.prisma': 'model Refund { key String @unique }\n',
    });
  });

  it('names the document in each lint, so the engine re-parses only what changed', async () => {
    const { linter, requests, document } = setup();
    await linter.lintNow(document as never);
    document.setText('key = amount + 1;\n');
    await linter.lintNow(document as never);
    expect(requests.map((request) => request.documentKey)).toEqual([document.uri.toString(), document.uri.toString()]);
  });

  it('does not load the engine to forget a document it never checked', () => {
    const { linter, forgotten, document } = setup();
    linter.forget(document.uri as never);
    expect(forgotten).toEqual([]);
  });

  it("gives ESLint a source file's own path, and other documents a name whose extension matches the language", () => {
    const file = { scheme: 'file' };
    expect(lintedFileName({ fileName: '/w/src/consumer.mts', languageId: 'typescript', uri: file })).toBe(
      '/w/src/consumer.mts',
    );
    expect(
      lintedFileName({ fileName: '/w/src/consumer.ts', languageId: 'typescript', uri: { scheme: 'vscode-remote' } }),
    ).toBe('consumer.ts');
    expect(lintedFileName({ fileName: 'Untitled-1', languageId: 'typescriptreact', uri: { scheme: 'untitled' } })).toBe(
      'Untitled-1.tsx',
    );
    expect(lintedFileName({ fileName: '/w/bin/worker', languageId: 'javascript', uri: file })).toBe('worker.js');
  });
});
