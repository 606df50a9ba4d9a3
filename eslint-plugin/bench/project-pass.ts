/**
 * One run of ESLint over a project, as `eslint` on the command line would make it, in a process
 * of its own so that nothing the analysis learnt in an earlier run is kept: ESLint's recommended
 * rules and the plugin's recommended config, with the plugin's rules on or off. Prints the CPU
 * time the run took and what it found, as JSON.
 *
 *   node --import tsx bench/project-pass.ts <project root> <file list> with|without
 */
import { readFileSync } from 'node:fs';

import js from '@eslint/js';
import { ESLint, type Linter } from 'eslint';

import builtPlugin from '../dist/index.js';
import { lintFiles } from '../eval/snapshots.js';

const [root, list, mode] = process.argv.slice(2);
if (!root || !list || (mode !== 'with' && mode !== 'without'))
  throw new Error('usage: project-pass.ts <project root> <file list> with|without');
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
    ...(builtPlugin.configs.recommended as Linter.Config[]),
    { linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' } },
    ...(mode === 'without' ? [{ rules: rulesOff }] : []),
  ],
  ignore: false,
  errorOnUnmatchedPattern: false,
  cache: false,
});
const outcome = await lintFiles(eslint, root, files);
const spent = process.cpuUsage(started);
console.log(
  JSON.stringify({
    cpuMs: (spent.user + spent.system) / 1000,
    linted: outcome.linted.length,
    findings: outcome.findings.length,
    crashed: outcome.crashed.length,
  }),
);
