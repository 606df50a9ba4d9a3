import type { TSESTree } from '@typescript-eslint/utils';

import { keyName } from '../syntax/nodes.js';
import { flip, isNothing, isZero, type Polarity } from './polarity.js';
import { exits } from './statements.js';

/**
 * What a helper answers its callers with, read from the two ways out of its check: a verdict
 * (`if (rows.length > 0) return rows[0]; return null;`), or a field that tells the answers apart
 * (`{ processed: true }` against `{ processed: false }`).
 */

/** What a `return` hands back: its argument, or nothing for a bare `return;` (undefined: not a return). */
function returnedBy(statement: TSESTree.Node | null | undefined): TSESTree.Node | null | undefined {
  if (statement?.type === 'BlockStatement') return returnedBy(statement.body[statement.body.length - 1]);
  return statement?.type === 'ReturnStatement' ? statement.argument : undefined;
}

/** Whether a returned value is truthy, when its shape says so. */
function truthy(value: TSESTree.Node | null): boolean | undefined {
  if (value === null || isNothing(value) || isZero(value)) return false;
  if (value.type === 'ObjectExpression' || value.type === 'ArrayExpression' || value.type === 'NewExpression')
    return true;
  if (value.type === 'Literal') return Boolean(value.value);
  return undefined;
}

/** `{ processed: true, … }` against `{ processed: false }`: the field whose value tells the two answers apart. */
function tellingField(
  inside: TSESTree.Node | null,
  outside: TSESTree.Node | null,
): { name: string; whenInside: boolean } | undefined {
  if (inside?.type !== 'ObjectExpression' || outside?.type !== 'ObjectExpression') return undefined;
  const flags = (object: TSESTree.ObjectExpression) =>
    new Map(
      object.properties.flatMap((property) =>
        property.type === 'Property' && property.value.type === 'Literal' && typeof property.value.value === 'boolean'
          ? [[keyName(property), property.value.value] as const]
          : [],
      ),
    );
  const outsideFlags = flags(outside);
  for (const [name, value] of flags(inside))
    if (name !== undefined && outsideFlags.get(name) === !value) return { name, whenInside: value };
  return undefined;
}

/**
 * `if (rows.length > 0) return rows[0]; return null;`, or `{ processed: true }` against
 * `{ processed: false }`: a helper that answers with its check's verdict, for its callers to
 * decide on. The polarity of what it returns (or of the field that tells), when the two answers
 * differ in a way the code shows.
 */
export function answeredBy(
  owner: TSESTree.Node,
  whenTrue: Polarity,
): { polarity: Polarity; carrier?: string } | undefined {
  if (owner.type !== 'IfStatement' || !exits(owner.consequent)) return undefined;
  const inside = returnedBy(owner.consequent);
  let outside: TSESTree.Node | null | undefined;
  if (owner.alternate) outside = returnedBy(owner.alternate);
  else if (owner.parent.type === 'BlockStatement')
    outside = returnedBy(owner.parent.body[owner.parent.body.indexOf(owner) + 1]);
  if (inside === undefined || outside === undefined) return undefined;
  const [whenInside, whenOutside] = [truthy(inside), truthy(outside)];
  if (whenInside !== undefined && whenOutside !== undefined && whenInside !== whenOutside)
    return { polarity: whenInside ? whenTrue : flip(whenTrue) };
  const field = tellingField(inside, outside);
  return field && { polarity: field.whenInside ? whenTrue : flip(whenTrue), carrier: field.name };
}
