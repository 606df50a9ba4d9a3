import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { libraryTableFor, openDocumentsSetting } from '../settings.js';
import { beginLint } from '../analysis/project/files.js';
import { importedValueOf, inPublishedPackage, moduleContext } from '../analysis/project/modules.js';
import { sitesInImporters } from '../analysis/project/import-sites.js';
import { namedElsewhere, namersOf, timesWritten } from '../analysis/project/importers.js';
import { someNode } from '../analysis/syntax/walk.js';
import { useProgramThisLint } from '../analysis/project/typed-calls.js';
import { claimedFacts, type EffectKey } from '../analysis/keys/effect-keys.js';
import type { Fact, Leaf } from '../analysis/origin/facts.js';
import { handlerParameter, isNamedEntryPoint, registrationOf } from '../analysis/origin/entry-points.js';
import { passedToWrapper } from '../analysis/origin/wrappers.js';
import { FileContext, isFunction, type FunctionNode } from '../analysis/context/file-context.js';
import { keyName } from '../analysis/syntax/nodes.js';
import { keyFacts } from '../analysis/keys/key-facts.js';
import type { LibraryTable } from '../analysis/context/library-table.js';
import { callOperations, helperOperations } from '../analysis/control/helper-operations.js';
import type { DataOperation } from '../analysis/operations/index.js';
import { OriginTracer } from '../analysis/origin/origin.js';
import type { SchemaModel } from '../analysis/schema/model.js';
import { projectSchema } from '../analysis/schema/project-schema.js';

/** An effect key with the facts of what it is built from. */
export interface TracedKey extends EffectKey {
  facts: Leaf[];
}

/**
 * Everything the rules learn about one file, computed once and shared by every rule: where
 * values come from, which calls are database operations, which keys they write. It lives as long
 * as the file's SourceCode, and keeps its answers in plain maps that go away with it.
 */
export class FileAnalysis {
  readonly file: FileContext;
  readonly tracer: OriginTracer;
  private readonly operations = new Map<TSESTree.Node, DataOperation[]>();
  private readonly keys = new Map<TSESTree.Node, readonly TracedKey[]>();
  private claimed: Set<string> | undefined;
  private schemaModel: SchemaModel | undefined;
  private readonly text: string;

  constructor(
    sourceCode: Readonly<TSESLint.SourceCode>,
    libraries: LibraryTable,
    private readonly location: { filename: string; cwd: string },
  ) {
    this.file = new FileContext(sourceCode, libraries, location.filename, importedValueOf);
    this.tracer = new OriginTracer(this.file);
    this.text = sourceCode.text;
  }

  operationsAt(node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression): DataOperation[] {
    let found = this.operations.get(node);
    if (!found) {
      found = callOperations(node, this.file);
      this.operations.set(node, found);
    }
    return found;
  }

  private all: DataOperation[] | undefined;
  private withHelpers: DataOperation[] | undefined;

  /**
   * Every operation of the file, and for each call that makes none itself, the read or the write
   * a helper of another module it calls stands for, or the lock a helper of its own takes: what a
   * check and the write it decides are paired among. Only they: the rules that judge a write
   * itself judge it where it is.
   */
  operationsWithHelpers(): readonly DataOperation[] {
    if (this.withHelpers) return this.withHelpers;
    const operations: DataOperation[] = [];
    for (const [node, found] of this.operations) {
      const made = found.length > 0 || node.type !== 'CallExpression' ? found : helperOperations(node, this.file);
      for (const operation of made) operations.push(operation);
    }
    return (this.withHelpers = inSourceOrder(operations));
  }

  /**
   * Every operation of the file, in source order. Complete once ESLint has visited every call of
   * the file with `operationListeners` (ask at `Program:exit`): the traversal ESLint makes anyway
   * finds them, rather than a walk of its own.
   */
  allOperations(): readonly DataOperation[] {
    if (this.all) return this.all;
    const operations: DataOperation[] = [];
    for (const found of this.operations.values()) for (const operation of found) operations.push(operation);
    return (this.all = inSourceOrder(operations));
  }

