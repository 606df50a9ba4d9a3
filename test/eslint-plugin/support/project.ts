import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * A small project on disk (package.json, schema, migrations, modules) linted by the real `eslint`
 * command with the built plugin's recommended config: what a team's CI sees.
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../..', import.meta.url));
const eslintBin = path.join(root, 'node_modules/eslint/bin/eslint.js');
const pluginEntry = path.join(root, 'eslint-plugin/dist/index.js');

export interface ProjectLint {
  /** `file:line rule/messageId`, sorted. */
  findings: string[];
  messages: string[];
  stderr: string;
}

export async function lintProject(
  files: Record<string, string>,
  settings?: Record<string, unknown>,
  extraArgs: readonly string[] = [],
  {
    config = 'recommended',
    typed = false,
  }: {
    config?: 'recommended' | 'strict';
    /** Lint with type information, as a project whose configuration sets `parserOptions.projectService` (a tsconfig.json is written). */
    typed?: boolean;
  } = {},
): Promise<ProjectLint> {
  const dir = mkdtempSync(path.join(tmpdir(), 'idempotency-project-'));
  mkdirSync(path.join(dir, '.git'));
  const typeInformation = typed
    ? `, { languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } } }`
    : '';
  const all: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'project', private: true, type: 'module' }),
    'eslint.config.mjs': `import idempotency from ${JSON.stringify(pluginEntry)};
export default [...idempotency.configs.${config}${typeInformation}${settings ? `, { settings: { idempotency: ${JSON.stringify(settings)} } }` : ''}];`,
    ...(typed
      ? { 'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', noEmit: true } }) }
      : {}),
    ...files,
  };
  for (const [name, text] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  let stdout: string;
  let stderr: string;
  try {
    ({ stdout, stderr } = await run(process.execPath, [eslintBin, '--format', 'json', ...extraArgs, '.'], {
      cwd: dir,
      maxBuffer: 32 * 1024 * 1024,
    }));
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    if (failure.code !== 1) throw new Error(`eslint failed (${failure.code}): ${failure.stderr}`, { cause: error });
    ({ stdout, stderr } = failure);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const results = JSON.parse(stdout) as {
    filePath: string;
    messages: { line: number; ruleId: string | null; messageId?: string; message: string; fatal?: boolean }[];
  }[];
  const found = results.flatMap((result) =>
    result.messages.map((message) => {
      if (message.fatal) throw new Error(`${result.filePath}: ${message.message}`);
      return {
        key: `${path.relative(dir, result.filePath)}:${message.line} ${message.ruleId}/${message.messageId ?? ''}`,
        message: message.message,
      };
    }),
  );
  return {
    findings: found.map((finding) => finding.key).sort(),
    messages: found.map((finding) => finding.message),
    stderr,
  };
}
