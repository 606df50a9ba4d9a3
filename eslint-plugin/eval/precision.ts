import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  gitDirOf,
  headOf,
  lintableFiles,
  lintFiles,
  materialise,
  pluginLinter,
  removeTree,
  snapshotRoot,
  type LintOutcome,
} from './snapshots.js';

/**
 * The precision study: lints every source file of a few large public projects with the plugin's
 * recommended config and writes every finding to a TSV, to be read by hand and judged in
 * precision.md.
 *
 *   npm run precision -w eslint-plugin [-- owner/name ...] [--again] [--rule=<name>]
 *
 * Each project's result is kept in eval/precision-out/<owner+name>.json, keyed by commit, so that
 * projects can be linted by separate processes side by side and the totals printed afterwards
 * without linting again. `--again` ignores kept results. `--rule=<name>` lints with that rule
 * alone (a study of one rule), kept apart from the full results.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(here, 'precision-out');

/** The projects of the study (see precision.md for why these). */
const defaultProjects = [
  'medusajs/medusa',
  'novuhq/novu',
  'outline/outline',
  'documenso/documenso',
  'midday-ai/midday',
];

interface ProjectResult {
  repository: string;
  commit: string;
  files: number;
  linted: number;
  unparseable: LintOutcome['unparseable'];
  crashed: LintOutcome['crashed'];
  findings: LintOutcome['findings'];
}

async function study(
  repository: string,
  again: boolean,
  onlyRule: string | undefined,
): Promise<ProjectResult | undefined> {
  const gitDir = gitDirOf(repository);
  if (!gitDir) {
    console.error(
      `missing snapshot: ${repository} (expected under ${snapshotRoot}/${repository.replace('/', '+')}; fetch it, e.g. with the fetch tool "github:${repository}", or set EVAL_SNAPSHOTS)`,
    );
    return undefined;
  }
  const commit = headOf(gitDir);
  const kept = path.join(outDir, `${repository.replace('/', '+')}${onlyRule ? `.${onlyRule}` : ''}.json`);
  if (!again && existsSync(kept)) {
    const result = JSON.parse(readFileSync(kept, 'utf8')) as ProjectResult;
    if (result.commit === commit) return result;
  }
  const files = lintableFiles(gitDir, commit);
  console.error(`${repository}@${commit.slice(0, 12)}: ${files.length} files`);
  const tree = materialise(gitDir, commit, repository);
  try {
    const eslint = await pluginLinter(tree, onlyRule);
    const outcome = await lintFiles(eslint, tree, files, (done) => {
      if (done % 1000 === 0) console.error(`  ${repository}: ${done}/${files.length}`);
    });
    const result: ProjectResult = {
      repository,
      commit,
      files: files.length,
      linted: outcome.linted.length,
      unparseable: outcome.unparseable,
      crashed: outcome.crashed,
      findings: outcome.findings,
    };
    mkdirSync(outDir, { recursive: true });
    writeFileSync(kept, JSON.stringify(result, null, 1));
    return result;
  } finally {
    removeTree(tree);
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const again = args.includes('--again');
  const onlyRule = args.find((arg) => arg.startsWith('--rule='))?.slice('--rule='.length);
  const projects = args.filter((arg) => !arg.startsWith('--'));
  const results: ProjectResult[] = [];
  for (const repository of projects.length > 0 ? projects : defaultProjects) {
    const result = await study(repository, again, onlyRule);
    if (result) results.push(result);
  }

  // Every finding, one line each, for reading and judging by hand.
  const rows = ['repository\tcommit\tpath\tline\trule\tmessage'];
  for (const result of results) {
    for (const finding of result.findings)
      rows.push(
        [result.repository, result.commit, finding.path, finding.line, finding.ruleId, oneLine(finding.message)].join(
          '\t',
        ),
      );
  }
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'findings.tsv'), `${rows.join('\n')}\n`);
  console.log(rows.join('\n'));

  console.log('\nrepository\tcommit\tsource files\tlinted\tnot parsed\tcrashed\tfindings');
  for (const result of results) {
    console.log(
      [
        result.repository,
        result.commit.slice(0, 12),
        result.files,
        result.linted,
        result.unparseable.length,
        result.crashed.length,
        result.findings.length,
      ].join('\t'),
    );
  }
  const linted = results.reduce((sum, result) => sum + result.linted, 0);
  const byRule = new Map<string, number>();
  for (const result of results)
    for (const finding of result.findings) byRule.set(finding.ruleId, (byRule.get(finding.ruleId) ?? 0) + 1);
  console.log(
    `\ntotal: ${results.reduce((sum, r) => sum + r.files, 0)} source files, ${linted} linted, ${results.reduce((sum, r) => sum + r.unparseable.length, 0)} not parsed, ${results.reduce((sum, r) => sum + r.crashed.length, 0)} crashed`,
  );
  for (const [rule, count] of [...byRule].sort())
    console.log(
      `${rule}: ${count} findings (${((count * 1000) / Math.max(linted, 1)).toFixed(2)} per 1,000 linted files)`,
    );
  for (const result of results)
    for (const crash of result.crashed) console.log(`crashed: ${result.repository} ${crash.path}: ${crash.message}`);
}

await main();
