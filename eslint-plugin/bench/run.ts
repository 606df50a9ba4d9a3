import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import js from '@eslint/js';

// The build, as users run it (`npm run bench` builds first): the sources through a
// TypeScript loader would be measured with the loader's own additions.
import { whenSqlParserReady } from '../dist/analysis/sql/parser.js';
import { forgetSqlSummaries } from '../dist/analysis/sql/statements.js';
import builtPlugin from '../dist/index.js';
import { gitDirOf, hasCommit, lintableFiles, materialise, removeTree, snapshotRoot } from '../eval/snapshots.js';
import { CorpusLinter, sourceFilesBelow } from '../scripts/corpus-linter.js';
import { sqlDenseCorpus } from './sql-corpus.js';

/**
 * The cost of the rules, measured two ways over a corpus linted as a project would have it
 * (ESLint's recommended rules):
 * - the rules' share of ESLint's own times (`eslint --stats`), in one run with every rule on:
 *   total / (total - the plugin's rules). This is the figure with targets: 1.10 on real code
 *   from node_modules, 1.30 on SQL-dense consumer code. Work the rules share (the file's
 *   analysis) is counted in whichever of them asks first.
 * - the same run without and with the plugin's rules, alternating, in one process, in CPU time
 *   (garbage collection included): the ratio of paired passes, for the whole picture. On a whole
 *   project with its schema, where the rules also read other modules, migrations and the Prisma
 *   schema, the target is 1.10.
 *
 * The baseline has rules because any rule at all makes ESLint do more (code path analysis, the
 * selector traversal): against a run with no rules, even an empty rule costs over 40 %.
 */

interface Corpus {
  name: string;
  files: { name: string; source: string }[];
  target: number;
}

const rounds = 15;
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
if (only !== undefined && only !== 'sql' && only !== 'real') throw new Error('--only takes sql or real');
const statsRounds = 3;
const root = fileURLToPath(new URL('../..', import.meta.url));

function realCorpus(): Corpus {
  // Fixed by the lock file: ESLint's own sources and typescript-eslint's compiled packages.
  const folders = [
    'node_modules/eslint/lib',
    'node_modules/@typescript-eslint/typescript-estree/dist',
    'node_modules/@typescript-eslint/scope-manager/dist',
  ];
  const files = folders
    .flatMap((folder) => sourceFilesBelow(path.join(root, folder)))
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({ name: path.basename(file), source: readFileSync(file, 'utf8') }));
  return { name: 'real code (ESLint, typescript-eslint)', files, target: 1.1 };
}

