import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { conflictCaught, duplicateCatches } from '../analysis/control/caught.js';
import {
  askedBy,
  decision,
  guardsFedBy,
  inSerializableTransaction,
  isDecidedBy,
  writeSites,
} from '../analysis/control/decisions.js';
import type { Guard } from '../analysis/control/guards.js';
import { filterFlags, flagTests, type FlagTest } from '../analysis/control/flags.js';
import { flip, isNothing } from '../analysis/control/polarity.js';
import { catchAround, contains, enclosingFunction, exits } from '../analysis/control/statements.js';
import type { FileAnalysis } from './file-analysis.js';
import { isFunction, type FileContext, type FunctionNode } from '../analysis/context/file-context.js';
import type { DataOperation, Field } from '../analysis/operations/index.js';
import type { OriginTracer } from '../analysis/origin/origin.js';
import { columnName, type SchemaModel, type UniqueKey } from '../analysis/schema/model.js';
import type { RowTest } from '../analysis/contract/schema.js';
import {
  answerUnread,
  calleeName,
  callTaking,
  keyName,
  memberPath,
  propertyName,
  runsInline,
  staticString,
  thenCallback,
  unwrapExpression,
} from '../analysis/syntax/nodes.js';
import { constantInitializer, variableOf } from '../analysis/syntax/scope.js';
import type { ScopeOf } from '../analysis/syntax/static-text.js';
import { walk } from '../analysis/syntax/walk.js';
import { isWork, workOfCall, type Work } from '../analysis/work/work.js';
import { argumentForParameter, callOperations } from '../analysis/control/helper-operations.js';
import { sitesInImporters } from '../analysis/project/import-sites.js';
import { moduleOfBinding } from '../analysis/project/modules.js';
import { matchesModule } from '../analysis/context/library-table.js';

/**
 * Writes that the application decided to make from a read of the same rows: "look, and write if
 * nothing was there". Two rules read them: a write that does not settle duplicates is a
 * check-then-insert; one that comes after other work, or whose own verdict is ignored, records
 * the claim too late. Found once per file, for both.
 */
export interface CheckedWrite {
  write: DataOperation;
  /** Where the write happens in the function that decides it: the write, or the call of the helper that makes it. */
  at: TSESTree.Node;
  /**
   * Where a record written late shows best: the helper's own write when the work before it is
   * the helper's (a sender that sends, then logs), else `at`, where the check lets the work run.
   */
  lateAt: TSESTree.Node;
  /** The read whose result decided that the write happens. */
  read: DataOperation;
  /** `unsettled`: the write does not settle duplicates; `ignored`: it does, by writing nothing, and nobody reads whether it wrote. */
  settles: 'unsettled' | 'ignored';
  /** The check does not decide the write, which runs either way: it only gated the work before it. */
  gatedOnly?: boolean;
  /** Work the same check lets through before the write, outside the write's transaction. */
  workBefore: readonly Work[];
  /** Some other write, one a repeat would do again, is decided by the same check in the same function, before or after this one. */
  guardsOtherWork: boolean;
  /**
   * The write is an update that sets this field of the row read, the one the check tested
   * (`paidAt`): a flag set after the work, or set first without comparing it (then `workAfter`).
   */
  flag?: string;
  /**
   * The read's own filter picked the rows whose flag says not yet done (`where: { status:
   * 'pending' }`): the code drains a table of work to do, as a job does, run again and again.
   */
  drains?: true;
  /**
   * A flag set before the work, whatever it holds by then (no compare-and-set): the work after it
   * that the check lets run, which a second worker that passed the check too runs again.
   */
  workAfter?: readonly Work[];
  /** A cache fill: the key-value write stores a computed value, not a marker. */
  storesState: boolean;
  /** The project's unique key that covers the columns the read checked and the write fills. */
  coveringKey(): UniqueKey | undefined;
  /**
   * A unique key that another plain insert in the same transaction fills after the check, before
   * the write or after it: a second worker's transaction fails there, and takes this write back
   * with it.
   */
  keyInTransaction(): UniqueKey | undefined;
  /**
   * Whether a key settles the write is unknown: a schema file that names the written table could
   * not be read, or the project declares its models in code and no declaration read is of this one.
   */
  keysUnknown(): boolean;
  /**
   * Whether a try-lock taken after the check decides the write (`if (!(await redis.set(lockKey, 1,
   * 'EX', 300, 'NX'))) return`): of the workers the check let through, one writes. The lock does
   * not close the gap between the work and a record written after it (a crash there, or work
   * outlasting the lock), so it answers the race of two inserts, not a claim recorded late.
   */
  lockedAfterCheck(): boolean;
  /** The calls after the write, in the function that decides it, that the same check lets run: the rest of what a second pass does. */
  decidedAfter(): readonly TSESTree.CallExpression[];
  /** The calls on the write's path after it, in the function that decides it, whether the check decides them or not. */
  runsAfter(): readonly TSESTree.CallExpression[];
  /** The function goes on past the check either way (`if (!cached) set(…)`): its callers learn nothing of what it found. */
  fallsThrough?: true;
  /**
   * Between the check and the write, an insert a unique key refuses when the same values come
   * again (`untilRefused`): a second worker stops there, before the write and the work after it.
   */
  refusedBetween?: true;
  /**
   * The check never finds the row the write stores (`leavesOutWhatWasLookedFor`): it stops no
   * repeat, so only a repeat that comes by itself (a redelivery) makes one.
   */
  blind?: true;
}

/**
 * Is a lock taken before `position` in the write's function, or by every caller before it calls
 * that function? An advisory lock, LOCK TABLE, SERIALIZABLE, a lock on another row, or a Redis lock
 * (SET … NX on another key, a Redlock or redis-semaphore mutex) taken before the check serialises
 * the workers, and the state is read under it. Taken after the check, it comes too late.
 */
function serialisedBefore(
  write: DataOperation,
  position: number,
  groups: ReturnType<typeof byFunction>,
  analysis: FileAnalysis,
): boolean {
  const fn = enclosingFunction(write.node);
  return (
    lockedBefore(write, position, groups.get(fn) ?? [], analysis.file) ||
    (fn !== undefined && position >= fn.range[0] && lockedByCallers(write, fn, groups, analysis, 0))
  );
}

/**
 * Does every caller in this file take a lock before it calls `fn` (a sweep that takes a mutex,
 * then calls the helper that checks and creates), or is `fn` the work a lock runs
 * (`redlock.using(keys, ttl, async () => …)`)? A function the module exports, or a method others
 * may call, may have callers out of sight: then no.
 */
function lockedByCallers(
  write: DataOperation,
  fn: FunctionNode,
  groups: ReturnType<typeof byFunction>,
  analysis: FileAnalysis,
  depth: number,
): boolean {
  const runner = callTaking(fn);
  if (runner)
    return (groups.get(enclosingFunction(runner)) ?? []).some(
      (operation) => operation.node === runner && operation.kind === 'serialisation',
    );
  const method = fn.parent?.type === 'MethodDefinition' ? fn.parent : undefined;
  const ownCallersOnly = method
    ? method.accessibility === 'private' || method.key.type === 'PrivateIdentifier'
    : analysis.file.exportNameOf(fn) === undefined;
  if (!ownCallersOnly && depth === 0 && !method) return lockedByCallersElsewhere(write, fn, analysis.file);
  if (depth >= maxCallerDepth || !ownCallersOnly) return false;
  // Every reference must be a call: one handed elsewhere may be called out of sight.
  const calls = analysis.file.callsTo(fn);
  return (
    calls.length > 0 &&
    calls.length === analysis.file.functionSites(fn).length - 1 &&
    calls.every((call) => {
      const caller = enclosingFunction(call);
      return (
        caller !== undefined &&
        caller !== fn &&
        (lockedBefore(write, call.range[0], groups.get(caller) ?? [], analysis.file) ||
          lockedByCallers(write, caller, groups, analysis, depth + 1))
      );
    })
  );
}

const maxCallerDepth = 4;

/**
 * Does every call of an exported `fn`, all of them in other modules of the project, come after a
 * lock its caller takes there (a route that takes `locks:announce:<id>` and wins a compare-and-set
 * on the listing before it calls the helper that checks for and writes the credits)? Not when the
 * module calls it itself, hands it on as a value, or nothing in the project calls it.
 */
