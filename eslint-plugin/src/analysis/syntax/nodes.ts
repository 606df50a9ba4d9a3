import type { TSESTree } from '@typescript-eslint/utils';

/** Small questions about syntax nodes: names, keys, member chains and strings written in place. */

/** The name a callee is called by: `query` for `db.query(…)`, `sql` for `sql\`…\``. */
export function calleeName(callee: TSESTree.Node): string | undefined {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression') return propertyName(callee);
  if (callee.type === 'ChainExpression') return calleeName(callee.expression);
  return undefined;
}

/** `b` for `a.b` and `a['b']`; undefined for computed keys that are not literals. */
export function propertyName(member: TSESTree.MemberExpression): string | undefined {
  if (!member.computed && member.property.type === 'Identifier') return member.property.name;
  if (member.property.type === 'Literal' && typeof member.property.value === 'string') return member.property.value;
  if (member.property.type === 'PrivateIdentifier') return member.property.name;
  return undefined;
}

/** The key of an object property as text, when it is static. */
export function keyName(
  property: TSESTree.Property | TSESTree.PropertyDefinition | TSESTree.MethodDefinition,
): string | undefined {
  if (!property.computed && property.key.type === 'Identifier') return property.key.name;
  if (property.key.type === 'Literal') return String(property.key.value);
  return undefined;
}

/** The property `name` of an object literal, if it is written there. */
export function objectProperty(object: TSESTree.ObjectExpression, name: string): TSESTree.Property | undefined {
  for (const property of object.properties) {
    if (property.type === 'Property' && keyName(property) === name) return property;
  }
  return undefined;
}

/** Strips wrappers that do not change a value: `await`, `as`, `!`, `satisfies`, parentheses, `?.`. */
export function unwrapExpression(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  for (;;) {
    switch (current.type) {
      case 'AwaitExpression':
        current = current.argument;
        break;
      case 'TSAsExpression':
      case 'TSNonNullExpression':
      case 'TSSatisfiesExpression':
      case 'TSTypeAssertion':
        current = current.expression;
        break;
      case 'ChainExpression':
        current = current.expression;
        break;
      default:
        return current;
    }
  }
}

/** The member chain from the root: `db.users.findFirst` → [db, users, findFirst]. */
export function memberPath(node: TSESTree.Node): string[] | undefined {
  const names: string[] = [];
  let current: TSESTree.Node = node;
  for (let guard = 0; guard < 32; guard += 1) {
    current = unwrapExpression(current);
    if (current.type === 'Identifier') return [current.name, ...names.reverse()];
    if (current.type === 'ThisExpression') return ['this', ...names.reverse()];
    if (current.type !== 'MemberExpression') return undefined;
    const name = propertyName(current);
    if (name === undefined) return undefined;
    names.push(name);
    current = current.object;
  }
  return undefined;
}

/** The text of a string written in place: `'refunds'`, or a template without interpolations. */
export function staticString(node: TSESTree.Node | undefined): string | undefined {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0)
    return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** Strips type assertions, which do not change a value: `as`, `!`, `satisfies`, `<T>`. */
export function withoutTypeAssertions(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (
    current.type === 'TSAsExpression' ||
    current.type === 'TSSatisfiesExpression' ||
    current.type === 'TSNonNullExpression' ||
    current.type === 'TSTypeAssertion'
  )
    current = current.expression;
  return current;
}

/**
 * `await db.query('INSERT … ON CONFLICT DO NOTHING')` as a statement of its own, or with only a
 * `.catch(…)` or `.finally(…)` after it: nobody reads what it said.
 */
export function resultIgnored(node: TSESTree.Node): boolean {
  let current = node;
  for (;;) {
    const parent = current.parent;
    if (parent?.type === 'AwaitExpression' || parent?.type === 'ChainExpression') current = parent;
    else if (parent?.type === 'MemberExpression' && parent.object === current && promiseStep(parent.parent))
      current = parent.parent!;
    else break;
  }
  return current.parent?.type === 'ExpressionStatement';
}

/** The name an export or import specifier gives: `export { a as b }` → `b`, `export { a as 'b-c' }` → `b-c`. */
export function moduleExportName(node: TSESTree.Identifier | TSESTree.StringLiteral): string {
  return node.type === 'Identifier' ? node.name : node.value;
}

/** Nobody reads what a write said: its result is ignored, or its call resolves to nothing. */
export function answerUnread(operation: { node: TSESTree.Node; answerless?: boolean }): boolean {
  return operation.answerless === true || resultIgnored(operation.node);
}

/** `node` with what awaits or casts it: the expression its value is taken from. */
export function awaited(node: TSESTree.Node): TSESTree.Node {
  let at = node;
  while (
    at.parent &&
    (at.parent.type === 'AwaitExpression' ||
      at.parent.type === 'TSAsExpression' ||
      at.parent.type === 'TSNonNullExpression' ||
      at.parent.type === 'ChainExpression')
  )
    at = at.parent;
  return at;
}

/**
 * The callback a promise hands its value to, `find(…).then((order) => …)`: the value is known only
 * inside it. `node` may be the promise, or a chain that ends at the `then` itself.
 */
