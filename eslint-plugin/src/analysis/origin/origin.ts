import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { deliveryByName, handlerParameter, namedParameter } from './entry-points.js';
import { asScalars, leaf, type Fact, type Leaf } from './facts.js';
import { isFunction, type FileContext, type FunctionNode } from '../context/file-context.js';
import type { LibraryTable } from '../context/library-table.js';
import { sitesInImporters } from '../project/import-sites.js';
import { byName } from './shapes.js';
import { propertyName, unwrapExpression } from '../syntax/nodes.js';
import { constantInitializer, variableOf } from '../syntax/scope.js';
import { walk } from '../syntax/walk.js';
import { elementsOf, follow, memberFacts } from './members.js';
import { pathTo } from '../syntax/patterns.js';
import { callFacts, constructFacts, maxModuleDepth, type Tracing } from './call-facts.js';
import { alternatives, arrayCallbacks, bucketed, holdsValue } from './value-forms.js';

/**
 * Where a value comes from. The tracer follows a value through variables, destructuring,
 * template literals, concatenation, hashing, object properties, loops over batches and calls to
 * functions in the same file, until it reaches something it knows: a broker's delivery, a parsed
 * payload, a random or clock value, a constant. It never throws and never runs long: cycles end
 * the path, and each file has a fixed budget of steps.
 */

const maxDepth = 60;
/** The kinds of value a finding may rest on, whose place is kept for its origin. */
const placedKinds = new Set<Fact['kind']>(['delivery', 'minted', 'worker', 'amount']);
const stepsPerFile = 50_000;
const maxFacts = 1_000;

/** A tracer reading another module for one call: the called function's parameters are the caller's arguments. */
interface CallBinding {
  fn?: FunctionNode;
  args?: Fact[][];
  moduleDepth: number;
}

export class OriginTracer implements Tracing {
  // Plain maps, dropped with the file: node-keyed WeakMaps cost far more in garbage collection.
  private readonly cache = new Map<TSESTree.Node, Fact[]>();
  private readonly visiting = new Set<TSESTree.Node>();
  private readonly byVariable = new Map<TSESLint.Scope.Variable, Fact[]>();
  private readonly variablesVisiting = new Set<TSESLint.Scope.Variable>();
  private steps = 0;
  readonly table: LibraryTable;

  constructor(
    readonly file: FileContext,
    private readonly binding?: CallBinding,
  ) {
    this.table = file.libraries;
  }

  /** How messages quote `node`. */
  /** `visit`, for the object literals this tracer finds: their properties are read in this module. */
  private readonly follow = (node: TSESTree.Node, depth: number): Fact[] => this.visit(node, depth);

  code(node: TSESTree.Node): string {
    return this.file.code(node);
  }

  /** How many modules away from the linted file this tracer reads. */
  get moduleDepth(): number {
    return this.binding?.moduleDepth ?? 0;
  }

  /** Everything known about where the value of `node` comes from. */
  facts(node: TSESTree.Node): Fact[] {
    return this.visit(node, 0);
  }

  /** The facts of `node` as a scalar, such as a key or part of one. */
  scalars(node: TSESTree.Node): Leaf[] {
    return asScalars(this.facts(node));
  }

  /**
   * The facts of each value `node` may take, one list per alternative: `given || \`${user}:${amount}\``
   * is two keys, the given one or the fingerprint, and each is what it is on the path that uses
   * it. Followed through constants and wrappers; anything else is one alternative.
   */
  alternatives(node: TSESTree.Node, depth = 0): Leaf[][] {
    const inner = unwrapExpression(node);
    if (depth < 4) {
      if (inner.type === 'LogicalExpression' && inner.operator !== '&&')
        return [...this.alternatives(inner.left, depth + 1), ...this.alternatives(inner.right, depth + 1)];
      if (inner.type === 'ConditionalExpression')
        return [...this.alternatives(inner.consequent, depth + 1), ...this.alternatives(inner.alternate, depth + 1)];
      if (inner.type === 'AwaitExpression') return this.alternatives(inner.argument, depth + 1);
      if (inner.type === 'Identifier') {
        const value = constantInitializer(inner, this.file.scopeOf(inner));
        if (value) return this.alternatives(value, depth + 1);
      }
    }
    return [this.scalars(node)];
  }

