import type { EstreeNode } from './estree.js';

/**
 * What a group of top-level statements declares and exports, as one comparable string.
 *
 * acorn (espree) rejects a file whose statements clash with each other: a name declared twice
 * where that is an error, an export named twice, `export { x }` without an `x`. A statement
 * parsed on its own cannot see those clashes. When the re-read statements declare and export
 * exactly what the old ones did, the new file clashes exactly where the old one did, which is
 * nowhere, since the old one parsed. Anything declared below the top level but visible there
 * (`var` inside blocks, functions declared in blocks) counts too; names local to functions and
 * classes cannot clash with other statements and are left out, so renaming a local keeps the
 * incremental path.
 */
export function declarationSignature(statements: readonly EstreeNode[]): string {
  const names: string[] = [];
  for (const statement of statements) collectStatement(statement, names, true);
  return names.sort().join('\n');
}

function collectStatement(node: EstreeNode | null | undefined, names: string[], topLevel: boolean): void {
  if (!node) return;
  switch (node.type) {
    case 'VariableDeclaration': {
      const kind = node.kind as string;
      if (kind === 'var' || topLevel) {
        for (const declarator of node.declarations as EstreeNode[])
          collectPattern(declarator.id as EstreeNode, `${kind === 'var' ? 'var' : 'lexical'}:`, names);
      }
      return;
    }
    case 'FunctionDeclaration':
      if (node.id) names.push(`${topLevel ? 'function' : 'block-function'}:${(node.id as EstreeNode).name as string}`);
      return;
    case 'ClassDeclaration':
      if (topLevel && node.id) names.push(`lexical:${(node.id as EstreeNode).name as string}`);
      return;
    case 'ImportDeclaration':
      for (const specifier of node.specifiers as EstreeNode[])
        names.push(`import:${(specifier.local as EstreeNode).name as string}`);
      return;
    case 'ExportNamedDeclaration': {
      const declaration = node.declaration as EstreeNode | null;
      if (declaration) {
        const declared: string[] = [];
        collectStatement(declaration, declared, true);
        names.push(...declared, ...declared.map((name) => `export:${name.slice(name.indexOf(':') + 1)}`));
      }
      for (const specifier of node.specifiers as EstreeNode[]) {
        names.push(`export:${nameOf(specifier.exported as EstreeNode)}`);
        if (!node.source) names.push(`export-local:${nameOf(specifier.local as EstreeNode)}`);
      }
      return;
    }
    case 'ExportDefaultDeclaration':
      names.push('export:default');
      collectStatement(node.declaration as EstreeNode, names, true);
      return;
    case 'ExportAllDeclaration':
      if (node.exported) names.push(`export:${nameOf(node.exported as EstreeNode)}`);
      return;
    case 'BlockStatement':
    case 'StaticBlock':
      for (const child of node.body as EstreeNode[]) collectStatement(child, names, false);
      return;
    case 'IfStatement':
      collectStatement(node.consequent as EstreeNode, names, false);
      collectStatement(node.alternate as EstreeNode | null, names, false);
      return;
    case 'ForStatement':
      collectStatement(node.init as EstreeNode | null, names, false);
      collectStatement(node.body as EstreeNode, names, false);
      return;
    case 'ForInStatement':
    case 'ForOfStatement':
      collectStatement(node.left as EstreeNode, names, false);
      collectStatement(node.body as EstreeNode, names, false);
      return;
    case 'WhileStatement':
    case 'DoWhileStatement':
    case 'LabeledStatement':
    case 'WithStatement':
      collectStatement(node.body as EstreeNode, names, false);
      return;
    case 'TryStatement':
      collectStatement(node.block as EstreeNode, names, false);
      collectStatement((node.handler as EstreeNode | null)?.body as EstreeNode | undefined, names, false);
      collectStatement(node.finalizer as EstreeNode | null, names, false);
      return;
    case 'SwitchStatement':
      for (const switchCase of node.cases as EstreeNode[]) {
        for (const child of switchCase.consequent as EstreeNode[]) collectStatement(child, names, false);
      }
      return;
    default:
      return;
  }
}

function collectPattern(pattern: EstreeNode | null, prefix: string, names: string[]): void {
  if (!pattern) return;
  switch (pattern.type) {
    case 'Identifier':
      names.push(prefix + (pattern.name as string));
      return;
    case 'ObjectPattern':
      for (const property of pattern.properties as EstreeNode[]) {
        collectPattern(
          (property.type === 'RestElement' ? property.argument : property.value) as EstreeNode,
          prefix,
          names,
        );
      }
      return;
    case 'ArrayPattern':
      for (const element of pattern.elements as (EstreeNode | null)[]) collectPattern(element, prefix, names);
      return;
    case 'AssignmentPattern':
      collectPattern(pattern.left as EstreeNode, prefix, names);
      return;
    case 'RestElement':
      collectPattern(pattern.argument as EstreeNode, prefix, names);
      return;
    default:
      return;
  }
}

function nameOf(node: EstreeNode): string {
  return typeof node.name === 'string' ? node.name : String(node.value);
}
