import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  gitDirOf,
  hasCommit,
  lintFiles,
  materialise,
  parseTsv,
  pluginEntry,
  pluginLinter,
  removeTree,
  snapshotRoot,
  type Finding,
} from './snapshots.js';

/**
 * Scores the rules against real-code.tsv: labelled line ranges of public repositories, each with
 * the rule that should report there, or `none`. Reads local snapshots only (see snapshots.ts for
 * where), writes each repository at its labelled commit once, lints the labelled files with the
 * built plugin's recommended config, and prints precision and recall per rule: for every label,
 * and again for the labels found without the plugin (the `found` column says how each was found).
 *
 *   npm run eval -w eslint-plugin            (EVAL_SNAPSHOTS=/path/to/snapshots to look elsewhere)
 *
 * It is a report, not a test: it exits 0 whatever the scores.
 */

const here = path.dirname(fileURLToPath(import.meta.url));

/** The catalogue's rules, implemented or announced; a label must name one of these or `none`. */
const knownRules = [
  'no-delivery-id-effect-key',
  'no-amount-effect-key',
  'no-check-then-insert',
  'no-claim-after-effect',
  'no-in-memory-dedupe',
  'no-claim-without-unique-key',
];

/**
 * How a label's code was found. `fix-history`: the code before or after a fix its `why` names;
 * `code-search`: by searching code, without the plugin; `code-reading`: by reading a project's
 * delivery code whole, without the plugin; `plugin-run`: among the plugin's findings;
 * `unrecorded`: not written down, so possibly from a plugin run.
 */
const foundWays = ['fix-history', 'code-search', 'code-reading', 'plugin-run', 'unrecorded'];
/** The ways that do not depend on what the rules report: the fairer measure of recall. */
const foundWithoutPlugin = new Set(['fix-history', 'code-search', 'code-reading']);

interface Label {
  repository: string;
  commit: string;
  path: string;
  start: number;
  end: number;
  expected: string;
  found: string;
  why: string;
  row: number;
}

function readLabels(): Label[] {
  const records = parseTsv(readFileSync(path.join(here, 'real-code.tsv'), 'utf8'));
  const labels: Label[] = [];
  records.forEach((record, index) => {
    const label: Label = {
      repository: record.repository ?? '',
      commit: record.commit ?? '',
      path: record.path ?? '',
      start: Number(record.start_line),
      end: Number(record.end_line),
      expected: record.expected ?? '',
      found: record.found ?? '',
      why: record.why ?? '',
      row: index + 2,
    };
    const problem = !/^[\w.-]+\/[\w.-]+$/.test(label.repository)
      ? 'repository is not owner/name'
      : !/^[0-9a-f]{40}$/.test(label.commit)
        ? 'commit is not 40 hex digits'
        : !Number.isInteger(label.start) || !Number.isInteger(label.end) || label.start > label.end
          ? 'bad line range'
          : label.expected !== 'none' && !rulesOf(label).every((rule) => knownRules.includes(rule))
            ? `unknown rule in ${label.expected}`
            : !foundWays.includes(label.found)
              ? `found is not one of ${foundWays.join(', ')}`
              : undefined;
    if (problem) console.error(`real-code.tsv line ${label.row}: ${problem}; skipped`);
    else labels.push(label);
  });
  return labels;
}

/**
 * The rules a label expects: one, or several joined by `|` when any of them reports the bug
 * rightly (a check, then the effect, then the record). The first is the one it counts for.
 */
function rulesOf(label: Label): string[] {
  return label.expected === 'none' ? [] : label.expected.split('|');
}

function inRange(finding: Finding, label: Label): boolean {
  return finding.path === label.path && finding.line >= label.start && finding.line <= label.end;
}

function ratio(numerator: number, denominator: number): string {
  return denominator === 0 ? 'n/a' : (numerator / denominator).toFixed(2);
}

function describe(label: Label): string {
  return `${label.repository}@${label.commit.slice(0, 10)} ${label.path}:${label.start}-${label.end} [${label.expected}, ${label.found}] ${label.why}`;
}

