/**
 * One run of ESLint over a project, as `eslint` on the command line would make it, in a process
 * of its own so that nothing the analysis learnt in an earlier run is kept: ESLint's recommended
 * rules and the plugin's recommended config, with the plugin's rules on or off. Prints the CPU
 * time the run took and what it found, as JSON. `typed` lints as a project with type information
 * does: typescript-eslint's type-checked recommendations with the project service, the plugin's
 * rules on, and ESLint's own times (`stats`) printed with the rest.
 *
 *   node --import tsx bench/project-pass.ts <project root> <file list> with|without|typed
 */
import { readFileSync } from 'node:fs';

import js from '@eslint/js';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';

import builtPlugin from '../dist/index.js';
import { lintFiles } from '../eval/snapshots.js';

const [root, list, mode] = process.argv.slice(2);
if (!root || !list || (mode !== 'with' && mode !== 'without' && mode !== 'typed'))
  throw new Error('usage: project-pass.ts <project root> <file list> with|without|typed');
const typed = mode === 'typed';
const files = readFileSync(list, 'utf8').split('\n').filter(Boolean);
const started = process.cpuUsage();
const rulesOff = Object.fromEntries(
  Object.keys(builtPlugin.rules).map((name) => [`idempotency/${name}`, 'off' as const]),
);
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: true,
  overrideConfig: [
    js.configs.recommended,
    ...(typed ? (tseslint.configs.recommendedTypeChecked as Linter.Config[]) : []),
    ...(builtPlugin.configs.recommended as Linter.Config[]),
    ...(typed ? [{ languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } } }] : []),
    { linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' } },
    ...(mode === 'without' ? [{ rules: rulesOff }] : []),
  ],
  ignore: false,
  errorOnUnmatchedPattern: false,
  cache: false,
  stats: typed,
});
const outcome = await lintFiles(eslint, root, files);
const spent = process.cpuUsage(started);
console.log(
  JSON.stringify({
    cpuMs: (spent.user + spent.system) / 1000,
    linted: outcome.linted.length,
    findings: outcome.findings.length,
    crashed: outcome.crashed.length,
    unparseable: outcome.unparseable.length,
    times: outcome.times,
  }),
);
