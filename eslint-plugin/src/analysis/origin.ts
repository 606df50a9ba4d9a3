import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { consumerParameter, deliveryByName, namedParameter, type FileImports, type FunctionNode } from './consumers.js';
import { byName, callOnRole, memberOfRole } from './deliveries.js';
import { asScalars, isLeaf, leaf, type Fact, type Leaf } from './facts.js';
import { calleeName, keyName, memberPath, objectProperty, propertyName, variableOf } from './scope.js';
import { walk } from './walk.js';

/**
 * Where a value comes from. The tracer follows a value through variables, destructuring,
 * template literals, concatenation, hashing, object properties, loops over batches and calls to
 * functions in the same file, until it reaches something it knows: a broker's delivery, a parsed
 * payload, a random or clock value, a constant. It never throws and never runs long: cycles end
 * the path, and each file has a fixed budget of steps.
 */

const maxDepth = 60;
const stepsPerFile = 50_000;

const mintingCalls = new Map<string, string>([
  ['randomUUID', 'a random UUID'],
  ['uuid', 'a random UUID'],
  ['uuidv4', 'a random UUID'],
  ['uuidV4', 'a random UUID'],
  ['v4', 'a random UUID'],
  ['v1', 'a time-based UUID'],
  ['v7', 'a time-based UUID'],
  ['uuidv7', 'a time-based UUID'],
  ['uuidv1', 'a time-based UUID'],
  ['randomUUIDv7', 'a time-based UUID'],
  ['ulid', 'a new ULID'],
  ['nanoid', 'a new nanoid'],
  ['cuid', 'a new cuid'],
  ['createId', 'a new cuid'],
  ['randomBytes', 'random bytes'],
  ['ObjectId', 'a new ObjectId'],
]);
const mintingPaths = new Map<string, string>([
  ['Date.now', 'the current time'],
  ['performance.now', 'the current time'],
  ['Math.random', 'a random number'],
  ['process.hrtime', 'the current time'],
  ['process.hrtime.bigint', 'the current time'],
]);
const workerCalls = new Map<string, string>([
  ['os.hostname', "the worker's host name"],
  ['hostname', "the worker's host name"],
  ['process.pid', "the worker's process id"],
]);

/** Methods that return the same value in another form. */
const sameValueMethods = new Set([
  'toString', 'trim', 'trimStart', 'trimEnd', 'toLowerCase', 'toUpperCase', 'toLocaleLowerCase', 'toLocaleUpperCase',
  'padStart', 'padEnd', 'slice', 'substring', 'substr', 'replace', 'replaceAll', 'normalize', 'toFixed', 'toPrecision',
  'toISOString', 'toJSON', 'valueOf', 'getTime', 'toUTCString', 'toDateString', 'toLocaleString', 'concat', 'update',
  'digest', 'at', 'join', 'toHexString', 'toBase58', 'base64',
]);

/** Functions whose result is built from their arguments: conversions, hashes, key builders. */
const derivingFunction =
  /^(String|Number|BigInt|encodeURIComponent|encodeURI|escape|format|from|stringify)$|hash|digest|sha\d*|md5|crc|fnv|murmur|xxh|fingerprint|^v5$|^v3$|uuidv5|uuidv3|^(make|build|compose|derive|format|to)\w*key$|^key(For|Of)$|^(floor|round|ceil|trunc)$/i;

/**
 * Methods that cut the current time down to a period: `toISOString().slice(0, 10)` is today's
 * date, the same for every retry today. A key built from it names a period, not an attempt.
 */
const timeBuckets = new Set([
  'slice', 'substring', 'substr', 'split', 'getFullYear', 'getMonth', 'getDate', 'getDay', 'getHours', 'getUTCFullYear',
  'getUTCMonth', 'getUTCDate', 'getUTCDay', 'getUTCHours', 'toDateString', 'toLocaleDateString', 'startOf', 'format',
]);

function bucketed(facts: Leaf[], code: string): Leaf[] {
  return facts.map((fact) => (fact.kind === 'minted' && fact.what === 'the current time' ? leaf('time', code) : fact));
}

