import type { TSESTree } from '@typescript-eslint/utils';

import { keyName } from './nodes.js';

/** What a file imports or requires, by local binding. */

export interface FileImports {
  /** Module sources imported or required anywhere in the file. */
  sources: Set<string>;
  /** Local binding name → module source. */
  bindings: Map<string, string>;
  /** Local binding name → the name it has in its module (`default`, `*` for a namespace). */
  names: Map<string, string>;
}

/**
 * A package as Deno and the browser name it (`npm:resend@2`, `https://esm.sh/@supabase/supabase-js@2`,
 * `https://cdn.jsdelivr.net/npm/stripe@14/…`): by its npm name, so adapters know it as in Node.
 */
const fromRegistry =
  /^(?:npm:|https?:\/\/(?:esm\.sh|esm\.run|cdn\.skypack\.dev|unpkg\.com|cdn\.jsdelivr\.net\/npm)\/(?:v\d+\/)?)((?:@[^/@?#]+\/)?[^/@?#]+)(?:@[^/?#]*)?(\/[^?#]*)?/;

function packageName(specifier: string): string {
  const match = fromRegistry.exec(specifier);
  return match ? `${match[1]}${match[2] ?? ''}` : specifier;
}

export function importsOf(program: TSESTree.Program): FileImports {
  const sources = new Set<string>();
  const bindings = new Map<string, string>();
  const names = new Map<string, string>();
  const visitRequire = (node: TSESTree.Node | null | undefined, pattern?: TSESTree.Node) => {
    if (node?.type === 'AwaitExpression') node = node.argument;
    if (node?.type !== 'CallExpression' || node.callee.type !== 'Identifier' || node.callee.name !== 'require') return;
    const [argument] = node.arguments;
    if (argument?.type !== 'Literal' || typeof argument.value !== 'string') return;
    const source = packageName(argument.value);
    sources.add(source);
    if (pattern?.type === 'Identifier') {
      bindings.set(pattern.name, source);
      names.set(pattern.name, '*');
    }
    if (pattern?.type === 'ObjectPattern') {
      for (const property of pattern.properties) {
        if (property.type === 'Property' && property.value.type === 'Identifier') {
          bindings.set(property.value.name, source);
          const imported = keyName(property);
          if (imported !== undefined) names.set(property.value.name, imported);
        }
      }
    }
  };
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') {
      const source = packageName(statement.source.value);
      sources.add(source);
      for (const specifier of statement.specifiers) {
        bindings.set(specifier.local.name, source);
        const imported =
          specifier.type === 'ImportDefaultSpecifier'
            ? 'default'
            : specifier.type === 'ImportNamespaceSpecifier'
              ? '*'
              : specifier.imported.type === 'Identifier'
                ? specifier.imported.name
                : String(specifier.imported.value);
        names.set(specifier.local.name, imported);
      }
    } else if (statement.type === 'VariableDeclaration') {
      for (const declarator of statement.declarations) visitRequire(declarator.init, declarator.id);
    }
  }
  return { sources, bindings, names };
}
