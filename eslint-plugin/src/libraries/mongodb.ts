import type { TSESTree } from '@typescript-eslint/utils';

import {
  calleeName,
  constantInitializer,
  fieldsOf,
  keyName,
  memberPath,
  normaliseTarget,
  objectLiteral,
  objectProperty,
  propertyName,
  staticText,
  uniqueKeyFields,
  unwrapExpression,
  walk,
  type AdapterFile,
  type DataAdapter,
  type DataOperation,
  type DeclaredTable,
  type Field,
} from '../analysis/index.js';
import { optionTrue } from './shared/model-readers.js';
import { declaredFrom } from './shared/declared-types.js';

/**
 * The MongoDB Node.js driver: `db.collection('inbox').findOne(filter)`, `insertOne(doc)`,
 * `updateOne(filter, update, { upsert: true })`. Mongoose models have an adapter of their own;
 * a collection is told from a model by how it is reached (`collection('inbox')`, a value typed
 * `Collection` from the driver), or, in a file that imports the driver and no ODM, by being a store-like value.
 */

const reads = new Set(['findOne', 'find', 'countDocuments']);
const inserts = new Set(['insertOne', 'insertMany']);
const upserting = new Set(['updateOne', 'updateMany', 'replaceOne', 'findOneAndUpdate', 'findOneAndReplace']);
const deletes = new Set(['deleteOne', 'deleteMany', 'findOneAndDelete']);
/** Cursor methods that run a `find`: the read is the call that yields its documents. */
const cursorEnds = new Set(['toArray', 'next', 'hasNext', 'tryNext']);
const cursorSteps = new Set(['limit', 'sort', 'project', 'skip', 'batchSize']);

/** Modules whose models share the driver's method names: with one of them imported, only a provable collection is the driver's. */
const odmModules =
  /^(mongoose|@nestjs\/mongoose|@typegoose\/typegoose|typeorm|@nestjs\/typeorm|sequelize|sequelize-typescript|@nestjs\/sequelize)$/;
const notCollections = /^(db|database|client|mongo|mongoClient|session|connection|this|cursor)$/;

/** `db.collection('inbox')`: the collection's name, a literal or a constant. */
function collectionCall(node: TSESTree.Node, file: AdapterFile): string | undefined {
  const call = unwrapExpression(node);
  if (
    call.type !== 'CallExpression' ||
    calleeName(call.callee) !== 'collection' ||
    call.callee.type !== 'MemberExpression'
  )
    return undefined;
  const [name] = call.arguments;
  const text = name && name.type !== 'SpreadElement' ? staticText(name, file.scopeOf, () => '*') : undefined;
  return text && !text.text.includes('*') ? text.text : undefined;
}

/**
 * The collection a receiver stands for, and whether that is proven: reached through
 * `collection('…')` or declared `Collection`, or merely store-like by name (`this.inbox`, `inboxCollection`).
 */
function collectionOf(receiver: TSESTree.Node, file: AdapterFile): { name: string; proven: boolean } | undefined {
  const node = unwrapExpression(receiver);
  const called = collectionCall(node, file);
  if (called) return { name: called, proven: true };
  if (node.type === 'Identifier') {
    const init = constantInitializer(node, file.scopeOf(node));
    const held = init && collectionCall(init, file);
    if (held) return { name: held, proven: true };
  }
  if (declaredFrom(node, file, /^mongodb$/, /^Collection$/))
    return { name: memberPath(node)?.at(-1) ?? '', proven: true };
  const path = memberPath(node);
  if (!path) return undefined;
  const last = path[path.length - 1];
  if (notCollections.test(last)) return undefined;
  return { name: last, proven: false };
}

/** Fields set by an update document: `{ $set: { … }, $setOnInsert: { … } }`, or a replacement. */
function updatedFields(node: TSESTree.Node | undefined, file: AdapterFile): { fields: Field[]; onlyOnInsert: boolean } {
  const update = objectLiteral(node, file.scopeOf);
  if (!update) return { fields: [], onlyOnInsert: false };
  const operators = update.properties.filter((entry) => entry.type === 'Property' && keyName(entry)?.startsWith('$'));
  if (operators.length === 0) return { fields: fieldsOf(update, file.scopeOf), onlyOnInsert: false };
  const set = ['$set', '$setOnInsert']
    .map((name) => objectProperty(update, name)?.value)
    .filter((value) => value !== undefined);
  const onlyOnInsert = operators.length === 1 && objectProperty(update, '$setOnInsert') !== undefined;
  return { fields: set.flatMap((value) => fieldsOf(value, file.scopeOf)), onlyOnInsert };
}

