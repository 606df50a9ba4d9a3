import type { TSESTree } from '@typescript-eslint/utils';

import { keyName, propertyName, unwrapExpression, variableOf, type AdapterFile } from '../../analysis/index.js';

/**
 * The type a value is declared with, by name: `store: Redis` for a variable or parameter,
 * `private readonly inbox: Collection<Seen>` for `this.inbox` (a class field or a constructor
 * parameter property). Adapters take it as evidence when that name is imported from their module.
 */

function typeName(annotation: TSESTree.TSTypeAnnotation | undefined): string | undefined {
  const type = annotation?.typeAnnotation;
  if (type?.type !== 'TSTypeReference') return undefined;
  let name: TSESTree.EntityName = type.typeName;
  while (name.type === 'TSQualifiedName') name = name.left;
  return name.type === 'Identifier' ? name.name : undefined;
}

function classMemberType(member: TSESTree.MemberExpression): string | undefined {
  const name = propertyName(member);
  let owner: TSESTree.Node | undefined = member.parent;
  while (owner && owner.type !== 'ClassBody') owner = owner.parent;
  if (!owner || owner.type !== 'ClassBody' || !name) return undefined;
  for (const element of owner.body) {
    if (element.type === 'PropertyDefinition' && keyName(element) === name) return typeName(element.typeAnnotation);
    if (element.type !== 'MethodDefinition' || element.kind !== 'constructor') continue;
    for (const param of element.value.params) {
      if (
        param.type === 'TSParameterProperty' &&
        param.parameter.type === 'Identifier' &&
        param.parameter.name === name
      )
        return typeName(param.parameter.typeAnnotation);
    }
  }
  return undefined;
}

export function declaredTypeName(node: TSESTree.Node, file: AdapterFile): string | undefined {
  const value = unwrapExpression(node);
  if (value.type === 'Identifier') {
    const declared = variableOf(value, file.scopeOf(value))?.defs[0]?.name;
    return declared?.type === 'Identifier' ? typeName(declared.typeAnnotation) : undefined;
  }
  if (value.type === 'MemberExpression' && value.object.type === 'ThisExpression') return classMemberType(value);
  return undefined;
}

/** Is the value declared with a type that `modules` export (`inbox: Collection` with Collection from 'mongodb')? */
export function declaredFrom(node: TSESTree.Node, file: AdapterFile, modules: RegExp, names?: RegExp): boolean {
  const name = declaredTypeName(node, file);
  if (name === undefined || (names && !names.test(name))) return false;
  const source = file.imports.bindings.get(name);
  return source !== undefined && modules.test(source);
}
