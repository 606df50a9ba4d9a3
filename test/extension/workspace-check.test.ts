import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('vscode', async () => await import('./support/fake-vscode.js'));

import { lintWorker } from '../../extension/src/lint/lint-worker-client.js';
import { checkWorkspace } from '../../extension/src/lint/workspace-check.js';
import { readSettings } from '../../extension/src/settings.js';
import { writeGeneratedWorkspace, type GeneratedWorkspace } from '../support/generated-workspace.js';
import { fakeEditor, FakeDiagnosticCollection, Uri, workspace } from './support/fake-vscode.js';

const workerEntry = fileURLToPath(new URL('../../extension/dist/lint-worker.js', import.meta.url));
const eslintBin = fileURLToPath(new URL('../../node_modules/eslint/bin/eslint.js', import.meta.url));
const pluginEntry = fileURLToPath(new URL('../../eslint-plugin/dist/index.js', import.meta.url));
const run = promisify(execFile);
type EslintMessage = { line: number; column: number; ruleId: string | null };

/** A consumer with a delivery-id key, and a copy of it in folders the check must leave alone. */
const consumer = `export function start(channel, client) {
  channel.consume('refunds', async (message) => {
    await client.query('INSERT INTO ledger (entry_id, cents) VALUES ($1, $2) ON CONFLICT (entry_id) DO NOTHING', [message.properties.messageId, message.cents]);
  });
}
`;

describe('the whole-workspace check', () => {
  let root: string;
  const worker = lintWorker(workerEntry, { onLoaded: () => {}, onFailure: () => {} });
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'idempotency-workspace-'));
    for (const file of [
      'src/a.js',
      'src/b.js',
      'src/open.js',
      'generated/c.js',
      'node_modules/pkg/d.js',
      'src/e.test.js',
    ]) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), consumer);
    }
    writeFileSync(path.join(root, 'src/clean.js'), 'export const answer = 42;\n');
    fakeEditor.workspaceFolders = [{ uri: Uri.file(root), name: 'root', index: 0 }];
    fakeEditor.folderConfiguration[root] = { 'workspaceCheck.exclude': ['**/generated/**'] };
  });
  afterAll(() => {
    worker.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  const parts = (diagnostics: FakeDiagnosticCollection) => ({
    engine: () => worker.engine(),
    settings: (uri: Uri) => readSettings(workspace.getConfiguration('idempotency', uri), root),
    diagnostics: diagnostics as never,
    isOpen: (uri: Uri) => uri.fsPath.endsWith('open.js'),
  });

  it('checks every source file of the folder in the worker, except open files, dependencies, excluded globs and the code the recommended config leaves alone', async () => {
    const diagnostics = new FakeDiagnosticCollection();
    const reports: string[] = [];
    const result = await checkWorkspace(
      parts(diagnostics) as never,
      { report: ({ message }: { message?: string }) => reports.push(message ?? '') },
      { isCancellationRequested: false } as never,
    );
    const files = [...diagnostics.byUri.keys()].map((key) => path.relative(root, Uri.parse(key).fsPath)).sort();
    expect(files).toEqual(['src/a.js', 'src/b.js']);
    for (const file of files)
      expect(
        diagnostics.byUri
          .get(Uri.file(path.join(root, file)).toString())!
          .map((diagnostic) => [diagnostic.range.start.line, (diagnostic.code as { value: string }).value]),
      ).toEqual([[2, 'no-delivery-id-effect-key']]);
    expect(result).toEqual({ files: 4, findings: 2, filesWithFindings: 2, cancelled: false });
    expect(reports.at(-1)).toBe('5 of 5 files');
  });

  it('stops when cancelled, keeping what it found', async () => {
    const diagnostics = new FakeDiagnosticCollection();
    const token = { isCancellationRequested: false };
    const result = await checkWorkspace(
      parts(diagnostics) as never,
      { report: () => (token.isCancellationRequested = true) },
      token as never,
    );
    expect(result.cancelled).toBe(true);
    expect(result.files).toBe(1);
  });
});

