import type { TSESTree } from '@typescript-eslint/utils';

import { typeNameOf, type FileContext, type FunctionNode } from '../../analysis/context/file-context.js';
import { moduleContext, resolveImport } from '../../analysis/project/modules.js';
import { keyName, propertyName } from '../../analysis/syntax/nodes.js';

/**
 * `this.billing.addUsage(…)`, where `billing` is a field or a constructor parameter declared with
 * a class type (`private readonly billing: BillingService`, as dependency injection writes it):
 * the method of that class, in this module or the project module the class is imported from.
 */
export function injectedMethod(
  callee: TSESTree.Node,
  module: FileContext,
): { fn: FunctionNode; module: FileContext } | undefined {
  if (
    callee.type !== 'MemberExpression' ||
    callee.object.type !== 'MemberExpression' ||
    callee.object.object.type !== 'ThisExpression'
  )
    return undefined;
  const field = propertyName(callee.object);
  const method = propertyName(callee);
  let body: TSESTree.Node | undefined = callee.parent;
  while (body && body.type !== 'ClassBody') body = body.parent;
  if (!field || !method || body?.type !== 'ClassBody') return undefined;
  let typeName: string | undefined;
  for (const member of body.body) {
    if (member.type === 'PropertyDefinition' && keyName(member) === field) typeName = typeNameOf(member);
    if (member.type === 'MethodDefinition' && member.kind === 'constructor') {
      for (const param of member.value.params) {
        if (
          param.type === 'TSParameterProperty' &&
          param.parameter.type === 'Identifier' &&
          param.parameter.name === field
        )
          typeName = typeNameOf(param.parameter);
      }
    }
  }
  if (!typeName) return undefined;
  const source = module.imports.bindings.get(typeName);
  const exported = source === undefined ? typeName : module.imports.names.get(typeName);
  const resolved = source === undefined ? undefined : resolveImport(module.filename, source);
  const target = source === undefined ? module : resolved ? moduleContext(resolved, module.libraries) : undefined;
  if (!target || !exported || exported === '*' || exported === 'default') return undefined;
  const fn = classMethod(target, exported, method);
  return fn ? { fn, module: target } : undefined;
}

function classMethod(module: FileContext, className: string, method: string): FunctionNode | undefined {
  for (const statement of module.sourceAst.body) {
    const declaration =
      statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration'
        ? statement.declaration
        : statement;
    if (declaration?.type !== 'ClassDeclaration' || declaration.id?.name !== className) continue;
    for (const member of declaration.body.body) {
      if (
        member.type === 'MethodDefinition' &&
        member.value.type === 'FunctionExpression' &&
        member.value.body &&
        keyName(member) === method
      )
        return member.value;
    }
  }
  return undefined;
}