function lockedByCallersElsewhere(write: DataOperation, fn: FunctionNode, file: FileContext): boolean {
  if (file.functionSites(fn).length > 1) return false;
  const sites = sitesInImporters(fn, file);
  return (
    sites.length > 0 &&
    sites.every(({ module, site }) => {
      const call = site.parent;
      const caller = call?.type === 'CallExpression' && call.callee === site ? enclosingFunction(call) : undefined;
      if (!call || !caller) return false;
      const before: DataOperation[] = [];
      walk(caller.body, module.visitorKeys, (node) => {
        if (node.range[0] >= call.range[0] || (isFunction(node) && !runsInline(node))) return false;
        if (node.type === 'CallExpression' || node.type === 'TaggedTemplateExpression')
          before.push(...callOperations(node, module));
        return true;
      });
      return lockedBefore(write, call.range[0], before, module);
    })
  );
}

/**
 * Is the site decided by a try-lock taken between the check (`from`) and it, and not let go
 * before it: a `SET … NX` on another key, or a lock whose answer the code tests, whose refusal
 * ends the run. A lock that waits (`pg_advisory_lock`, nothing tested) lets every worker through
 * in turn.
 */
function lockedAfterCheck(
  write: DataOperation,
  site: TSESTree.Node,
  from: number,
  groups: ReturnType<typeof byFunction>,
  analysis: FileAnalysis,
): boolean {
  const neighbours = groups.get(enclosingFunction(site)) ?? [];
  const taken = (lock: DataOperation) =>
    // The site runs where the lock was taken: its guards turned round, as a read's run where nothing was found.
    isDecidedBy(
      guardsOf(lock, analysis.file).map((guard) => ({ owner: guard.owner, whenTrue: flip(guard.whenTrue) })),
      [site],
    );
  const released = (lock: DataOperation) =>
    neighbours.some(
      (other) =>
        other.kind === 'delete' &&
        other.node.range[0] > lock.node.range[1] &&
        other.node.range[1] < site.range[0] &&
        other.targets.some((target) => lock.targets.includes(target)),
    );
  return neighbours.some(
    (lock) =>
      lock.node.range[0] > from &&
      lock.node.range[1] < site.range[0] &&
      (lock.kind === 'serialisation' || tryLock(lock, analysis.file)) &&
      !lock.targets.some((target) => write.targets.includes(target)) &&
      taken(lock) &&
      !released(lock),
  );
}

/** A key-value store's SET … NX: the key taken only if nobody holds it. */
function tryLock(operation: DataOperation, file: FileContext): boolean {
  return file.libraries.dataAdapter(operation.library)?.keyPolicy === 'whole-key' && operation.skipsDuplicates === true;
}

function lockedBefore(
  write: DataOperation,
  position: number,
  neighbours: readonly DataOperation[],
  file: FileContext,
): boolean {
  const elsewhere = (other: DataOperation) => !other.targets.some((target) => write.targets.includes(target));
  return neighbours.some(
    (other) =>
      other.node.range[0] < position &&
      (other.kind === 'serialisation' ||
        (other.kind === 'read' && other.locksRows === true && elsewhere(other)) ||
        // A key-value store's SET … NX on another key is a lock.
        (tryLock(other, file) && elsewhere(other)) ||
        comparesAndSets(other, file)),
  );
}

/**
 * An update whose answer decides (`if (result.count === 0) return` after a versioned `updateMany`,
 * `const [claimed] = await update(…).where(and(eq(id), eq(status, 'received'))).returning()`): a
 * compare-and-set only one worker wins.
 */
function comparesAndSets(operation: DataOperation, file: FileContext): boolean {
  return operation.kind === 'update' && (operation.filters?.length ?? 0) > 1 && guardsOf(operation, file).length > 0;
}

/** Whether the write leaves the earlier check deciding: it does not settle duplicates, or settles them while its result is ignored. */
function settlesHow(write: DataOperation): CheckedWrite['settles'] | undefined {
  if (write.kind !== 'insert' && write.kind !== 'upsert') return undefined;
  if (!write.arbitrated) return 'unsettled';
  return write.skipsDuplicates && answerUnread(write) ? 'ignored' : undefined;
}

/** `{ transaction }`, `{ transaction: t }`, `{ session }`: the transaction an ORM call is given as an option. */
const transactionOptions = /^(transaction|trx|tx|session|transactionalEntityManager)$/;

function transactionOption(call: TSESTree.CallExpression, scopeOf: ScopeOf): TSESLint.Scope.Variable | undefined {
  for (const argument of call.arguments) {
    if (argument.type !== 'ObjectExpression') continue;
    for (const property of argument.properties) {
      if (
        property.type !== 'Property' ||
        property.value.type !== 'Identifier' ||
        !transactionOptions.test(keyName(property) ?? '')
      )
        continue;
      const variable = variableOf(property.value, scopeOf(property.value));
      if (variable) return variable;
    }
  }
  return undefined;
}

/** What stands for one transaction: the handle it is run on (a variable), or the call that runs a batch of writes as one. */
type Transaction = TSESLint.Scope.Variable | TSESTree.CallExpression;

const beginsTransaction = /^\s*(BEGIN|START\s+TRANSACTION)\b/i;
const endsTransaction = /^\s*(COMMIT|ROLLBACK|END)\b/i;

/** `client.query('BEGIN')`, `connection.beginTransaction()`; `client.query('COMMIT')`, `connection.commit()`. */
function transactionStatement(call: TSESTree.CallExpression, statement: RegExp, method: RegExp): boolean {
  if (method.test(calleeName(call.callee) ?? '')) return true;
  const [first] = call.arguments;
  const text =
    first?.type === 'Literal'
      ? first.value
      : first?.type === 'TemplateLiteral' && first.expressions.length === 0
        ? first.quasis[0]?.value.cooked
        : undefined;
  return typeof text === 'string' && statement.test(text);
}

/**
 * The client a call runs on, when the code opened a transaction on that client before the call
 * and ends it after (`await client.query('BEGIN')` … `await client.query('COMMIT')`, or the
 * project's helpers given the client: `startTransaction(conn)` … `commit(conn)`): every
 * statement sent on it in between is one transaction.
 */
function openedOnClient(client: TSESLint.Scope.Variable, node: TSESTree.CallExpression): boolean {
  let begun = false;
  let ended = false;
  for (const reference of client.references) {
    const identifier = reference.identifier as TSESTree.Node;
    const member = identifier.parent;
    const onClient =
      member?.type === 'MemberExpression' &&
      member.object === identifier &&
      member.parent?.type === 'CallExpression' &&
      member.parent.callee === member
        ? member.parent
        : undefined;
    const givenClient = callTaking(identifier);
    const call = onClient ?? givenClient;
    if (!call || call === node) continue;
    const begins = onClient ? /^(beginTransaction|begin)$/ : /^(begin|start)Transaction$/;
    const ends = onClient ? /^(commit|rollback)$/ : /^(commit|rollback)(Transaction)?$/;
    if (
      call.range[1] <= node.range[0] &&
      (onClient ? transactionStatement(call, beginsTransaction, begins) : begins.test(calleeName(call.callee) ?? ''))
    )
      begun = true;
    if (
      call.range[0] >= node.range[1] &&
      (onClient ? transactionStatement(call, endsTransaction, ends) : ends.test(calleeName(call.callee) ?? ''))
    )
      ended = true;
  }
  return begun && ended;
}

/**
 * The transaction a call runs in: `tx` in `tx.user.create()` or `credit(tx, …)`, when `tx` is a
 * transaction callback's parameter; the transaction it is given as an option; a client on which
 * the code sent BEGIN before it; or `$transaction([…])`, whose writes are one transaction.
 */
function transactionOf(node: TSESTree.Node, scopeOf: ScopeOf): Transaction | undefined {
  if (node.type !== 'CallExpression') return undefined;
  if (
    node.parent?.type === 'ArrayExpression' &&
    node.parent.parent?.type === 'CallExpression' &&
    /transaction/i.test(calleeName(node.parent.parent.callee) ?? '')
  )
    return node.parent.parent;
  let root: TSESTree.Node = node.callee;
  while (root.type === 'MemberExpression' || root.type === 'CallExpression')
    root = root.type === 'MemberExpression' ? root.object : root.callee;
  const handles = [root, ...node.arguments].filter(
    (candidate): candidate is TSESTree.Identifier => candidate.type === 'Identifier',
  );
  for (const handle of handles) {
    const variable = variableOf(handle, scopeOf(handle));
    const definition = variable?.defs[0];
    const fn = definition?.type === 'Parameter' ? definition.node : undefined;
    const call = fn?.parent;
    if (call?.type === 'CallExpression' && /transaction|^begin$|^tx$/i.test(calleeName(call.callee) ?? ''))
      return variable ?? undefined;
  }
  // Asked after the handle: a call on a transaction's handle is in it, whatever its data holds (`{ session }`).
  const option = transactionOption(node, scopeOf);
  if (option) return option;
  for (const handle of handles) {
    const client = variableOf(handle, scopeOf(handle));
    if (client && openedOnClient(client, node)) return client;
  }
  return undefined;
}