describe('the whole-workspace check on a generated workspace of 2,000 files', () => {
  let root: string;
  let generated: GeneratedWorkspace;
  const worker = lintWorker(workerEntry, { onLoaded: () => {}, onFailure: () => {} });
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'idempotency-generated-'));
    generated = writeGeneratedWorkspace(root, 2000);
    // The same files for ESLint: the plugin's recommended config, and the folder the setting excludes.
    writeFileSync(
      path.join(root, 'eslint.config.mjs'),
      `import idempotency from ${JSON.stringify(pluginEntry)};\nexport default [{ ignores: ['**/generated/**'] }, ...idempotency.configs.recommended];\n`,
    );
    fakeEditor.workspaceFolders = [{ uri: Uri.file(root), name: 'generated', index: 0 }];
    fakeEditor.folderConfiguration[root] = { 'workspaceCheck.exclude': ['**/generated/**'] };
  });
  afterAll(() => {
    worker.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  it('reports progress for every file, leaves the excluded globs out, and finds what eslint finds on the same files', async () => {
    const diagnostics = new FakeDiagnosticCollection();
    const reports: string[] = [];
    const result = await checkWorkspace(
      {
        engine: () => worker.engine(),
        settings: (uri: Uri) => readSettings(workspace.getConfiguration('idempotency', uri), root),
        diagnostics: diagnostics as never,
        isOpen: () => false,
      } as never,
      { report: ({ message }: { message?: string }) => reports.push(message ?? '') },
      { isCancellationRequested: false } as never,
    );
    const listed = generated.files.length - generated.excluded.length + 1; // and eslint.config.mjs
    expect(reports).toHaveLength(listed);
    expect(reports.at(-1)).toBe(`${listed} of ${listed} files`);
    expect(result.cancelled).toBe(false);

    const inEditor = [...diagnostics.byUri].flatMap(([key, found]) =>
      found.map(
        (diagnostic) =>
          `${path.relative(root, Uri.parse(key).fsPath)}:${diagnostic.range.start.line + 1}:${diagnostic.range.start.character + 1} ${(diagnostic.code as { value: string }).value}`,
      ),
    );
    // eslint exits with 1 when it finds something.
    const { stdout } = await run(process.execPath, [eslintBin, '--format', 'json', '.'], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: unknown) => {
      const failure = error as { code?: number; stdout?: string };
      if (failure.code !== 1 || failure.stdout === undefined) throw error;
      return { stdout: failure.stdout };
    });
    const byEslint = (JSON.parse(stdout) as { filePath: string; messages: EslintMessage[] }[]).flatMap((file) =>
      file.messages.map(
        (message) =>
          `${path.relative(root, file.filePath)}:${message.line}:${message.column} ${(message.ruleId ?? 'fatal').replace('idempotency/', '')}`,
      ),
    );
    console.log(
      `2,000-file workspace: ${result.files} files checked, ${inEditor.length} findings in the editor, ${byEslint.length} by eslint`,
    );
    expect(inEditor.length).toBeGreaterThan(500);
    expect(new Set(inEditor.map((finding) => finding.split(' ')[1])).size).toBeGreaterThanOrEqual(3);
    expect(inEditor.sort()).toEqual(byEslint.sort());
    expect(inEditor.some((finding) => finding.startsWith('generated/'))).toBe(false);
    // Two passes over 2,000 files (the worker's, then eslint's) on a shared two-core machine.
  }, 400_000);

  it("answers a document's own lint while it runs, after at most the file in hand", async () => {
    const token = { isCancellationRequested: false };
    let checked = 0;
    let askedAt: number | undefined;
    let answeredAt: number | undefined;
    const engine = await worker.engine();
    const typing = readFileSync(path.join(root, generated.files[0]), 'utf8');
    await checkWorkspace(
      {
        engine: () => worker.engine(),
        settings: (uri: Uri) => readSettings(workspace.getConfiguration('idempotency', uri), root),
        diagnostics: new FakeDiagnosticCollection() as never,
        isOpen: () => false,
      } as never,
      {
        report: () => {
          checked += 1;
          if (checked === 100) {
            askedAt = checked;
            void engine
              .lint({ text: typing, fileName: path.join(root, 'typed.ts'), rules: ['no-delivery-id-effect-key'] })
              .then((report) => {
                answeredAt = checked;
                expect(report.kind === 'linted' && report.problems.map((problem) => problem.rule)).toEqual([
                  'no-delivery-id-effect-key',
                ]);
              });
          }
          // Stopped once the document's lint is answered, or well after: the rest is the test above.
          if (answeredAt !== undefined || checked > 300) token.isCancellationRequested = true;
        },
      },
      token as never,
    );
    expect(askedAt).toBe(100);
    expect(answeredAt).toBeDefined();
    expect(answeredAt! - askedAt!).toBeLessThanOrEqual(2);
  });

  it('stops at once when cancelled in the middle, keeping what it found', async () => {
    const diagnostics = new FakeDiagnosticCollection();
    const token = { isCancellationRequested: false };
    let reported = 0;
    const result = await checkWorkspace(
      {
        engine: () => worker.engine(),
        settings: (uri: Uri) => readSettings(workspace.getConfiguration('idempotency', uri), root),
        diagnostics: diagnostics as never,
        isOpen: () => false,
      } as never,
      { report: () => (token.isCancellationRequested = ++reported === 500) },
      token as never,
    );
    expect(result).toMatchObject({ cancelled: true, files: 500 });
    expect(diagnostics.byUri.size).toBe(result.filesWithFindings);
    expect(result.filesWithFindings).toBeGreaterThan(100);
  });
});
