import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import type { EntryKind } from '../../analysis/contract/adapter.js';
import type { FunctionNode } from '../../analysis/context/file-context.js';
import { functionName } from '../../analysis/origin/entry-points.js';
import { keyName } from '../../analysis/syntax/nodes.js';
import { analysisFor } from '../../lint/file-analysis.js';
import type { GuardKind } from './effects.js';
import { entryPointsAtExit } from '../../lint/entry-points.js';
import { readPath, type Guard } from './path.js';

/**
 * The entry points of a file as a reviewer reads them before a release: each function a broker,
 * a job runner or a webhook runs, what it is, and what settles its repeats, found the way
 * require-repeat-safe-effect finds them (whether or not that rule is on).
 */

/** A place in a file, 1-based, as ESLint reports lines and columns. */
export interface MappedPlace {
  file: string;
  line: number;
  column: number;
}

export interface MappedEntryPoint {
  /** `eachMessage`, `poll`, `new Worker('payouts')`. */
  name: string;
  /** "Kafka consumer", "Stripe webhook". */
  label: string;
  kind: EntryKind;
  /** The adapter of the library that runs it (`kafkajs`), when one says. */
  library?: string;
  start: MappedPlace;
  end: { line: number; column: number };
  repeats: MappedRepeats;
}

/**
 * What settles a repeat of the entry point: the first boundary on its path (`at` where it is, in
 * whichever file), the framework's own dedupe, something the analysis could not read that may be
 * one (`unread`), or `nothing` (with the first effect that a repeat would run again, if any).
 */
export interface MappedRepeats {
  by: GuardKind | 'framework' | 'unread' | 'nothing';
  /** In words: "inbox claim: an INSERT on (message_id)". */
  what: string;
  at?: MappedPlace;
}

const guardWords: Record<GuardKind, string> = {
  claim: 'inbox claim',
  'unique-key': 'unique key',
  lock: 'lock',
  'caught-duplicate': 'caught unique violation',
  'idempotency-key': 'provider idempotency key',
  'checked-state': 'check of stored state',
};

function placeOf(node: TSESTree.Node, file: string): MappedPlace {
  return { file, line: node.loc.start.line, column: node.loc.start.column + 1 };
}

function describeGuard(guard: Guard): string {
  const key = guard.key && guard.key.length > 0 ? ` on (${guard.key.join(', ')})` : '';
  const label = guard.label.length > 60 ? `${guard.label.slice(0, 59)}…` : guard.label;
  return `${guardWords[guard.kind]}: ${label}${key}`;
}

/**
 * What a reader calls the handler: its own name, or the registration that runs it
 * (`channel.consume('ledger')`); a property of a definition that names itself by its `id` or
 * `name` (`task({ id: 'refund', run })`) by that definition: `task('refund')`.
 */
function nameOf(fn: FunctionNode, code: (node: TSESTree.Node) => string): string {
  const registration = (call: TSESTree.CallExpression | TSESTree.NewExpression, what: string) =>
    `${call.type === 'NewExpression' ? 'new ' : ''}${code(call.callee).replace(/\s+/g, '')}(${what})`;
  const text = (node: TSESTree.Node | undefined) =>
    node?.type === 'Literal' && typeof node.value === 'string' ? `'${node.value}'` : undefined;
  const holder = fn.parent?.type === 'Property' ? fn.parent.parent : undefined;
  const call = holder?.parent;
  if (holder?.type === 'ObjectExpression' && (call?.type === 'CallExpression' || call?.type === 'NewExpression')) {
    const label = holder.properties
      .filter((property) => property.type === 'Property' && ['id', 'name'].includes(keyName(property) ?? ''))
      .map((property) => text((property as TSESTree.Property).value))
      .find(Boolean);
    if (label && call.arguments.includes(holder)) return registration(call, label);
  }
  const named = functionName(fn);
  if (named) return named;
  const parent = fn.parent;
  if (parent?.type === 'CallExpression' || parent?.type === 'NewExpression')
    return registration(parent, text(parent.arguments[0]) ?? '');
  return 'handler';
}

/**
 * Rule listeners that hand `found` the file's entry points once ESLint has walked it. A tool
 * that maps a project (the editor's view of entry points) runs them as a rule of its own.
 */
export function entryPointMap(
  context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>,
  found: (entries: MappedEntryPoint[]) => void,
): TSESLint.RuleListener {
  const analysis = analysisFor(context);
  return entryPointsAtExit(analysis, (entryPoints) => {
    const entries: MappedEntryPoint[] = [];
    for (const { fn, entry } of entryPoints) {
      entries.push({
        name: nameOf(fn, (node) => context.sourceCode.getText(node)),
        label: entry.label,
        kind: entry.kind,
        ...(entry.library ? { library: entry.library } : {}),
        start: placeOf(fn, context.filename),
        end: { line: fn.loc.end.line, column: fn.loc.end.column + 1 },
        repeats: entry.frameworkDedupes ? { by: 'framework', what: "the framework's own dedupe" } : repeatsOf(fn),
      });
    }
    found(entries);
  });

  function repeatsOf(fn: FunctionNode): MappedRepeats {
    const reading = readPath(fn, analysis);
    if (reading.guard)
      return {
        by: reading.guard.kind,
        what: describeGuard(reading.guard),
        at: placeOf(reading.guard.node, reading.guard.module.filename),
      };
    if (reading.unread)
      return {
        by: 'unread',
        what: `not read, may settle repeats: ${reading.unread.label}`,
        at: placeOf(reading.unread.node, reading.unread.module.filename),
      };
    const [effect] = reading.effects;
    return effect
      ? { by: 'nothing', what: `nothing found; it ${effect.does}`, at: placeOf(effect.node, context.filename) }
      : { by: 'nothing', what: 'nothing found; no effect that adds' };
  }
}
