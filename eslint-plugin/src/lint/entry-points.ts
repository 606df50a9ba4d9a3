import { handlerParameter, registrationOf } from '../analysis/origin/entry-points.js';
import type { Fact, Shaped } from '../analysis/origin/facts.js';
import type { BrokerAdapter, EntryKind, ShapeId } from '../analysis/contract/adapter.js';
import type { TSESLint } from '@typescript-eslint/utils';

import { operationListeners, type FileAnalysis } from './file-analysis.js';
import { isFunction, type FunctionNode } from '../analysis/context/file-context.js';
import { calleeName, keyName } from '../analysis/syntax/nodes.js';
import { rememberedThisLint } from '../analysis/project/files.js';

/**
 * The delivery entry points of a file: functions registered as a handler of a broker, a job
 * runner or a webhook (a parameter the registration says holds a delivery, not a guess from its
 * name), and functions that read a delivery from a call (a webhook's `constructEvent`).
 */

export interface EntryPoint extends Described {
  fn: FunctionNode;
  /** The framework drops repeats itself (options of the registration, a declared dedupe of the platform). */
  frameworkDedupes?: true;
}

interface Described {
  /** "Kafka consumer", "Stripe webhook"; "handler" when the library does not say. */
  label: string;
  kind: EntryKind;
  /** The adapter of the library that registers it, when one says. */
  library?: string;
}

/**
 * What the facts of a value say runs the function: the library whose delivery it is. `registered`:
 * the value is a parameter the function is registered for, so it handles deliveries even when no
 * library says which ("handler").
 */
function labelOf(facts: readonly Fact[], analysis: FileAnalysis, registered: boolean): Described | undefined {
  const certain = facts.filter((fact) => !fact.guessed);
  if (certain.length === 0) return undefined;
  for (const fact of certain) {
    const shaped =
      fact.kind === 'shaped'
        ? fact
        : fact.kind === 'list'
          ? fact.elements.find((element): element is Shaped => element.kind === 'shaped')
          : undefined;
    const described = shaped && describe(shaped.shape, analysis);
    if (described) return described;
  }
  // Registered as a handler, holding the content the analysis knows by name only (a decorator's `@Payload()`).
  return registered ? { label: 'handler', kind: 'consumer' } : undefined;
}

/** The entry point a handler given a value of `shape` is: as the shape says (a scheduled task), or as its library does. */
function describe(shape: ShapeId, analysis: FileAnalysis, broker?: BrokerAdapter): Described | undefined {
  const table = analysis.file.libraries;
  const library = shape.split(':')[0];
  broker ??= table.brokers.find((adapter) => adapter.name === library);
  if (!broker) return undefined;
  const own = broker.name === library ? table.shape(shape)?.entry : undefined;
  if (own) return { ...own, library: broker.name };
  return broker.entry ? { label: broker.entry, kind: broker.entryKind ?? 'consumer', library: broker.name } : undefined;
}

/** The handler is registered with options that ask the framework to drop repeats (`idempotency`, a dedupe key). */
function frameworkDedupes(fn: FunctionNode): boolean {
  const call = fn.parent;
  if (call?.type !== 'CallExpression' && call?.type !== 'NewExpression') return false;
  return call.arguments.some(
    (argument) =>
      argument.type === 'ObjectExpression' &&
      argument.properties.some(
        (property) =>
          property.type === 'Property' &&
          /^(idempotency|idempotencyKey|dedup\w*|deduplication\w*)$/i.test(keyName(property) ?? ''),
      ),
  );
}

/**
 * A call in `fn`'s own body whose result is a delivery (a webhook's `constructEvent`, or a function
 * of the file that returns what one gives): the entry point's label, if so.
 */
function readsDelivery(fn: FunctionNode, analysis: FileAnalysis, depth = 0): Described | undefined {
  if (!namesAResult(analysis)) return undefined;
  // A helper is asked once, however many functions of the file call it.
  return (depth > 0 ? helperReads(fn, analysis, depth) : readsDeliveryAt(fn, analysis, depth)) ?? undefined;
}