/**
 * Are the read and the write one transaction that the database serialises (`serialisable`, as
 * the adapter says), so that a second worker's check cannot pass before the first one's write
 * commits: both serialisable, of one library, on one transaction handle (or on none the code
 * names, as where every such operation is inside one: a handler the database runs as a transaction).
 */
function oneSerialisableTransaction(write: DataOperation, read: DataOperation, scopeOf: ScopeOf): boolean {
  return (
    write.serialisable === true &&
    read.serialisable === true &&
    write.library === read.library &&
    transactionOf(write.node, scopeOf) === transactionOf(read.node, scopeOf)
  );
}

/**
 * Does the read look for the row being inserted? Only when the insert writes a column the read
 * matched on, with a value that is not new (a fresh id names a new row, never the one checked).
 * Unknown when either side does not show its columns.
 */
function looksForInsertedRow(
  write: DataOperation,
  read: DataOperation,
  tracer: OriginTracer,
  scopeOf: ScopeOf,
): boolean {
  if (!read.filters || read.filters.length === 0 || write.fields.length === 0) return true;
  // The read asks for rows with a column empty (`endDate: null`) that the insert fills (`endDate: now`): never this one.
  const asksEmpty = new Set(
    read.filters
      .filter((filter) => filter.values.length === 1 && isNullLiteral(filter.values[0]))
      .map((filter) => columnName(filter.name)),
  );
  if (
    write.fields.some(
      (field) =>
        asksEmpty.has(columnName(field.name)) &&
        field.values.length > 0 &&
        field.values.every((value) => surelySet(value, scopeOf)),
    )
  )
    return false;
  const checked = new Set(read.filters.map((filter) => columnName(filter.name)));
  return write.fields.some(
    (field) =>
      checked.has(columnName(field.name)) &&
      (field.values.length === 0 ||
        field.values.some((value) => tracer.scalars(value).some((fact) => fact.kind !== 'minted'))),
  );
}

/**
 * Does an insert that shows every field it writes leave out a column the read matched, equal to a
 * value given at run time? It stores its default there, which no such value is: the read never
 * finds that row, so the check stops no repeat at all. Not a range or a relation's filter
 * (`createdAt: { gte }`), which a default may meet.
 */
function leavesOutWhatWasLookedFor(write: DataOperation, read: DataOperation, tracer: OriginTracer): boolean {
  if (write.fieldsComplete !== true || !read.filters) return false;
  const written = new Set(write.fields.map((field) => columnName(field.name)));
  const givenAtRunTime = (node: TSESTree.Node) => {
    const value = unwrapExpression(node);
    return (
      value.type !== 'ObjectExpression' &&
      value.type !== 'ArrayExpression' &&
      !isNullLiteral(value) &&
      tracer.scalars(value).every((fact) => fact.kind !== 'constant')
    );
  };
  return read.filters.some(
    (filter) =>
      !written.has(columnName(filter.name)) && filter.values.length > 0 && filter.values.every(givenAtRunTime),
  );
}

function isNullLiteral(node: TSESTree.Node): boolean {
  const value = unwrapExpression(node);
  return value.type === 'Literal' && value.value === null;
}

/** A value that cannot be null: written in place (a string, a number, an object, a call's `new`), or a constant holding one. */
function surelySet(node: TSESTree.Node, scopeOf: ScopeOf, depth = 0): boolean {
  const value = unwrapExpression(node);
  if (value.type === 'Literal') return value.value !== null;
  if (value.type === 'Identifier') {
    const held = depth === 0 ? constantInitializer(value, scopeOf(value)) : undefined;
    return held !== undefined && surelySet(held, scopeOf, depth + 1);
  }
  return ['TemplateLiteral', 'ObjectExpression', 'ArrayExpression', 'NewExpression', 'CallExpression'].includes(
    value.type,
  );
}

/**
 * Does the write store the value the read looked up as the store's own primary key (MongoDB's
 * `_id`): in that field (`findById(dto.uuid)`, then `create({ _id: dto.uuid, … })`), or in the
 * document it stores whole or spreads, when that does not name the key itself (`findById(data._id)`,
 * then `create(data)` or `create({ ...data, type })`)?
 */
function writesLookedUpKey(
  write: DataOperation,
  checked: readonly Field[],
  primaryKey: string,
  text: (node: TSESTree.Node) => string,
  scopeOf: ScopeOf,
): boolean {
  // `t._id` is also `result.data[i]._id` when `const t = result.data[i]`: the write's document is
  // read through the variable that holds it.
  const spelled = (value: TSESTree.Node) => {
    const node = unwrapExpression(value);
    const object = node.type === 'MemberExpression' ? unwrapExpression(node.object) : undefined;
    const held = object?.type === 'Identifier' ? constantInitializer(object, scopeOf(object)) : undefined;
    return held ? [text(node), `${text(unwrapExpression(held))}.${primaryKey}`] : [text(node)];
  };
  const looked = new Set(
    checked.filter((filter) => filter.name === primaryKey).flatMap((filter) => filter.values.flatMap(spelled)),
  );
  if (looked.size === 0) return false;
  const primary = write.fields.find((field) => field.name === primaryKey);
  if (primary?.values.some((value) => looked.has(text(unwrapExpression(value))))) return true;
  const whole = write.document && unwrapExpression(write.document);
  const sources =
    whole?.type === 'ObjectExpression'
      ? whole.properties.some((property) => property.type === 'Property' && keyName(property) === primaryKey)
        ? []
        : whole.properties.flatMap((property) => (property.type === 'SpreadElement' ? [property.argument] : []))
      : whole
        ? [whole]
        : [];
  return sources.some((source) => looked.has(`${text(unwrapExpression(source))}.${primaryKey}`));
}

/**
 * Does the row an insert writes meet each test of a partial key's condition: a column it leaves
 * empty (`deleted_at IS NULL`, when the write shows every field) or fills (`IS NOT NULL`), a
 * constant it writes among those listed (`status = 'open'`, or an enum's member of that name,
 * `Status.open`) or outside them (`status NOT IN ('failed')`)?
 */
function meets(write: DataOperation, tests: readonly RowTest[]): boolean {
  const byColumn = new Map(write.fields.map((field) => [columnName(field.name), field]));
  return tests.every((test) => {
    const field = byColumn.get(test.column);
    if ('empty' in test) return write.fieldsComplete !== false && field === undefined;
    if ('filled' in test)
      return (
        field !== undefined &&
        field.values.length > 0 &&
        !field.values.some((value) => isNothing(unwrapExpression(value)))
      );
    const value = field && constantWritten(field);
    if ('oneOf' in test) return test.oneOf.includes(value ?? (field && enumMember(field)) ?? '');
    return value !== undefined && !test.noneOf.includes(value);
  });
}

/** `Status.Verified`: the member of an enum-like object a field is written with, by its name. */
function enumMember(field: Field): string | undefined {
  const value = field.values.length === 1 ? unwrapExpression(field.values[0]) : undefined;
  return value?.type === 'MemberExpression' &&
    !value.computed &&
    value.object.type === 'Identifier' &&
    /^[A-Z]/.test(value.object.name)
    ? propertyName(value)
    : undefined;
}

/** The constant a field is written with: one the SQL writes itself, or a string written in place. */
function constantWritten(field: Field): string | undefined {
  if (field.constant !== undefined) return field.constant;
  return field.values.length === 1 ? staticString(unwrapExpression(field.values[0])) : undefined;
}

/**
 * A unique key of the written table, declared in the project's schema, whose columns the write
 * fills and the read checked: the second worker's insert then fails on it instead of duplicating.
 */