export function thenCallback(
  node: TSESTree.Node,
): TSESTree.ArrowFunctionExpression | TSESTree.FunctionExpression | undefined {
  const at = awaited(node);
  const member = at.parent?.type === 'MemberExpression' && at.parent.object === at ? at.parent : undefined;
  const then = [node, member?.parent].find(
    (call): call is TSESTree.CallExpression =>
      call?.type === 'CallExpression' &&
      call.callee.type === 'MemberExpression' &&
      propertyName(call.callee) === 'then',
  );
  const [callback] = then?.arguments ?? [];
  return callback?.type === 'ArrowFunctionExpression' || callback?.type === 'FunctionExpression' ? callback : undefined;
}

/** `….catch(…)`, `….finally(…)`: a step that handles how a promise ends, not what it gives. */
export function promiseStep(node: TSESTree.Node | undefined): boolean {
  return (
    node?.type === 'CallExpression' &&
    node.callee.type === 'MemberExpression' &&
    node.callee.property.type === 'Identifier' &&
    (node.callee.property.name === 'catch' || node.callee.property.name === 'finally')
  );
}

const objectParts = new Set([
  'Property',
  'ObjectExpression',
  'ArrayExpression',
  'TSAsExpression',
  'TSSatisfiesExpression',
  'TSNonNullExpression',
]);

/**
 * The outermost object or array literal `node` sits in, through properties and type assertions:
 * what the code hands on as one value. `passing` sees each node climbed through.
 */
export function enclosingLiteral(node: TSESTree.Node, passing?: (node: TSESTree.Node) => void): TSESTree.Node {
  let current = node;
  while (current.parent && objectParts.has(current.parent.type)) {
    current = current.parent;
    passing?.(current);
  }
  return current;
}

/** The call `node` is handed to as an argument (`run(node)`), if it is one. */
export function callTaking(node: TSESTree.Node): TSESTree.CallExpression | undefined {
  const parent = node.parent;
  return parent?.type === 'CallExpression' && parent.arguments.includes(node as TSESTree.CallExpressionArgument)
    ? parent
    : undefined;
}

/** Calls named for running the function they are given now: `items.map(async (item) => …)`, `$transaction(async (tx) => …)`. */
const inlineCallbacks =
  /^(map|forEach|flatMap|reduce|filter|some|every|all|allSettled|\$transaction|transaction|withTransaction|tx|run|begin|serializable|then)$/;

/**
 * Is `fn` written inline as the argument of a call that runs it now: one named for it (`map`,
 * `$transaction`), or one awaited or returned for its answer (`return breaker.execute(async () => …)`,
 * `await retry(async () => …)`), which the function has run by?
 */
export function runsInline(fn: TSESTree.Node): boolean {
  const call = callTaking(fn);
  if (!call) return false;
  if (inlineCallbacks.test(calleeName(call.callee) ?? '')) return true;
  const use = call.parent;
  return (
    use?.type === 'AwaitExpression' ||
    use?.type === 'ReturnStatement' ||
    (use?.type === 'ArrowFunctionExpression' && use.body === call)
  );
}

/**
 * Where a class declares what `this.<field>` holds: a field of the class, or a parameter property
 * of its constructor (`constructor(private readonly wallet: WalletService)`).
 */
export function fieldDeclaration(
  member: TSESTree.Node,
): TSESTree.PropertyDefinition | TSESTree.TSParameterProperty | undefined {
  if (member.type !== 'MemberExpression' || member.object.type !== 'ThisExpression') return undefined;
  const field = propertyName(member);
  let body: TSESTree.Node | undefined = member.parent;
  while (body && body.type !== 'ClassBody') body = body.parent;
  if (field === undefined || body?.type !== 'ClassBody') return undefined;
  for (const each of body.body) {
    if (each.type === 'PropertyDefinition' && keyName(each) === field) return each;
    if (each.type === 'MethodDefinition' && each.kind === 'constructor')
      for (const param of each.value.params)
        if (
          param.type === 'TSParameterProperty' &&
          param.parameter.type === 'Identifier' &&
          param.parameter.name === field
        )
          return param;
  }
  return undefined;
}

/** The call of a decorator named in `names` on the declaration of what `this.<field>` holds (`@InjectModel(Task.name)`). */
export function holderDecorator(
  member: TSESTree.Node,
  names: ReadonlySet<string>,
): TSESTree.CallExpression | undefined {
  for (const decorator of fieldDeclaration(member)?.decorators ?? []) {
    const call = decorator.expression;
    if (call.type === 'CallExpression' && names.has(calleeName(call.callee) ?? '')) return call;
  }
  return undefined;
}

/** Does `node` span the place `at` (1-based line, 0-based column), as a value's origin is kept? */
export function spans(node: TSESTree.Node, at: { line: number; column: number }): boolean {
  const { start, end } = node.loc;
  const after = at.line > start.line || (at.line === start.line && at.column >= start.column);
  const before = at.line < end.line || (at.line === end.line && at.column < end.column);
  return after && before;
}