  private readonly serving = new Map<FunctionNode, readonly Runner[]>();

  /**
   * Does `node` run while a delivery is handled: inside a function registered as a handler (of a
   * broker, a webhook, a job), or in one such a function calls in this file?
   */
  servesDelivery(node: TSESTree.Node): boolean {
    for (let current = node.parent; current; current = current.parent) {
      if (isFunction(current) && this.runnersOf(current, 0).length > 0) return true;
    }
    return false;
  }

  /** What runs the handlers `node` runs in, in this file: the functions around it, or those calling them (a few calls up). */
  runnersAt(node: TSESTree.Node, depth = 0): Runner[] {
    const found = new Set<Runner>();
    for (let current = node.parent; current; current = current.parent) {
      if (isFunction(current)) for (const runner of this.runnersOf(current, depth)) found.add(runner);
    }
    return [...found];
  }

  private runnersOf(fn: FunctionNode, depth: number): readonly Runner[] {
    const known = this.serving.get(fn);
    if (known !== undefined) return known;
    this.serving.set(fn, []);
    const sites = this.file.functionSites(fn);
    const own = runnerOf(fn, sites, this.file);
    const answer = own
      ? [own]
      : depth < 3
        ? [
            ...new Set(
              sites.flatMap((site) =>
                site !== fn && site.parent?.type === 'CallExpression' ? this.runnersAt(site, depth + 1) : [],
              ),
            ),
          ]
        : [];
    this.serving.set(fn, answer);
    return answer;
  }

  /**
   * What runs the handlers in other modules of the project that call a function this module
   * exports around `node` (a consumer's `await dispatchNotification(id)`): empty when none does.
   * Then it runs while a delivery is handled too, though nothing in this file says so.
   */
  runnersElsewhere(node: TSESTree.Node): Runner[] {
    const found = new Set<Runner>();
    for (let current: TSESTree.Node | undefined = node.parent; current; current = current.parent) {
      if (isFunction(current)) runnersCalling(current, this.file, 0, found);
    }
    return [...found];
  }

  /**
   * The modules that call the outermost function around `node`, when the project calls it only
   * from other modules (a route's `DBJob.restore(path)`): where it is entered from. Undefined when
   * its own file uses it, when a module hands it on as a value (to a scheduler, say), or when
   * nothing in the project calls it (a framework or a scheduler out of sight does).
   */
  callersElsewhere(node: TSESTree.Node): FileContext[] | undefined {
    let outermost: FunctionNode | undefined;
    for (let current = node.parent; current; current = current.parent) if (isFunction(current)) outermost = current;
    if (!outermost || this.file.functionSites(outermost).length > 1) return undefined;
    const sites = sitesInImporters(outermost, this.file);
    const called = sites.every(({ site }) => site.parent?.type === 'CallExpression' && site.parent.callee === site);
    return sites.length > 0 && called ? [...new Set(sites.map(({ module }) => module))] : undefined;
  }

  /**
   * Is `node` in a class's method that nothing in the project calls: its name written only where it
   * is declared, in this file and in every other production file of the project? A finding there
   * waits until something calls it; so does one in a class the project turned off (its import
   * commented out), whatever its methods call of each other. A method the framework calls
   * (decorated, or overriding a base or an interface it implements) and one a published package
   * offers to code outside the project are always called.
   */
  inUncalledMethod(node: TSESTree.Node): boolean {
    let method: TSESTree.MethodDefinition | TSESTree.PropertyDefinition | undefined;
    for (let current = node.parent; current; current = current.parent) {
      if (
        (current.type === 'MethodDefinition' || current.type === 'PropertyDefinition') &&
        current.value &&
        isFunction(current.value)
      )
        method = current;
    }
    if (!method || method.computed || (method.type === 'MethodDefinition' && method.kind !== 'method')) return false;
    const name = keyName(method);
    const owner = method.parent.parent;
    if (
      name === undefined ||
      (method.decorators ?? []).length > 0 ||
      (owner.type !== 'ClassDeclaration' && owner.type !== 'ClassExpression') ||
      owner.superClass ||
      (owner.implements ?? []).length > 0 ||
      inPublishedPackage(this.location.filename)
    )
      return false;
    if (timesWritten(name, this.text) <= 1 && !namedElsewhere(name, this.location.filename)) return true;
    return this.unusedClass(owner);
  }