function coveringKey(
  write: DataOperation,
  read: DataOperation,
  schema: () => SchemaModel,
  tracer: OriginTracer,
  text: (node: TSESTree.Node) => string,
  primaryKey?: string,
): UniqueKey | undefined {
  const target = write.targets[0];
  const checked = read.filters;
  if (!target) return undefined;
  if (primaryKey && checked && writesLookedUpKey(write, checked, primaryKey, text, tracer.file.scopeOf))
    return { columns: [columnName(primaryKey)], partial: false, written: primaryKey, file: '' };
  if (write.fields.length === 0 && write.fieldsComplete !== false) return undefined;
  // A key every insert fills with the same constant (a singleton row, `id: true`): the second always fails.
  const constant = write.fields.filter(
    (field) =>
      field.values.length > 0 &&
      field.values.every((value) => tracer.scalars(value).every((fact) => fact.kind === 'constant')),
  );
  const singleton =
    constant.length > 0
      ? schema().keyWithin(
          target,
          constant.map((field) => field.name),
        )
      : undefined;
  if (singleton) return singleton;
  if (!checked || checked.length === 0) return undefined;
  const checkedColumns = new Set(checked.map((filter) => columnName(filter.name)));
  // A write that spreads an object (`{ projectId, ...props }` after checking `props.name`) may
  // fill any checked column: the key on them then settles it.
  const written =
    write.fieldsComplete === false
      ? [...write.fields.map((field) => field.name), ...checked.map((filter) => filter.name)]
      : write.fields.map((field) => field.name);
  const both = new Set([...new Set(written)].filter((name) => checkedColumns.has(columnName(name))).map(columnName));
  // A key the row falls under: a full one, or a partial one whose condition the inserted row meets.
  const covers = (key: UniqueKey) => !key.partial || (key.rowsWhere !== undefined && meets(write, key.rowsWhere));
  const exact = schema()
    .uniqueKeys(target)
    .find((key) => covers(key) && key.columns.length > 0 && key.columns.every((column) => both.has(column)));
  if (exact) return exact;
  // A key the insert fills whole, holding the checked value or a sibling written from it
  // (`email`, `emailKey: normalise(email)`), beside scope columns (`projectId`): the second
  // insert of what the check looked for fails on it all the same.
  const checkedValues = write.fields
    .filter((field) => checkedColumns.has(columnName(field.name)))
    .flatMap((field) => field.values.map(text));
  const naming = checkedValues.map(
    (checkedText) => new RegExp(`(^|[^\\w$.])${checkedText.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w$])`),
  );
  // The value as written, or the constant it names (`buzzTransactionId: prefix`, `const prefix = \`…-${userId}\``).
  const mentions = (value: TSESTree.Node) => {
    const named = value.type === 'Identifier' ? constantInitializer(value, tracer.file.scopeOf(value)) : undefined;
    const shown = named ? [text(value), text(named)] : [text(value)];
    return naming.some((pattern) => shown.some((written) => pattern.test(written)));
  };
  const carries = (field: DataOperation['fields'][number]) =>
    checkedColumns.has(columnName(field.name)) || field.values.some(mentions);
  const stable = write.fields.filter(
    (field) =>
      field.values.length > 0 &&
      field.values.every((value) => tracer.scalars(value).every((fact) => fact.kind !== 'minted')),
  );
  const filled = new Set(stable.map((field) => columnName(field.name)));
  const carrying = new Set(stable.filter(carries).map((field) => columnName(field.name)));
  if (carrying.size === 0) return undefined;
  return schema()
    .uniqueKeys(target)
    .find(
      (key) =>
        covers(key) &&
        key.columns.length > 0 &&
        key.columns.every((column) => filled.has(column)) &&
        key.columns.some((column) => carrying.has(column)),
    );
}

/**
 * A key-value write that stores a computed value (a cache fill: GET missed, compute, SET) keeps
 * state; only a marker (a constant, the time) records that something was done. A constant chosen
 * as the code runs (`found ? '1' : '0'`, or another constant the same key is given beside it) is
 * state too, and so is a value of which nothing is seen (an object the code fills in, stringified).
 */
function storesState(write: DataOperation, groups: ReturnType<typeof byFunction>, analysis: FileAnalysis): boolean {
  const { tracer, file } = analysis;
  const stored = write.stored;
  if (file.libraries.dataAdapter(write.library)?.keyPolicy !== 'whole-key' || !stored || stored.length === 0)
    return false;
  // `if (ok) set(k, 'true') else set(k, 'false')`: the same key given another constant beside it is chosen too.
  const text = (values: readonly TSESTree.Node[]) => values.map(file.text).join();
  const key = (operation: DataOperation) => text(operation.fields.flatMap((field) => field.values));
  const chosen = (groups.get(enclosingFunction(write.node)) ?? []).some(
    (other) =>
      other !== write && other.stored !== undefined && key(other) === key(write) && text(other.stored) !== text(stored),
  );
  return (
    chosen ||
    stored.some((value) => {
      if (value.type === 'ConditionalExpression') return true;
      const facts = tracer.scalars(value);
      return (
        facts.length === 0 ||
        facts.some((fact) => fact.kind !== 'constant' && fact.kind !== 'time' && fact.kind !== 'minted')
      );
    })
  );
}

/**
 * Are the keys that could settle `write` unknown? A schema file that names its table could not be
 * read, or the table is registered where the readers look but defined where they do not (a
 * Mongoose schema handed to `model()` by a loader function).
 */
function keysUnknown(write: DataOperation, analysis: FileAnalysis): boolean {
  const schema = analysis.schema();
  // A store that declares every table in its schema files (Prisma), through a client a package
  // outside the project made, writing a table the project's own files do not declare.
  const declaredElsewhere =
    analysis.file.libraries.dataAdapter(write.library)?.schema?.declaresEveryTable === true &&
    clientFromPackage(write, analysis);
  return write.targets.some(
    (target) =>
      schema.unreadableFor(target) || schema.keysUnseen(target) || (declaredElsewhere && !schema.knows(target)),
  );
}

/**
 * Is the client a write calls imported from a package (`import { prisma } from '@acme/core/prisma-client'`),
 * neither the library's own module nor one of the project's? Its schema is kept in that package.
 */
function clientFromPackage(write: DataOperation, analysis: FileAnalysis): boolean {
  const callee = write.node.type === 'CallExpression' ? write.node.callee : undefined;
  const root = callee && memberPath(callee)?.[0];
  const source = root === undefined ? undefined : analysis.file.imports.bindings.get(root);
  if (source === undefined || source.startsWith('.')) return false;
  if (matchesModule(source, analysis.file.libraries.dataAdapter(write.library)?.modules)) return false;
  return moduleOfBinding(analysis.file, root!) === undefined;
}

/**
 * The work up to the first insert a unique key refuses when the same values come again (a charge
 * row keyed by the provider's charge id, its own id fresh): a repeat stops there, so what follows
 * it does not run twice. Not one whose violation is caught: the code then goes on.
 */
function untilRefused(work: readonly Work[], write: TSESTree.Node, analysis: FileAnalysis): Work[] {
  const refuses = ({ node }: Work) =>
    node.type === 'CallExpression' &&
    passedOnEveryPath(node, write) &&
    duplicateCatches(node, analysis.file).length === 0 &&
    analysis.operationsAt(node).some((operation) => refusingKey(operation, analysis) !== undefined);
  const at = work.findIndex(refuses);
  return at === -1 ? [...work] : work.slice(0, at);
}

/**
 * Does every path to `write` pass `node`: does no branch, loop, short-circuit, switch case or
 * guarded `try` hold `node` without holding `write` too?
 */
function passedOnEveryPath(node: TSESTree.Node, write: TSESTree.Node): boolean {
  for (let current: TSESTree.Node = node; current.parent && !isFunction(current.parent); current = current.parent) {
    const parent: TSESTree.Node = current.parent;
    if (contains(parent, write)) return true;
    const branch =
      ((parent.type === 'IfStatement' || parent.type === 'ConditionalExpression') && current !== parent.test) ||
      (parent.type === 'LogicalExpression' && current === parent.right) ||
      (parent.type === 'TryStatement' && current === parent.block && parent.handler !== null) ||
      [
        'SwitchCase',
        'CatchClause',
        'ForStatement',
        'ForInStatement',
        'ForOfStatement',
        'WhileStatement',
        'DoWhileStatement',
      ].includes(parent.type);
    if (branch) return false;
  }
  return true;
}

/** An `if` that leaves the function on neither side. */
function fallsThrough(guard: Guard): boolean {
  const owner = guard.owner;
  return owner.type === 'IfStatement' && !exits(owner.consequent) && !exits(owner.alternate);
}

