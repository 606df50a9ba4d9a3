import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { callTaking, enclosingLiteral, keyName } from '../analysis/syntax/nodes.js';
import { effectKeysOfOperation, type EffectKey, type UniqueColumn } from '../analysis/keys/effect-keys.js';
import { effectKeyOfBinding, effectKeyOfHeaderCall, effectKeyOfProperty } from '../analysis/keys/named-keys.js';
import { analysisFor, type FileAnalysis, type TracedKey } from './file-analysis.js';
import { effectKeyOfKeyPath } from '../analysis/keys/key-paths.js';
import { onlySends } from '../analysis/work/work.js';

/**
 * Is the property a field a database write stores (`data: { idempotencyKey }` of an insert or an
 * update)? Then it is a column of our own, judged with the write's keys, not an option handed to
 * another system: storing a key minted once on its row is how a key is kept for every retry.
 */
function storedByWrite(property: TSESTree.Property, analysis: FileAnalysis): boolean {
  let underData = false;
  const current = enclosingLiteral(property, (part) => {
    if (part.type === 'Property' && dataKeys.has(keyName(part) ?? '')) underData = true;
  });
  const call = callTaking(current);
  if (!call) return false;
  // An update names the values it stores (`data: { … }`, `$set`), or takes them as its only argument.
  const updated = underData || call.arguments.length === 1;
  return analysis
    .operationsAt(call)
    .some((operation) =>
      operation.kind === 'update'
        ? updated
        : (operation.kind === 'insert' || operation.kind === 'upsert') &&
          operation.fields.some((field) => field.values.includes(property.value)),
    );
}

const dataKeys = new Set(['data', 'set', '$set', 'values', 'changes']);

/** `publishWorkflowEvent({ …, idempotencyKey })`: handed to a project function that only sends it on, made at the source. */
function handedToSender(property: TSESTree.Property, analysis: FileAnalysis): boolean {
  const call = callTaking(enclosingLiteral(property));
  return call !== undefined && onlySends(call, analysis.file);
}

/** The key rules linting a file, and their checks in the order the rules were created. */
const keyRules = new WeakMap<FileAnalysis, { rules: Set<string>; checks: ((key: TracedKey) => void)[] }>();

/**
 * The listeners that find every effect key in a file; the two key rules share them and differ
 * only in what they look for in a key. Every rule is created before ESLint walks the file, so
 * the first key rule gets the listeners, which hand each key to every key rule's `check` as it
 * is found, and the other gets none: the file's keys are looked for once, not once per rule.
 */
export function effectKeyListeners(
  context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>,
  check: (key: TracedKey) => void,
): TSESLint.RuleListener {
  const analysis = analysisFor(context);
  const registered = keyRules.get(analysis);
  // A rule met again is another lint of the same source code: its keys are looked for anew.
  if (registered && !registered.rules.has(context.id)) {
    registered.rules.add(context.id);
    registered.checks.push(check);
    return {};
  }
  const checks = [check];
  keyRules.set(analysis, { rules: new Set([context.id]), checks });
  const seen = new Set<TSESTree.Node>();
  const visit = (keys: readonly TracedKey[]) => {
    for (const key of keys) {
      if (seen.has(key.node)) continue;
      seen.add(key.node);
      for (const each of checks) each(key);
    }
  };
  const unique: UniqueColumn = (target, column) => analysis.schema().keyWithin(target, [column]) !== undefined;
  const operationKeys = (node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression) => {
    const keys: (EffectKey | undefined)[] = [];
    for (const operation of analysis.operationsAt(node))
      for (const key of effectKeysOfOperation(operation, analysis.tracer, analysis.file, unique)) keys.push(key);
    return keys;
  };
  return {
    CallExpression(node) {
      // Most calls are neither database writes nor header setters: nothing is stored for them.
      const header = effectKeyOfHeaderCall(node, analysis.file.scopeOf);
      if (header || analysis.operationsAt(node).length > 0)
        visit(
          analysis.keysAt(node, () => {
            const keys = operationKeys(node);
            keys.push(header);
            return keys;
          }),
        );
    },
    TaggedTemplateExpression(node) {
      if (analysis.operationsAt(node).length > 0) visit(analysis.keysAt(node, () => operationKeys(node)));
    },
    // Most properties and assignments are not keys: they are turned away before anything is stored.
    Property(node) {
      const key = effectKeyOfProperty(node, analysis.file.libraries) ?? effectKeyOfKeyPath(node, analysis.file);
      if (key && !(key.external && (storedByWrite(node, analysis) || handedToSender(node, analysis))))
        visit(analysis.keysAt(node, () => [key]));
    },
    VariableDeclarator(node) {
      const key = effectKeyOfBinding(node);
      if (key) visit(analysis.keysAt(node, () => [key]));
    },
    AssignmentExpression(node) {
      const key = effectKeyOfHeaderCall(node, analysis.file.scopeOf) ?? effectKeyOfBinding(node);
      if (key) visit(analysis.keysAt(node, () => [key]));
    },
  };
}
