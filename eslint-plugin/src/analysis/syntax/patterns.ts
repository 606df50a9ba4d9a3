import type { TSESTree } from '@typescript-eslint/utils';

import { keyName } from './nodes.js';

/** A member by name, or an element by index (undefined: any element, as for a rest element). */
export type Step = { member: string } | { element: number | undefined };

/** The property path from a binding pattern's root to one identifier in it, plus its default values. */
export function pathTo(
  pattern: TSESTree.Node,
  target: TSESTree.Identifier,
): { steps: Step[]; defaults: TSESTree.Node[] } | undefined {
  if (pattern === target) return { steps: [], defaults: [] };
  switch (pattern.type) {
    case 'ObjectPattern':
      for (const property of pattern.properties) {
        if (property.type === 'RestElement') {
          const found = pathTo(property.argument, target);
          if (found) return found;
          continue;
        }
        const found = pathTo(property.value, target);
        const key = keyName(property);
        if (found && key !== undefined) return { steps: [{ member: key }, ...found.steps], defaults: found.defaults };
      }
      return undefined;
    case 'ArrayPattern':
      for (const [index, element] of pattern.elements.entries()) {
        if (!element) continue;
        const rest = element.type === 'RestElement';
        const found = pathTo(rest ? element.argument : element, target);
        if (found) return { steps: [{ element: rest ? undefined : index }, ...found.steps], defaults: found.defaults };
      }
      return undefined;
    case 'AssignmentPattern': {
      const found = pathTo(pattern.left, target);
      return found && { steps: found.steps, defaults: [pattern.right, ...found.defaults] };
    }
    case 'RestElement':
      return pathTo(pattern.argument, target);
    case 'TSParameterProperty':
      return pathTo(pattern.parameter, target);
    default:
      return undefined;
  }
}
