import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('vscode', async () => await import('./support/fake-vscode.js'));

import { lintWorker } from '../../extension/src/lint/lint-worker-client.js';
import { checkWorkspace } from '../../extension/src/lint/workspace-check.js';
import { readSettings } from '../../extension/src/settings.js';
import { fakeEditor, FakeDiagnosticCollection, Uri, workspace } from './support/fake-vscode.js';

const workerEntry = fileURLToPath(new URL('../../extension/dist/lint-worker.js', import.meta.url));

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
    engine: worker.engine,
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
