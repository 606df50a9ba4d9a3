import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { effectKeyOfHeaderCall, effectKeyOfProperty, effectKeysOfOperation } from '../analysis/keys/effect-keys.js';
import { analysisFor, type TracedKey } from './file-analysis.js';
import { effectKeyOfKeyPath } from '../analysis/keys/key-paths.js';

/**
 * The listeners that find every effect key in a file; the two key rules share them (and, through
 * the file's analysis, their results) and differ only in what they look for in a key.
 */
export function effectKeyListeners(
  context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>,
  check: (key: TracedKey) => void,
): TSESLint.RuleListener {
  const analysis = analysisFor(context);
  const seen = new Set<TSESTree.Node>();
  const visit = (keys: readonly TracedKey[]) => {
    for (const key of keys) {
      if (seen.has(key.node)) continue;
      seen.add(key.node);
      check(key);
    }
  };
  const operationKeys = (node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression) =>
    analysis.operationsAt(node).flatMap((operation) => effectKeysOfOperation(operation, analysis.tracer, analysis.file));
  return {
    CallExpression(node) {
      // Most calls are neither database writes nor header setters: nothing is stored for them.
      const header = effectKeyOfHeaderCall(node);
      if (header || analysis.operationsAt(node).length > 0) visit(analysis.keysAt(node, () => [...operationKeys(node), header]));
    },
    TaggedTemplateExpression(node) {
      if (analysis.operationsAt(node).length > 0) visit(analysis.keysAt(node, () => operationKeys(node)));
    },
    // Most properties and assignments are not keys: they are turned away before anything is stored.
    Property(node) {
      const key = effectKeyOfProperty(node, analysis.file.libraries) ?? effectKeyOfKeyPath(node, analysis.file);
      if (key) visit(analysis.keysAt(node, () => [key]));
    },
    AssignmentExpression(node) {
      const key = effectKeyOfHeaderCall(node);
      if (key) visit(analysis.keysAt(node, () => [key]));
    },
  };
}