/** `save(found)` after `const found = await repo.findOne(…)` updates the row that was read. */
function writesWhatWasRead(write: DataOperation, read: DataOperation, scopeOf: ScopeOf): boolean {
  if (write.node.type !== 'CallExpression') return false;
  return write.node.arguments.some((argument) => {
    if (argument.type !== 'Identifier') return false;
    const definition = variableOf(argument, scopeOf(argument))?.defs[0];
    return (
      definition?.type === 'Variable' &&
      definition.node.init !== null &&
      definition.node.init.range[0] <= read.node.range[0] &&
      read.node.range[1] <= definition.node.init.range[1]
    );
  });
}

/** The operations of each function (undefined: the module's top level). */
function byFunction(operations: readonly DataOperation[]): Map<TSESTree.Node | undefined, DataOperation[]> {
  const groups = new Map<TSESTree.Node | undefined, DataOperation[]>();
  for (const operation of operations) {
    const owner = enclosingFunction(operation.node);
    const group = groups.get(owner);
    if (group) group.push(operation);
    else groups.set(owner, [operation]);
  }
  return groups;
}

/**
 * The work that runs after the check and before the write, on the side of the check the write
 * is on: it has happened by the time the write records it. Read in the function that decides:
 * from the read (or, when the read is a helper's, from the guard that asks its answer) to the
 * write's site there (the write, or the call of the helper that makes it). Work inside the
 * write's transaction is taken back with it, unless the write settles a duplicate by writing
 * nothing, so that the second worker's transaction commits its work all the same.
 */
export function workBetween(
  write: DataOperation,
  at: TSESTree.Node,
  from: number,
  settles: CheckedWrite['settles'],
  /** The read's guards, when a check decides: only the work they let through counts. Undefined: all work on the way. */
  guards: ReturnType<typeof guardsFedBy> | undefined,
  analysis: FileAnalysis,
): Work[] {
  const body = enclosingFunction(at)?.body;
  if (!body) return [];
  const file = analysis.file;
  const transaction = settles === 'unsettled' ? transactionOf(at, file.scopeOf) : undefined;
  const found: Work[] = [];
  walk(body, file.visitorKeys, (node) => {
    if (node.range[1] <= from || node.range[0] >= at.range[0])
      return node.range[1] > from && node.range[0] < at.range[0];
    // A call around the write (a retry wrapper, a transaction) is not work done before it.
    if (node.type !== 'CallExpression' || node.range[1] >= at.range[0]) return true;
    if (transaction && transactionOf(node, file.scopeOf) === transaction) return false;
    if ((guards && !isDecidedBy(guards, [node])) || !onPathTo(node, at)) return true;
    // A request whose conflict answer the code takes as done: the other system refuses the repeat.
    if (conflictCaught(node, at, file)) return false;
    // An earlier try at the same record (an insert retried without a column): not work of its own.
    if (sameRecord(write, analysis.operationsAt(node))) return false;
    const work = workOfCall(node, file, (call) => analysis.operationsAt(call));
    if (work) found.push(work);
    // A call that does work counts once, whatever its arguments do.
    return !work;
  });
  return found;
}

/** The work a helper does before its write, where the write is reached through a call of it (`site`). */
function workInHelper(
  write: DataOperation,
  site: TSESTree.Node,
  settles: CheckedWrite['settles'],
  analysis: FileAnalysis,
): Work[] {
  if (site === write.node) return [];
  return workBetween(write, write.node, enclosingFunction(write.node)!.range[0], settles, undefined, analysis);
}

/**
 * The work after `at` in its function that runs on the way from it (and, with `guards`, that the
 * check lets run): what a second worker that got past the check does again after `at`. Not a
 * `catch` it is not in (the failure's bookkeeping), nor another write of the same record.
 */
function workFollowing(
  write: DataOperation,
  at: TSESTree.Node,
  guards: ReturnType<typeof guardsFedBy> | undefined,
  analysis: FileAnalysis,
): Work[] {
  const body = enclosingFunction(at)?.body;
  if (!body) return [];
  const file = analysis.file;
  const found: Work[] = [];
  walk(body, file.visitorKeys, (node) => {
    if (node.range[1] <= at.range[1]) return false;
    if (node.type !== 'CallExpression' || node.range[0] < at.range[1]) return true;
    if ((guards && !isDecidedBy(guards, [node])) || !onPathTo(at, node) || inCatchWithout(node, at)) return true;
    if (sameRecord(write, analysis.operationsAt(node))) return false;
    const work = workOfCall(node, file, (call) => analysis.operationsAt(call));
    if (work) found.push(work);
    return !work;
  });
  return found;
}

function inCatchWithout(node: TSESTree.Node, at: TSESTree.Node): boolean {
  const clause = catchAround(node);
  return clause !== undefined && !contains(clause, at);
}

/**
 * `findFirst({ where: { userId, createdAt: { gte: new Date(Date.now() - 3000) } } })`: a look for
 * a recent row, a window that spaces repeats out. No unique key can say "within three seconds", and
 * a repeat after the window is meant to be written, so the look is no check for the row itself.
 */
function looksInWindow(read: DataOperation, tracer: OriginTracer): boolean {
  // Syntax alone (the call's object arguments), never the read's filters: those may mean parsing its SQL.
  const bounded = (node: TSESTree.Node, depth: number): boolean => {
    const object = unwrapExpression(node);
    return (
      object.type === 'ObjectExpression' &&
      depth < 4 &&
      object.properties.some(
        (property) =>
          property.type === 'Property' &&
          ((/^\$?gte?$/.test(keyName(property) ?? '') &&
            tracer
              .scalars(property.value)
              .some((fact) => fact.kind === 'minted' && fact.what === 'the current time')) ||
            bounded(property.value, depth + 1)),
      )
    );
  };
  return read.node.type === 'CallExpression' && read.node.arguments.some((argument) => bounded(argument, 0));
}

/** Does a call insert into the table the write records in, as the write does? */
function sameRecord(write: DataOperation, operations: readonly DataOperation[]): boolean {
  return operations.some(
    (operation) => operation.kind === write.kind && operation.targets.some((target) => write.targets.includes(target)),
  );
}

/**
 * The calls after `at` in its function that the read's guards let run only when nothing was
 * found, as they do the write; without guards, every call on the path from `at`.
 */
function callsDecidedAfter(
  at: TSESTree.Node,
  guards: ReturnType<typeof guardsFedBy> | undefined,
  analysis: FileAnalysis,
): TSESTree.CallExpression[] {
  const body = enclosingFunction(at)?.body;
  if (!body) return [];
  const found: TSESTree.CallExpression[] = [];
  walk(body, analysis.file.visitorKeys, (node) => {
    if (node.range[1] <= at.range[1]) return false;
    if (
      node.type === 'CallExpression' &&
      node.range[0] >= at.range[1] &&
      (guards ? isDecidedBy(guards, [node]) : onPathTo(at, node))
    )
      found.push(node);
    return true;
  });
  return found;
}

/**
 * Does `node` run on the way to `write`? Not when it sits in a branch that leaves before the
 * write (`if (empty) { await del(); return; }`), in the other branch of a condition the write is
 * in, in a `catch` the write is not in, or in another case of a `switch` than the write's.
 */
function onPathTo(node: TSESTree.Node, write: TSESTree.Node): boolean {
  for (let current: TSESTree.Node = node; current.parent && !isFunction(current.parent); current = current.parent) {
    const parent: TSESTree.Node = current.parent;
    if ((parent.type === 'IfStatement' || parent.type === 'ConditionalExpression') && current !== parent.test) {
      if (
        contains(parent, write)
          ? !contains(current, write)
          : parent.type === 'IfStatement' && exits(current as TSESTree.Statement)
      )
        return false;
    }
    if (parent.type === 'CatchClause' && !contains(parent, write)) return false;
    // Another case of the switch the write is in, or a case that leaves the function before it.
    if (parent.type === 'SwitchCase' && !contains(parent, write)) {
      const last = parent.consequent[parent.consequent.length - 1];
      if (contains(parent.parent, write) ? exits(last) : exits(last, 'function')) return false;
    }
  }
  return true;
}

function keyInTransaction(
  write: DataOperation,
  read: DataOperation,
  neighbours: readonly DataOperation[],
  analysis: FileAnalysis,
): UniqueKey | undefined {
  const scopeOf = analysis.file.scopeOf;
  const transaction = transactionOf(write.node, scopeOf);
  if (!transaction) return undefined;
  for (const other of neighbours) {
    if (
      other === write ||
      other.node.range[0] <= read.node.range[1] ||
      transactionOf(other.node, scopeOf) !== transaction
    )
      continue;
    const key = refusingKey(other, analysis);
    if (key) return key;
  }
  return undefined;
}

