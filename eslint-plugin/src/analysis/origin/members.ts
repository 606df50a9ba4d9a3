import type { TSESTree } from '@typescript-eslint/utils';

import { memberPath, objectProperty, propertyName, unwrapExpression } from '../syntax/nodes.js';
import { constantInitializer } from '../syntax/scope.js';
import type { Step } from '../syntax/patterns.js';
import { requestHeader, type Tracing } from './call-facts.js';
import { asCertainAs, isLeaf, leaf, type Fact } from './facts.js';
import { byName, elementOfShape, memberOfShape } from './shapes.js';
import { alternatives, lastName, startsAtGlobal } from './value-forms.js';

/** Where a member, an element or a destructured part of a value comes from, given the facts of the whole. */

/**
 * Applies a destructuring path (and its default values) to the facts of the whole value. The
 * facts are then named after the binding (`topic`), which is what the reader sees in the code.
 */
export function follow(
  tracer: Tracing,
  facts: Fact[],
  found: { steps: Step[]; defaults: TSESTree.Node[] },
  binding: TSESTree.Identifier,
  depth: number,
): Fact[] {
  let current = facts;
  for (const step of found.steps) {
    current =
      'member' in step
        ? current.flatMap((fact) => memberOf(tracer, fact, step.member, `${fact.code}.${step.member}`, depth))
        : elementsOf(tracer, current, step.element);
  }
  if (found.steps.length > 0) current = current.map((fact) => Object.assign({}, fact, { code: binding.name }));
  return [...current, ...found.defaults.flatMap((value) => tracer.visit(value, depth))];
}

/**
 * What the elements of a list-like value are: `batch.messages[i]`, `event.Records[i]`; element
 * `index` when the code says which (`entry[0]`, `const [id, fields] = entry`).
 */
export function elementsOf(tracer: Tracing, facts: Fact[], index?: number): Fact[] {
  return facts.flatMap((fact): Fact[] => {
    if (fact.kind === 'list') return fact.elements;
    if (fact.kind === 'shaped') return elementOfShape(tracer.table, fact, index, `${fact.code}[${index ?? 0}]`);
    return [asCertainAs(leaf(isLeaf(fact) ? fact.kind : 'unknown', `${fact.code}[]`), fact)];
  });
}

export function memberFacts(tracer: Tracing, node: TSESTree.MemberExpression, depth: number): Fact[] {
  // Worker identity is read from a few globals; other member chains are not spelled out.
  const path = startsAtGlobal(node, tracer.table.workerRoots) ? memberPath(node)?.join('.') : undefined;
  if (path) {
    const worker = tracer.table.workerPaths.get(path);
    if (worker) return [leaf('worker', path, worker)];
    if (path.startsWith('process.env.')) {
      const variable = path.slice('process.env.'.length);
      // Configuration is the same on every attempt, except where it names the worker.
      return [
        tracer.table.isWorkerVariable(variable) ? leaf('worker', path, 'the worker identity') : leaf('constant', path),
      ];
    }
  }
  const code = tracer.code(node);
  const property = node.property;
  if (node.computed && property.type !== 'Literal') return elementsOf(tracer, tracer.visit(node.object, depth));
  if (property.type === 'Literal' && typeof property.value === 'number' && Number.isInteger(property.value))
    return elementsOf(tracer, tracer.visit(node.object, depth), property.value);
  const name = propertyName(node);
  if (name === undefined) return [leaf('unknown', code)];
  if (/^\d+$/.test(name)) return elementsOf(tracer, tracer.visit(node.object, depth), Number(name));
  if (node.computed) {
    const header = requestHeader(tracer, name, code);
    if (header) return header;
  }
  // `PersistentCacheKeys.TOTAL_VOLUME_UPDATE_TIME`: a member of an enum or a table of constants,
  // whatever its name says it stands for.
  if (node.object.type === 'Identifier' && /^[A-Z]/.test(node.object.name) && /^[A-Z][A-Z\d_]*$/.test(name))
    return [leaf('constant', code)];
  const choices = choicesOf(tracer, node.object);
  if (choices)
    return alternatives(
      choices.map((choice) => tracer.visit(choice, depth).flatMap((fact) => memberOf(tracer, fact, name, code, depth))),
    );
  const facts: Fact[] = [];
  for (const fact of tracer.visit(node.object, depth))
    for (const member of memberOf(tracer, fact, name, code, depth)) facts.push(member);
  return facts;
}

/**
 * The values an object may be, of which one is taken (`const request = same ? pending.current :
 * { key: mint() }`, `held ?? { key: mint() }`): its member is then one of theirs, and a fresh one
 * in a branch stands in for a key the code kept (minted once, sent again with each retry).
 */
function choicesOf(tracer: Tracing, object: TSESTree.Node): TSESTree.Node[] | undefined {
  let value = unwrapExpression(object);
  if (value.type === 'Identifier') {
    const initial = constantInitializer(value, tracer.file.scopeOf(value));
    if (!initial) return undefined;
    value = unwrapExpression(initial);
  }
  if (value.type === 'ConditionalExpression') return [value.consequent, value.alternate];
  if (value.type === 'LogicalExpression' && value.operator !== '&&') return [value.left, value.right];
  return undefined;
}

const scalarKinds = new Set<Fact['kind']>(['constant', 'amount', 'currency', 'time']);

function memberOf(tracer: Tracing, fact: Fact, name: string, code: string, depth: number): Fact[] {
  switch (fact.kind) {
    case 'shaped':
      return memberOfShape(tracer.table, fact, name, code);
    case 'object': {
      const property = objectProperty(fact.object, name);
      const owner = lastName(fact.code);
      if (!property) return [byName(tracer.table, owner, name, code) ?? leaf('unknown', code)];
      const value = fact.follow(property.value, depth);
      // A literal in an object literal is test data; the name says what it stands for.
      if (value.every((item) => item.kind === 'constant'))
        return [byName(tracer.table, owner, name, code) ?? value[0] ?? leaf('constant', code)];
      return value;
    }
    case 'list':
      if (name === 'length') return [leaf('constant', code)];
      return [leaf('unknown', code)];
    default: {
      if (name === 'length') return [leaf('constant', code)];
      const named = byName(tracer.table, lastName(fact.code), name, code);
      if (named) return [named];
      // A constant, an amount, a currency or a time has no members of its own: a value that has
      // them (`userBalance.erc20Address`, an element of `balances`) was named for what it holds.
      // An amount's `value` (`unit.amount.value`, as PayPal writes money) is that amount.
      const kind = scalarKinds.has(fact.kind) && (fact.kind === 'constant' || name !== 'value') ? 'unknown' : fact.kind;
      return [asCertainAs(leaf(kind, code, fact.what), fact)];
    }
  }
}