/** The lowest and highest of the paired ratios: how far one run's figure can be trusted. */
function spread(ratios: number[]): string {
  return `paired ratios ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * One pass over the corpus, timed in CPU time spent by this process (user and system, all its
 * threads), which other work on a shared machine disturbs far less than the wall clock.
 */
function pass(linter: CorpusLinter, corpus: Corpus, withRules: boolean): number {
  forgetSqlSummaries();
  // Each pass starts from a collected heap, so that neither pays for the other's garbage.
  (globalThis as { gc?: () => void }).gc?.();
  const started = process.cpuUsage();
  for (const file of corpus.files) {
    const outcome = linter.lint(file.source, file.name, withRules);
    if (outcome.crash) throw new Error(`${file.name}: ${outcome.crash}`);
  }
  const spent = process.cpuUsage(started);
  return (spent.user + spent.system) / 1000;
}

/** ESLint's times over the corpus, summed over `statsRounds` passes: the whole, and the plugin's rules. */
function statsShare(linter: CorpusLinter, corpus: Corpus): { total: number; rules: number; ratio: number } {
  let total = 0;
  let rules = 0;
  for (let round = 0; round < statsRounds; round += 1) {
    forgetSqlSummaries();
    for (const file of corpus.files) {
      linter.lint(file.source, file.name, true, (times) => {
        total += times.total;
        for (const [rule, time] of Object.entries(times.rules)) if (rule.startsWith('idempotency/')) rules += time;
      });
    }
  }
  return { total, rules, ratio: total / (total - rules) };
}

async function main(): Promise<void> {
  await whenSqlParserReady();
  const linter = new CorpusLinter([js.configs.recommended], builtPlugin);
  const corpora: Corpus[] = [];
  if (only !== 'sql') corpora.push(realCorpus());
  if (only !== 'real') corpora.push({ name: 'SQL-dense consumers (generated)', files: sqlDenseCorpus(), target: 1.3 });
  console.log(
    "ESLint with its recommended rules and the idempotency rules: their share of ESLint's --stats times (%d passes), and CPU time without and with them (median of %d alternating passes)",
    statsRounds,
    rounds,
  );
  for (const corpus of corpora) {
    const bytes = corpus.files.reduce((sum, file) => sum + file.source.length, 0);
    pass(linter, corpus, false);
    pass(linter, corpus, true);
    const without: number[] = [];
    const withRules: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      // Alternate which goes first, and compare each pair: slow phases of the machine hit both.
      let plain: number;
      let ruled: number;
      if (round % 2 === 0) {
        plain = pass(linter, corpus, false);
        ruled = pass(linter, corpus, true);
      } else {
        ruled = pass(linter, corpus, true);
        plain = pass(linter, corpus, false);
      }
      without.push(plain);
      withRules.push(ruled);
      ratios.push(ruled / plain);
    }
    const share = statsShare(linter, corpus);
    const verdict = share.ratio <= corpus.target ? 'within target' : 'OVER TARGET';
    console.log(
      `  ${corpus.name}: ${corpus.files.length} files, ${(bytes / 1024).toFixed(0)} KiB — with --stats, ESLint ${share.total.toFixed(0)} ms of which the idempotency rules ${share.rules.toFixed(0)} ms: total / (total - rules) ${share.ratio.toFixed(3)} (target ≤ ${corpus.target.toFixed(2)}, ${verdict}); CPU time without ${median(without).toFixed(0)} ms, with ${median(withRules).toFixed(0)} ms, median ratio of paired passes ${median(ratios).toFixed(3)}, ${spread(ratios)}`,
    );
  }
}

/** The project corpus: a public monorepo (web app, jobs, webhooks) at a fixed commit, with its Prisma schema. */
const project = {
  repository: 'documenso/documenso',
  commit: '75330166cc00b29c14399bc2e391e4b4d8080c00',
  target: 1.1,
  rounds: 5,
};

interface ProjectRun {
  cpuMs: number;
  linted: number;
  findings: number;
  crashed: number;
  unparseable: number;
  times: { total: number; rules: number };
}

function projectPass(tree: string, list: string, mode: 'with' | 'without' | 'typed'): ProjectRun {
  const output = execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'eslint-plugin/bench/project-pass.ts'), tree, list, mode],
    {
      cwd: path.join(root, 'eslint-plugin'),
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return JSON.parse(output.trim().split('\n').pop()!) as ProjectRun;
}

/** The typed corpus: a TypeScript service (ActivityPub inbox, Pub/Sub consumers) with its tsconfig, at a fixed commit. */
const typedProject = {
  repository: 'TryGhost/ActivityPub',
  commit: '90cf17a2206795c055df210d9f5609651bd007e0',
  target: 1.25,
};

/**
 * A run with type information, as a project that sets `parserOptions.projectService` lints:
 * typescript-eslint's type-checked recommendations and the plugin's rules, which then also ask
 * the program what a call runs. The rules' share of ESLint's own times in that one run,
 * total / (total - the plugin's rules), is the time against the type-checked rules alone.
 */
function typedBench(): void {
  const gitDir = gitDirOf(typedProject.repository);
  if (!gitDir || !hasCommit(gitDir, typedProject.commit)) {
    console.log(
      `  typed project (${typedProject.repository}): skipped, no snapshot with ${typedProject.commit.slice(0, 12)} under ${snapshotRoot} (EVAL_SNAPSHOTS)`,
    );
    return;
  }
  const tree = materialise(gitDir, typedProject.commit, typedProject.repository);
  try {
    // The files its tsconfig includes, which the project service types.
    const files = lintableFiles(gitDir, typedProject.commit).filter((file) => /^src\/.*\.ts$/.test(file));
    const list = path.join(tree, '.bench-files');
    writeFileSync(list, files.join('\n'));
    const run = projectPass(tree, list, 'typed');
    if (run.crashed > 0) throw new Error(`${run.crashed} files crashed in the typed run`);
    const ratio = run.times.total / (run.times.total - run.times.rules);
    console.log(
      `  typed project (${typedProject.repository}@${typedProject.commit.slice(0, 12)}, recommendedTypeChecked with the project service): ${run.linted} files, ${run.findings} findings — with --stats, ESLint ${run.times.total.toFixed(0)} ms of which the idempotency rules ${run.times.rules.toFixed(0)} ms: total / (total - rules) ${ratio.toFixed(3)} (target ≤ ${typedProject.target.toFixed(2)}, ${ratio <= typedProject.target ? 'within target' : 'OVER TARGET'})`,
    );
  } finally {
    removeTree(tree);
  }
}

/**
 * Whole runs of ESLint over the project, each in a fresh process as on the command line, without
 * and with the rules, alternating. Needs a local snapshot of the repository (see eval/README.md);
 * without one it says so and measures nothing.
 */
function projectBench(): void {
  const gitDir = gitDirOf(project.repository);
  if (!gitDir || !hasCommit(gitDir, project.commit)) {
    console.log(
      `  project (${project.repository}): skipped, no snapshot with ${project.commit.slice(0, 12)} under ${snapshotRoot} (EVAL_SNAPSHOTS)`,
    );
    return;
  }
  const tree = materialise(gitDir, project.commit, project.repository);
  try {
    const files = lintableFiles(gitDir, project.commit);
    const list = path.join(tree, '.bench-files');
    writeFileSync(list, files.join('\n'));
    const ratios: number[] = [];
    const runs: { without: number[]; with: number[] } = { without: [], with: [] };
    let seen = { linted: 0, findings: 0 };
    for (let round = 0; round < project.rounds; round += 1) {
      const order: ('with' | 'without')[] = round % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
      const spent: Record<string, number> = {};
      for (const mode of order) {
        const run = projectPass(tree, list, mode);
        if (run.crashed > 0) throw new Error(`${run.crashed} files crashed in the ${mode} run`);
        spent[mode] = run.cpuMs;
        runs[mode].push(run.cpuMs);
        if (mode === 'with') seen = run;
      }
      ratios.push(spent.with / spent.without);
    }
    const ratio = median(ratios);
    console.log(
      `  project (${project.repository}@${project.commit.slice(0, 12)}, its Prisma schema and modules): ${seen.linted} files, ${seen.findings} findings — without ${median(runs.without).toFixed(0)} ms, with ${median(runs.with).toFixed(0)} ms, median ratio of ${project.rounds} paired runs ${ratio.toFixed(3)}, ${spread(ratios)} (target ≤ ${project.target.toFixed(2)}, ${ratio <= project.target ? 'within target' : 'OVER TARGET'})`,
    );
  } finally {
    removeTree(tree);
  }
}

// `npm run bench -- --project`: the project corpora alone; `-- --no-project`: all but them; `-- --typed`: the typed
// project alone; `-- --only sql` or `-- --only real`: that generated or real corpus alone, without the projects.
if (process.argv.includes('--typed')) typedBench();
else {
  if (!process.argv.includes('--project')) await main();
  if (!process.argv.includes('--no-project') && only === undefined) {
    projectBench();
    typedBench();
  }
}