/**
 * The unique key a plain insert fills with values a repeat writes again (not made fresh): a second
 * copy of the insert fails on it. None for an insert that settles duplicates itself (`ON CONFLICT`).
 */
function refusingKey(insert: DataOperation, analysis: FileAnalysis): UniqueKey | undefined {
  const target = insert.targets[0];
  if (!target || insert.kind !== 'insert' || insert.arbitrated) return undefined;
  const stable = insert.fields.filter((field) =>
    field.values.some((value) => analysis.tracer.scalars(value).some((fact) => fact.kind !== 'minted')),
  );
  return stable.length > 0
    ? analysis.schema().keyWithin(
        target,
        stable.map((field) => field.name),
      )
    : undefined;
}

/**
 * The insert or upsert of the read's rows that the read's result decides, if any: the read is then
 * the check of "look, and write if nothing was there", whatever settles the write.
 */
export function insertDecidedBy(read: DataOperation, analysis: FileAnalysis): DataOperation | undefined {
  // Cheapest first: whether the read decides anything (where the write is), a glance at the text, and only then its tables.
  const guards = guardsOf(read, analysis.file);
  if (guards.length === 0) return undefined;
  return analysis
    .allOperations()
    .find(
      (write) =>
        (write.kind === 'insert' || write.kind === 'upsert') &&
        isDecidedBy(guards, writeSites(write.node, analysis.file)) &&
        (!read.mayTouch || write.targets.some(read.mayTouch)) &&
        write.targets.some((target) => read.targets.includes(target)) &&
        looksForInsertedRow(write, read, analysis.tracer, analysis.file.scopeOf),
    );
}

const guardsFound = new WeakMap<DataOperation, ReturnType<typeof guardsFedBy>>();

/** The conditions a read's result decides, found once per read for every rule that asks. */
function guardsOf(read: DataOperation, file: FileContext): ReturnType<typeof guardsFedBy> {
  let guards = guardsFound.get(read);
  if (!guards) {
    guards = guardsFedBy(read.node, file);
    guardsFound.set(read, guards);
  }
  return guards;
}

const found = new WeakMap<FileAnalysis, readonly CheckedWrite[]>();

/** Every write of the file that a read of the same rows decided, with what surrounds it. */
export function checkedWrites(analysis: FileAnalysis): readonly CheckedWrite[] {
  const known = found.get(analysis);
  if (known) return known;
  const result = findCheckedWrites(analysis);
  found.set(analysis, result);
  return result;
}

/**
 * Does the write fill every column the read matched on with the very value it matched (`emailId:
 * email.id` both times): does it record the thing the read asked about?
 */
function recordsWhatWasAsked(
  write: DataOperation,
  read: DataOperation,
  text: (node: TSESTree.Node) => string,
): boolean {
  if (!read.filters || read.filters.length === 0) return false;
  const written = new Map(write.fields.map((field) => [columnName(field.name), field]));
  return read.filters.every((filter) => {
    const asked = new Set(filter.values.map(text));
    return written.get(columnName(filter.name))?.values.some((value) => asked.has(text(value))) === true;
  });
}

/**
 * `const seen = await find({ emailId, status }); if (!seen) await bumpCounters(); await
 * create({ emailId, status })`: the write runs either way, so no check decides it, but it is
 * the record of what the check asked, written after the work the check let through. Upsert or
 * insert, a second worker has done that work by then.
 */
function recordAfterGatedWork(
  write: DataOperation,
  candidates: readonly DataOperation[],
  analysis: FileAnalysis,
  groups: ReturnType<typeof byFunction>,
): CheckedWrite | undefined {
  const fn = enclosingFunction(write.node);
  const read = candidates.find(
    (candidate) =>
      candidate.node.range[1] < write.node.range[0] &&
      enclosingFunction(candidate.node) === fn &&
      // Whether the read decides anything is cheaper to learn than its tables (SQL is parsed for them).
      guardsOf(candidate, analysis.file).length > 0 &&
      candidate.targets.some((target) => write.targets.includes(target)) &&
      recordsWhatWasAsked(write, candidate, analysis.file.text),
  );
  if (!read || oneSerialisableTransaction(write, read, analysis.file.scopeOf)) return undefined;
  if (serialisedBefore(write, read.node.range[0], groups, analysis)) return undefined;
  // A plain insert that fails on a duplicate takes back the work of its transaction; an upsert does not.
  const settles = write.kind === 'insert' && !write.arbitrated ? 'unsettled' : 'ignored';
  const workBefore = workBetween(
    write,
    write.node,
    read.node.range[1],
    settles,
    guardsOf(read, analysis.file),
    analysis,
  );
  if (workBefore.length === 0) return undefined;
  let key: { value: UniqueKey | undefined } | undefined;
  return {
    write,
    read,
    at: write.node,
    lateAt: write.node,
    settles,
    gatedOnly: true,
    workBefore,
    guardsOtherWork: true,
    storesState: storesState(write, groups, analysis),
    coveringKey: () => (key ??= { value: keyCovering(write, read, analysis) }).value,
    keyInTransaction: () => undefined,
    keysUnknown: () => keysUnknown(write, analysis),
    lockedAfterCheck: () => false,
    decidedAfter: () => [],
    runsAfter: () => [],
  };
}

/**
 * What an update sets the field a flag test asked about to, on the row that was read: by the
 * update's filters (`where: { id }` as the read's, `id: order.id`, or in SQL the same columns of
 * the same table), or by storing the row after the code set the field on it (`order.paidAt =
 * now; await repo.save(order)`). The value's expression, or the field as SQL writes it.
 */
function flagValue(
  update: DataOperation,
  read: DataOperation,
  test: FlagTest,
  text: (node: TSESTree.Node) => string,
  site: TSESTree.Node = update.node,
): TSESTree.Node | Field | undefined {
  const field = columnName(test.field);
  const set = update.fields.find((each) => columnName(each.name) === field);
  // `order.update({ paidAt })`, `order.save()`: the row written through itself.
  const own = update.row !== undefined && test.row.references.some((reference) => reference.identifier === update.row);
  if (set) {
    const seen = (value: TSESTree.Node) => givenAt(value, update.node, site);
    const asked = new Map((read.filters ?? []).map((filter) => [columnName(filter.name), filter.values.map(text)]));
    // An upsert names its row by the key it settles on (`where: { stripeId }`).
    const filters =
      update.filters ?? update.fields.filter((each) => update.conflictTarget?.includes(each.name) === true);
    const sameRow =
      own ||
      (filters.length > 0 &&
        filters.every((filter) => {
          const column = columnName(filter.name);
          // SQL, or a helper's update seen from its call, names the columns and not the values: the
          // same columns of the same table, in one function.
          if (filter.values.length === 0) return asked.has(column);
          return filter.values.map(seen).some(
            (value) =>
              asked.get(column)?.includes(text(value)) === true ||
              (value.type === 'MemberExpression' &&
                value.object.type === 'Identifier' &&
                value.object.name === test.row.name &&
                // `booking.id`, or `booking.bookingId` where the query named the row's id after its table.
                [column, ...update.targets.map((target) => `${target}_${column}`)].includes(
                  columnName(text(value.property)),
                )),
          );
        }));
    // A compare-and-set (`where: { id, paidAt: null }`) is the update the code meant as the claim.
    const comparesFlag = filters.some((filter) => columnName(filter.name) === field);
    return sameRow && !comparesFlag ? (set.values[0] ? seen(set.values[0]) : set) : undefined;
  }
  if (update.node.type !== 'CallExpression') return undefined;
  const stored =
    own || update.node.arguments.some((argument) => argument.type === 'Identifier' && argument.name === test.row.name);
  if (!stored) return undefined;
  // The last assignment of the field on the way to the save (not one in a branch that left before it).
  const assigned = test.row.references.findLast((reference) => {
    const member = reference.identifier.parent;
    const assignment = member?.parent;
    return (
      member?.type === 'MemberExpression' &&
      assignment?.type === 'AssignmentExpression' &&
      assignment.left === member &&
      assignment.operator === '=' &&
      columnName(text(member.property)) === field &&
      assignment.range[0] > (test.guard ? test.guard.owner.range[0] : 0) &&
      assignment.range[1] < update.node.range[0] &&
      onPathTo(assignment, update.node)
    );
  });
  const assignment = assigned?.identifier.parent?.parent;
  return assignment?.type === 'AssignmentExpression' ? assignment.right : undefined;
}

