import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

/**
 * A repair for a write that a check in app code decides: the write alone, in a `try` whose
 * `catch` takes the unique violation (`code`) as the duplicate and rethrows anything else. The
 * key the violation comes from is named in a comment, for the schema to declare. Offered only
 * where the write is a statement of its own (`await prisma.entry.create(…);`): a write whose
 * result is kept would leave its variable inside the `try`. And only where nothing follows it in
 * its block: code after it (a charge, a reply) would still run after the duplicate was caught.
 */
export function catchUniqueViolation(
  write: TSESTree.Node,
  code: string,
  key: string,
  sourceCode: Readonly<TSESLint.SourceCode>,
  typescript: boolean,
): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix) | undefined {
  const expression = write.parent?.type === 'AwaitExpression' ? write.parent : write;
  const statement = expression.parent;
  if (statement?.type !== 'ExpressionStatement' || statement.expression !== expression) return undefined;
  const inBlock = ['BlockStatement', 'Program', 'SwitchCase', 'StaticBlock'].includes(statement.parent?.type ?? '');
  const siblings =
    statement.parent?.type === 'SwitchCase'
      ? statement.parent.consequent
      : statement.parent && 'body' in statement.parent && Array.isArray(statement.parent.body)
        ? (statement.parent.body as TSESTree.Node[])
        : [];
  if (inBlock && siblings.at(-1) !== statement) return undefined;
  const line = sourceCode.lines[statement.loc.start.line - 1] ?? '';
  const base = `${/^\s*/.exec(line)?.[0] ?? ''}${inBlock ? '' : '  '}`;
  const body = sourceCode.getText(statement).split('\n').join(`\n  `);
  const error = typescript ? '(error as { code?: string })' : 'error?';
  const wrapped = [
    'try {',
    `${base}  ${body}`,
    `${base}} catch (error) {`,
    `${base}  // ${code} is the duplicate: a unique key refused the second row (add ${key}).`,
    `${base}  if (${error}.code !== '${code}') throw error;`,
    `${base}}`,
  ].join('\n');
  const outer = base.slice(2);
  return (fixer) => fixer.replaceText(statement, inBlock ? wrapped : `{\n${base}${wrapped}\n${outer}}`);
}
