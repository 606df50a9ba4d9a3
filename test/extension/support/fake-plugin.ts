import type { Rule } from 'eslint';

import type { IdempotencyPlugin } from '../../../extension/src/lint/lint-engine';

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
          suggest: withSuggestion ? [{ desc: `Rename ${name} to businessKey`, fix: (fixer) => fixer.replaceText(node, 'businessKey') }] : [],
        });
      },
    };
  },
});

export const fakePlugin: IdempotencyPlugin & { rules: Record<string, Rule.RuleModule> } = {
  rules: {
    'no-delivery-id-effect-key': reportIdentifier('deliveryKey', true),
    'no-amount-effect-key': reportIdentifier('amountKey', false),
    'no-check-then-insert': reportIdentifier('checkThenInsert', false),
    'no-in-memory-dedupe': reportIdentifier('memoryKey', false),
  },
};
