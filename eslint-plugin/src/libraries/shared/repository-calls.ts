import type { TSESTree } from '@typescript-eslint/utils';

import {
  calleeName,
  callTaking,
  constantInitializer,
  declaresDependency,
  fieldsOf,
  holderDecorator,
  matchedFields,
  memberPath,
  normaliseTarget,
  objectLiteral,
  objectProperty,
  propertyName,
  showsEveryField,
  staticString,
  uniqueKeyFields,
  unwrapExpression,
  variableOf,
  type AdapterFile,
  type DataOperation,
  type Field,
  type LibraryName,
  type ScopeOf,
} from '../../analysis/index.js';

/**
 * What repository and model APIs have in common: TypeORM (`repo.findOneBy`, `repo.save`,
 * `manager.insert(Refund, …)`), Sequelize (`Refund.findOne`, `Refund.create`, `findOrCreate`),
 * Mongoose (`Refund.exists`, `new Refund(…).save()`, `updateOne(…, { upsert: true })`). Their
 * method names overlap, so a call is attributed to the library its file imports, and to the first
 * of them when the file imports none. A file that imports only a library with an adapter of its
 * own (the MongoDB driver, MikroORM) leaves such calls to that adapter.
 */

const readMethods = new Set([
  'findOne',
  'findOneBy',
  'findOneOrFail',
  'findOneByOrFail',
  'findByPk',
  'findById',
  'exists',
  'exist',
  'existsBy',
  'countBy',
  'countDocuments',
  'findBy',
]);
/** Methods whose names are too common to mean a read unless they get a query object. */
const readMethodsWithQuery = new Set(['find', 'count', 'findAll']);
const insertMethods = new Set(['create', 'bulkCreate', 'insertMany', 'insertOne', 'insert', 'save']);
const upsertOptionMethods = new Set([
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'findByIdAndUpdate',
  'replaceOne',
  'update',
]);

/** The method names a repository call can have; any other call is turned away at once. */
export const repositoryMethods: ReadonlySet<string> = new Set([
  ...readMethods,
  ...readMethodsWithQuery,
  ...insertMethods,
  ...upsertOptionMethods,
  'upsert',
  'findOrCreate',
  'increment',
  'decrement',
]);

/** Entity-manager style calls name their entity first: `manager.save(Refund, row)`. */
function entityArgument(call: TSESTree.CallExpression): string | undefined {
  const first = call.arguments[0];
  if (call.arguments.length < 2 || first?.type !== 'Identifier' || !/^[A-Z]/.test(first.name)) return undefined;
  return first.name;
}

/**
 * What a repository-like receiver stands for: `this.refunds`, `refundRepository`,
 * `getRepository(Refund)`, a model class `Refund`. Other receivers are not taken for tables:
 * `stripe.refunds.create(…)` calls an API, it does not insert a row.
 */
/** `getRepository(Refund)`, `db.collection('refunds')`, `model('Refund')`: a call that hands out a repository. */
function isRepositoryGetter(node: TSESTree.Node | undefined): node is TSESTree.CallExpression {
  return (
    node?.type === 'CallExpression' &&
    /^get(Repository|MongoRepository|Collection)$|^collection$|^model$/.test(calleeName(node.callee) ?? '')
  );
}

const modelRegistry = /^(db|models?|database|orm|entities|schemas?|tables)$/i;