async function main(): Promise<void> {
  // The plugin object's rules decide what counts as implemented; the named export is a fallback.
  const built = (await import(pluginEntry)) as {
    default?: { rules?: Record<string, unknown> };
    rules?: Record<string, unknown>;
  };
  const implemented = new Set(Object.keys(built.default?.rules ?? built.rules ?? {}));
  const labels = readLabels();

  // One materialised tree per repository and commit, shared by all its labels.
  const groups = new Map<string, Label[]>();
  for (const label of labels) {
    const key = `${label.repository}@${label.commit}`;
    groups.set(key, [...(groups.get(key) ?? []), label]);
  }

  const findingsByLabel = new Map<Label, Finding[]>();
  const missing: string[] = [];
  const unscored: { label: Label; reason: string }[] = [];
  for (const [key, group] of groups) {
    const { repository, commit } = group[0];
    const gitDir = gitDirOf(repository);
    if (!gitDir) {
      if (!missing.includes(repository)) missing.push(repository);
      continue;
    }
    if (!hasCommit(gitDir, commit)) {
      for (const label of group) unscored.push({ label, reason: `the snapshot at ${gitDir} lacks commit ${commit}` });
      continue;
    }
    let tree: string | undefined;
    try {
      tree = materialise(gitDir, commit, repository);
      const files = [...new Set(group.map((label) => label.path))];
      const outcome = await lintFiles(await pluginLinter(tree), tree, files);
      for (const label of group) {
        const notLinted =
          outcome.unparseable.find((entry) => entry.path === label.path) ??
          outcome.crashed.find((entry) => entry.path === label.path);
        if (notLinted) unscored.push({ label, reason: `not linted: ${notLinted.message}` });
        else if (!outcome.linted.includes(label.path))
          unscored.push({ label, reason: 'file not found at that commit' });
        else
          findingsByLabel.set(
            label,
            outcome.findings.filter((finding) => inRange(finding, label)),
          );
      }
    } catch (error) {
      for (const label of group)
        unscored.push({ label, reason: error instanceof Error ? error.message.split('\n')[0] : String(error) });
    } finally {
      if (tree) removeTree(tree);
    }
    process.stderr.write(`linted ${key.slice(0, key.indexOf('@') + 11)}\n`);
  }

  const scored = [...findingsByLabel.keys()];
  console.log(
    `real-code set: ${labels.length} labels from ${new Set(labels.map((l) => l.repository)).size} repositories; ${scored.length} scored, ${unscored.length} not scored, ${missing.length} repositories missing\n`,
  );

  const misses: string[] = [];
  const falseFindings: string[] = [];
  const table = (subset: readonly Label[], report: boolean) => {
    console.log('rule\tlabelled\tTP\tFP\tFN\tprecision\trecall');
    for (const rule of knownRules) {
      const positives = subset.filter((label) => rulesOf(label)[0] === rule);
      if (!implemented.has(rule)) {
        const negatives = subset.filter((label) => label.expected === 'none').length;
        console.log(
          `${rule}\t${positives.length}\tnot implemented (${positives.length} positive, ${subset.length - positives.length} other labels, of which ${negatives} none)`,
        );
        continue;
      }
      let truePositives = 0;
      let falsePositives = 0;
      let falseNegatives = 0;
      for (const label of subset.filter((candidate) => findingsByLabel.has(candidate))) {
        const expected = rulesOf(label);
        const findings = findingsByLabel.get(label)!;
        const hits = findings.filter((finding) => finding.ruleId === rule);
        if (expected[0] === rule) {
          hits.push(...findings.filter((finding) => finding.ruleId !== rule && expected.includes(finding.ruleId)));
          if (hits.length > 0) truePositives += 1;
          else {
            falseNegatives += 1;
            if (report) misses.push(`${rule}\tmissed\t${describe(label)}`);
          }
        } else if (hits.length > 0 && !expected.includes(rule)) {
          falsePositives += 1;
          if (report)
            falseFindings.push(
              `${rule}\tline ${hits.map((hit) => hit.line).join(',')}\t${describe(label)}\n\t\t${hits[0].message.replace(/\s+/g, ' ')}`,
            );
        }
      }
      const scoredPositives = positives.filter((label) => findingsByLabel.has(label)).length;
      console.log(
        `${rule}\t${scoredPositives}\t${truePositives}\t${falsePositives}\t${falseNegatives}\t${ratio(truePositives, truePositives + falsePositives)}\t${ratio(truePositives, truePositives + falseNegatives)}`,
      );
    }
  };
  console.log('All labels:');
  table(labels, true);
  const independent = labels.filter((label) => foundWithoutPlugin.has(label.found));
  const ways = foundWays.map((way) => `${labels.filter((label) => label.found === way).length} ${way}`).join(', ');
  console.log(
    `\nLabels found without the plugin (${[...foundWithoutPlugin].join(' or ')}): ${independent.length} of ${labels.length} (${ways}):`,
  );
  table(independent, false);

  if (misses.length > 0) console.log(`\nmisses (${misses.length}):\n${misses.join('\n')}`);
  if (falseFindings.length > 0) console.log(`\nfalse findings (${falseFindings.length}):\n${falseFindings.join('\n')}`);
  if (unscored.length > 0)
    console.log(
      `\nnot scored (${unscored.length}):\n${unscored.map(({ label, reason }) => `${describe(label)}: ${reason}`).join('\n')}`,
    );
  if (missing.length > 0) {
    console.log(
      `\nmissing snapshots (${missing.length}), looked for under ${snapshotRoot} (set EVAL_SNAPSHOTS to look elsewhere):`,
    );
    for (const repository of missing)
      console.log(
        `  ${repository}: expected ${snapshotRoot}/${repository.replace('/', '+')}/repo (a git directory); fetch "github:${repository}", or clone https://github.com/${repository} there`,
      );
  }
}

await main();
process.exitCode = 0;
