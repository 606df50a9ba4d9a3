import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { effectKeyOfHeaderCall, effectKeyOfProperty, effectKeysOfOperation, type EffectKey } from './effect-keys.js';
import { operationsAt } from './operations/index.js';
import { tracerFor, type OriginTracer } from './origin.js';

/**
 * The listeners that find every effect key in a file; the two key rules share them and differ
 * only in what they look for in a key.
 */
export function effectKeyListeners(
  context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>,
  check: (key: EffectKey, tracer: OriginTracer) => void,
): TSESLint.RuleListener {
  const tracer = tracerFor(context);
  const seen = new Set<TSESTree.Node>();
  const visit = (key: EffectKey | undefined) => {
    if (!key || seen.has(key.node)) return;
    seen.add(key.node);
    check(key, tracer);
  };
  const visitOperations = (node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression) => {
    for (const operation of operationsAt(node, tracer)) for (const key of effectKeysOfOperation(operation, tracer)) visit(key);
  };
  return {
    CallExpression(node) {
      visitOperations(node);
      visit(effectKeyOfHeaderCall(node));
    },
    TaggedTemplateExpression: visitOperations,
    Property(node) {
      visit(effectKeyOfProperty(node));
    },
    AssignmentExpression(node) {
      visit(effectKeyOfHeaderCall(node));
    },
  };
}
