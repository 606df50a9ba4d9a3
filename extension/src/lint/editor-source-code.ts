import { VisitNodeStep } from '@eslint/plugin-kit';
import { SourceCode } from 'eslint';

import { childKeys, isNode, type EstreeNode, type VisitorKeys } from './incremental/estree.js';

/**
 * The steps of one top-level statement's subtree, kept for as long as the statement is. The
 * incremental parser hands back the very same node for a statement it did not parse again, and
 * only ever moves such a statement's positions, so the same node means the same subtree.
 */
const stepsOfStatement = new WeakMap<EstreeNode, VisitNodeStep[]>();

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
  override traverse(): VisitNodeStep[] {
    const program = this.ast as unknown as EstreeNode;
    const keys = this.visitorKeys as VisitorKeys;
    const steps: VisitNodeStep[] = [];
    program.parent = null;
    steps.push(visit(program, 1));
    forEachChild(program, keys, (child, key) => {
      child.parent = program;
      const statement = key === 'body';
      let childSteps = statement ? stepsOfStatement.get(child) : undefined;
      if (!childSteps) {
        childSteps = [];
        walk(child, keys, childSteps);
        if (statement) stepsOfStatement.set(child, childSteps);
      }
      for (const step of childSteps) steps.push(step);
    });
    steps.push(visit(program, 2));
    return steps;
  }
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