/** `col.find(filter).limit(1).toArray()`: the `find` call, read from the cursor's last step. */
function findOfCursor(call: TSESTree.CallExpression): TSESTree.CallExpression | undefined {
  let current: TSESTree.Node = unwrapExpression(call.callee);
  for (let guard = 0; guard < 8 && current.type === 'MemberExpression'; guard += 1) {
    const inner = unwrapExpression(current.object);
    if (inner.type !== 'CallExpression') return undefined;
    const name = calleeName(inner.callee);
    if (name === 'find') return inner;
    if (!name || !cursorSteps.has(name)) return undefined;
    current = unwrapExpression(inner.callee);
  }
  return undefined;
}

/** Is `call` a cursor whose documents a later step in its chain yields? Then that step is the read. */
function cursorContinues(call: TSESTree.CallExpression): boolean {
  const parent = call.parent;
  if (parent?.type !== 'MemberExpression' || parent.object !== call || parent.parent?.type !== 'CallExpression')
    return false;
  const name = propertyName(parent) ?? '';
  return cursorEnds.has(name) || cursorSteps.has(name);
}

function mongoOperation(call: TSESTree.CallExpression, file: AdapterFile): DataOperation | undefined {
  let callee = unwrapExpression(call.callee);
  let method = calleeName(callee);
  let request = call;
  if (!method || callee.type !== 'MemberExpression') return undefined;
  if (cursorEnds.has(method)) {
    const find = findOfCursor(call);
    if (!find) return undefined;
    request = find;
    callee = unwrapExpression(find.callee);
    method = 'find';
    if (callee.type !== 'MemberExpression') return undefined;
  } else if (method === 'find' && cursorContinues(call)) {
    return undefined;
  }
  const collection = collectionOf(callee.object, file);
  if (!collection) return undefined;
  if (!collection.proven) {
    // Unproven receivers count only in a file that imports the driver and no library with models.
    const sources = [...file.imports.sources];
    if (!sources.includes('mongodb') || sources.some((source) => odmModules.test(source))) return undefined;
  }
  const args = request.arguments;
  const target = normaliseTarget(collection.name);
  const base = { library: 'mongodb' as const, targets: [target], node: call, fields: [] as Field[], arbitrated: false };
  const label = (verb: string) => `${verb} MongoDB ${method}() on ${collection.name}`;
  if (reads.has(method)) {
    // `find()` with no filter lists a collection; it checks nothing.
    const query = objectLiteral(args[0], file.scopeOf);
    if (method !== 'findOne' && !query) return undefined;
    // The fields it matches on, when the filter is written out; none for `findOne()` or `{}`: any document.
    const filters = query || args.length === 0 ? { filters: uniqueKeyFields(query, file.scopeOf) } : {};
    return { ...base, kind: 'read', label: label('a'), ...filters };
  }
  if (inserts.has(method))
    return { ...base, kind: 'insert', label: label('the'), fields: fieldsOf(args[0], file.scopeOf) };
  if (upserting.has(method)) {
    const filter = uniqueKeyFields(args[0], file.scopeOf);
    if (!optionTrue(args[2], 'upsert', file)) return { ...base, kind: 'update', label: label('the'), filters: filter };
    const update =
      method === 'replaceOne' || method === 'findOneAndReplace'
        ? { fields: fieldsOf(args[1], file.scopeOf), onlyOnInsert: false }
        : updatedFields(args[1], file);
    return {
      ...base,
      kind: 'upsert',
      label: label('the'),
      fields: [...filter, ...update.fields],
      conflictTarget: filter.map((field) => field.name),
      arbitrated: true,
      // `$setOnInsert` alone writes nothing when the document exists: only the result (upsertedCount) tells.
      skipsDuplicates: update.onlyOnInsert,
    };
  }
  if (deletes.has(method)) return { ...base, kind: 'delete', label: label('the') };
  return undefined;
}

const indexMethods = new Set(['createIndex', 'ensureIndex', 'createIndexes']);

/** The collection an expression names in migration code: `db.collection('tags')`, or the shell's `db.tags`. */
function collectionNamed(node: TSESTree.Node, file: AdapterFile): string | undefined {
  const expression = unwrapExpression(node);
  if (expression.type === 'CallExpression') return collectionCall(expression, file);
  if (expression.type !== 'MemberExpression' || expression.computed) return undefined;
  const owner = expression.object;
  const holder =
    owner.type === 'MemberExpression' ? propertyName(owner) : owner.type === 'Identifier' ? owner.name : '';
  const name = propertyName(expression);
  return /^(db|database|mongo)$/i.test(holder ?? '') && name && !indexMethods.has(name) && name !== 'collection'
    ? name
    : undefined;
}