  /**
   * Is `owner` a class the project turned off: named once in its file (where it is declared, not
   * as the default export, which takes any name), and mentioned by other production modules only
   * outside their code (an import left commented out, `// ReminderJob, // disabled`)? None of its
   * methods runs, however they call each other. A class no other module mentions at all may be
   * found by a framework, or not wired yet, and is judged.
   */
  private unusedClass(owner: TSESTree.ClassDeclaration | TSESTree.ClassExpression): boolean {
    if (owner.type !== 'ClassDeclaration' || !owner.id || (owner.decorators ?? []).length > 0) return false;
    if (owner.parent.type === 'ExportDefaultDeclaration') return false;
    const name = owner.id.name;
    if (timesWritten(name, this.text) > 1) return false;
    const namers = namersOf(name, this.location.filename);
    if (namers === undefined) return false;
    const others = namers.filter((namer) => namer !== this.location.filename);
    return others.length > 0 && others.every((namer) => !this.usedIn(namer, name));
  }

  /** Does the code of module `file` use `name`: an identifier, or a string of that very name (a container's token)? */
  private usedIn(file: string, name: string): boolean {
    const module = moduleContext(file, this.file.libraries);
    if (!module) return true;
    return someNode(
      module.sourceAst,
      module.visitorKeys,
      (node) =>
        ((node.type === 'Identifier' || node.type === 'JSXIdentifier') && node.name === name) ||
        (node.type === 'Literal' && node.value === name),
      200_000,
    );
  }

  /** The unique keys of the project this file belongs to, found the first time a rule asks. */
  schema(): SchemaModel {
    return (this.schemaModel ??= projectSchema(
      this.location.filename,
      this.file.libraries,
      this.file.libraries.schemaPaths,
      this.location.cwd,
    ));
  }

  /**
   * The values this file claims in an inbox: the source of every fact that reaches a claim's key.
   * The code's own claim says what it takes for the delivery's identity, so an effect keyed by
   * the same value is keyed by the delivery, whatever the value is named. Like `allOperations`,
   * complete only once ESLint has visited every call of the file (ask at `Program:exit`).
   */
  claimedValues(): ReadonlySet<string> {
    if (this.claimed) return this.claimed;
    const claimed = new Set<string>();
    for (const operation of this.allOperations()) {
      for (const fact of claimedFacts(operation, this.tracer, this.file) ?? [])
        if (fact.kind === 'delivery') claimed.add(fact.code);
    }
    return (this.claimed = claimed);
  }

  /** The effect keys written at `node`, found by `find` the first time and traced. */
  keysAt(node: TSESTree.Node, find: () => (EffectKey | undefined)[]): readonly TracedKey[] {
    let found = this.keys.get(node);
    if (!found) {
      const traced: TracedKey[] = [];
      for (const key of find()) {
        if (key === undefined) continue;
        // A copy, then the new key: V8 (Node 20) builds `{ ...key, facts }` very slowly.
        const copy = Object.assign({}, key) as TracedKey;
        copy.facts = keyFacts(key, this.tracer);
        traced.push(copy);
      }
      found = traced.length === 0 ? noKeys : traced;
      this.keys.set(node, found);
    }
    return found;
  }
}

const noKeys: TracedKey[] = [];

/**
 * Sorts `operations` by where they start. ESLint visits calls in source order, so the list
 * is nearly always sorted already: checked in one pass before any sort.
 */
function inSourceOrder(operations: DataOperation[]): DataOperation[] {
  for (let index = 1; index < operations.length; index += 1) {
    if (operations[index - 1].node.range[0] > operations[index].node.range[0])
      return operations.sort((a, b) => a.node.range[0] - b.node.range[0]);
  }
  return operations;
}

