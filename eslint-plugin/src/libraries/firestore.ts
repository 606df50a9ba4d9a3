import type { TSESTree } from '@typescript-eslint/utils';

import {
  calleeName,
  constantInitializer,
  fieldsOf,
  normaliseTarget,
  propertyName,
  staticText,
  unwrapExpression,
  variableOf,
  type AdapterFile,
  type DataAdapter,
  type DataOperation,
  type Field,
} from '../analysis/index.js';

/**
 * Cloud Firestore, through the server SDKs (`firebase-admin/firestore`, `@google-cloud/firestore`:
 * `db.collection('events').where('eventId', '==', id).get()`, `.add(data)`, `.doc(id).set(data)`,
 * `.doc(id).create(data)`) and the modular web SDK (`getDocs(query(collection(db, 'events'),
 * where(…)))`, `addDoc`, `setDoc`, `getDoc(doc(db, 'events', id))`). A reference is Firestore's
 * when its chain shows it (`collection(…)` then `doc`, `where`, `add`) or, for the modular
 * functions, when they are imported from a Firestore module.
 *
 * A document's id is its key: `set` overwrites the document of that id (the write settles a
 * repeat), `create` fails when it exists (a repeat is refused), while `add` and `doc()` without
 * an id make a fresh id, so nothing refuses a second document. A transaction
 * (`runTransaction(async (t) => …)`) is serialisable: Firestore retries it when a document it
 * read changed before it committed.
 */

const modules = [
  /^firebase-admin(\/firestore)?$/,
  /^@google-cloud\/firestore$/,
  /^firebase\/(compat\/)?firestore(\/lite)?$/,
  /^@firebase\/firestore$/,
];

/** The field a document id is matched on, as Firestore names it (`FieldPath.documentId()`). */
const documentId = '__name__';

/** Steps of a query that keep it a query of the same collection. */
const querySteps = new Set([
  'orderBy',
  'limit',
  'limitToLast',
  'offset',
  'startAt',
  'startAfter',
  'endAt',
  'endBefore',
  'select',
  'withConverter',
]);

/** What a Firestore reference stands for: a collection, a query of one, or one document. */
interface Reference {
  collection: string;
  kind: 'collection' | 'query' | 'document';
  /** A document's id, when the code names it (`doc(id)`); none for a fresh one (`doc()`). */
  id?: TSESTree.Node;
  /** The fields a query matches with `==`. */
  filters: Field[];
}

function isFirestoreModule(source: string | undefined): boolean {
  return source !== undefined && modules.some((module) => module.test(source));
}

/** `collection(db, 'users', uid, 'orders')` or `doc(db, 'events/' + id)`: the collection named by a path. */
function collectionOfPath(parts: readonly TSESTree.Node[], file: AdapterFile): string | undefined {
  const segments: string[] = [];
  for (const part of parts) {
    const text = staticText(part, file.scopeOf, () => '\u0000');
    segments.push(...(text ? text.text.split('/') : ['\u0000']));
  }
  return segments.filter((_, index) => index % 2 === 0).at(-1);
}

/** `where('eventId', '==', id)`: the field it matches with equality, with its value. */
function equalityFilter(call: TSESTree.CallExpression): Field | undefined {
  const [field, operator, value] = call.arguments;
  const name = field?.type === 'Literal' && typeof field.value === 'string' ? field.value : undefined;
  if (!name || operator?.type !== 'Literal' || operator.value !== '==' || !value || value.type === 'SpreadElement')
    return undefined;
  return { name, values: [value], functions: [] };
}

