import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ESLint, type Linter } from 'eslint';

/**
 * What the evaluation scripts share: where local snapshots of public repositories live, how one is
 * laid out on disk at a given commit, and how files are linted with the plugin as a user would
 * lint them. Nothing here downloads anything: a missing snapshot is reported, never fetched.
 */

const here = path.dirname(fileURLToPath(import.meta.url));

// ESLint warns about every repository that still ships an .eslintignore; those files are not
// read here anyway (overrideConfigFile), so the warning is noise. Other warnings still print.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name !== 'ESLintIgnoreWarning') console.warn(`${warning.name}: ${warning.message}`);
});

/** The built plugin, as a user installs it: the scripts judge what ships, not the sources. */
export const pluginEntry = path.resolve(here, '../dist/index.js');

/** Where snapshots live: one directory per repository, named `owner+name`. */
export const snapshotRoot = path.resolve(process.env.EVAL_SNAPSHOTS ?? '/work/.mirror');

/**
 * The git directory of `owner/name`'s snapshot, or undefined. Snapshots come either as a bare
 * repository (`owner+name/repo`) or as a clone with a work tree (`owner+name/repo/.git`); a plain
 * clone at `owner+name` or `owner/name` is accepted too, so a reader can point at their own copies.
 */
export function gitDirOf(repository: string): string | undefined {
  const [owner, name] = repository.split('/');
  const candidates = [
    path.join(snapshotRoot, `${owner}+${name}`, 'repo', '.git'),
    path.join(snapshotRoot, `${owner}+${name}`, 'repo'),
    path.join(snapshotRoot, `${owner}+${name}`, '.git'),
    path.join(snapshotRoot, `${owner}+${name}`),
    path.join(snapshotRoot, owner ?? '', name ?? '', '.git'),
    path.join(snapshotRoot, owner ?? '', name ?? ''),
  ];
  return candidates.find(
    (candidate) => existsSync(path.join(candidate, 'HEAD')) && existsSync(path.join(candidate, 'objects')),
  );
}

/** True when the snapshot holds `commit` (an older snapshot may predate a labelled commit). */
export function hasCommit(gitDir: string, commit: string): boolean {
  return spawnSync('git', ['--git-dir', gitDir, 'cat-file', '-e', `${commit}^{commit}`]).status === 0;
}

export function headOf(gitDir: string): string {
  return execFileSync('git', ['--git-dir', gitDir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
}

/**
 * Writes the whole tree of `commit` into a fresh temporary directory. The whole tree, not only the
 * labelled files: rules that read schemas, migrations and helpers in other modules need them.
 */
export function materialise(gitDir: string, commit: string, label: string): string {
  const into = mkdtempSync(path.join(os.tmpdir(), `eval-${label.replace(/[^\w.-]+/g, '_')}-`));
  // git archive | tar: no work tree or index is created inside the snapshot, which stays read-only.
  const archive = spawnSync(
    'sh',
    ['-c', 'set -o pipefail; git --git-dir "$0" archive --format=tar "$1" | tar -x -C "$2"', gitDir, commit, into],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (archive.status !== 0) {
    // Snapshots may lack their largest blobs, which makes git archive fail as a whole; write
    // every blob that is there and leave the missing ones out (they are never source files).
    rmSync(into, { recursive: true, force: true });
    mkdirSync(into, { recursive: true });
    writeBlobsOneByOne(gitDir, commit, into);
  }
  return into;
}

/** Writes each regular file of `commit` that the snapshot holds; skips links, submodules and missing blobs. */
function writeBlobsOneByOne(gitDir: string, commit: string, into: string): void {
  const listing = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '-z', commit], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const entries = listing
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf('\t');
      const [mode, type, sha] = line.slice(0, tab).split(' ');
      return { mode: mode, type: type, sha: sha, file: line.slice(tab + 1) };
    })
    .filter((entry) => entry.type === 'blob' && entry.mode !== '120000');
  const chunk = 2000;
  for (let start = 0; start < entries.length; start += chunk) {
    const part = entries.slice(start, start + chunk);
    const output = spawnSync('git', ['--git-dir', gitDir, 'cat-file', '--batch'], {
      input: part.map((entry) => entry.sha).join('\n') + '\n',
      maxBuffer: 2 * 1024 * 1024 * 1024,
    }).stdout;
    let offset = 0;
    for (const entry of part) {
      const newline = output.indexOf(10, offset);
      if (newline < 0) break;
      const header = output.subarray(offset, newline).toString('utf8').split(' ');
      offset = newline + 1;
      if (header[1] === 'missing' || header.length < 3) continue;
      const size = Number(header[2]);
      const target = path.join(into, entry.file);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, output.subarray(offset, offset + size));
      offset += size + 1;
    }
  }
}

export function removeTree(directory: string): void {
  rmSync(directory, { recursive: true, force: true });
}

/** Source files by their name, as ESLint and the plugin's configs see them. */
export const sourceFile = /\.(c|m)?[jt]sx?$/;

/**
 * Build output, dependencies, vendored and generated code: not what a team writes, and not what a
 * team would lint. Matched on any path segment.
 */
