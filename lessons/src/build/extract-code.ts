import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import ts from 'typescript';

import { LessonFileError } from '../json-reader.js';

/**
 * The code a lesson displays is cut out of the very handler modules that run, so the two cannot
 * drift apart. A handler is shown with the helpers it calls (followed through relative imports),
 * helpers first, without `export` and without the doc comments that are meant for maintainers.
 */

export interface ExtractedHandler {
  /** Helpers, then the handler, separated by blank lines. */
  readonly source: string;
  /** The handler's own declaration of `labelVariable`, when one was asked for. */
  readonly label?: string;
}

export class HandlerSourceReader {
  private readonly parsed = new Map<string, ts.SourceFile>();

  /** `root` is the folder paths in error messages are relative to. */
  constructor(private readonly root: string) {}

  extract(file: string, functionName: string, labelVariable?: string): ExtractedHandler {
    const handler = this.findFunction(file, functionName);
    const helpers: ts.FunctionDeclaration[] = [];
    this.collectHelpers(handler, helpers, new Set([handler]));
    const source = [...helpers, handler].map((declaration) => displayText(declaration)).join('\n\n');
    if (labelVariable === undefined) return { source };
    const label = findDeclaration(handler, labelVariable);
    if (!label) {
      throw new LessonFileError(this.shortName(file), functionName, `declares no variable "${labelVariable}" to label its option with`);
    }
    return { source, label };
  }

  private collectHelpers(from: ts.FunctionDeclaration, into: ts.FunctionDeclaration[], seen: Set<ts.FunctionDeclaration>): void {
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
        const helper = this.resolveFunction(from.getSourceFile(), node.expression.text);
        if (helper && !seen.has(helper)) {
          seen.add(helper);
          this.collectHelpers(helper, into, seen);
          into.push(helper);
        }
      }
      ts.forEachChild(node, visit);
    };
    if (from.body) visit(from.body);
  }

  /** A function of the same file, or one imported by name from a relative module. */
  private resolveFunction(sourceFile: ts.SourceFile, name: string): ts.FunctionDeclaration | undefined {
    const local = topLevelFunction(sourceFile, name);
    if (local) return local;
    for (const statement of sourceFile.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const specifier = statement.moduleSpecifier.text;
      const bindings = statement.importClause?.namedBindings;
      if (!specifier.startsWith('.') || !bindings || !ts.isNamedImports(bindings)) continue;
      const binding = bindings.elements.find((element) => element.name.text === name);
      if (!binding) continue;
      const importedFile = join(dirname(sourceFile.fileName), specifier.replace(/\.js$/, '.ts'));
      return this.findFunction(importedFile, (binding.propertyName ?? binding.name).text);
    }
    return undefined;
  }

  private findFunction(file: string, name: string): ts.FunctionDeclaration {
    const declaration = topLevelFunction(this.parse(file), name);
    if (!declaration) throw new LessonFileError(this.shortName(file), name, 'no top-level function with this name');
    return declaration;
  }

  private parse(file: string): ts.SourceFile {
    let sourceFile = this.parsed.get(file);
    if (!sourceFile) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        throw new LessonFileError(this.shortName(file), '', 'cannot be read');
      }
      sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
      this.parsed.set(file, sourceFile);
    }
    return sourceFile;
  }

  private shortName(file: string): string {
    return relative(this.root, file) || file;
  }
}

function topLevelFunction(sourceFile: ts.SourceFile, name: string): ts.FunctionDeclaration | undefined {
  return sourceFile.statements.find(
    (statement): statement is ts.FunctionDeclaration => ts.isFunctionDeclaration(statement) && statement.name?.text === name,
  );
}

function findDeclaration(handler: ts.FunctionDeclaration, variable: string): string | undefined {
  let found: string | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isVariableStatement(node) && node.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === variable)) {
      found = node.getText();
      return;
    }
    ts.forEachChild(node, visit);
  };
  if (handler.body) visit(handler.body);
  return found;
}

/** The declaration as written, minus `export`: the reader sees a function, not a module surface. */
function displayText(declaration: ts.FunctionDeclaration): string {
  return declaration.getText().replace(/^export\s+/, '');
}
