import type { TSESTree } from '@typescript-eslint/utils';

import {
  calleeName,
  constantInitializer,
  keyName,
  memberPath,
  normaliseTarget,
  objectLiteral,
  objectProperty,
  staticText,
  unwrapExpression,
  type AdapterFile,
  type DataAdapter,
  type DataOperation,
  type Field,
  type OperationKind,
} from '../analysis/index.js';

/**
 * Amazon DynamoDB: SDK v3 commands sent through `client.send(new PutCommand({ TableName, Item }))`
 * (the document client of @aws-sdk/lib-dynamodb and the low-level `PutItemCommand` alike), the
 * v3 aggregated clients' methods (`ddb.put({ … })`, `dynamodb.putItem({ … })`) and the v2
 * DocumentClient's `docClient.put({ … }).promise()`.
 *
 * A put overwrites whatever item has its key. A put whose `ConditionExpression` says
 * `attribute_not_exists(<an attribute the item writes>)` is refused when the item is already
 * there: DynamoDB settles the duplicate by failing the write with ConditionalCheckFailedException,
 * not by skipping it silently, so the write is arbitrated and its caller learns of the duplicate
 * from the error. An update creates the item when it is missing; with the same condition on its
 * key, or on an attribute its SET clause writes, it is a claim as well.
 */

const modules = ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb', 'aws-sdk', 'aws-sdk/clients/dynamodb'];
const commandModules = /^(@aws-sdk\/(client-dynamodb|lib-dynamodb)|aws-sdk\/clients\/dynamodb)$/;

type Verb = 'get' | 'put' | 'update' | 'delete' | 'query' | 'transact';

/** Command classes, document client and low-level alike. */
const commands: Readonly<Record<string, Verb>> = {
  GetCommand: 'get',
  GetItemCommand: 'get',
  BatchGetCommand: 'get',
  BatchGetItemCommand: 'get',
  QueryCommand: 'query',
  ScanCommand: 'query',
  PutCommand: 'put',
  PutItemCommand: 'put',
  UpdateCommand: 'update',
  UpdateItemCommand: 'update',
  DeleteCommand: 'delete',
  DeleteItemCommand: 'delete',
  TransactWriteCommand: 'transact',
  TransactWriteItemsCommand: 'transact',
};

/** Methods of the v2 DocumentClient and the v3 aggregated clients; their params say DynamoDB. */
const methodVerbs: Readonly<Record<string, Verb>> = {
  get: 'get',
  getItem: 'get',
  query: 'query',
  scan: 'query',
  put: 'put',
  putItem: 'put',
  update: 'update',
  updateItem: 'update',
  delete: 'delete',
  deleteItem: 'delete',
  transactWrite: 'transact',
  transactWriteItems: 'transact',
};

const transactVerbs: Readonly<Record<string, Verb>> = { Put: 'put', Update: 'update', Delete: 'delete' };

/** The low-level client's attribute values: `{ S: id }`, `{ N: '1' }`. */
const attributeTypes = new Set(['S', 'N', 'B', 'BOOL', 'NULL', 'M', 'L', 'SS', 'NS', 'BS']);

/** A DynamoDB client named so: `ddb`, `dynamo`, `docClient`, `documentClient`. */
const clientName = /dynamo|ddb|doc(ument)?client/i;

function property(options: TSESTree.ObjectExpression, name: string): TSESTree.Node | undefined {
  return objectProperty(options, name)?.value;
}

/** `marshall({ … })` of @aws-sdk/util-dynamodb writes the object it is given. */
function unmarshalled(node: TSESTree.Node | undefined): TSESTree.Node | undefined {
  if (!node) return undefined;
  const inner = unwrapExpression(node);
  if (inner.type === 'CallExpression' && calleeName(inner.callee) === 'marshall' && inner.arguments[0])
    return inner.arguments[0];
  return node;
}

/** The attributes an `Item` or `Key` writes, with `{ S: id }` read as `id`. */
function attributes(node: TSESTree.Node | undefined, file: AdapterFile): Field[] | undefined {
  const object = objectLiteral(unmarshalled(node), file.scopeOf);
  if (!object) return undefined;
  const fields: Field[] = [];
  for (const entry of object.properties) {
    if (entry.type !== 'Property') continue;
    const name = keyName(entry);
    if (name === undefined) continue;
    let value: TSESTree.Node = entry.value;
    const typed = unwrapExpression(value);
    if (typed.type === 'ObjectExpression' && typed.properties.length === 1) {
      const only = typed.properties[0];
      if (only.type === 'Property' && attributeTypes.has(keyName(only) ?? '')) value = only.value;
    }
    fields.push({ name, values: [value], functions: [] });
  }
  return fields;
}