const workerGlobals = new Set(['process', 'os', 'cluster']);

/** Does the member chain start at one of `names` (`process.env.HOSTNAME` at `process`)? */
function startsAtGlobal(node: TSESTree.MemberExpression, names: ReadonlySet<string>): boolean {
  let object: TSESTree.Node = node.object;
  while (object.type === 'MemberExpression') object = object.object;
  return object.type === 'Identifier' && names.has(object.name);
}

const arrayCallbacks = new Set(['forEach', 'map', 'flatMap', 'filter', 'find', 'findLast', 'some', 'every']);

function isFunction(node: TSESTree.Node | undefined | null): node is FunctionNode {
  return node?.type === 'FunctionDeclaration' || node?.type === 'FunctionExpression' || node?.type === 'ArrowFunctionExpression';
}

type Step = { member: string } | { element: true };

/** The property path from a binding pattern's root to one identifier in it, plus its default values. */
function pathTo(pattern: TSESTree.Node, target: TSESTree.Identifier): { steps: Step[]; defaults: TSESTree.Node[] } | undefined {
  if (pattern === target) return { steps: [], defaults: [] };
  switch (pattern.type) {
    case 'ObjectPattern':
      for (const property of pattern.properties) {
        if (property.type === 'RestElement') {
          const found = pathTo(property.argument, target);
          if (found) return found;
          continue;
        }
        const found = pathTo(property.value, target);
        const key = keyName(property);
        if (found && key !== undefined) return { steps: [{ member: key }, ...found.steps], defaults: found.defaults };
      }
      return undefined;
    case 'ArrayPattern':
      for (const element of pattern.elements) {
        if (!element) continue;
        const found = pathTo(element.type === 'RestElement' ? element.argument : element, target);
        if (found) return { steps: [{ element: true }, ...found.steps], defaults: found.defaults };
      }
      return undefined;
    case 'AssignmentPattern': {
      const found = pathTo(pattern.left, target);
      return found && { steps: found.steps, defaults: [pattern.right, ...found.defaults] };
    }
    case 'RestElement':
      return pathTo(pattern.argument, target);
    case 'TSParameterProperty':
      return pathTo(pattern.parameter, target);
    default:
      return undefined;
  }
}

function lastName(code: string): string | undefined {
  return /([A-Za-z_$][\w$]*)\s*(\[\])?$/.exec(code)?.[1];
}

function importsOf(program: TSESTree.Program): FileImports {
  const sources = new Set<string>();
  const bindings = new Map<string, string>();
  const visitRequire = (node: TSESTree.Node | null | undefined, pattern?: TSESTree.Node) => {
    if (node?.type === 'AwaitExpression') node = node.argument;
    if (node?.type !== 'CallExpression' || node.callee.type !== 'Identifier' || node.callee.name !== 'require') return;
    const [argument] = node.arguments;
    if (argument?.type !== 'Literal' || typeof argument.value !== 'string') return;
    sources.add(argument.value);
    if (pattern?.type === 'Identifier') bindings.set(pattern.name, argument.value);
    if (pattern?.type === 'ObjectPattern') {
      for (const property of pattern.properties) {
        if (property.type === 'Property' && property.value.type === 'Identifier') bindings.set(property.value.name, argument.value);
      }
    }
  };
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') {
      sources.add(statement.source.value);
      for (const specifier of statement.specifiers) bindings.set(specifier.local.name, statement.source.value);
    } else if (statement.type === 'VariableDeclaration') {
      for (const declarator of statement.declarations) visitRequire(declarator.init, declarator.id);
    }
  }
  return { sources, bindings };
}

export class OriginTracer {
  // Plain maps, dropped with the file: node-keyed WeakMaps cost far more in garbage collection.
  private readonly cache = new Map<TSESTree.Node, Fact[]>();
  private readonly visiting = new Set<TSESTree.Node>();
  private steps = 0;
  readonly imports: FileImports;

  constructor(private readonly sourceCode: Readonly<TSESLint.SourceCode>) {
    this.imports = importsOf(sourceCode.ast);
  }

