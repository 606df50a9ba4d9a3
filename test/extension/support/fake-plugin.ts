import type { Rule } from 'eslint';

import type { IdempotencyPlugin } from '../../../extension/src/lint/lint-engine.js';
import { ruleNames } from '../../../extension/src/rules.js';

/**
 * A plugin with the real rule ids whose rules report simple, predictable things, so the
 * editor's machinery can be tested apart from the real rules' analysis.
 */
const reportIdentifier = (name: string, withSuggestion: boolean): Rule.RuleModule => ({
  meta: {
    type: 'problem',
    hasSuggestions: withSuggestion,
    docs: { url: `https://example.test/rules/${name}`, lesson: 'idempotent-consumers#q1' } as Rule.RuleMetaData['docs'],
    messages: { found: `Found {{name}}` },
    schema: [],
  },
  create(context) {
    return {
      Identifier(node) {
        if (node.name !== name) return;
        context.report({
          node,
          messageId: 'found',
          data: { name },
          suggest: withSuggestion
            ? [{ desc: `Rename ${name} to businessKey`, fix: (fixer) => fixer.replaceText(node, 'businessKey') }]
            : [],
        });
      },
    };
  },
});

/** The identifier each rule reports; a rule of the catalogue not named here reports its own camel-cased name. */
const reported: Record<string, string> = {
  'no-delivery-id-effect-key': 'deliveryKey',
  'no-amount-effect-key': 'amountKey',
  'no-check-then-insert': 'checkThenInsert',
};

const camelCased = (name: string) => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

export const fakePlugin: IdempotencyPlugin & { rules: Record<string, Rule.RuleModule> } = {
  rules: Object.fromEntries(
    ruleNames.map((name) => [
      name,
      reportIdentifier(reported[name] ?? camelCased(name), name === 'no-delivery-id-effect-key'),
    ]),
  ),
};
