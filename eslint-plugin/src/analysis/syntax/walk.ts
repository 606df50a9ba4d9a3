import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

/**
 * Visits `root` and the nodes below it, depth first, at most `budget` nodes. `visit` returns
 * false to skip a node's children (a nested function, say).
 */
export function walk(
  root: TSESTree.Node,
  visitorKeys: TSESLint.SourceCode.VisitorKeys,
  visit: (node: TSESTree.Node) => boolean | void,
  budget = 20_000,
): void {
  const stack: TSESTree.Node[] = [root];
  let remaining = budget;
  while (stack.length > 0 && remaining-- > 0) {
    const node = stack.pop()!;
    if (visit(node) === false) continue;
    const keys = visitorKeys[node.type] ?? [];
    for (let index = keys.length - 1; index >= 0; index -= 1) {
      const child = (node as unknown as Record<string, unknown>)[keys[index]];
      if (Array.isArray(child)) {
        for (let item = child.length - 1; item >= 0; item -= 1) {
          const value: unknown = child[item];
          if (value && typeof value === 'object' && 'type' in value) stack.push(value as TSESTree.Node);
        }
      } else if (child && typeof child === 'object' && 'type' in child) {
        stack.push(child as TSESTree.Node);
      }
    }
  }
}
