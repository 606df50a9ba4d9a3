import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import ts from 'typescript';

import { LessonFileError } from '../json-reader.js';

/**
 * The code a lesson displays is cut out of the very handler modules that run, so the two cannot
 * drift apart. A handler is shown with the helpers it calls (followed through relative imports),
 * helpers first, without `export` and without the doc comments that are meant for maintainers.
 */

/** What a lesson shows: a handler function, or a worker class whose instances live in a process. */
type Shown = ts.FunctionDeclaration | ts.ClassDeclaration;

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
    const helpers: Shown[] = [];
    this.collectHelpers(handler, helpers, new Set([handler]));
    const source = [...helpers, handler].map((declaration) => displayText(declaration)).join('\n\n');
    if (labelVariable === undefined) return { source };
    const label = findDeclaration(handler, labelVariable);
    if (!label) {
      throw new LessonFileError(
        this.shortName(file),
        functionName,
        `declares no variable "${labelVariable}" to label its option with`,
      );
    }
    return { source, label };
  }

  private collectHelpers(from: Shown, into: Shown[], seen: Set<Shown>): void {
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
    if (ts.isClassDeclaration(from)) from.members.forEach(visit);
    else if (from.body) visit(from.body);
  }

  /** A function of the same file, or one imported by name from a relative module. */
  private resolveFunction(sourceFile: ts.SourceFile, name: string): Shown | undefined {
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

  private findFunction(file: string, name: string): Shown {
    const declaration = topLevelFunction(this.parse(file), name);
    if (!declaration)
      throw new LessonFileError(this.shortName(file), name, 'no top-level function or class with this name');
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

function topLevelFunction(sourceFile: ts.SourceFile, name: string): Shown | undefined {
  return sourceFile.statements.find(
    (statement): statement is Shown =>
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name?.text === name,
  );
}

function findDeclaration(handler: Shown, variable: string): string | undefined {
  if (ts.isClassDeclaration(handler)) return undefined;
  let found: string | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (
      ts.isVariableStatement(node) &&
      node.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === variable)
    ) {
      found = node.getText();
      return;
    }
    ts.forEachChild(node, visit);
  };
  if (handler.body) visit(handler.body);
  return found;
}

/** The declaration as written, minus `export`: the reader sees a function or class, not a module surface. */
function displayText(declaration: Shown): string {
  return declaration.getText().replace(/^export\s+/, '');
}
