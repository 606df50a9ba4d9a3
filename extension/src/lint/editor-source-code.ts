import { VisitNodeStep } from '@eslint/plugin-kit';
import { SourceCode } from 'eslint';

import { childKeys, isNode, type EstreeNode, type VisitorKeys } from './incremental/estree.js';

/** The steps of a subtree: all of them, and those of the node types last asked for. */
interface SubtreeSteps {
  all: VisitNodeStep[];
  listened?: { types: string; steps: VisitNodeStep[] };
}

/**
 * The steps of one top-level statement's subtree, kept for as long as the statement is. The
 * incremental parser hands back the very same node for a statement it did not parse again, and
 * only ever moves such a statement's positions, so the same node means the same subtree.
 */
const stepsOfStatement = new WeakMap<EstreeNode, SubtreeSteps>();

/** The node types a source code's traversal visits (see `visitingOnly`); ESLint freezes a `SourceCode` as it is made. */
const visitedTypes = new WeakMap<EditorSourceCode, () => ReadonlySet<string> | undefined>();

/**
 * ESLint's `SourceCode`, with a traversal made for linting as you type.
 *
 * ESLint's own traversal also runs code-path analysis, which is there for rules that listen to
 * code-path events and costs about a fifth of a lint's time (a quarter of what it allocates) on
 * the benchmark's 2,000-line consumer. The plugin's rules listen to none (a test guards that),
 * so this traversal visits the nodes only. And it walks again only the statements that were
 * parsed again: a statement the incremental parser kept keeps its steps from the last lint.
 */
export class EditorSourceCode extends SourceCode {
  /**
   * Visits only the nodes of the types `listened` names, asked when ESLint runs the steps (it
   * creates the rules first); undefined, every node. ESLint matches every node it visits against
   * the selectors, while the rules listen to a few types of node: of the benchmark consumer's
   * 26,000 steps, one in four. Only selectors that ask about the node itself, none of its
   * ancestors or siblings, may be answered so.
   */
  visitingOnly(listened: () => ReadonlySet<string> | undefined): this {
    visitedTypes.set(this, listened);
    return this;
  }

  override traverse(): Iterable<VisitNodeStep> {
    const program = this.ast as unknown as EstreeNode;
    const keys = this.visitorKeys as VisitorKeys;
    const subtrees: SubtreeSteps[] = [];
    program.parent = null;
    forEachChild(program, keys, (child, key) => {
      child.parent = program;
      const statement = key === 'body';
      let steps = statement ? stepsOfStatement.get(child) : undefined;
      if (!steps) {
        steps = { all: [] };
        walk(child, keys, steps.all);
        if (statement) stepsOfStatement.set(child, steps);
      }
      subtrees.push(steps);
    });
    const listened = visitedTypes.get(this);
    if (!listened) return stepsOf(program, subtrees, undefined);
    return { [Symbol.iterator]: () => stepsOf(program, subtrees, listened())[Symbol.iterator]() };
  }
}

/** The program's steps, of every node or of the nodes of `types`, in ESLint's order. */
function stepsOf(
  program: EstreeNode,
  subtrees: readonly SubtreeSteps[],
  types: ReadonlySet<string> | undefined,
): VisitNodeStep[] {
  const visits = (node: EstreeNode) => !types || types.has(node.type);
  const named = types && [...types].sort().join();
  const steps: VisitNodeStep[] = [];
  if (visits(program)) steps.push(visit(program, 1));
  for (const subtree of subtrees) {
    let some = subtree.all;
    if (named !== undefined) {
      if (subtree.listened?.types !== named)
        subtree.listened = { types: named, steps: some.filter((step) => visits(step.target as EstreeNode)) };
      some = subtree.listened.steps;
    }
    for (const step of some) steps.push(step);
  }
  if (visits(program)) steps.push(visit(program, 2));
  return steps;
}

/** Enters `node`, walks its children (setting their `parent`, as ESLint's traversal does) and leaves it. */
function walk(node: EstreeNode, keys: VisitorKeys, steps: VisitNodeStep[]): void {
  steps.push(visit(node, 1));
  forEachChild(node, keys, (child) => {
    child.parent = node;
    walk(child, keys, steps);
  });
  steps.push(visit(node, 2));
}

/** Calls `each` on the child nodes of `node`, in the order of its visitor keys. */
function forEachChild(node: EstreeNode, keys: VisitorKeys, each: (child: EstreeNode, key: string) => void): void {
  for (const key of childKeys(node, keys)) {
    const value = node[key];
    if (!Array.isArray(value)) {
      if (isNode(value)) each(value, key);
      continue;
    }
    for (const item of value) if (isNode(item)) each(item, key);
  }
}

function visit(node: EstreeNode, phase: 1 | 2): VisitNodeStep {
  return new VisitNodeStep({ target: node, phase, args: [node] });
}