  /** The facts of `node`, `depth` steps into a trace (the steps below and in call-facts.ts take it on). */
  visit(node: TSESTree.Node, depth: number): Fact[] {
    const cached = this.cache.get(node);
    if (cached) return cached;
    if (this.visiting.has(node)) return [];
    if (depth > maxDepth || this.steps > stepsPerFile) return [leaf('unknown', this.code(node))];
    this.steps += 1;
    this.visiting.add(node);
    let result: Fact[];
    try {
      result = this.compute(node, depth + 1);
    } finally {
      this.visiting.delete(node);
    }
    // A value made of thousands of alternatives (a file that joins everything with everything) is
    // not one the rules can judge: unknown, so that nothing rests on it.
    if (result.length > maxFacts) result = [leaf('unknown', this.code(node))];
    result = this.located(result, node);
    this.cache.set(node, result);
    return result;
  }

  /**
   * Says where a delivery, fresh, worker or amount value was read, in whichever module: a
   * finding's origin is that place, in an imported helper as much as in the linted file.
   */
  private located(facts: Fact[], node: TSESTree.Node): Fact[] {
    // Most values are none of these: leave their facts as they are, without a copy.
    const unlocated = (fact: Fact) => placedKinds.has(fact.kind) && !(fact as Leaf).at;
    if (!facts.some(unlocated)) return facts;
    const code = this.code(node);
    const { line, column } = node.loc.start;
    // A tracer reading another module for the linted file's sake names that module.
    const at = this.binding ? { line, column, file: this.file.filename } : { line, column };
    return facts.map((fact) => (unlocated(fact) && fact.code === code ? Object.assign({}, fact, { at }) : fact));
  }

  scalarsOf(node: TSESTree.Node, depth: number): Leaf[] {
    return asScalars(this.visit(node, depth));
  }

  private compute(node: TSESTree.Node, depth: number): Fact[] {
    switch (node.type) {
      case 'Literal':
        return [leaf('constant', node.raw)];
      case 'TemplateLiteral': {
        const facts: Fact[] = [leaf('constant', '`…`')];
        for (const expression of node.expressions)
          for (const fact of this.scalarsOf(expression, depth)) facts.push(fact);
        return facts;
      }
      case 'BinaryExpression':
        if (['+', '-', '*', '/', '%', '**', '|', '&', '^', '<<', '>>'].includes(node.operator)) {
          const parts = [
            ...(node.left.type === 'PrivateIdentifier' ? [] : this.scalarsOf(node.left, depth)),
            ...this.scalarsOf(node.right, depth),
          ];
          // Date.now() / 86_400_000: a period number, the same for every attempt within it.
          return node.operator === '/' ? bucketed(parts, this.code(node)) : parts;
        }
        return [leaf('constant', this.code(node))];
      case 'LogicalExpression': {
        const left = this.visit(node.left, depth);
        const right = this.visit(node.right, depth);
        if (node.operator === '&&') return [...left, ...right];
        // `options.key ?? nanoid()`, `data.taskId ?? job.id`: a fresh value or the delivery's own
        // id stands in only when no key was given. A value the code already holds (`row.key ??
        // mint()`, read back from where it was stored) is the rule even when nothing more is known of it.
        const given = left.some((fact) => fact.kind !== 'minted' && fact.kind !== 'unknown');
        if (!given && !holdsValue(left)) return [...left, ...right];
        return [
          ...left,
          ...right.map((fact) =>
            fact.kind === 'minted' || (given && fact.kind === 'delivery') ? { ...fact, fallback: true as const } : fact,
          ),
        ];
      }
      case 'ConditionalExpression': {
        // `given ? given : nanoid()`, `row.key ? row.key : mint()`: a fresh value in one branch only stands in for the other.
        return alternatives([this.visit(node.consequent, depth), this.visit(node.alternate, depth)]);
      }
      case 'AwaitExpression':
        return this.visit(node.argument, depth);
      case 'TSAsExpression':
      case 'TSNonNullExpression':
      case 'TSSatisfiesExpression':
      case 'TSTypeAssertion':
      case 'ChainExpression':
        return this.visit(node.expression, depth);
      case 'SequenceExpression':
        return this.visit(node.expressions[node.expressions.length - 1], depth);
      case 'AssignmentExpression':
        return this.visit(node.right, depth);
      case 'UnaryExpression':
        return node.operator === '-' || node.operator === '+'
          ? this.scalarsOf(node.argument, depth)
          : [leaf('constant', this.code(node))];
      case 'Identifier':
        return this.identifier(node, depth);
      case 'MemberExpression':
        return memberFacts(this, node, depth);
      case 'CallExpression':
        return callFacts(this, node, depth);
      case 'NewExpression':
        return constructFacts(this, node, depth);
      case 'ObjectExpression':
        return [{ kind: 'object', object: node, code: this.code(node), follow: this.follow }];
      case 'ArrayExpression':
        return [
          {
            kind: 'list',
            code: this.code(node),
            elements: node.elements.flatMap((element) =>
              !element
                ? []
                : element.type === 'SpreadElement'
                  ? elementsOf(this, this.visit(element.argument, depth))
                  : this.visit(element, depth),
            ),
          },
        ];
      default:
        return [leaf('unknown', this.code(node))];
    }
  }

