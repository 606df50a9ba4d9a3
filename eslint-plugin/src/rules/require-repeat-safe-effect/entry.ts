import { handlerParameter } from '../../analysis/origin/entry-points.js';
import type { Fact, Shaped } from '../../analysis/origin/facts.js';
import type { FileAnalysis } from '../../lint/file-analysis.js';
import { isFunction, type FunctionNode } from '../../analysis/context/file-context.js';
import { calleeName, keyName } from '../../analysis/syntax/nodes.js';
import { walk } from '../../analysis/syntax/walk.js';

/**
 * The delivery entry points of a file: functions registered as a handler of a broker, a job
 * runner or a webhook (a parameter the registration says holds a delivery, not a guess from its
 * name), and functions that read a delivery from a call (a webhook's `constructEvent`).
 */

export interface EntryPoint {
  fn: FunctionNode;
  /** "Kafka consumer", "Stripe webhook"; "handler" when the library does not say. */
  label: string;
}

function labelOf(facts: readonly Fact[], analysis: FileAnalysis): string | undefined {
  const certain = facts.filter((fact) => !fact.guessed);
  if (certain.length === 0) return undefined;
  for (const fact of certain) {
    const shaped =
      fact.kind === 'shaped'
        ? fact
        : fact.kind === 'list'
          ? fact.elements.find((element): element is Shaped => element.kind === 'shaped')
          : undefined;
    const library = shaped?.shape.split(':')[0];
    const broker = analysis.file.libraries.brokers.find((adapter) => adapter.name === library);
    if (broker?.entry) return broker.entry;
  }
  // Registered as a handler, holding the content the analysis knows by name only (a decorator's `@Payload()`).
  return 'handler';
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
function readsDelivery(fn: FunctionNode, analysis: FileAnalysis, depth = 0): string | undefined {
  const results = analysis.file.libraries.results;
  let label: string | undefined;
  walk(fn.body, analysis.file.visitorKeys, (node) => {
    if (label) return false;
    if (node !== fn.body && isFunction(node)) return false;
    if (node.type !== 'CallExpression') return true;
    if (results.has(calleeName(node.callee) ?? '')) label = labelOf(analysis.tracer.facts(node), analysis);
    else {
      // `const event = constructStripeEvent(request)`: a helper of this file that reads the delivery and returns it.
      const helper = depth === 0 ? analysis.file.localFunction(node.callee) : undefined;
      if (helper && helper !== fn && readsDelivery(helper, analysis, depth + 1))
        label = labelOf(analysis.tracer.facts(node), analysis);
    }
    return true;
  });
  return label;
}

export function entryPointOf(fn: FunctionNode, analysis: FileAnalysis): EntryPoint | undefined {
  const file = analysis.file;
  // A team that declares the framework's own dedupe (AWS Powertools' idempotency) keys repeats there.
  if (
    frameworkDedupes(fn) ||
    file.libraries.brokers.some((adapter) => adapter.keyPaths && file.libraries.imported(adapter, file.imports))
  )
    return undefined;
  const sites = file.functionSites(fn);
  for (let index = 0; index < fn.params.length; index += 1) {
    const label = labelOf(handlerParameter(fn, index, sites, file) ?? [], analysis);
    if (label) return { fn, label };
  }
  const label = readsDelivery(fn, analysis);
  return label ? { fn, label } : undefined;
}
