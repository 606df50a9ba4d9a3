import type { TSESTree } from '@typescript-eslint/utils';

import type { FileContext } from '../context/file-context.js';
import { keyName, propertyName } from '../syntax/nodes.js';

/** What a CommonJS module exports, read from its assignments to `module.exports` and `exports`. */

/** A function, class or constant the module declares at its top level under `local`. */
function topLevel(module: FileContext, local: string): TSESTree.Node | undefined {
  for (const statement of module.sourceAst.body) {
    if (
      (statement.type === 'FunctionDeclaration' || statement.type === 'ClassDeclaration') &&
      statement.id?.name === local
    )
      return statement;
    if (statement.type !== 'VariableDeclaration') continue;
    for (const declarator of statement.declarations) {
      if (declarator.id.type === 'Identifier' && declarator.id.name === local && declarator.init)
        return declarator.init;
    }
  }
  return undefined;
}

function isModuleExports(node: TSESTree.Node): boolean {
  return (
    node.type === 'MemberExpression' &&
    node.object.type === 'Identifier' &&
    node.object.name === 'module' &&
    propertyName(node) === 'exports'
  );
}

/** What a CommonJS module exports under `name`: `module.exports = { name }`, `exports.name = …`, `module.exports.name = …`; `default` is `module.exports = …` itself. */
export function commonJsExport(module: FileContext, name: string): TSESTree.Node | undefined {
  const resolve = (value: TSESTree.Node) =>
    value.type === 'Identifier' ? (topLevel(module, value.name) ?? value) : value;
  for (const statement of module.sourceAst.body) {
    const assignment = statement.type === 'ExpressionStatement' ? statement.expression : undefined;
    if (assignment?.type !== 'AssignmentExpression' || assignment.operator !== '=') continue;
    const target = assignment.left;
    const value = resolve(assignment.right);
    if (isModuleExports(target)) {
      if (value.type !== 'ObjectExpression') {
        if (name === 'default') return value;
        continue;
      }
      const property = value.properties.find(
        (item): item is TSESTree.Property => item.type === 'Property' && keyName(item) === name,
      );
      if (property) return resolve(property.value);
      continue;
    }
    if (target.type !== 'MemberExpression' || propertyName(target) !== name) continue;
    if ((target.object.type === 'Identifier' && target.object.name === 'exports') || isModuleExports(target.object))
      return value;
  }
  return undefined;
}