  private identifier(node: TSESTree.Identifier, depth: number): Fact[] {
    if (node.name === 'undefined') return [leaf('constant', 'undefined')];
    const variable = variableOf(node, this.file.scopeOf(node));
    if (!variable || variable.defs.length === 0) return this.global(node);
    // Every use of a binding has the same facts: worked out once, not once per use (each would
    // look at all of the binding's references). A use met while they are being worked out (`x = x + 1`) is traced on its own.
    const known = this.byVariable.get(variable);
    if (known) return known;
    if (this.variablesVisiting.has(variable)) return this.variableFacts(variable, node, depth);
    this.variablesVisiting.add(variable);
    let facts: Fact[];
    try {
      facts = this.variableFacts(variable, node, depth);
    } finally {
      this.variablesVisiting.delete(variable);
    }
    this.byVariable.set(variable, facts);
    return facts;
  }

  private variableFacts(variable: TSESLint.Scope.Variable, node: TSESTree.Identifier, depth: number): Fact[] {
    const facts: Fact[] = [];
    const initializers = new Set<TSESTree.Node>();
    for (const definition of variable.defs) {
      const name = definition.name as TSESTree.Identifier;
      if (definition.type === 'Variable') {
        const declarator = definition.node;
        const loop = declarator.parent?.parent;
        const found = pathTo(declarator.id, name);
        if (!found) continue;
        if (declarator.init) {
          initializers.add(declarator.init);
          facts.push(...follow(this, this.visit(declarator.init, depth), found, name, depth));
        } else if (
          (loop?.type === 'ForOfStatement' || loop?.type === 'ForInStatement') &&
          loop.left === declarator.parent
        ) {
          // The loop writes each element to the binding: what the elements are is known below.
          initializers.add(loop.right);
          const elements =
            loop.type === 'ForOfStatement'
              ? elementsOf(this, this.visit(loop.right, depth))
              : [leaf('unknown', name.name)];
          facts.push(...follow(this, elements, found, name, depth));
        }
      } else if (definition.type === 'Parameter' && isFunction(definition.node)) {
        const fn = definition.node;
        const index = fn.params.findIndex((param) => pathTo(param, name));
        const param = fn.params[index];
        const found = param && pathTo(param, name);
        if (found) facts.push(...follow(this, this.parameter(fn, index, depth), found, name, depth));
      }
    }
    for (const reference of variable.references) {
      const written = reference.writeExpr;
      if (reference.isWrite() && written && !initializers.has(written)) facts.push(...this.visit(written, depth));
    }
    if (facts.every((fact) => fact.kind === 'unknown')) {
      const named = byName(this.table, undefined, node.name, node.name);
      if (named) return [named];
    }
    return facts.length > 0 ? facts : [leaf('unknown', node.name)];
  }

  /** A name with no declaration in the file: a global, or a free variable in a snippet. */
  private global(node: TSESTree.Identifier): Fact[] {
    const fromName = deliveryByName(node.name, this.file);
    if (fromName) return fromName;
    return [byName(this.table, undefined, node.name, node.name) ?? leaf('unknown', node.name)];
  }