function receiverTarget(receiver: TSESTree.Node, file: AdapterFile, library: LibraryName): string | undefined {
  const scopeOf = file.scopeOf;
  // `const repo = this.connection.getRepository(ctx, Refund); repo.save(…)`: the repository it was given.
  const held = heldValue(receiver, scopeOf);
  const node = isRepositoryGetter(held) ? held : unwrapExpression(receiver);
  if (isRepositoryGetter(node)) {
    // `getRepository(Refund)`, or a wrapper's `getRepository(ctx, Refund)`: the entity class is the capitalised one.
    const argument =
      node.arguments.find((each) => each.type === 'Identifier' && /^[A-Z]/.test(each.name)) ?? node.arguments[0];
    if (argument?.type === 'Identifier') return argument.name;
    if (argument?.type === 'Literal' && typeof argument.value === 'string') return argument.value;
  }
  if (node.type === 'NewExpression' && node.callee.type === 'Identifier') return node.callee.name;
  const path = memberPath(node);
  if (!path) return undefined;
  const last = path[path.length - 1];
  if (/^(manager|entityManager|em|queryRunner|dataSource|connection|db|this)$/.test(last)) return undefined;
  const heldByClass = path.length === 2 && path[0] === 'this';
  if (heldByClass) {
    const injected = injectedModel(node, file);
    if (injected) return injected;
  }
  // A model class, alone or held by the project's registry of models (`db.Payment`, `models.Order`);
  // a registry also holds models defined under camel-case names (`sequelize.define('paymentRequest')`,
  // `db.paymentRequest`), where the file's package is written with the library.
  const inRegistry = path.length > 1 && modelRegistry.test(path[path.length - 2]);
  const modelClass =
    (/^[A-Z]/.test(last) && (path.length === 1 || inRegistry)) ||
    (inRegistry && path.length === 2 && /^[a-z][a-zA-Z0-9]*$/.test(last) && writtenWith(library, file));
  const namedAsStore =
    /(Repository|Repo|Model|Collection)$/.test(last) || /^(repository|repo|model|collection)$/i.test(last);
  return heldByClass || modelClass || namedAsStore ? last : undefined;
}

/** Decorators that inject a field with the model or repository of an entity: `@InjectModel(Task.name)`, `@InjectRepository(Refund)`. */
const injectors: ReadonlySet<string> = new Set(['InjectModel', 'InjectRepository']);

/**
 * The entity a `this.<field>` was injected for, when the decorator names it: a string, a constant
 * holding one (in this module or one it imports), a class, or a class's `name`. Not otherwise: the
 * field's own name is then the best guess.
 */
function injectedModel(member: TSESTree.Node, file: AdapterFile): string | undefined {
  const argument = holderDecorator(member, injectors)?.arguments[0];
  const named = argument && unwrapExpression(argument);
  if (!named) return undefined;
  if (named.type === 'MemberExpression' && named.object.type === 'Identifier' && propertyName(named) === 'name')
    return named.object.name;
  if (named.type !== 'Identifier') return staticString(named);
  const local = constantInitializer(named, file.scopeOf(named));
  const value = local ?? file.importedValue(named.name)?.value;
  const bare = value && unwrapExpression(value);
  if (bare?.type === 'ClassDeclaration' || bare?.type === 'ClassExpression') return named.name;
  return bare && staticString(bare);
}

/** A generic data layer's `{ table: 'refunds', … }`: the table is named in the call. */
function namedTable(argument: TSESTree.Node | undefined, scopeOf: ScopeOf): string | undefined {
  const options = objectLiteral(argument, scopeOf);
  const table = options && (objectProperty(options, 'table') ?? objectProperty(options, 'tableName'))?.value;
  return table?.type === 'Literal' && typeof table.value === 'string' ? table.value : undefined;
}

function isUpsertOption(node: TSESTree.Node | undefined, scopeOf: ScopeOf): boolean {
  const options = objectLiteral(node, scopeOf);
  const upsert = options && objectProperty(options, 'upsert')?.value;
  return upsert?.type === 'Literal' && upsert.value === true;
}

/** Fields set by a MongoDB update document: `{ $set: { … }, $setOnInsert: { … } }` or a replacement. */
function updatedFields(node: TSESTree.Node | undefined, scopeOf: ScopeOf): Field[] {
  const update = objectLiteral(node, scopeOf);
  if (!update) return [];
  const operators = ['$set', '$setOnInsert']
    .map((name) => objectProperty(update, name)?.value)
    .filter((value) => value !== undefined);
  return operators.length > 0 ? operators.flatMap((value) => fieldsOf(value, scopeOf)) : fieldsOf(update, scopeOf);
}