  scopeOf = (node: TSESTree.Node): TSESLint.Scope.Scope => this.sourceCode.getScope(node);

  text = (node: TSESTree.Node): string => this.sourceCode.getText(node);

  get visitorKeys(): TSESLint.SourceCode.VisitorKeys {
    return this.sourceCode.visitorKeys;
  }

  private code(node: TSESTree.Node): string {
    const text = this.sourceCode.getText(node);
    return text.length > 60 ? `${text.slice(0, 57)}...` : text;
  }

  /** Everything known about where the value of `node` comes from. */
  facts(node: TSESTree.Node): Fact[] {
    return this.visit(node, 0);
  }

  /** The facts of `node` as a scalar, such as a key or part of one. */
  scalars(node: TSESTree.Node): Leaf[] {
    return asScalars(this.facts(node));
  }

  private visit(node: TSESTree.Node, depth: number): Fact[] {
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
    this.cache.set(node, result);
    return result;
  }

  private scalarsOf(node: TSESTree.Node, depth: number): Leaf[] {
    return asScalars(this.visit(node, depth));
  }

  private compute(node: TSESTree.Node, depth: number): Fact[] {
    switch (node.type) {
      case 'Literal':
        return [leaf('constant', node.raw)];
      case 'TemplateLiteral':
        return [leaf('constant', '`…`'), ...node.expressions.flatMap((expression) => this.scalarsOf(expression, depth))];
      case 'BinaryExpression':
        if (['+', '-', '*', '/', '%', '**', '|', '&', '^', '<<', '>>'].includes(node.operator)) {
          const parts = [...(node.left.type === 'PrivateIdentifier' ? [] : this.scalarsOf(node.left, depth)), ...this.scalarsOf(node.right, depth)];
          // Date.now() / 86_400_000: a period number, the same for every attempt within it.
          return node.operator === '/' ? bucketed(parts, this.code(node)) : parts;
        }
        return [leaf('constant', this.code(node))];
      case 'LogicalExpression':
        return [...this.visit(node.left, depth), ...this.visit(node.right, depth)];
      case 'ConditionalExpression':
        return [...this.visit(node.consequent, depth), ...this.visit(node.alternate, depth)];
      case 'AwaitExpression':
        return this.visit(node.argument, depth);
      case 'TSAsExpression':
      case 'TSNonNullExpression':
      case 'TSSatisfiesExpression':
      case 'TSTypeAssertion':
      case 'ChainExpression':
        return this.visit(node.expression, depth);
      case 'SequenceExpression':
        return this.visit(node.expressions[node.expressions.length - 1]!, depth);
      case 'AssignmentExpression':
        return this.visit(node.right, depth);
      case 'UnaryExpression':
        return node.operator === '-' || node.operator === '+' ? this.scalarsOf(node.argument, depth) : [leaf('constant', this.code(node))];
      case 'Identifier':
        return this.identifier(node, depth);
      case 'MemberExpression':
        return this.member(node, depth);
      case 'CallExpression':
        return this.call(node, depth);
      case 'NewExpression':
        return this.construct(node, depth);
      case 'ObjectExpression':
        return [{ kind: 'object', object: node, code: this.code(node) }];
      case 'ArrayExpression':
        return [
          {
            kind: 'list',
            code: this.code(node),
            elements: node.elements.flatMap((element) =>
              !element ? [] : element.type === 'SpreadElement' ? this.elementsOf(this.visit(element.argument, depth)) : this.visit(element, depth),
            ),
          },
        ];
      default:
        return [leaf('unknown', this.code(node))];
    }
  }