/** The reference a value is, following constants (`const ref = db.collection('events').doc(id)`). */
function referenceOf(node: TSESTree.Node | undefined, file: AdapterFile, depth = 0): Reference | undefined {
  if (!node || depth > 8) return undefined;
  const value = unwrapExpression(node);
  if (value.type === 'Identifier') {
    const init = constantInitializer(value, file.scopeOf(value));
    return init ? referenceOf(init, file, depth + 1) : undefined;
  }
  if (value.type !== 'CallExpression') return undefined;
  const callee = unwrapExpression(value.callee);
  const name = calleeName(callee);
  const args = value.arguments.filter((argument) => argument.type !== 'SpreadElement');
  if (callee.type === 'Identifier') {
    // The modular SDK: functions imported from a Firestore module.
    if (!isFirestoreModule(file.imports.bindings.get(callee.name))) return undefined;
    const imported = file.imports.names.get(callee.name) ?? callee.name;
    if (imported === 'collection' || imported === 'collectionGroup') {
      const collection = collectionOfPath(args.slice(1), file);
      return collection && !collection.includes('\u0000') ? { collection, kind: 'collection', filters: [] } : undefined;
    }
    if (imported === 'doc') {
      const parent = referenceOf(args[0], file, depth + 1);
      if (parent?.kind === 'collection')
        return { collection: parent.collection, kind: 'document', id: args[1], filters: [] };
      const rest = args.slice(1);
      const collection = collectionOfPath(rest, file);
      if (!collection || collection.includes('\u0000')) return undefined;
      return { collection, kind: 'document', id: rest.at(-1), filters: [] };
    }
    if (imported === 'query') {
      const base = referenceOf(args[0], file, depth + 1);
      if (!base || base.kind === 'document') return undefined;
      const filters = [...base.filters];
      for (const constraint of args.slice(1)) {
        const step = unwrapExpression(constraint);
        if (
          step.type === 'CallExpression' &&
          step.callee.type === 'Identifier' &&
          file.imports.names.get(step.callee.name) === 'where'
        ) {
          const filter = equalityFilter(step);
          if (filter) filters.push(filter);
        }
      }
      return { collection: base.collection, kind: 'query', filters };
    }
    return undefined;
  }
  if (callee.type !== 'MemberExpression' || !name) return undefined;
  if (name === 'collection' || name === 'collectionGroup') {
    const collection = collectionOfPath(args.slice(0, 1), file);
    return collection && !collection.includes('\u0000') ? { collection, kind: 'collection', filters: [] } : undefined;
  }
  const base = referenceOf(callee.object, file, depth + 1);
  if (name === 'doc') {
    if (base?.kind === 'collection') return { collection: base.collection, kind: 'document', id: args[0], filters: [] };
    // `db.doc('events/' + id)`: a path from the database's root, proven Firestore's by the file's imports.
    const collection = args.length === 1 ? collectionOfPath(args, file) : undefined;
    if (!collection || collection.includes('\u0000') || ![...file.imports.sources].some(isFirestoreModule))
      return undefined;
    return { collection, kind: 'document', id: args[0], filters: [] };
  }
  if (!base || base.kind === 'document') return undefined;
  if (name === 'where') {
    const filter = equalityFilter(value);
    return { collection: base.collection, kind: 'query', filters: filter ? [...base.filters, filter] : base.filters };
  }
  if (querySteps.has(name)) return { ...base, kind: 'query' };
  return undefined;
}

/**
 * `t` in `db.runTransaction(async (t) => …)`, or a handle the code reads documents through
 * (`t.get(ref)`, in a helper given the transaction): only a transaction reads so, a batch only
 * writes. Firestore serialises a transaction's reads and writes and retries it on contention.
 */
function isTransaction(receiver: TSESTree.Node, file: AdapterFile): boolean {
  const handle = unwrapExpression(receiver);
  if (handle.type !== 'Identifier') return false;
  const variable = variableOf(handle, file.scopeOf(handle));
  const definition = variable?.defs[0];
  const fn = definition?.type === 'Parameter' ? definition.node : undefined;
  const call = fn?.parent;
  if (call?.type === 'CallExpression' && calleeName(call.callee) === 'runTransaction') return true;
  return (variable?.references ?? []).some((reference) => {
    const member = reference.identifier.parent;
    return (
      member?.type === 'MemberExpression' &&
      member.object === reference.identifier &&
      propertyName(member) === 'get' &&
      member.parent?.type === 'CallExpression' &&
      member.parent.callee === member &&
      referenceOf(member.parent.arguments[0], file) !== undefined
    );
  });
}

/** The methods of references, transactions and batches. */
const methods = new Set<string>(['get', 'add', 'set', 'create', 'update', 'delete']);

type Verb = 'get' | 'add' | 'set' | 'create' | 'update' | 'delete';

