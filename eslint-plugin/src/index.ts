import { createRequire } from 'node:module';

import type { TSESLint } from '@typescript-eslint/utils';

import { noAmountEffectKey } from './rules/no-amount-effect-key.js';
import { noCheckThenInsert } from './rules/no-check-then-insert.js';
import { noDeliveryIdEffectKey } from './rules/no-delivery-id-effect-key.js';

export { lessonLinks, lessonTarget, type LessonLink, type RuleName } from './lesson-links.js';
export { ruleDocsUrl } from './create-rule.js';
export { whenSqlParserReady } from './analysis/sql/parser.js';

const pluginName = 'idempotency';
const version = '0.1.0';

export const rules = {
  [noDeliveryIdEffectKey.name]: noDeliveryIdEffectKey,
  [noAmountEffectKey.name]: noAmountEffectKey,
  [noCheckThenInsert.name]: noCheckThenInsert,
};

const sourceFiles = ['**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}'];
const typeScriptFiles = ['**/*.{ts,mts,cts,tsx}'];

/**
 * typescript-eslint's parser, when the project has it. Loaded synchronously so that the plugin
 * has no top-level await and stays loadable from CommonJS config files.
 */
function optionalTypeScriptParser(): TSESLint.FlatConfig.Parser | undefined {
  try {
    return createRequire(import.meta.url)('@typescript-eslint/parser') as TSESLint.FlatConfig.Parser;
  } catch {
    return undefined;
  }
}

const plugin = {
  meta: { name: `eslint-plugin-${pluginName}`, version, namespace: pluginName },
  rules,
  configs: {} as { recommended: TSESLint.FlatConfig.ConfigArray },
};

const typeScriptParser = optionalTypeScriptParser();

plugin.configs.recommended = [
  {
    name: `${pluginName}/recommended`,
    files: sourceFiles,
    plugins: { [pluginName]: plugin as unknown as TSESLint.FlatConfig.Plugin },
    rules: Object.fromEntries(Object.keys(rules).map((name) => [`${pluginName}/${name}`, 'error'])),
  },
  ...(typeScriptParser
    ? [{ name: `${pluginName}/typescript`, files: typeScriptFiles, languageOptions: { parser: typeScriptParser } }]
    : []),
];

export default plugin;

// `require('eslint-plugin-idempotency')` from a CommonJS config gets the plugin object itself.
export { plugin as 'module.exports' };
