import type { TSESTree } from '@typescript-eslint/utils';

import type { FileContext, FunctionNode } from '../context/file-context.js';
import type { LibraryTable } from '../context/library-table.js';
import { calledFunction } from '../project/calls.js';
import { importsLibrary } from '../project/modules.js';
import { calleeName, memberPath } from '../syntax/nodes.js';
import { constantInitializer } from '../syntax/scope.js';
import { hasEvidence } from './entry-points.js';
import { asScalars, leaf, shaped, type Fact, type Leaf } from './facts.js';
import { callOnShape, memberSpecFacts } from './shapes.js';
import {
  bucketed,
  formatFunctions,
  hashed,
  hashing,
  headerReaders,
  periodFunctions,
  periodPattern,
  sameValueMethods,
  timeBuckets,
} from './value-forms.js';

/** How many modules deep a value is followed through imported functions. */
export const maxModuleDepth = 2;

/** What the steps here ask of the tracer that runs them (the origin tracer). */
export interface Tracing {
  readonly file: FileContext;
  readonly table: LibraryTable;
  readonly moduleDepth: number;
  code(node: TSESTree.Node): string;
  visit(node: TSESTree.Node, depth: number): Fact[];
  scalarsOf(node: TSESTree.Node, depth: number): Leaf[];
  returnsOf(fn: FunctionNode, depth: number): Fact[];
  returnsAcross(module: FileContext, fn: FunctionNode, call: TSESTree.CallExpression, depth: number): Fact[];
}

/** What a call's result is made of: a value an adapter knows (fresh, the worker, a parsed payload, a result shape), the same value in another form, a period of the clock, or what the called function returns. */
export function callFacts(tracer: Tracing, node: TSESTree.CallExpression, depth: number): Fact[] {
  const code = tracer.code(node);
  const callee = node.callee.type === 'ChainExpression' ? node.callee.expression : node.callee;
  const name = calleeName(callee);
  const path = memberPath(callee)?.join('.');
  const table = tracer.table;
  const minted =
    (path && table.mintingPaths.get(path)) ??
    (name && table.mintingCalls.get(name)) ??
    (callee.type === 'Identifier' && table.mintingFactories.get(madeBy(callee, tracer.file) ?? ''));
  if (minted) return [leaf('minted', code, minted)];
  const worker = (path && table.workerPaths.get(path)) ?? (name && table.workerPaths.get(name));
  if (worker) return [leaf('worker', code, worker)];
  // What a derivation takes from an object literal (`JSON.stringify({ userId, amount })`) is its values.
  const inputs = (argument: TSESTree.Node): Leaf[] =>
    tracer
      .visit(argument, depth)
      .flatMap((fact) =>
        fact.kind === 'object'
          ? fact.object.properties.flatMap((property) =>
              property.type === 'Property' ? asScalars(fact.follow(property.value, depth + 1)) : [],
            )
          : asScalars([fact]),
      );
  const argumentScalars = () =>
    node.arguments.flatMap((argument) => (argument.type === 'SpreadElement' ? [] : inputs(argument)));

  if (path && table.parsing.has(path)) return [shaped('payload', code)];
  const [first] = node.arguments;
  if (name && headerReaders.has(name) && first?.type === 'Literal' && typeof first.value === 'string') {
    const header = requestHeader(tracer, first.value, code);
    if (header) return header;
  }
  let receiverPath: string | undefined;
  for (const result of (name && table.results.get(name)) || []) {
    if (result.construct && !(first?.type === 'NewExpression' && calleeName(first.callee) === result.construct))
      continue;
    receiverPath ??= callee.type === 'MemberExpression' ? (memberPath(callee.object)?.join('.') ?? '') : '';
    if (result.receiver && !result.receiver.test(receiverPath)) continue;
    const owner = table.resultOwners.get(result);
    if (result.evidence && owner && !hasEvidence(result.evidence, owner, tracer.file, receiverPath, undefined))
      continue;
    return [shaped(result.shape, code)];
  }

  if (callee.type === 'MemberExpression' && name) {
    const receiver = tracer.visit(callee.object, depth);
    const results: Fact[] = [];
    let understood = true;
    for (const fact of receiver) {
      if (fact.kind === 'shaped') {
        const result = callOnShape(table, fact, name, code);
        if (result) {
          results.push(...result);
          continue;
        }
      }
      if (
        fact.kind === 'list' &&
        (name === 'join' || name === 'at' || name === 'find' || name === 'shift' || name === 'pop')
      ) {
        results.push(...asScalars(fact.elements));
        continue;
      }
      understood = false;
    }
    if (understood && results.length > 0) return name === 'join' ? [...results, ...argumentScalars()] : results;
    if (timeBuckets.has(name)) return bucketed(asScalars(receiver), code);
    if (sameValueMethods.has(name)) {
      const derived = [...asScalars(receiver), ...argumentScalars()];
      return hashing.test(name) ? hashed(derived) : derived;
    }
  }

  // A function that puts a date into its period: the same for every attempt within it.
  if (callee.type === 'Identifier' && first && first.type !== 'SpreadElement') {
    const pattern = node.arguments[1];
    const period =
      periodFunctions.test(callee.name) ||
      (formatFunctions.has(callee.name) &&
        pattern?.type === 'Literal' &&
        typeof pattern.value === 'string' &&
        periodPattern.test(pattern.value));
    if (period) return bucketed(tracer.scalarsOf(first, depth), code);
  }

  const target = calledFunction(tracer.file, callee, tracer.moduleDepth < maxModuleDepth);
  if (target)
    return target.module === tracer.file
      ? tracer.returnsOf(target.fn, depth)
      : tracer.returnsAcross(target.module, target.fn, node, depth);
  if (name && table.isDerivingCall(name)) return hashing.test(name) ? hashed(argumentScalars()) : argumentScalars();
  return [leaf('unknown', code)];
}

/** A header that a delivery service sets on its requests, in a file that imports its library (or a module of the project that does). */
export function requestHeader(tracer: Tracing, name: string, code: string): Fact[] | undefined {
  for (const { adapter, pattern } of tracer.table.requestHeaders.get(name.toLowerCase()) ?? []) {
    if (importsLibrary(tracer.file, adapter)) return memberSpecFacts(pattern, code);
  }
  return undefined;
}

/** What `new C(…)` makes: a fresh value the adapters know (`new Date()`), or the value given in another form. */
export function constructFacts(tracer: Tracing, node: TSESTree.NewExpression, depth: number): Fact[] {
  const name = calleeName(node.callee);
  const code = tracer.code(node);
  const minted = name && tracer.table.mintingConstructors.get(name);
  if (minted) {
    // `new Date()` is now; `new Date(sentAt)` is the value it is given, in another form.
    const [argument] = node.arguments;
    if (!argument) return [leaf('minted', code, minted)];
    return argument.type === 'SpreadElement' ? [leaf('unknown', code)] : tracer.scalarsOf(argument, depth);
  }
  return [leaf('unknown', code)];
}

/** The call that made the function `callee` names (`customAlphabet` of `const guid = customAlphabet(…)`), here or in the project module it is imported from. */
function madeBy(callee: TSESTree.Identifier, file: FileContext): string | undefined {
  const made = constantInitializer(callee, file.scopeOf(callee)) ?? file.importedValue(callee.name)?.value;
  return made?.type === 'CallExpression' ? calleeName(made.callee) : undefined;
}