  private identifier(node: TSESTree.Identifier, depth: number): Fact[] {
    if (node.name === 'undefined') return [leaf('constant', 'undefined')];
    const variable = variableOf(node, this.scopeOf(node));
    if (!variable || variable.defs.length === 0) return this.global(node);
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
          facts.push(...this.follow(this.visit(declarator.init, depth), found, name, depth));
        } else if ((loop?.type === 'ForOfStatement' || loop?.type === 'ForInStatement') && loop.left === declarator.parent) {
          const elements = loop.type === 'ForOfStatement' ? this.elementsOf(this.visit(loop.right, depth)) : [leaf('unknown', name.name)];
          facts.push(...this.follow(elements, found, name, depth));
        }
      } else if (definition.type === 'Parameter' && isFunction(definition.node)) {
        const fn = definition.node;
        const index = fn.params.findIndex((param) => pathTo(param, name));
        const param = fn.params[index];
        const found = param && pathTo(param, name);
        if (found) facts.push(...this.follow(this.parameter(fn, index, depth), found, name, depth));
      }
    }
    for (const reference of variable.references) {
      const written = reference.writeExpr;
      if (reference.isWrite() && written && !initializers.has(written)) facts.push(...this.visit(written, depth));
    }
    if (facts.every((fact) => fact.kind === 'unknown')) {
      const named = byName(undefined, node.name, node.name);
      if (named) return [named];
    }
    return facts.length > 0 ? facts : [leaf('unknown', node.name)];
  }

  /** A name with no declaration in the file: a global, or a free variable in a snippet. */
  private global(node: TSESTree.Identifier): Fact[] {
    const fromName = deliveryByName(node.name);
    if (fromName) return fromName;
    return [byName(undefined, node.name, node.name) ?? leaf('unknown', node.name)];
  }

  /**
   * Applies a destructuring path (and its default values) to the facts of the whole value. The
   * facts are then named after the binding (`topic`), which is what the reader sees in the code.
   */
  private follow(facts: Fact[], found: { steps: Step[]; defaults: TSESTree.Node[] }, binding: TSESTree.Identifier, depth: number): Fact[] {
    let current = facts;
    for (const step of found.steps) {
      current = 'member' in step ? current.flatMap((fact) => this.memberOf(fact, step.member, `${fact.code}.${step.member}`, depth)) : this.elementsOf(current);
    }
    if (found.steps.length > 0) current = current.map((fact) => ({ ...fact, code: binding.name }));
    return [...current, ...found.defaults.flatMap((value) => this.visit(value, depth))];
  }

  private readonly sitesCache = new Map<FunctionNode, TSESTree.Node[]>();

  /** The function node and every reference to its name: where it is called or registered. */
  functionSites(fn: FunctionNode): TSESTree.Node[] {
    const cached = this.sitesCache.get(fn);
    if (cached) return cached;
    const sites: TSESTree.Node[] = [fn];
    let nameNode: TSESTree.Identifier | undefined;
    if (fn.type === 'FunctionDeclaration' && fn.id) nameNode = fn.id;
    else if (fn.parent?.type === 'VariableDeclarator' && fn.parent.id.type === 'Identifier') nameNode = fn.parent.id;
    if (nameNode) {
      const scope = fn.type === 'FunctionDeclaration' ? this.scopeOf(fn).upper ?? this.scopeOf(fn) : this.scopeOf(fn.parent!);
      const variable = variableOf(nameNode, scope);
      for (const reference of variable?.references ?? []) {
        if (reference.identifier !== nameNode) sites.push(reference.identifier as TSESTree.Node);
      }
    }
    const method = fn.parent;
    if (method?.type === 'MethodDefinition' || (method?.type === 'Property' && method.value === fn)) {
      sites.push(...this.thisCalls(method, keyName(method)));
    }
    this.sitesCache.set(fn, sites);
    return sites;
  }

  /** `this.name(…)` calls in the class or object literal that holds a method. */
  private thisCalls(method: TSESTree.MethodDefinition | TSESTree.Property, name: string | undefined): TSESTree.Node[] {
    if (!name) return [];
    const owner = method.parent;
    const found: TSESTree.Node[] = [];
    if (!owner) return found;
    walk(owner, this.sourceCode.visitorKeys, (current) => {
      if (
        current.type === 'MemberExpression' &&
        current.object.type === 'ThisExpression' &&
        propertyName(current) === name &&
        current.parent?.type === 'CallExpression' &&
        current.parent.callee === current
      ) {
        found.push(current);
      }
    });
    return found;
  }

  /** What parameter `index` of `fn` holds: a broker's delivery, an element of a list, or its call sites' arguments. */
  private parameter(fn: FunctionNode, index: number, depth: number): Fact[] {
    const sites = this.functionSites(fn);
    const role = consumerParameter(fn, index, sites, this.imports);
    if (role) return role;

    const parent = fn.parent;
    if (parent?.type === 'CallExpression' && parent.arguments[0] === fn && index === 0 && parent.callee.type === 'MemberExpression') {
      const method = propertyName(parent.callee);
      if (method && arrayCallbacks.has(method)) return this.elementsOf(this.visit(parent.callee.object, depth));
    }

    const facts: Fact[] = [];
    for (const site of sites) {
      const call = site.parent;
      if (call?.type === 'CallExpression' && call.callee === site) {
        const argument = call.arguments[index];
        if (argument && argument.type !== 'SpreadElement') facts.push(...this.visit(argument, depth));
      }
    }
    if (facts.length > 0) return facts;
    return namedParameter(fn, index) ?? [];
  }

  /** What the elements of a list-like value are: `batch.messages[i]`, `event.Records[i]`. */
  private elementsOf(facts: Fact[]): Fact[] {
    return facts.flatMap((fact): Fact[] => {
      if (fact.kind === 'list') return fact.elements;
      if (fact.kind === 'shaped') return memberOfRole(fact.role, '0', `${fact.code}[0]`, fact.code);
      return [leaf(isLeaf(fact) ? fact.kind : 'unknown', `${fact.code}[]`)];
    });
  }

  private member(node: TSESTree.MemberExpression, depth: number): Fact[] {
    // Worker identity is read from a few globals; other member chains are not spelled out.
    const path = startsAtGlobal(node, workerGlobals) ? memberPath(node)?.join('.') : undefined;
    if (path) {
      const worker = workerCalls.get(path);
      if (worker) return [leaf('worker', path, worker)];
      if (path === 'cluster.worker.id') return [leaf('worker', path, 'the worker id')];
      if (path.startsWith('process.env.')) {
        const variable = path.slice('process.env.'.length);
        if (/^(HOSTNAME|HOST|POD_NAME|POD_IP|NODE_NAME|WORKER_ID|INSTANCE_ID|DYNO)$/.test(variable)) return [leaf('worker', path, 'the worker identity')];
        return [leaf('constant', path)];
      }
    }
    const code = this.code(node);
    const property = node.property;
    if (node.computed && property.type !== 'Literal') return this.elementsOf(this.visit(node.object, depth));
    const name = propertyName(node);
    if (name === undefined) return [leaf('unknown', code)];
    if (/^\d+$/.test(name)) return this.elementsOf(this.visit(node.object, depth));
    return this.visit(node.object, depth).flatMap((fact) => this.memberOf(fact, name, code, depth));
  }

  private memberOf(fact: Fact, name: string, code: string, depth: number): Fact[] {
    switch (fact.kind) {
      case 'shaped':
        return memberOfRole(fact.role, name, code, fact.code);
      case 'object': {
        const property = objectProperty(fact.object, name);
        const owner = lastName(fact.code);
        if (!property) return [byName(owner, name, code) ?? leaf('unknown', code)];
        const value = this.visit(property.value, depth);
        // A literal in an object literal is test data; the name says what it stands for.
        if (value.every((item) => item.kind === 'constant')) return [byName(owner, name, code) ?? value[0] ?? leaf('constant', code)];
        return value;
      }
      case 'list':
        if (name === 'length') return [leaf('constant', code)];
        return [leaf('unknown', code)];
      default: {
        if (name === 'length') return [leaf('constant', code)];
        const named = byName(lastName(fact.code), name, code);
        if (named) return [named];
        return [leaf(fact.kind === 'constant' ? 'unknown' : fact.kind, code, fact.what)];
      }
    }
  }

  private call(node: TSESTree.CallExpression, depth: number): Fact[] {
    const code = this.code(node);
    const callee = node.callee.type === 'ChainExpression' ? node.callee.expression : node.callee;
    const name = calleeName(callee);
    const path = memberPath(callee)?.join('.');
    const minted = (path && mintingPaths.get(path)) ?? (name && mintingCalls.get(name));
    if (minted) return [leaf('minted', code, minted)];
    const worker = (path && workerCalls.get(path)) ?? (name === 'hostname' ? workerCalls.get('hostname') : undefined);
    if (worker) return [leaf('worker', code, worker)];
    const argumentScalars = () => node.arguments.flatMap((argument) => (argument.type === 'SpreadElement' ? [] : this.scalarsOf(argument, depth)));

    if (path === 'JSON.parse') {
      return [{ kind: 'shaped', role: { type: 'payload' }, code }];
    }
    const [first] = node.arguments;
    if (name === 'receiveMessage' || (name === 'send' && first?.type === 'NewExpression' && calleeName(first.callee) === 'ReceiveMessageCommand')) {
      return [{ kind: 'shaped', role: { type: 'sqs-receive' }, code }];
    }

    if (callee.type === 'MemberExpression' && name) {
      const receiver = this.visit(callee.object, depth);
      const results: Fact[] = [];
      let understood = true;
      for (const fact of receiver) {
        if (fact.kind === 'shaped') {
          const result = callOnRole(fact.role, name, code);
          if (result) {
            results.push(...result);
            continue;
          }
        }
        if (fact.kind === 'list' && (name === 'join' || name === 'at' || name === 'find' || name === 'shift' || name === 'pop')) {
          results.push(...asScalars(fact.elements));
          continue;
        }
        understood = false;
      }
      if (understood && results.length > 0) return name === 'join' ? [...results, ...argumentScalars()] : results;
      if (timeBuckets.has(name)) return bucketed(asScalars(receiver), code);
      if (sameValueMethods.has(name)) return [...asScalars(receiver), ...argumentScalars()];
    }

    const target = this.localFunction(callee);
    if (target) return this.returnsOf(target, depth);
    if (name && derivingFunction.test(name)) return argumentScalars();
    return [leaf('unknown', code)];
  }

  private construct(node: TSESTree.NewExpression, depth: number): Fact[] {
    const name = calleeName(node.callee);
    const code = this.code(node);
    if (name === 'Date') {
      const [argument] = node.arguments;
      return argument && argument.type !== 'SpreadElement' ? this.scalarsOf(argument, depth) : [leaf('minted', code, 'the current time')];
    }
    if (name === 'ObjectId' && node.arguments.length === 0) return [leaf('minted', code, 'a new ObjectId')];
    return [leaf('unknown', code)];
  }

  /** A function declared in this file that `callee` names. */
  private localFunction(callee: TSESTree.Node): FunctionNode | undefined {
    if (callee.type === 'Identifier') {
      const variable = variableOf(callee, this.scopeOf(callee));
      const definition = variable?.defs[0];
      if (variable?.defs.length !== 1 || !definition) return undefined;
      if (definition.type === 'FunctionName' && isFunction(definition.node)) return definition.node;
      if (definition.type === 'Variable' && isFunction(definition.node.init)) return definition.node.init;
      return undefined;
    }
    if (callee.type === 'MemberExpression' && callee.object.type === 'ThisExpression') {
      const name = propertyName(callee);
      let owner: TSESTree.Node | undefined = callee.parent;
      while (owner && owner.type !== 'ClassBody') owner = owner.parent;
      if (!owner || owner.type !== 'ClassBody' || !name) return undefined;
      for (const member of owner.body) {
        if (member.type === 'MethodDefinition' && keyName(member) === name) return member.value as FunctionNode;
      }
    }
    return undefined;
  }

  private returnsOf(fn: FunctionNode, depth: number): Fact[] {
    if (fn.body.type !== 'BlockStatement') return this.visit(fn.body, depth);
    const facts: Fact[] = [];
    walk(fn.body, this.sourceCode.visitorKeys, (current) => {
      if (current.type === 'ReturnStatement') {
        if (current.argument) facts.push(...this.visit(current.argument, depth));
        return false;
      }
      return !isFunction(current);
    });
    return facts.length > 0 ? facts : [leaf('unknown', this.code(fn))];
  }
}