/**
 * A value of a write as the call `site` of the helper that makes it hands it over: a parameter of
 * the helper is the call's argument (`markSent(row.id)` for `where: { id }`), anything else is as
 * written. At the write itself, the value as written.
 */
function givenAt(value: TSESTree.Node, write: TSESTree.Node, site: TSESTree.Node): TSESTree.Node {
  const fn = enclosingFunction(write);
  if (site === write || site.type !== 'CallExpression' || value.type !== 'Identifier' || !fn) return value;
  return argumentForParameter(fn, site, value.name) ?? value;
}

/** Does the value set the flag to what the test takes for done: not nothing, and the compared value where there is one? */
function marksDone(value: TSESTree.Node | Field, test: FlagTest, text: (node: TSESTree.Node) => string): boolean {
  let written: string | undefined;
  if ('type' in value) {
    if (isNothing(value) || (value.type === 'Literal' && (value.value === 0 || value.value === ''))) return false;
    written = value.type === 'Literal' ? String(value.value) : text(value);
  } else {
    // SQL leaves out what it clears (NULL, FALSE); a constant it writes is known, anything else is not.
    written = value.constant;
    if (written === '0' || written === '') return false;
  }
  if (!test.compared) return true;
  if (written === undefined) return false;
  const comparedValue = test.compared.value.replace(/^.*\./, '');
  const same = written === test.compared.value || written === comparedValue;
  return test.compared.means === 'done' ? same : !same;
}

/**
 * Where in `fn`'s own body the callbacks `node` is in run, each run now (`runsInline`): the call
 * that runs them, or for a promise's `then` its name, after the promise it waits for
 * (`charge(order).then(() => mark(order))`). Undefined when one does not run now.
 */
function siteIn(fn: FunctionNode | undefined, node: TSESTree.Node): TSESTree.Node | undefined {
  let at = node;
  for (let around = enclosingFunction(at); around !== fn; around = enclosingFunction(at)) {
    const runner = around && runsInline(around) ? callTaking(around) : undefined;
    if (!runner) return undefined;
    at =
      runner.callee.type === 'MemberExpression' && propertyName(runner.callee) === 'then'
        ? runner.callee.property
        : runner;
  }
  return at;
}

interface FlagCheck {
  read: DataOperation;
  readIn: FunctionNode | undefined;
  /** Where the read's row is in hand: after the read, or where the callback its promise hands the row to begins. */
  readAt: number;
  tests: FlagTest[];
}

/**
 * The first check before `site` whose flag `update` sets after work: `site` is the update, or a
 * call of the helper that makes it (then the helper's work before its update counts too).
 */
/**
 * After the check, before the site: a compare-and-set of the same rows whose answer decides
 * (`update … set status = 'processing' where id = $1 and status = 'received'`, then `if
 * (!claimed) return`). Of the workers the check let through, one wins it and does the work; the
 * flag set after the work only says how it ended.
 */
function claimedAfterCheck(
  update: DataOperation,
  readAt: number,
  site: TSESTree.Node,
  neighbours: readonly DataOperation[],
  analysis: FileAnalysis,
): boolean {
  return neighbours.some(
    (other) =>
      other !== update &&
      other.node.range[0] > readAt &&
      other.node.range[1] < site.range[0] &&
      other.targets.some((target) => update.targets.includes(target)) &&
      comparesAndSets(other, analysis.file),
  );
}

function flagRecord(
  update: DataOperation,
  site: TSESTree.Node,
  checks: readonly FlagCheck[],
  groups: ReturnType<typeof byFunction>,
  analysis: FileAnalysis,
): CheckedWrite | undefined {
  const file = analysis.file;
  const fn = enclosingFunction(site);
  // The reads before the site, in its function or in one it is a callback of: the rows a query
  // picked may be walked by a callback of the same function (`rows.map(async (row) => …)`).
  // Picked in a plain loop first: the loop below makes closures, and with them a context for each
  // pair of an update and a read, in every function of the file.
  const before: FlagCheck[] = [];
  for (const check of checks) {
    if (check.readAt < site.range[0] && (check.readIn === fn || (fn !== undefined && contains(check.readIn, fn))))
      before.push(check);
  }
  for (const { read, readIn, readAt, tests } of before) {
    // In a callback the read's function runs now (`con.transaction(async (manager) => …)`), the
    // call that runs it stands for the site on the read's own path.
    const outer = readIn === fn ? site : siteIn(readIn, site);
    // A row written through itself is the read's when the flag test below names it, and in the read's table.
    if ((!update.row && !read.targets.some((target) => update.targets.includes(target))) || read.locksRows) continue;
    const write = update.row ? { ...update, targets: read.targets } : update;
    // Each field the check tested that the update sets done, in turn: the first with work before it.
    const flagged = tests.filter((candidate) => {
      const value = flagValue(write, read, candidate, file.text, site);
      if (value === undefined || !marksDone(value, candidate, file.text)) return false;
      // The field set on the row before a save that runs either way (`if (!row.sentAt) { …; row.sentAt =
      // now } await save(row)`): the check decides the assignment.
      const assignment = 'type' in value && value.parent?.type === 'AssignmentExpression' ? value.parent : undefined;
      const decided = assignment ? (readIn === fn ? assignment : siteIn(readIn, assignment)) : outer;
      return !candidate.guard || (decided !== undefined && isDecidedBy([candidate.guard], [decided]));
    });
    if (
      flagged.length === 0 ||
      inSerializableTransaction(write.node, file.text) ||
      oneSerialisableTransaction(write, read, file.scopeOf) ||
      serialisedBefore(write, read.node.range[0], groups, analysis) ||
      claimedAfterCheck(write, readAt, site, groups.get(fn) ?? [], analysis)
    )
      continue;
    // Rows the read's filter picked as not done: all the work on the way from it counts. The
    // update fails for no one, so a second worker's transaction commits its work all the same,
    // as when a record settles a duplicate by writing nothing; but an insert in that
    // transaction may be refused by a unique key, and take the whole transaction back with it.
    const transaction = transactionOf(write.node, file.scopeOf);
    const outsideTransaction = (work: Work) =>
      !transaction ||
      transactionOf(work.node, file.scopeOf) !== transaction ||
      work.node.type !== 'CallExpression' ||
      !analysis.operationsAt(work.node).some((operation) => operation.kind === 'insert');
    // The helper the check lets run may do the work itself, then set the flag.
    const inHelper = workInHelper(write, site, 'ignored', analysis).filter(outsideTransaction);
    for (const test of flagged) {
      const guards = test.guard ? [test.guard] : undefined;
      const from = test.guard ? askedBy(test.guard) : readAt;
      const onPath = [
        ...workBetween(write, site, from, 'ignored', guards, analysis),
        ...(outer && outer !== site ? workBetween(write, outer, from, 'ignored', guards, analysis) : []),
      ].filter(outsideTransaction);
      const workBefore = [...onPath, ...inHelper];
      const workAfter = workBefore.length === 0 ? workFollowing(write, site, guards, analysis) : [];
      if (workBefore.length === 0 && workAfter.length === 0) continue;
      return {
        write,
        read,
        at: site,
        lateAt: onPath.length === 0 && inHelper.length > 0 ? write.node : site,
        settles: 'unsettled',
        flag: test.field,
        ...(!test.guard && { drains: true as const }),
        workBefore,
        ...(workAfter.length > 0 ? { workAfter } : {}),
        guardsOtherWork: true,
        storesState: false,
        coveringKey: () => undefined,
        keyInTransaction: () => undefined,
        keysUnknown: () => false,
        lockedAfterCheck: () => false,
        decidedAfter: () => [],
        runsAfter: () => [],
      };
    }
  }
  return undefined;
}

/** The function a read's row is known in, and from where. */
function inHand(read: TSESTree.Node): Pick<FlagCheck, 'readIn' | 'readAt'> {
  const callback = thenCallback(read);
  return callback
    ? { readIn: callback, readAt: callback.body.range[0] }
    : { readIn: enclosingFunction(read), readAt: read.range[1] };
}

/**
 * `if (order.paidAt) return; await charge(order); await update(order, { paidAt: now })`: the
 * field the check tested is the record, set on the row that was read only after the work the
 * check let through. No unique key can settle it; a lock or a compare-and-set before the work
 * can, and then it is not reported.
 */