/**
 * `importModel.save({ transaction })`: a variable holding a record, not a repository or a model
 * class; not one given a repository (`const purchases = getRepository(Purchase)`).
 */
function isInstance(receiver: TSESTree.Node, scopeOf: ScopeOf): boolean {
  const node = unwrapExpression(receiver);
  return (
    node.type === 'Identifier' &&
    !/^[A-Z]/.test(node.name) &&
    !/(Repository|Repo|Manager)$/i.test(node.name) &&
    !/^(em|manager|repository|repo|db)$/.test(node.name) &&
    !isRepositoryGetter(heldValue(node, scopeOf))
  );
}

/** What a node holds: itself, or for a constant (`const repo = …`), the value it was given. */
function heldValue(node: TSESTree.Node, scopeOf: ScopeOf): TSESTree.Node | undefined {
  const value = unwrapExpression(node);
  if (value.type !== 'Identifier') return value;
  const init = constantInitializer(value, scopeOf(value));
  return init && unwrapExpression(init);
}

/** `new Refund(…)`, `Refund.build(…)`, `repo.create(…)`: an entity made in memory, not yet stored. */
function madeAnew(node: TSESTree.Node | undefined): node is TSESTree.NewExpression | TSESTree.CallExpression {
  return (
    node?.type === 'NewExpression' ||
    (node?.type === 'CallExpression' && /^(build|create|createEntity)$/.test(calleeName(node.callee) ?? ''))
  );
}

function isNewInstance(receiver: TSESTree.Node, scopeOf: ScopeOf): boolean {
  return madeAnew(heldValue(receiver, scopeOf));
}

const storingCalls = /^(save|insert|upsert|preload|reload|find\w*)$/;

/** A call that returns a stored entity: a save or a find, or a check wrapped around one (`assertFound(repo.findOne(…))`). */
function returnsStored(node: TSESTree.Node | undefined, depth = 0): boolean {
  const value = node && unwrapExpression(node.type === 'AwaitExpression' ? node.argument : node);
  if (value?.type !== 'CallExpression') return false;
  if (storingCalls.test(calleeName(value.callee) ?? '')) return true;
  return depth === 0 && value.arguments.length === 1 && returnsStored(value.arguments[0], 1);
}

const savingCalls = /^(save|insert|persist|persistAndFlush)$/;

/** Is `node` handed to a call that stores it (`repo.save(row)`)? */
function savedBy(node: TSESTree.Node): boolean {
  const call = callTaking(node);
  return call !== undefined && savingCalls.test(calleeName(call.callee) ?? '');
}

/** `repo.save(repo.create(data))`, `const row = repo.create(data); … repo.save(row)`: made to be stored by a later call. */
function storedLater(call: TSESTree.CallExpression, scopeOf: ScopeOf): boolean {
  if (savedBy(call)) return true;
  const declarator = call.parent;
  if (declarator?.type !== 'VariableDeclarator' || declarator.id.type !== 'Identifier') return false;
  const variable = variableOf(declarator.id, scopeOf(declarator.id));
  return variable?.references.some((reference) => savedBy(reference.identifier)) ?? false;
}

/**
 * A variable holding what an earlier call returned (a saved or fetched entity), or a relation
 * loaded with one (`admin.user`), not a new row.
 */
function storedBefore(node: TSESTree.Node | undefined, scopeOf: ScopeOf): boolean {
  let root = node && unwrapExpression(node);
  while (root?.type === 'MemberExpression' && !root.computed) root = unwrapExpression(root.object);
  return root?.type === 'Identifier' && returnsStored(heldValue(root, scopeOf));
}

/** The row a save or insert is given: `{ … }`, or the object a new entity is made from (`new Refund({ … })`, `repo.create({ … })`). */
function rowArgument(node: TSESTree.Node | undefined, scopeOf: ScopeOf): TSESTree.Node | undefined {
  if (!node) return undefined;
  const value = heldValue(node, scopeOf);
  const [from] = madeAnew(value) ? value.arguments : [];
  return from && from.type !== 'SpreadElement' && objectLiteral(from, scopeOf) ? from : node;
}

