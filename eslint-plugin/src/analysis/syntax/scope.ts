import { findVariable } from '@eslint-community/eslint-utils';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

/** Small questions about bindings, answered with ESLint's scope manager. */

export function variableOf(
  identifier: TSESTree.Identifier,
  scope: TSESLint.Scope.Scope,
): TSESLint.Scope.Variable | null {
  // eslint-utils walks up from the given scope to the scope that declares the name.
  return findVariable(scope as never, identifier) as unknown as TSESLint.Scope.Variable | null;
}

/** The initializer of a binding that is assigned once, where it is declared (`const x = …`). */
export function constantInitializer(
  identifier: TSESTree.Identifier,
  scope: TSESLint.Scope.Scope,
): TSESTree.Expression | undefined {
  const variable = variableOf(identifier, scope);
  if (!variable || variable.defs.length !== 1) return undefined;
  const [definition] = variable.defs;
  if (definition?.type !== 'Variable' || definition.node.id.type !== 'Identifier' || !definition.node.init)
    return undefined;
  const writes = variable.references.filter((reference) => reference.isWrite());
  if (writes.length > 1) return undefined;
  return definition.node.init;
}

/** The identifiers, other than `identifier` itself, that refer to the binding it names: where it is read or written. */
export function usesOfBinding(identifier: TSESTree.Identifier, scope: TSESLint.Scope.Scope): TSESTree.Identifier[] {
  return (variableOf(identifier, scope)?.references ?? []).flatMap((reference) =>
    reference.identifier === identifier ? [] : [reference.identifier as TSESTree.Identifier],
  );
}