const analyses = new WeakMap<object, FileAnalysis>();

/**
 * The analysis of the file a rule is linting, with the libraries of its configuration (the
 * plugin's adapters, plus what `settings.idempotency` declares). Invalid settings throw a
 * SettingsError, which stops the lint with a message naming the setting.
 */
export function analysisFor(context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>): FileAnalysis {
  const sourceCode = context.sourceCode;
  let analysis = analyses.get(sourceCode);
  if (!analysis) {
    // What this lint reads of other files: the editor's unsaved texts where it passes them.
    beginLint(context.settings[openDocumentsSetting] as Readonly<Record<string, string>> | undefined);
    // The TypeScript program, when the configuration gives type information: calls syntax cannot resolve are asked of it.
    useProgramThisLint(sourceCode.parserServices?.program);
    analysis = new FileAnalysis(sourceCode, libraryTableFor(context.settings), {
      filename: context.filename,
      cwd: context.cwd,
    });
    analyses.set(sourceCode, analysis);
  }
  return analysis;
}

/** The files whose calls a rule's `operationListeners` recognise. */
const recognisingEveryCall = new WeakSet<FileAnalysis>();

/**
 * Listeners that have every call and tagged template of the file recognised, for `allOperations`.
 * Every rule is created before ESLint walks the file, so the first rule to ask gets them and the
 * others none: one set of listeners recognises each call for all of them.
 */
export function operationListeners(analysis: FileAnalysis): TSESLint.RuleListener {
  if (recognisingEveryCall.has(analysis)) return {};
  recognisingEveryCall.add(analysis);
  const recognise = (node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression) => {
    analysis.operationsAt(node);
  };
  return { CallExpression: recognise, TaggedTemplateExpression: recognise };
}

/** How many modules may stand between a handler and the function it reaches. */
const modulesBetween = 1;

/**
 * Adds to `found` what runs each handler in another module that calls `fn`, directly or through a
 * function of a third module (a worker's `LimitService.check(team)` calling `TeamService.notify(team)`).
 */
function runnersCalling(fn: FunctionNode, file: FileContext, depth: number, found: Set<Runner>): void {
  for (const { module, site } of sitesInImporters(fn, file)) {
    if (site.parent?.type !== 'CallExpression' || site.parent.callee !== site) continue;
    for (let caller: TSESTree.Node | undefined = site.parent.parent; caller; caller = caller.parent) {
      if (!isFunction(caller)) continue;
      const runner = runnerOf(caller, module.functionSites(caller), module);
      if (runner) found.add(runner);
      else if (depth < modulesBetween) runnersCalling(caller, module, depth + 1, found);
    }
  }
}

/** What runs a handler: the library that registers it, or `handler` where none says which. */
export type Runner = string;

/**
 * What runs `fn` as a handler, if it is one: registered with a broker (here, or through the
 * project's own wrapper of one), or run by a platform under its exported name.
 */
function runnerOf(fn: FunctionNode, sites: readonly TSESTree.Node[], file: FileContext): Runner | undefined {
  for (let index = 0; index < fn.params.length; index += 1) {
    const fact = (handlerParameter(fn, index, sites, file) ?? []).find((found) => !found.guessed);
    if (fact) return libraryOf(fact) ?? 'handler';
  }
  if (fn.params.length > 0 && (sites.some((site) => passedToWrapper(site, file)) || isNamedEntryPoint(fn, file)))
    return 'handler';
  return registrationOf(fn, sites, file)?.adapter.name;
}

/** The library whose shape a fact has (`kafkajs` of `kafkajs:message`), the first element's for a list. */
function libraryOf(fact: Fact): string | undefined {
  const shaped = fact.kind === 'list' ? fact.elements[0] : fact;
  return shaped?.kind === 'shaped' && shaped.shape.includes(':') ? shaped.shape.split(':')[0] : undefined;
}
