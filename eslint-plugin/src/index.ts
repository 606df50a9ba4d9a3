import type { TSESLint } from '@typescript-eslint/utils';

import { catalogue, ruleNames, type RuleName } from './catalogue.js';
import { noAmountEffectKey } from './rules/no-amount-effect-key.js';
import { noCheckThenInsert } from './rules/no-check-then-insert/index.js';
import { noClaimAfterEffect } from './rules/no-claim-after-effect.js';
import { noClaimWithoutUniqueKey } from './rules/no-claim-without-unique-key.js';
import { noDeliveryIdEffectKey } from './rules/no-delivery-id-effect-key.js';
import { noInMemoryDedupe } from './rules/no-in-memory-dedupe/index.js';
import { requireRepeatSafeEffect } from './rules/require-repeat-safe-effect/index.js';
import { lazyTypeScriptParser } from './analysis/project/typescript-parser.js';
import { oneOffFolders } from './analysis/naming/stakes.js';

export {
  catalogue,
  lessonLinks,
  lessonTarget,
  ruleNames,
  type CatalogueEntry,
  type LessonLink,
  type RuleName,
} from './catalogue.js';
export { ruleDocsUrl } from './create-rule.js';
export { whenSqlParserReady } from './analysis/sql/parser.js';
export { useModuleParser } from './analysis/project/typescript-parser.js';
export { openDocumentsSetting, SettingsError, settingsSchema } from './settings.js';
export {
  entryPointMap,
  type MappedEntryPoint,
  type MappedPlace,
  type MappedRepeats,
} from './rules/require-repeat-safe-effect/entry-point-map.js';
export type { EntryKind } from './analysis/contract/adapter.js';
export { projectReading, type ProjectReading } from './analysis/project/files.js';

const pluginName = 'idempotency';
const version = '0.1.0';

/** Each rule of the catalogue, by name: a rule missing here, or one not in the catalogue, does not compile. */
export const rules = {
  'no-delivery-id-effect-key': noDeliveryIdEffectKey,
  'no-amount-effect-key': noAmountEffectKey,
  'no-check-then-insert': noCheckThenInsert,
  'no-claim-after-effect': noClaimAfterEffect,
  'no-in-memory-dedupe': noInMemoryDedupe,
  'no-claim-without-unique-key': noClaimWithoutUniqueKey,
  'require-repeat-safe-effect': requireRepeatSafeEffect,
} satisfies { [Name in RuleName]: { name: Name } };

const sourceFiles = ['**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}'];
/**
 * Code that never runs as competing workers on live deliveries: tests, fixtures, mocks, seeds and
 * one-off migration scripts (the folders the analysis knows as run once by hand: `migrations/`,
 * `alterations/`, `scripts/`). The rules stay off there in the recommended config.
 */
const notServiceCode = [
  '**/*.{test,spec}.*',
  '**/{__tests__,__mocks__,__fixtures__,test,tests,e2e,playwright,cypress,mocks}/**',
  // A test harness of its own: `simulation-test/`, `integration-tests/`, `test-utils/`.
  '**/{*-test,*-tests,test-*}/**',
  '**/mock-*/**',
  `**/{${[...oneOffFolders].join(',')}}/**`,
  '**/{seed,seeds}.*',
  '**/*.seed.*',
];
const typeScriptFiles = ['**/*.{ts,mts,cts,tsx}'];

const plugin = {
  meta: { name: `eslint-plugin-${pluginName}`, version, namespace: pluginName },
  rules,
  configs: {} as { recommended: TSESLint.FlatConfig.ConfigArray; strict: TSESLint.FlatConfig.ConfigArray },
};

const typeScriptParser = lazyTypeScriptParser();

/** A flat config turning on `names`, each as the catalogue says, for the project's service code. */
function configOf(configName: 'recommended' | 'strict', names: readonly RuleName[]): TSESLint.FlatConfig.ConfigArray {
  return [
    {
      name: `${pluginName}/${configName}`,
      files: sourceFiles,
      ignores: notServiceCode,
      plugins: { [pluginName]: plugin as unknown as TSESLint.FlatConfig.Plugin },
      rules: Object.fromEntries(names.map((name) => [`${pluginName}/${name}`, catalogue[name].severity])),
    },
    // espree reads JSX only when asked; a .jsx file is JSX by its name.
    {
      name: `${pluginName}/jsx`,
      files: ['**/*.jsx'],
      languageOptions: { parserOptions: { ecmaFeatures: { jsx: true } } },
    },
    ...(typeScriptParser
      ? [{ name: `${pluginName}/typescript`, files: typeScriptFiles, languageOptions: { parser: typeScriptParser } }]
      : []),
  ];
}

plugin.configs.recommended = configOf(
  'recommended',
  ruleNames.filter((name) => catalogue[name].config === 'recommended'),
);
// Every rule, with those whose precision on real code is not yet shown.
plugin.configs.strict = configOf('strict', ruleNames);

export default plugin;

// `require('eslint-plugin-idempotency')` from a CommonJS config gets the plugin object itself.
export { plugin as 'module.exports' };