/** Whether the file calls anything that may return a delivery: most files do not. */
function namesAResult(analysis: FileAnalysis): boolean {
  let known = filesNamingResults.get(analysis);
  if (known === undefined) {
    const { file } = analysis;
    known = [...file.libraries.results].some(
      ([name, patterns]) =>
        file.callsNamed(name).length > 0 &&
        patterns.some((pattern) => !pattern.construct || file.text(file.sourceAst).includes(pattern.construct)),
    );
    filesNamingResults.set(analysis, known);
  }
  return known;
}

const filesNamingResults = new WeakMap<FileAnalysis, boolean>();

/** Answers by function node, kept for one lint: they read the registrations in other modules too. */
const helperReads = rememberedThisLint(readsDeliveryAt);
const entryPoints = rememberedThisLint(findEntryPoint);

function readsDeliveryAt(fn: FunctionNode, analysis: FileAnalysis, depth: number): Described | null {
  const { file } = analysis;
  // Its body's own calls (a curried handler's body is the function it returns).
  const calls = [fn, ...(isFunction(fn.body) ? [fn.body] : [])].flatMap((holder) =>
    file.callsIn(holder).filter((call) => call.range[0] >= fn.body.range[0]),
  );
  for (const call of calls) {
    if (file.libraries.results.has(calleeName(call.callee) ?? '')) {
      const label = labelOf(analysis.tracer.facts(call), analysis, false);
      if (label) return label;
      continue;
    }
    // `const event = constructStripeEvent(request)`: a helper of this file that reads the delivery and returns it.
    const helper = depth === 0 ? file.localFunction(call.callee) : undefined;
    if (helper && helper !== fn && readsDelivery(helper, analysis, depth + 1)) {
      const label = labelOf(analysis.tracer.facts(call), analysis, false);
      if (label) return label;
    }
  }
  return null;
}

/** The entry point `fn` is, asked once per function whichever rule asks (the answers are complete at `Program:exit`). */
export function entryPointOf(fn: FunctionNode, analysis: FileAnalysis): EntryPoint | undefined {
  return entryPoints(fn, analysis);
}

function findEntryPoint(fn: FunctionNode, analysis: FileAnalysis): EntryPoint | undefined {
  const file = analysis.file;
  const sites = file.functionSites(fn);
  let described: Described | undefined;
  for (let index = 0; index < fn.params.length && !described; index += 1)
    described = labelOf(handlerParameter(fn, index, sites, file) ?? [], analysis, true);
  described ??= readsDelivery(fn, analysis);
  // Registered with nothing to read: a schedule's `async () => …`, a `@Cron()` method.
  if (!described) {
    const registered = registrationOf(fn, sites, file);
    if (registered)
      described = (registered.shape && describe(registered.shape, analysis, registered.adapter)) ?? {
        label: registered.adapter.entry ?? 'handler',
        kind: registered.adapter.entryKind ?? 'consumer',
        library: registered.adapter.name,
      };
  }
  if (!described) return undefined;
  // A team that declares the framework's own dedupe (AWS Powertools' idempotency) keys repeats there.
  const dedupes =
    frameworkDedupes(fn) ||
    file.libraries.brokers.some((adapter) => adapter.keyPaths && file.libraries.imported(adapter, file.imports));
  return { fn, ...described, ...(dedupes ? { frameworkDedupes: true as const } : {}) };
}

/**
 * Listeners that read the file as the entry-point questions need it (its operations), then hand
 * over, once the file is read, each function that is an entry point, in source order.
 */
export function entryPointsAtExit(
  analysis: FileAnalysis,
  exit: (found: { fn: FunctionNode; entry: EntryPoint }[]) => void,
): TSESLint.RuleListener {
  const functions: FunctionNode[] = [];
  const collect = (node: FunctionNode) => {
    functions.push(node);
  };
  return {
    ...operationListeners(analysis),
    FunctionDeclaration: collect,
    FunctionExpression: collect,
    ArrowFunctionExpression: collect,
    'Program:exit'() {
      exit(
        functions.flatMap((fn) => {
          const entry = entryPointOf(fn, analysis);
          return entry ? [{ fn, entry }] : [];
        }),
      );
    },
  };
}