const modularVerbs: Readonly<Record<string, Verb>> = {
  getDoc: 'get',
  getDocs: 'get',
  getDocFromServer: 'get',
  getDocsFromServer: 'get',
  addDoc: 'add',
  setDoc: 'set',
  updateDoc: 'update',
  deleteDoc: 'delete',
};

function operation(
  verb: Verb,
  reference: Reference,
  data: TSESTree.Node | undefined,
  node: TSESTree.CallExpression,
  how: string,
  file: AdapterFile,
  serialisable: boolean,
): DataOperation | undefined {
  const { collection, kind, id } = reference;
  const base = {
    library: 'firestore' as const,
    targets: [normaliseTarget(collection)],
    node,
    fields: [] as Field[],
    arbitrated: false,
    ...(serialisable ? { serialisable: true } : {}),
  };
  const label = (article: string) => `${article} Firestore ${how} on ${collection}`;
  if (verb === 'get') {
    // Listing a whole collection checks for nothing.
    if (kind === 'collection') return undefined;
    const filters =
      kind === 'document' ? (id ? [{ name: documentId, values: [id], functions: [] }] : []) : reference.filters;
    return { ...base, kind: 'read', label: label('a'), filters };
  }
  if (verb === 'add') {
    if (kind !== 'collection') return undefined;
    return { ...base, kind: 'insert', label: label('the'), fields: fieldsOf(data, file.scopeOf) };
  }
  if (kind !== 'document') return undefined;
  if (verb === 'update') return { ...base, kind: 'update', label: label('the') };
  if (verb === 'delete') return { ...base, kind: 'delete', label: label('the') };
  const fields = fieldsOf(data, file.scopeOf);
  // `doc()` with no id: a fresh id, so the write is a new document that nothing refuses twice.
  if (!id) return { ...base, kind: 'insert', label: label('the'), fields };
  const keyed = {
    ...base,
    label: label('the'),
    fields: [{ name: documentId, values: [id], functions: [] }, ...fields],
    conflictTarget: [documentId],
    arbitrated: true,
    skipsDuplicates: false,
  };
  // `set` overwrites the document of that id; `create` fails with ALREADY_EXISTS when it is there.
  return verb === 'set' ? { ...keyed, kind: 'upsert' } : { ...keyed, kind: 'insert' };
}

function firestoreOperation(call: TSESTree.CallExpression, file: AdapterFile): DataOperation | undefined {
  const callee = unwrapExpression(call.callee);
  const args = call.arguments.filter((argument) => argument.type !== 'SpreadElement');
  if (callee.type === 'Identifier') {
    const source = file.imports.bindings.get(callee.name);
    const imported = file.imports.names.get(callee.name) ?? callee.name;
    const verb = modularVerbs[imported];
    if (!verb || !isFirestoreModule(source)) return undefined;
    const reference = referenceOf(args[0], file);
    return reference && operation(verb, reference, args[1], call, `${imported}()`, file, false);
  }
  if (callee.type !== 'MemberExpression') return undefined;
  const method = calleeName(callee) as Verb | undefined;
  if (!method || !methods.has(method)) return undefined;
  // A reference's own method: `ref.get()`, `col.add(data)`, `ref.set(data)`.
  const own = referenceOf(callee.object, file);
  if (own) return operation(method, own, args[0], call, `${method}()`, file, false);
  // A transaction's or a batch's: `t.get(ref)`, `t.create(ref, data)`, `batch.set(ref, data)`.
  const reference = referenceOf(args[0], file);
  if (!reference || method === 'add') return undefined;
  const serialisable = isTransaction(callee.object, file);
  return operation(
    method,
    reference,
    args[1],
    call,
    `${serialisable ? 'transaction ' : ''}${method}()`,
    file,
    serialisable,
  );
}

export const firestore: DataAdapter = {
  kind: 'store',
  name: 'firestore',
  label: 'Firestore',
  modules,
  methods: new Set([...methods, ...Object.keys(modularVerbs)]),
  recognise: (node, file) => (node.type === 'CallExpression' ? firestoreOperation(node, file) : undefined),
  remedy:
    'doc(<key>).create(data) and treat ALREADY_EXISTS (code 6) as the duplicate, or check and write inside runTransaction',
  uniqueViolations: ['ALREADY_EXISTS', 'already-exists'],
};
