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

/**
 * Is there a node at or below `root` (depth first, at most `budget` nodes) that `test` finds?
 * `test` answers true when it finds one, `skip` to leave a node's children unvisited (a nested
 * function, a timer's callback), and false to go on.
 */
export function someNode(
  root: TSESTree.Node,
  visitorKeys: TSESLint.SourceCode.VisitorKeys,
  test: (node: TSESTree.Node) => boolean | 'skip',
  budget = 20_000,
): boolean {
  let found = false;
  walk(
    root,
    visitorKeys,
    (node) => {
      if (found) return false;
      const answer = test(node);
      if (answer === 'skip') return false;
      found = answer;
      return !found;
    },
    budget,
  );
  return found;
}

/** The calls under one top-level statement, in source order, and how many nodes were read to find them. */
interface StatementCalls {
  calls: TSESTree.CallExpression[];
  nodes: number;
}

/**
 * The statements read whole, with their calls, for as long as each node lives: a node stands for
 * the same subtree all its life. The editor's engine hands back the very node of a statement an
 * edit did not touch, so a lint as you type reads only the statements that changed.
 */
const statementCalls = new WeakMap<TSESTree.Node, StatementCalls>();

/** The calls of a program, in source order, found by `walk` from the program with `budget`. */
export function callsOf(
  program: TSESTree.Program,
  visitorKeys: TSESLint.SourceCode.VisitorKeys,
  budget: number,
): TSESTree.CallExpression[] {
  const calls: TSESTree.CallExpression[] = [];
  // The program's own node counts as one read; its statements follow, one after the other.
  let remaining = budget - 1;
  for (const statement of program.body) {
    if (remaining <= 0) break;
    let found = statementCalls.get(statement);
    if (!found || found.nodes > remaining) {
      const reading: StatementCalls = { calls: [], nodes: 0 };
      walk(
        statement,
        visitorKeys,
        (node) => {
          reading.nodes += 1;
          if (node.type === 'CallExpression') reading.calls.push(node);
        },
        remaining,
      );
      // Kept only if read to its end, before the budget ran out.
      if (reading.nodes < remaining) statementCalls.set(statement, reading);
      found = reading;
    }
    remaining -= found.nodes;
    for (const call of found.calls) calls.push(call);
  }
  return calls;
}
