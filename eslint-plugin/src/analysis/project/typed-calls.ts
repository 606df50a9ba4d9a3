import type { TSESTree } from '@typescript-eslint/utils';
import type * as ts from 'typescript';

/**
 * Call targets as the TypeScript program tells them, when the user's configuration gives the lint
 * type information (`parserOptions.projectService` or `project`): a method reached through a
 * value whose type only the checker knows (a factory's result, a generic container, a property of
 * a typed object), an overload, a re-export chain. Asked only where syntax cannot tell
 * (`calls.ts`), and answered only with a declaration that has a body in the project's own source:
 * an interface's method, a package's typings or an ambient declaration tell nothing of what runs.
 */

/** Where the function a call runs is declared: its file and the span of its declaration. */
export interface DeclarationSpan {
  filename: string;
  start: number;
  end: number;
}

let program: ts.Program | undefined;
let checker: ts.TypeChecker | undefined;

/** The program of the file being linted, or none: set as each lint begins. */
export function useProgramThisLint(next: ts.Program | null | undefined): void {
  if (next === program) return;
  program = next ?? undefined;
  checker = undefined;
}

/** The declaration of the function `call` runs in `filename`, as the checker resolves its signature. */
export function typedDeclarationOf(
  filename: string,
  call: TSESTree.CallExpression | TSESTree.NewExpression,
): DeclarationSpan | undefined {
  const source = program?.getSourceFile(filename);
  if (!program || !source) return undefined;
  const node = callAt(source, call.range[0], call.range[1]);
  if (!node) return undefined;
  try {
    checker ??= program.getTypeChecker();
    const declaration = checker.getResolvedSignature(node)?.declaration;
    if (!declaration || !('body' in declaration) || !declaration.body) return undefined;
    const target = declaration.getSourceFile();
    if (target.isDeclarationFile || program.isSourceFileFromExternalLibrary(target)) return undefined;
    return { filename: target.fileName, start: declaration.getStart(target), end: declaration.end };
  } catch {
    // A checker that fails on one call leaves that call to syntax alone.
    return undefined;
  }
}

/** The call or `new` expression of the source file that spans exactly [start, end). */
function callAt(source: ts.SourceFile, start: number, end: number): ts.CallLikeExpression | undefined {
  let current: ts.Node = source;
  for (;;) {
    if (current.end === end && current.getStart(source) === start && 'arguments' in current)
      return current as ts.CallExpression | ts.NewExpression;
    const inside = current.forEachChild((child) => (child.pos <= start && child.end >= end ? child : undefined));
    if (!inside) return undefined;
    current = inside;
  }
}