/** Modes of TypeORM's `lock` option that take no row lock. */
const lockFreeModes = new Set(['optimistic', 'dirty_read']);

/**
 * Does a read's query lock the rows it finds (`FOR UPDATE`, `FOR SHARE`): TypeORM's
 * `lock: { mode: 'pessimistic_write' }`, Sequelize's `lock: true` or `lock: t.LOCK.UPDATE`?
 */
function locksRows(query: TSESTree.ObjectExpression): boolean {
  const lock = objectProperty(query, 'lock')?.value;
  if (!lock || (lock.type === 'Literal' && !lock.value)) return false;
  if (lock.type !== 'ObjectExpression') return true;
  const mode = objectProperty(lock, 'mode')?.value;
  return mode !== undefined && !lockFreeModes.has(staticString(mode) ?? 'optimistic');
}

/**
 * The repository libraries, in the order they claim calls from files that import none of them;
 * then the libraries whose import alone keeps the others from claiming (the MongoDB driver and
 * MikroORM recognise their own calls, never through here).
 */
const claimOrder: readonly LibraryName[] = ['typeorm', 'sequelize', 'mongoose', 'mongodb', 'mikro-orm'];

/** The repository library that claims a file's repository calls, or the ones it imports; worked out once per file. */
const claimants = new WeakMap<AdapterFile, readonly LibraryName[]>();

/** Is a repository call in this file `library`'s? */
function claims(library: LibraryName, file: AdapterFile): boolean {
  let found = claimants.get(file);
  if (!found) {
    const imported = claimOrder.filter((name) => {
      const adapter = file.libraries.dataAdapter(name);
      return adapter !== undefined && file.libraries.imported(adapter, file.imports);
    });
    // Importing none (`require('../models')`), the file is written with what its package depends on.
    const fallback =
      claimOrder.find((name) => {
        const modules = file.libraries.dataAdapter(name)?.modules;
        return modules !== undefined && declaresDependency(file.filename, modules);
      }) ?? claimOrder.find((name) => file.libraries.dataAdapter(name));
    found = imported.length > 0 ? imported : fallback ? [fallback] : [];
    claimants.set(file, found);
  }
  return found.includes(library);
}

/** The rows an update or an increment names: Sequelize's `{ where }` option (its second argument), else its first argument. */
function updateFilter(
  library: LibraryName,
  args: readonly TSESTree.CallExpressionArgument[],
  scopeOf: ScopeOf,
): TSESTree.Node | undefined {
  if (library !== 'sequelize') return args[0];
  const options = objectLiteral(args[1], scopeOf);
  return options && objectProperty(options, 'where')?.value;
}

/**
 * A row the code read, written through itself: Sequelize's `order.update({ paidAt })`, Mongoose's
 * `order.updateOne({ paidAt })`, and `order.save()` after `order.paidAt = now` (Sequelize,
 * Mongoose, TypeORM's active records). An update of that row, whatever its table.
 */
function instanceWrite(
  library: LibraryName,
  call: TSESTree.CallExpression,
  callee: TSESTree.MemberExpression,
  method: string,
  file: AdapterFile,
): DataOperation | undefined {
  if (!/^(save|update|updateOne|increment|decrement)$/.test(method)) return undefined;
  const row = unwrapExpression(callee.object);
  if (
    row.type !== 'Identifier' ||
    !isInstance(row, file.scopeOf) ||
    !returnsStored(heldValue(row, file.scopeOf)) ||
    call.arguments.length > (method === 'save' ? 1 : 2)
  )
    return undefined;
  return {
    library,
    kind: 'update',
    targets: [],
    node: call,
    row,
    label: `${row.name}.${method}()`,
    fields: method === 'update' || method === 'updateOne' ? updatedFields(call.arguments[0], file.scopeOf) : [],
    arbitrated: false,
  };
}