function flagRecords(
  analysis: FileAnalysis,
  operations: readonly DataOperation[],
  reads: readonly DataOperation[],
  groups: ReturnType<typeof byFunction>,
): CheckedWrite[] {
  const file = analysis.file;
  // Cheapest first: the reads whose row has a field tested, or is named by an update (syntax
  // alone), then the updates beside them.
  const updates = operations.filter((operation) => operation.kind === 'update' || operation.kind === 'upsert');
  if (updates.length === 0) return [];
  // An update, and the calls in this file of the helper that makes it (`processSchedule(row.id)`).
  const written = updates.flatMap((update) => writeSites(update.node, file));
  const checks = reads
    .map((read) => ({
      read,
      ...inHand(read.node),
      tests: [
        ...flagTests(read.node, file),
        ...(read.kind === 'read' ? filterFlags(read.node, () => read.filters ?? [], written, file) : []),
      ],
    }))
    .filter((check) => check.tests.length > 0);
  if (checks.length === 0) return [];
  const result: CheckedWrite[] = [];
  // The flag set by an update of the row, or by an upsert of it (`update: { status: 'processed' }`),
  // where it is made or where the helper that makes it is called.
  for (const update of updates) {
    for (const site of writeSites(update.node, file)) {
      const checked = flagRecord(update, site, checks, groups, analysis);
      if (checked) result.push(checked);
    }
  }
  // Updates that mark the same rows done after the same check (`sent`, and `failed` in the catch)
  // are one claim written late: shown once, at the first outside a catch.
  const shown = new Map<DataOperation, CheckedWrite>();
  for (const checked of result) {
    const earlier = shown.get(checked.read);
    if (!earlier || (catchAround(earlier.at) && !catchAround(checked.at))) shown.set(checked.read, checked);
  }
  // A mark two checks reach (a drain's filter, then the helper's own test) is one finding at the
  // mark, named for the check beside it.
  const beside = (checked: CheckedWrite) =>
    enclosingFunction(checked.read.node) === enclosingFunction(checked.write.node);
  const atMark = new Map<TSESTree.Node, CheckedWrite>();
  for (const checked of shown.values()) {
    const earlier = atMark.get(checked.lateAt);
    if (!earlier || (!beside(earlier) && beside(checked))) atMark.set(checked.lateAt, checked);
  }
  return [...atMark.values()];
}

function findCheckedWrites(analysis: FileAnalysis): CheckedWrite[] {
  const operations = analysis.operationsWithHelpers();
  const reads = operations.filter((operation) => operation.kind === 'read');
  // An upsert hands back the row it found or made (`const event = await upsert(…)`): its fields are read too.
  const rowsRead = operations.filter((operation) => operation.kind === 'read' || operation.kind === 'upsert');
  if (rowsRead.length === 0) return [];
  const groups = byFunction(operations);
  return [
    ...(reads.length > 0 ? insertsDecided(analysis, operations, reads, groups) : []),
    ...flagRecords(analysis, operations, rowsRead, groups),
  ];
}

function insertsDecided(
  analysis: FileAnalysis,
  operations: readonly DataOperation[],
  reads: readonly DataOperation[],
  groups: ReturnType<typeof byFunction>,
): CheckedWrite[] {
  const file = analysis.file;
  const guardsFor = (read: DataOperation) => guardsOf(read, analysis.file);
  // The reads that may touch a table, found once per table rather than once per write.
  const readsOf = new Map<string, DataOperation[]>();
  const readsMayTouching = (target: string) => {
    let touching = readsOf.get(target);
    if (!touching) {
      touching = reads.filter(
        (read) => (!read.mayTouch || read.mayTouch(target)) && !looksInWindow(read, analysis.tracer),
      );
      readsOf.set(target, touching);
    }
    return touching;
  };
  const result: CheckedWrite[] = [];
  for (const write of operations) {
    if (write.kind !== 'insert' && write.kind !== 'upsert') continue;
    const settles = settlesHow(write);
    const sites = writeSites(write.node, file);
    // Cheapest first: a glance at the text, then whether the read decides anything here, and
    // only then its tables (which may mean parsing its SQL).
    const candidates =
      write.targets.length === 1
        ? readsMayTouching(write.targets[0])
        : [...new Set(write.targets.flatMap(readsMayTouching))];
    const decides = (candidate: DataOperation) => {
      const guards = guardsFor(candidate);
      return (
        guards.length > 0 &&
        isDecidedBy(guards, sites) &&
        candidate.targets.some((target) => write.targets.includes(target))
      );
    };
    const read = settles ? candidates.find(decides) : undefined;
    if (!read) {
      const recorded = recordAfterGatedWork(write, candidates, analysis, groups);
      if (recorded) result.push(recorded);
      continue;
    }
    if (!settles) continue;
    const neighbours = groups.get(enclosingFunction(write.node)) ?? [];
    if (
      duplicateCatches(write.node, file).length > 0 ||
      inSerializableTransaction(write.node, file.text) ||
      oneSerialisableTransaction(write, read, file.scopeOf) ||
      serialisedBefore(write, read.node.range[0], groups, analysis)
    )
      continue;
    // Double-checked locking: look, lock, look again, write. The second look, under the lock,
    // decides; where the code takes the lock only on some paths (inside a transaction), it shows
    // it knows the race, and the path without it is its own choice.
    // A look through a helper is its call's decision, so the guards' places say where each look is.
    const looksUnderLock = (again: DataOperation) =>
      guardsFor(again).some(
        (guard) =>
          guard.owner.range[0] > read.node.range[1] &&
          guard.owner.range[0] < write.node.range[0] &&
          serialisedBefore(write, guard.owner.range[0], groups, analysis),
      ) && again.targets.some((target) => write.targets.includes(target));
    if (serialisedBefore(write, write.node.range[0], groups, analysis) && candidates.some(looksUnderLock)) continue;
    if (
      writesWhatWasRead(write, read, file.scopeOf) ||
      !looksForInsertedRow(write, read, analysis.tracer, file.scopeOf)
    )
      continue;
    let key: { value: UniqueKey | undefined } | undefined;
    let after: readonly TSESTree.CallExpression[] | undefined;
    const decided = decision(guardsFor(read), sites)!;
    const from =
      enclosingFunction(read.node) === enclosingFunction(decided.site) ? read.node.range[1] : askedBy(decided.guard);
    const between = workBetween(write, decided.site, from, settles, guardsFor(read), analysis);
    const onPath = untilRefused(between, write.node, analysis);
    // The helper the check lets run may do work of its own before it writes the record.
    const inHelper = workInHelper(write, decided.site, settles, analysis);
    result.push({
      write,
      read,
      at: decided.site,
      lateAt: onPath.length === 0 && inHelper.length > 0 && inFile(write.node, file) ? write.node : decided.site,
      settles,
      workBefore: [...onPath, ...inHelper],
      guardsOtherWork: neighbours.some(
        (other) =>
          other !== write &&
          other.node.range[0] > read.node.range[1] &&
          isWork(other, file) &&
          isDecidedBy(guardsFor(read), [other.node]),
      ),
      storesState: storesState(write, groups, analysis),
      coveringKey: () => (key ??= { value: keyCovering(write, read, analysis) }).value,
      keyInTransaction: () => keyInTransaction(write, read, neighbours, analysis),
      keysUnknown: () => keysUnknown(write, analysis),
      lockedAfterCheck: () => lockedAfterCheck(write, decided.site, from, groups, analysis),
      decidedAfter: () => (after ??= callsDecidedAfter(decided.site, guardsFor(read), analysis)),
      runsAfter: () => callsDecidedAfter(decided.site, undefined, analysis),
      ...(fallsThrough(decided.guard) && { fallsThrough: true as const }),
      ...(onPath.length < between.length && { refusedBetween: true as const }),
      ...(leavesOutWhatWasLookedFor(write, read, analysis.tracer) && { blind: true as const }),
    });
  }
  return result;
}

/** Is the node in the linted file (not in a module a helper was followed into)? */
function inFile(node: TSESTree.Node, file: FileAnalysis['file']): boolean {
  let root: TSESTree.Node = node;
  while (root.parent) root = root.parent;
  return root === file.sourceAst;
}

/** `coveringKey` asked with what the lint knows: its schema, its tracer, and the store's own primary key (MongoDB's `_id`). */
function keyCovering(write: DataOperation, read: DataOperation, analysis: FileAnalysis): UniqueKey | undefined {
  const primaryKey = analysis.file.libraries.dataAdapter(write.library)?.primaryKey;
  return coveringKey(write, read, () => analysis.schema(), analysis.tracer, analysis.file.text, primaryKey);
}