/** The fields of an index's key document (`{ user_id: 1, name: 1 }`), if it is written out. */
function indexFields(node: TSESTree.Node | undefined, file: AdapterFile): string[] | undefined {
  const key = objectLiteral(node, file.scopeOf);
  if (!key) return undefined;
  const fields = key.properties.map((property) => (property.type === 'Property' ? keyName(property) : undefined));
  return fields.every((field): field is string => field !== undefined) ? fields : undefined;
}

/**
 * MongoDB's own indexes, as migrations and set-up scripts create them: `db.tags.createIndex({
 * user_id: 1, name: 1 }, { unique: true })`, `db.collection('tags').createIndexes([{ key: { … },
 * unique: true }])`, and index specifications (`{ key: { … }, unique: true }`) handed to a
 * project's own helper, which belong to the one collection the file names (with several named,
 * each is left unsure). Each adds a key to a collection declared elsewhere (a Mongoose model, or
 * none).
 */
export function mongoIndexes(file: AdapterFile): DeclaredTable[] {
  const keys: { collection: string | undefined; columns: string[]; partial: boolean; written: string }[] = [];
  const named = new Set<string>();
  walk(file.sourceAst, file.visitorKeys, (node) => {
    const collection =
      node.type === 'MemberExpression' || node.type === 'CallExpression' ? collectionNamed(node, file) : undefined;
    if (collection) named.add(collection);
    if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression') {
      const method = calleeName(node.callee);
      const target = collectionNamed(node.callee.object, file);
      const columns =
        method === 'createIndex' || method === 'ensureIndex' ? indexFields(node.arguments[0], file) : undefined;
      if (columns && optionTrue(node.arguments[1], 'unique', file)) {
        const options = objectLiteral(node.arguments[1], file.scopeOf);
        keys.push({
          collection: target,
          columns,
          partial: Boolean(options && objectProperty(options, 'partialFilterExpression')),
          written: `${method}({ ${columns.join(', ')} }, { unique: true })`,
        });
      }
      return;
    }
    if (node.type !== 'ObjectExpression' || !optionTrue(node, 'unique', file)) return;
    const columns = indexFields(objectProperty(node, 'key')?.value, file);
    if (!columns) return;
    // An index specification: its collection is that of the createIndexes call it is given to, if any.
    let target: string | undefined;
    for (let parent: TSESTree.Node | undefined = node.parent; parent && !target; parent = parent.parent)
      if (
        parent.type === 'CallExpression' &&
        parent.callee.type === 'MemberExpression' &&
        calleeName(parent.callee) === 'createIndexes'
      )
        target = collectionNamed(parent.callee.object, file);
    keys.push({
      collection: target,
      columns,
      partial: Boolean(objectProperty(node, 'partialFilterExpression')),
      written: `{ key: { ${columns.join(', ')} }, unique: true }`,
    });
  });
  const only = named.size === 1 ? [...named][0] : undefined;
  const byCollection = new Map<string, DeclaredTable['keys'][number][]>();
  let unplaced = false;
  for (const { collection, ...key } of keys) {
    const target = collection ?? only;
    if (target) byCollection.set(target, [...(byCollection.get(target) ?? []), key]);
    else unplaced = true;
  }
  const tables: DeclaredTable[] = [...byCollection].map(([table, tableKeys]) => ({
    table,
    keys: tableKeys,
    addition: true,
  }));
  // A unique index the file makes for one of several collections it names: which one is unknown,
  // so none of them is known whole.
  if (unplaced) for (const table of named) tables.push({ table, keys: [], addition: true, unsure: true });
  return tables;
}

export const mongodb: DataAdapter = {
  kind: 'store',
  name: 'mongodb',
  label: 'MongoDB',
  modules: ['mongodb'],
  methods: new Set([...reads, ...inserts, ...upserting, ...deletes, ...cursorEnds]),
  recognise: (node, file) => (node.type === 'CallExpression' ? mongoOperation(node, file) : undefined),
  remedy:
    'updateOne(filter, { $setOnInsert: … }, { upsert: true }) on a unique key and check upsertedCount, or insertOne and treat error 11000 as the duplicate',
  increments: { fieldMaps: ['$inc'] },
  uniqueViolations: ['E11000', '11000'],
  primaryKey: '_id',
  // Indexes made by migrations and set-up scripts: `createIndex(…, { unique: true })`, `{ key: { … }, unique: true }`.
  models: { mentions: /\bunique\s*:\s*true\b/, read: mongoIndexes },
};
