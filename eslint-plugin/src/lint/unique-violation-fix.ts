import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import type { UniqueViolationCheck } from '../analysis/contract/schema.js';

type Fix = (fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[];

/** How messages and the repair's comment name the violation: "P2002", "QueryFailedError 23505 or ER_DUP_ENTRY". */
export function violationLabel(violation: UniqueViolationCheck): string {
  const codes = violation.codes.join(' or ');
  return violation.errorClass ? `${violation.errorClass.name} ${codes}` : codes;
}

/**
 * A repair for a write that a check in app code decides: the write alone, in a `try` whose
 * `catch` takes the unique violation as the duplicate and rethrows anything else. The key the
 * violation comes from is named in a comment, for the schema to declare. Offered only where the
 * write is a statement of its own (`await prisma.entry.create(…);`): a write whose result is kept
 * would leave its variable inside the `try`. And only where nothing follows it in its block: code
 * after it (a charge, a reply) would still run after the duplicate was caught. Where the library
 * throws the violation as a class of its own, the class is imported if the file does not have it.
 */
export function catchUniqueViolation(
  write: TSESTree.Node,
  violation: UniqueViolationCheck,
  key: string,
  sourceCode: Readonly<TSESLint.SourceCode>,
  typescript: boolean,
): Fix | undefined {
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
  const errorClass = violation.errorClass && classInScope(sourceCode.ast, violation.errorClass);
  const line = sourceCode.lines[statement.loc.start.line - 1] ?? '';
  const base = `${/^\s*/.exec(line)?.[0] ?? ''}${inBlock ? '' : '  '}`;
  const body = sourceCode.getText(statement).split('\n').join(`\n  `);
  const wrapped = [
    'try {',
    `${base}  ${body}`,
    `${base}} catch (error) {`,
    `${base}  // ${violation.codes.join(' or ')} is the duplicate: a unique key refused the second row (add ${key}).`,
    `${base}  if (${notTheViolation(violation, errorClass?.local, typescript)}) throw error;`,
    `${base}}`,
  ].join('\n');
  const outer = base.slice(2);
  return (fixer) => [
    fixer.replaceText(statement, inBlock ? wrapped : `{\n${base}${wrapped}\n${outer}}`),
    ...(errorClass?.add ? [errorClass.add(fixer)] : []),
  ];
}

/**
 * The test that rethrows anything but the violation: `error?.code !== 'P2002'`, or, for a class
 * and several codes, `!(error instanceof QueryFailedError) || !['23505', 'ER_DUP_ENTRY'].includes(…)`.
 */
function notTheViolation(violation: UniqueViolationCheck, errorClass: string | undefined, typescript: boolean): string {
  const path = violation.path ?? ['code'];
  const last = path[path.length - 1];
  let code: string;
  if (!typescript) code = `error${errorClass ? '.' : '?.'}${path.join('?.')}`;
  // Narrowed to the class, the holder of the code is typed without it (a driver's error).
  else if (errorClass) code = `(${['error', ...path.slice(0, -1)].join('.')} as { ${last}?: string }).${last}`;
  else code = `(error as ${path.reduceRight((inner, name) => `{ ${name}?: ${inner} }`, 'string')}).${path.join('?.')}`;
  const codes = violation.codes.map((each) => `'${each}'`);
  const differs =
    codes.length === 1
      ? `${code} !== ${codes[0]}`
      : `![${codes.join(', ')}].includes(${code}${typescript ? " ?? ''" : ''})`;
  return errorClass ? `!(error instanceof ${errorClass}) || ${differs}` : differs;
}

/**
 * The name the class goes by in the file (`QueryFailedError`, `typeorm.QueryFailedError`), and the
 * edit that imports it when the file does not: beside the file's other names from the module, or
 * in an import (a `require` in a CommonJS file) of its own at the top.
 */
function classInScope(
  program: TSESTree.Program,
  errorClass: { name: string; module: string },
): { local: string; add?: (fixer: TSESLint.RuleFixer) => TSESLint.RuleFix } {
  const imports = program.body.filter(
    (statement): statement is TSESTree.ImportDeclaration => statement.type === 'ImportDeclaration',
  );
  const fromModule = imports.filter((each) => each.source.value === errorClass.module && each.importKind !== 'type');
  for (const declaration of fromModule) {
    for (const specifier of declaration.specifiers) {
      if (specifier.type === 'ImportNamespaceSpecifier') return { local: `${specifier.local.name}.${errorClass.name}` };
      if (
        specifier.type === 'ImportSpecifier' &&
        specifier.importKind !== 'type' &&
        (specifier.imported.type === 'Identifier' ? specifier.imported.name : specifier.imported.value) ===
          errorClass.name
      )
        return { local: specifier.local.name };
    }
  }
  const named = fromModule.flatMap((each) => each.specifiers).findLast((each) => each.type === 'ImportSpecifier');
  if (named) return { local: errorClass.name, add: (fixer) => fixer.insertTextAfter(named, `, ${errorClass.name}`) };
  const commonJs = imports.length === 0 && (program.sourceType === 'script' || program.body.some(requires));
  const statement = commonJs
    ? `const { ${errorClass.name} } = require('${errorClass.module}');`
    : `import { ${errorClass.name} } from '${errorClass.module}';`;
  // After the file's imports, or its directives (`'use strict'` stays first), or at the very top.
  const after = imports.at(-1) ?? program.body.filter((each) => 'directive' in each && each.directive).at(-1);
  return {
    local: errorClass.name,
    add: (fixer) =>
      after ? fixer.insertTextAfter(after, `\n${statement}`) : fixer.insertTextBeforeRange([0, 0], `${statement}\n`),
  };
}

/** `const x = require('…')` at the top level: a CommonJS module. */
function requires(statement: TSESTree.ProgramStatement): boolean {
  return (
    statement.type === 'VariableDeclaration' &&
    statement.declarations.some(
      (each) =>
        each.init?.type === 'CallExpression' &&
        each.init.callee.type === 'Identifier' &&
        each.init.callee.name === 'require',
    )
  );
}
