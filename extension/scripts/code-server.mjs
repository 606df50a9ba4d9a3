// Starts code-server (VS Code 1.100 in a browser, from npm; installed by setup-e2e.sh) with the
// packaged extension, for the end-to-end test and for `npm run try`. Everything it writes goes to
// folders the caller names, and `stop()` ends the whole process group it started.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const codeServerBinary = path.join(repositoryRoot, '.cache/code-server/node_modules/.bin/code-server');
export const packagedExtension = path.join(repositoryRoot, 'extension/out/idempotency-lens-0.1.0.vsix');

/**
 * A copy of the plugin's examples in a fresh temporary folder, for an editor that saves what it
 * is given: the examples are fixtures the tests read. The repository's node_modules is linked
 * beside the copy, so its imports and type declarations resolve as they do in place.
 * @returns {{ workspace: string, remove: () => void }}
 */
export function copyOfExamples() {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'idempotency-examples-'));
  const workspace = path.join(parent, 'examples');
  cpSync(path.join(repositoryRoot, 'eslint-plugin/examples'), workspace, { recursive: true });
  symlinkSync(path.join(repositoryRoot, 'node_modules'), path.join(parent, 'node_modules'), 'dir');
  return { workspace, remove: () => rmSync(parent, { recursive: true, force: true }) };
}

/** Settings that keep a fresh profile quiet: no welcome page, tips, trust prompt or update checks. */
const quietUserSettings = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'chat.disableAIFeatures': true,
  'git.enabled': false,
};

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * @param {{ workspace: string, stateDir: string, port?: number, vsix?: string, userSettings?: object, onOutput?: (line: string) => void }} options
 * @returns {Promise<{ url: string, workspaceUrl: string, pid: number, stop: () => Promise<void> }>}
 */
export async function startCodeServer({
  workspace,
  stateDir,
  port,
  vsix = packagedExtension,
  userSettings = {},
  onOutput,
}) {
  const extensionsDir = path.join(stateDir, 'extensions');
  const userDataDir = path.join(stateDir, 'user-data');
  mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...quietUserSettings, ...userSettings }, null, 2),
  );
  const common = ['--extensions-dir', extensionsDir, '--user-data-dir', userDataDir];
  execFileSync(codeServerBinary, [...common, '--force', '--install-extension', vsix], { stdio: 'pipe' });

  const chosenPort = port ?? (await freePort());
  const child = spawn(
    codeServerBinary,
    [
      ...common,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${chosenPort}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      workspace,
    ],
    // A group of its own, so that stop() also ends the file watcher and extension host it forks.
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));

  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('code-server did not start within 60 s')), 60_000);
    const watch = (chunk) => {
      for (const line of String(chunk).split('\n')) {
        if (line.trim()) onOutput?.(line);
        if (line.includes('HTTP server listening on')) {
          clearTimeout(timer);
          resolve();
        }
      }
    };
    child.stdout.on('data', watch);
    child.stderr.on('data', watch);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited with code ${code} before it was ready`));
    });
  });

  const url = `http://127.0.0.1:${chosenPort}/`;
  return {
    url,
    workspaceUrl: `${url}?folder=${encodeURIComponent(workspace)}`,
    pid: child.pid,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        return; // Already gone.
      }
      const killer = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }, 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
