import type { TSESTree } from '@typescript-eslint/utils';

import type { FileContext } from '../../analysis/context/file-context.js';
import { moduleOfBinding } from '../../analysis/project/modules.js';
import { withoutTypeAssertions } from '../../analysis/syntax/nodes.js';
import { variableOf } from '../../analysis/syntax/scope.js';

/**
 * A key that can only be one of a few names the code declares: a parameter typed with an enum
 * (`queueName: QueueName`) or a union of literals (`'orders' | 'refunds'`), in this module or one
 * of the project's it imports. Memory of which of them was done (a clean-up per queue at start-up)
 * is kept per process by design; it holds nothing a delivery brought.
 */
export function keyOfClosedSet(key: TSESTree.Node, file: FileContext): boolean {
  const node = withoutTypeAssertions(key);
  if (node.type !== 'Identifier') return false;
  const definition = variableOf(node, file.scopeOf(node))?.defs[0];
  if (definition?.type !== 'Parameter' || definition.name.type !== 'Identifier') return false;
  return closedType(definition.name.typeAnnotation?.typeAnnotation, file, 0);
}

function closedType(type: TSESTree.TypeNode | undefined, file: FileContext, depth: number): boolean {
  if (type?.type === 'TSUnionType') return type.types.every((member) => member.type === 'TSLiteralType');
  if (type?.type !== 'TSTypeReference' || type.typeName.type !== 'Identifier' || depth > 1) return false;
  const local = type.typeName.name;
  const imported = file.imports.bindings.has(local);
  const module = imported ? moduleOfBinding(file, local) : file;
  const name = imported ? file.imports.names.get(local) : local;
  if (!module || !name || name === 'default' || name === '*') return false;
  for (const statement of module.sourceAst.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (declaration?.type === 'TSEnumDeclaration' && declaration.id.name === name) return true;
    if (declaration?.type === 'TSTypeAliasDeclaration' && declaration.id.name === name)
      return closedType(declaration.typeAnnotation, module, depth + 1);
  }
  return false;
}