  /** What parameter `index` of `fn` holds: a broker's delivery, an element of a list, or its call sites' arguments. */
  private parameter(fn: FunctionNode, index: number, depth: number): Fact[] {
    if (this.binding?.fn === fn) return this.binding.args?.[index] ?? [];
    const sites = this.file.functionSites(fn);
    const role = handlerParameter(fn, index, sites, this.file);
    if (role) return role;

    const parent = fn.parent;
    if (
      parent?.type === 'CallExpression' &&
      parent.arguments[0] === fn &&
      index === 0 &&
      parent.callee.type === 'MemberExpression'
    ) {
      const method = propertyName(parent.callee);
      if (method && arrayCallbacks.has(method)) return elementsOf(this, this.visit(parent.callee.object, depth));
    }

    const facts: Fact[] = [];
    for (const site of sites) {
      const call = site.parent;
      if (call?.type === 'CallExpression' && call.callee === site) {
        const argument = call.arguments[index];
        if (argument && argument.type !== 'SpreadElement') facts.push(...this.visit(argument, depth));
      }
    }
    // An exported function is also called from other modules: what they pass.
    if ((this.binding?.moduleDepth ?? 0) < maxModuleDepth) {
      for (const { module, site } of sitesInImporters(fn, this.file)) {
        const call = site.parent;
        const argument = call?.type === 'CallExpression' && call.callee === site ? call.arguments[index] : undefined;
        if (argument && argument.type !== 'SpreadElement') facts.push(...this.tracerFor(module).facts(argument));
      }
    }
    if (facts.length > 0) return facts;
    return namedParameter(fn, index, this.file) ?? [];
  }

  private readonly importers = new Map<FileContext, OriginTracer>();

  /** A tracer of a module that calls into this one, one level further from the linted file. */
  private tracerFor(module: FileContext): OriginTracer {
    let tracer = this.importers.get(module);
    if (!tracer) {
      tracer = new OriginTracer(module, { moduleDepth: (this.binding?.moduleDepth ?? 0) + 1 });
      this.importers.set(module, tracer);
    }
    return tracer;
  }

  /** What an imported function returns for this call's arguments, read in its own module. */
  returnsAcross(module: FileContext, fn: FunctionNode, call: TSESTree.CallExpression, depth: number): Fact[] {
    return this.across(module, fn, call, depth).returnsOf(fn, 0);
  }

  /** A tracer of `module` for this call of its function `fn`: the function's parameters hold the call's arguments. */
  across(module: FileContext, fn: FunctionNode, call: TSESTree.CallExpression, depth = 0): OriginTracer {
    const args = call.arguments.map((argument) =>
      argument.type === 'SpreadElement' ? [] : this.visit(argument, depth),
    );
    return new OriginTracer(module, { fn, args, moduleDepth: (this.binding?.moduleDepth ?? 0) + 1 });
  }

  returnsOf(fn: FunctionNode, depth: number): Fact[] {
    if (fn.body.type !== 'BlockStatement') return this.visit(fn.body, depth);
    const returned: Fact[][] = [];
    for (const value of returnedValues(fn.body, this.file)) returned.push(this.visit(value, depth));
    // `if (!id) return randomUUID(); return hash(id)`: as in a conditional, a return that only makes
    // a fresh value stands in for the one that returns what the function was given.
    const facts = alternatives(returned);
    return facts.length > 0 ? facts : [leaf('unknown', this.code(fn))];
  }
}

const returnedByBody = new WeakMap<TSESTree.BlockStatement, readonly TSESTree.Expression[]>();

/** The values a function body returns, its nested functions' left out: found once per body, however often it is called. */
function returnedValues(body: TSESTree.BlockStatement, file: FileContext): readonly TSESTree.Expression[] {
  let values = returnedByBody.get(body);
  if (!values) {
    const found: TSESTree.Expression[] = [];
    walk(body, file.visitorKeys, (current) => {
      if (current.type === 'ReturnStatement') {
        if (current.argument) found.push(current.argument);
        return false;
      }
      return !isFunction(current);
    });
    returnedByBody.set(body, (values = found));
  }
  return values;
}