/** The table a request names: a literal or constant as written, else the expression that holds it. */
function tableOf(options: TSESTree.ObjectExpression, file: AdapterFile): string | undefined {
  const table = property(options, 'TableName');
  if (!table) return undefined;
  // `${stage}-inbox` compares as `*-inbox`, the way Redis key shapes do.
  const text = staticText(table, file.scopeOf, () => '*');
  if (text) return text.text;
  const path = memberPath(table);
  return path ? path.join('.') : undefined;
}

function textOf(node: TSESTree.Node | undefined, file: AdapterFile): string | undefined {
  return node ? staticText(node, file.scopeOf, () => '*')?.text : undefined;
}

/**
 * The attribute a condition requires to be absent, when the condition does refuse an existing
 * item: `attribute_not_exists(pk)` (or `#pk` through ExpressionAttributeNames), alone or with
 * AND. An OR lets an existing item through, and a condition on another attribute
 * (`#status = :pending`) refuses nothing on its own.
 */
function absentAttribute(options: TSESTree.ObjectExpression, file: AdapterFile): string | undefined {
  const condition = textOf(property(options, 'ConditionExpression'), file);
  if (!condition || /\bOR\b/i.test(condition) || /\bNOT\s+attribute_not_exists/i.test(condition)) return undefined;
  const match = /attribute_not_exists\s*\(\s*([#\w.]+)\s*\)/i.exec(condition);
  if (!match) return undefined;
  const written = match[1];
  if (!written.startsWith('#')) return written;
  const names = objectLiteral(property(options, 'ExpressionAttributeNames'), file.scopeOf);
  const named = names && objectProperty(names, written)?.value;
  return named?.type === 'Literal' && typeof named.value === 'string' ? named.value : undefined;
}

const keyLike = /^(pk|id|key|_id)$|(Id|ID|Key|_id|_key)$/;

/** The attributes an update's `SET a = :a, #b = :b` clause writes, with `#names` resolved. */
function setAttributes(options: TSESTree.ObjectExpression, file: AdapterFile): string[] {
  const expression = textOf(property(options, 'UpdateExpression'), file);
  const clause = expression && /\bSET\s+(.*?)(?=\s+\b(REMOVE|ADD|DELETE)\b|$)/is.exec(expression)?.[1];
  if (!clause) return [];
  const names = objectLiteral(property(options, 'ExpressionAttributeNames'), file.scopeOf);
  return [...clause.matchAll(/([#\w.]+)\s*=/g)].flatMap((match) => {
    const written = match[1];
    if (!written.startsWith('#')) return [written];
    const named = names && objectProperty(names, written)?.value;
    return named?.type === 'Literal' && typeof named.value === 'string' ? [named.value] : [];
  });
}

/**
 * Does the condition arbitrate this write? The absent attribute must be one the item has once it
 * is written: a field of the literal `Item` (or `Key`), or, when those are not visible, a name
 * that reads as a key.
 */
function arbitrates(absent: string | undefined, written: Field[] | undefined, alsoWritten: readonly string[]): boolean {
  if (!absent) return false;
  if (alsoWritten.includes(absent)) return true;
  if (written) return written.some((field) => field.name === absent);
  return keyLike.test(absent);
}

function operationOf(
  verb: Verb,
  options: TSESTree.ObjectExpression,
  node: TSESTree.Node,
  how: string,
  file: AdapterFile,
): DataOperation[] {
  if (verb === 'transact') {
    const items = unwrapExpression(property(options, 'TransactItems') ?? options);
    if (items.type !== 'ArrayExpression') return [];
    return items.elements.flatMap((element) => {
      const item = element && element.type !== 'SpreadElement' ? objectLiteral(element, file.scopeOf) : undefined;
      if (!item) return [];
      return Object.entries(transactVerbs).flatMap(([name, inner]) => {
        const request = objectLiteral(property(item, name), file.scopeOf);
        return request ? operationOf(inner, request, node, `a transaction's ${name}`, file) : [];
      });
    });
  }
  const table = tableOf(options, file);
  if (!table) return [];
  const targets = [normaliseTarget(table)];
  const base = { library: 'dynamodb' as const, targets, node, fields: [] as Field[], arbitrated: false };
  if (verb === 'get' || verb === 'query') {
    // A get names the item it looks for by its whole key.
    const key = verb === 'get' ? attributes(property(options, 'Key'), file) : undefined;
    return [{ ...base, kind: 'read', label: `a DynamoDB ${how} on ${table}`, ...(key ? { filters: key } : {}) }];
  }
  if (verb === 'delete') return [{ ...base, kind: 'delete', label: `the DynamoDB ${how} on ${table}` }];
  const label = `the DynamoDB ${how} on ${table}`;
  const item = verb === 'put' ? property(options, 'Item') : undefined;
  const written = attributes(item ?? property(options, 'Key'), file);
  const absent = absentAttribute(options, file);
  // An update that sets the attribute it requires to be absent (`SET processedAt = :now` with
  // `attribute_not_exists(processedAt)`) refuses the second worker as well.
  const claimed = arbitrates(absent, written, verb === 'update' ? setAttributes(options, file) : []);
  const kind: OperationKind = claimed ? 'upsert' : verb === 'put' ? 'insert' : 'update';
  return [
    {
      ...base,
      kind,
      label,
      fields: written ?? [],
      // An item handed in whole (`Item: session`): a helper's caller may show its attributes.
      ...(item && !written ? { document: unmarshalled(item) } : {}),
      ...(claimed ? { conflictTarget: [absent!] } : {}),
      // Refused by failing (ConditionalCheckFailedException), not by writing nothing.
      arbitrated: claimed,
      skipsDuplicates: false,
    },
  ];
}

/** The command a `send` sends: `new PutCommand({ … })`, or a constant holding one. */
function sentCommand(
  argument: TSESTree.Node | undefined,
  file: AdapterFile,
): { verb: Verb; name: string; options: TSESTree.ObjectExpression } | undefined {
  if (!argument) return undefined;
  let node = unwrapExpression(argument);
  if (node.type === 'Identifier') {
    const init = constantInitializer(node, file.scopeOf(node));
    if (init) node = unwrapExpression(init);
  }
  if (node.type !== 'NewExpression' || node.callee.type !== 'Identifier') return undefined;
  const name = node.callee.name;
  // Evidence: the command class comes from a DynamoDB module, not merely a name that matches.
  const source = file.imports.bindings.get(name);
  const verb = commands[name];
  if (!verb || !source || !commandModules.test(source)) return undefined;
  const options = objectLiteral(node.arguments[0], file.scopeOf);
  return options ? { verb, name, options } : undefined;
}

function dynamoOperations(call: TSESTree.CallExpression, file: AdapterFile): DataOperation[] | undefined {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression') return undefined;
  const method = calleeName(callee);
  if (method === 'send') {
    const command = sentCommand(call.arguments[0], file);
    return command ? operationOf(command.verb, command.options, call, command.name, file) : undefined;
  }
  // v2: docClient.put(params).promise(); the operation is the awaited `.promise()` call.
  let request = call;
  if (method === 'promise') {
    const inner = unwrapExpression(callee.object);
    if (inner.type !== 'CallExpression' || call.arguments.length > 0) return undefined;
    request = inner;
  } else if (
    call.parent?.type === 'MemberExpression' &&
    call.parent.object === call &&
    calleeName(call.parent) === 'promise'
  ) {
    return undefined;
  }
  const requestCallee = unwrapExpression(request.callee);
  const name = calleeName(requestCallee);
  const verb = name === undefined ? undefined : methodVerbs[name];
  if (!verb || requestCallee.type !== 'MemberExpression') return undefined;
  const options = objectLiteral(request.arguments[0], file.scopeOf);
  if (!options || !(objectProperty(options, 'TableName') || objectProperty(options, 'TransactItems'))) return undefined;
  // `TableName` with a capital T is DynamoDB's; the file or the client's name must say so too.
  const receiver = memberPath(requestCallee.object)?.join('.') ?? '';
  const imported = [...file.imports.sources].some((source) => modules.includes(source));
  if (!imported && !clientName.test(receiver)) return undefined;
  return operationOf(verb, options, call, `${name}()`, file);
}

export const dynamodb: DataAdapter = {
  kind: 'store',
  name: 'dynamodb',
  label: 'DynamoDB',
  modules,
  methods: new Set(['send', 'promise', ...Object.keys(methodVerbs)]),
  recognise: (node, file) => (node.type === 'CallExpression' ? dynamoOperations(node, file) : undefined),
  remedy:
    "a put with ConditionExpression 'attribute_not_exists(<key>)', treating ConditionalCheckFailedException as the duplicate",
  uniqueViolations: ['ConditionalCheckFailedException', 'ConditionalCheckFailed'],
};