/** Does the file import `library`, or its package depend on it (not merely have its calls by default)? */
function writtenWith(library: LibraryName, file: AdapterFile): boolean {
  const modules = file.libraries.dataAdapter(library)?.modules;
  return importsLibrary(library, file) || (modules !== undefined && declaresDependency(file.filename, modules));
}

/** Does the file import `library` itself, rather than have its calls by default? */
function importsLibrary(library: LibraryName, file: AdapterFile): boolean {
  const adapter = file.libraries.dataAdapter(library);
  return adapter !== undefined && file.libraries.imported(adapter, file.imports);
}

export function repositoryOperation(
  library: LibraryName,
  call: TSESTree.CallExpression,
  file: AdapterFile,
): DataOperation | undefined {
  if (!claims(library, file)) return undefined;
  const scopeOf = file.scopeOf;
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression') return undefined;
  const method = calleeName(callee);
  // TypeORM offers its query builder's method names too (`.onConflict()`): none is a repository call.
  if (!method || !repositoryMethods.has(method)) return undefined;
  const own = instanceWrite(library, call, callee, method, file);
  if (own) return own;
  const entity = entityArgument(call);
  const target = entity ?? namedTable(call.arguments[0], scopeOf) ?? receiverTarget(callee.object, file, library);
  if (!target) return undefined;
  const args = entity ? call.arguments.slice(1) : call.arguments;
  const base = {
    library,
    targets: [normaliseTarget(target)],
    node: call,
    label: `${memberPath(callee)?.join('.') ?? method}()`,
    fields: [],
    arbitrated: false,
  };

  if (readMethods.has(method) || (readMethodsWithQuery.has(method) && objectLiteral(args[0], scopeOf))) {
    // findOneBy({ a }), exists({ a }), findOne({ where: { a } })
    const query = objectLiteral(args[0], scopeOf);
    const given = args[0] && args[0].type !== 'SpreadElement' ? args[0] : undefined;
    // `findById(id)` looks up the store's primary key (Mongoose's `_id`).
    const primaryKey = method === 'findById' ? file.libraries.dataAdapter(library)?.primaryKey : undefined;
    if (query)
      return {
        ...base,
        kind: 'read',
        filters: matchedFields(query, scopeOf),
        ...(locksRows(query) && { locksRows: true }),
      };
    if (primaryKey && given)
      return { ...base, kind: 'read', filters: [{ name: primaryKey, values: [given], functions: [] }] };
    return { ...base, kind: 'read', ...(given ? { criteria: given } : {}) };
  }
  // TypeORM's `create` makes an entity in memory (`manager.create(User, data)`, any repository's
  // in a file that imports TypeORM, or one whose result a `save` then stores); only `save` or
  // `insert` stores it.
  if (
    method === 'create' &&
    (entity !== undefined || (library === 'typeorm' && importsLibrary(library, file)) || storedLater(call, scopeOf))
  )
    return undefined;
  // `found.save()` stores an instance that was read: an update. Only a new one (`new Refund(…).save()`,
  // `const refund = Refund.build(…)`) is an insert.
  if (method === 'save' && isInstance(callee.object, scopeOf) && !isNewInstance(callee.object, scopeOf))
    return undefined;
  // `repo.save(saved)` after `const saved = await repo.save(new Refund(…))` stores the row it already wrote;
  // `repo.save(found.user)` after `const found = await repo.findOne(…)` one it read.
  if (method === 'save' && storedBefore(args[0], scopeOf)) return { ...base, kind: 'update' };
  if (insertMethods.has(method)) {
    const skip = objectLiteral(args[1], scopeOf);
    const ignoreDuplicates = skip && objectProperty(skip, 'ignoreDuplicates')?.value;
    const row = rowArgument(args[0], scopeOf);
    return {
      ...base,
      kind: 'insert',
      document: row,
      fields: fieldsOf(row, scopeOf),
      fieldsComplete: showsEveryField(row, scopeOf),
      arbitrated: ignoreDuplicates?.type === 'Literal' && ignoreDuplicates.value === true,
      skipsDuplicates: ignoreDuplicates?.type === 'Literal' && ignoreDuplicates.value === true,
      // TypeORM's `save()` looks the entity up by its primary key and updates the row it finds.
      ...(library === 'typeorm' && method === 'save' && { savesByPrimaryKey: true as const }),
    };
  }
  if (method === 'upsert') {
    // TypeORM: upsert(row, ['refundId']) or upsert(row, { conflictPaths: […] }); Sequelize: upsert(row).
    const paths = unwrapExpression(args[1] ?? call);
    const list =
      paths.type === 'ArrayExpression'
        ? paths
        : objectLiteral(paths, scopeOf) && objectProperty(objectLiteral(paths, scopeOf)!, 'conflictPaths')?.value;
    const conflictTarget =
      list && list.type === 'ArrayExpression'
        ? list.elements.map((element) => (element?.type === 'Literal' ? String(element.value) : '')).filter(Boolean)
        : undefined;
    // upsert(row, ['refundId']): ON CONFLICT ("refundId"), which needs a key on exactly those columns.
    const exact =
      conflictTarget !== undefined &&
      conflictTarget.length > 0 &&
      list?.type === 'ArrayExpression' &&
      conflictTarget.length === list.elements.length;
    return {
      ...base,
      kind: 'upsert',
      fields: fieldsOf(args[0], scopeOf),
      conflictTarget,
      ...(exact ? { arbiter: 'exact' as const } : {}),
      arbitrated: true,
    };
  }
  if (method === 'findOrCreate') {
    const options = objectLiteral(args[0], scopeOf);
    const where = uniqueKeyFields(options && objectProperty(options, 'where')?.value, scopeOf);
    return {
      ...base,
      kind: 'upsert',
      fields: where,
      conflictTarget: where.map((field) => field.name),
      arbitrated: true,
    };
  }
  if (upsertOptionMethods.has(method) && isUpsertOption(args[2], scopeOf)) {
    const filter = uniqueKeyFields(args[0], scopeOf);
    return {
      ...base,
      kind: 'upsert',
      fields: [...filter, ...updatedFields(args[1], scopeOf)],
      conflictTarget: filter.map((field) => field.name),
      // Matched by a filter of plain equalities, the upsert is atomic only under a unique key among them.
      ...(showsEveryField(args[0], scopeOf) ? { arbiter: 'within' as const } : {}),
      arbitrated: true,
    };
  }
  // What a filter picks, added to: TypeORM's `increment({ id }, 'credits', 1)`, Sequelize's
  // `increment('credits', { where: { id } })` (`addedFields` reads the columns).
  if (method === 'increment' || method === 'decrement') {
    const filter = updateFilter(library, args, scopeOf);
    if (!filter || filter.type === 'SpreadElement' || !objectLiteral(filter, scopeOf)) return undefined;
    return { ...base, kind: 'update', filters: uniqueKeyFields(filter, scopeOf) };
  }
  // An update of the rows a filter picks: Mongoose's `updateOne({ _id }, { $inc: { stock: n } })`,
  // TypeORM's `update({ id }, { status })`, Sequelize's `update({ status }, { where: { id } })`.
  if (upsertOptionMethods.has(method)) {
    const sequelize = library === 'sequelize';
    const filter = updateFilter(library, args, scopeOf);
    // A filter object, or the id `findByIdAndUpdate` or TypeORM's `update(id, { status })` is given.
    if (!filter || filter.type === 'SpreadElement') return undefined;
    const literal = objectLiteral(filter, scopeOf) !== undefined;
    const typeormId = !literal && library === 'typeorm' && method === 'update';
    if (!literal && !typeormId && method !== 'findByIdAndUpdate') return undefined;
    return {
      ...base,
      kind: 'update',
      fields: sequelize ? fieldsOf(args[0], scopeOf) : updatedFields(args[1], scopeOf),
      filters: typeormId ? [{ name: 'id', values: [filter], functions: [] }] : uniqueKeyFields(filter, scopeOf),
    };
  }
  return undefined;
}