const skippedSegment =
  /(^|\/)(node_modules|dist|build|out|\.next|\.nuxt|\.output|\.turbo|\.vercel|coverage|vendor|vendored|third[_-]party|bower_components|__generated__|generated|\.yarn|storybook-static|public\/static)(\/|$)/;
const skippedName = /(\.min\.[cm]?js|\.bundle\.js|-min\.js|\.d\.[cm]?ts)$/;

/** Every source file of `commit` a team would lint, relative to the tree's root. */
export function lintableFiles(gitDir: string, commit: string): string[] {
  const listing = execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '--name-only', '-z', commit], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return listing
    .split('\0')
    .filter((file) => file && sourceFile.test(file) && !skippedSegment.test(file) && !skippedName.test(file))
    .sort();
}

export interface Finding {
  path: string;
  line: number;
  ruleId: string;
  message: string;
}

export interface LintOutcome {
  findings: Finding[];
  linted: string[];
  /** Files ESLint could not parse (its own fatal message): not linted, counted apart. */
  unparseable: { path: string; message: string }[];
  /** Files on which linting threw (a rule's exception, say): a bug to report, never a crash here. */
  crashed: { path: string; message: string }[];
  /** ESLint's own times (`stats: true`), in milliseconds: the whole, and the plugin's rules. */
  times: { total: number; rules: number };
}

/**
 * An ESLint instance that sees only the plugin's recommended config, rooted at `cwd`. The
 * repository's own eslint.config.* files are ignored: they load plugins that are not installed
 * here, and they are not what is being judged.
 */
export async function pluginLinter(cwd: string, onlyRule?: string): Promise<ESLint> {
  const { default: plugin } = (await import(pluginEntry)) as {
    default: { configs: { recommended: Linter.Config[] }; rules: Record<string, unknown> };
  };
  // One rule alone, for a study of that rule: the others' analyses are not run.
  const only: Linter.Config[] = onlyRule
    ? [
        {
          files: plugin.configs.recommended[0]?.files,
          ignores: plugin.configs.recommended[0]?.ignores,
          rules: Object.fromEntries(
            Object.keys(plugin.rules).map((name) => [`idempotency/${name}`, name === onlyRule ? 'error' : 'off']),
          ),
        },
      ]
    : [];
  return new ESLint({
    cwd,
    overrideConfigFile: true,
    overrideConfig: [
      ...plugin.configs.recommended,
      ...only,
      // React projects write JSX in `.js` files, as their own configs allow; plain JavaScript parses the same.
      { files: ['**/*.js'], languageOptions: { parserOptions: { ecmaFeatures: { jsx: true } } } },
      // Directives in third-party code name rules that are not loaded here; they are not the point.
      { linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' } },
    ],
    // Explicitly listed files are linted even where a default ignore pattern would match.
    ignore: false,
    errorOnUnmatchedPattern: false,
    cache: false,
  });
}

const batchSize = 100;

/**
 * Lints `files` (relative to `cwd`) in batches; when a batch throws, its files are linted one by
 * one so that a single bad file is recorded as crashed and the others still count.
 */
export async function lintFiles(
  eslint: ESLint,
  cwd: string,
  files: string[],
  onProgress?: (done: number) => void,
): Promise<LintOutcome> {
  const outcome: LintOutcome = {
    findings: [],
    linted: [],
    unparseable: [],
    crashed: [],
    times: { total: 0, rules: 0 },
  };
  const record = (results: ESLint.LintResult[]): void => {
    for (const result of results) {
      for (const pass of result.stats?.times.passes ?? []) {
        outcome.times.total += pass.total;
        for (const [rule, time] of Object.entries(pass.rules ?? {}))
          if (rule.startsWith('idempotency/')) outcome.times.rules += time.total;
      }
      const relative = path.relative(cwd, result.filePath).split(path.sep).join('/');
      const fatal = result.messages.find((message) => message.fatal);
      if (fatal) {
        outcome.unparseable.push({ path: relative, message: fatal.message });
        continue;
      }
      outcome.linted.push(relative);
      for (const message of result.messages) {
        if (!message.ruleId?.startsWith('idempotency/')) continue;
        outcome.findings.push({
          path: relative,
          line: message.line,
          ruleId: message.ruleId.slice('idempotency/'.length),
          message: message.message,
        });
      }
    }
  };
  for (let start = 0; start < files.length; start += batchSize) {
    const batch = files.slice(start, start + batchSize);
    try {
      record(await eslint.lintFiles(batch.map((file) => path.join(cwd, file))));
    } catch {
      for (const file of batch) {
        try {
          record(await eslint.lintFiles([path.join(cwd, file)]));
        } catch (error) {
          outcome.crashed.push({
            path: file,
            message: error instanceof Error ? error.message.split('\n')[0] : String(error),
          });
        }
      }
    }
    onProgress?.(Math.min(start + batchSize, files.length));
  }
  return outcome;
}

/** Reads a tab-separated file with a header line into records keyed by the header's names. */
export function parseTsv(text: string): Record<string, string>[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '' && !line.startsWith('#'));
  const header = lines.shift()?.split('\t') ?? [];
  return lines.map((line) => {
    const cells = line.split('\t');
    return Object.fromEntries(header.map((name, index) => [name, cells[index] ?? '']));
  });
}
