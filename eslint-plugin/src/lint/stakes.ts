import path from 'node:path';

import type { TSESTree } from '@typescript-eslint/utils';

import type { CheckedWrite } from './checked-writes.js';
import type { FileAnalysis } from './file-analysis.js';
import { isFunction, type FileContext, type FunctionNode } from '../analysis/context/file-context.js';
import { readBack } from '../analysis/control/flags.js';
import { isNothing, isZero } from '../analysis/control/polarity.js';
import { callOperations } from '../analysis/control/helper-operations.js';
import { enclosingFunction } from '../analysis/control/statements.js';
import type { EffectKey } from '../analysis/keys/effect-keys.js';
import { functionName, inCommand } from '../analysis/origin/entry-points.js';
import { staticText } from '../analysis/syntax/static-text.js';
import { providerCallAt } from '../analysis/keys/provider-calls.js';
import {
  namesHandledRecord,
  namesRateLimit,
  soundsLikeClaimStore,
  namesCache,
  storesDeliveries,
} from '../analysis/naming/stores.js';
import {
  namesCountedGrant,
  namesPaidAccessEnd,
  namesCatalogue,
  deliveryPlaceWordsOf,
  namesGrantee,
  namesMoney,
  namesMoneyAmount,
  namesOneOffPlace,
  namesSingleUseBill,
} from '../analysis/naming/stakes.js';
import { addedFields, type DataOperation, type Field } from '../analysis/operations/index.js';
import { normaliseTarget } from '../analysis/contract/operation.js';
import { columnName } from '../analysis/schema/model.js';
import { calledFunction } from '../analysis/project/calls.js';
import { projectRoot } from '../analysis/project/root.js';
import {
  callTaking,
  keyName,
  promiseStep,
  propertyName,
  resultIgnored,
  runsInline,
  unwrapExpression,
} from '../analysis/syntax/nodes.js';
import { variableOf } from '../analysis/syntax/scope.js';
import { walk } from '../analysis/syntax/walk.js';
import { isWork, onlyAsks } from '../analysis/work/work.js';
import { inMemory, sends } from '../analysis/work/messages.js';
import { reachesDeliveringEndpoint, reachesOwnServer, writingMethod } from '../analysis/work/requests.js';
import { entryPointOf } from './entry-points.js';

/**
 * What a second pass through a check-then-insert costs. In a delivery's handler (a consumer, a
 * webhook, a job, a cron run) the second pass comes by itself: a redelivery, a retry, an
 * overlapping run. Elsewhere (a form, an admin page, a lazy default) only a user's second click
 * or a client's retry makes it, and that matters when the pass moves money or takes a seat; a
 * second settings row, a second invitation or a second post to another system does not.
 */

const helperDepth = 2;
const walkBudget = 3_000;

/** Provider effects that move money; a second email, SMS or push is a nuisance, not a duplicated effect. */
const movesMoney = new Set(['charge', 'refund', 'transfer', 'payout', 'ledger', 'usage']);

/** Does the check-then-insert run while a delivery is handled? */
function inDelivery(checked: CheckedWrite, analysis: FileAnalysis): boolean {
  return runsInDelivery([checked.at, checked.read.node], checkedValues(checked), checked.write.targets, analysis);
}

/**
 * Does code at these places run while a delivery is handled: in a handler or what it calls, or
 * in an entry point? Else, is a value the broker assigned to this delivery (a message id, an
 * offset) among `values`, or is the file among the project's queues' processors, workers or
 * webhooks (its own layout, last)?
 */
function runsInDelivery(
  places: readonly TSESTree.Node[],
  values: readonly TSESTree.Node[],
  written: readonly string[],
  analysis: FileAnalysis,
) {
  if (places.some((place) => analysis.servesDelivery(place))) return true;
  for (let node = places[0].parent; node; node = node.parent) {
    if (isFunction(node) && entryPointOf(node, analysis)) return true;
  }
  if (namesDelivery(values, analysis)) return true;
  if (analysis.runnersElsewhere(places[0]).length > 0) return true;
  // The project's layout is the last evidence: a data migration the workers run
  // (`workers/data-migrations/…`) is run once, not per delivery; `webhooks/route.ts` saving a
  // webhook, or `jobs/` posting a job, is that resource's API, not the handler of its deliveries.
  // And a function in `jobs/` that the project calls only from modules kept elsewhere (a route
  // streaming a restore) runs per request: its callers' places must say so too.
  const says = (filename: string) => {
    const place = projectPath(filename);
    const words = deliveryPlaceWordsOf(place);
    return words.length > 0 && !namesOneOffPlace(place) && !words.every((word) => managesResource(word, written));
  };
  return (
    says(analysis.file.filename) &&
    (analysis.callersElsewhere(places[0])?.some(({ filename }) => says(filename)) ?? true)
  );
}

/** What a resource is set up by: `webhook_endpoints`, `webhook_subscriptions`, `queue_settings`. */
const setUpBy = /^_(endpoint|subscription|config|configuration|setting|registration|destination|url)$/;

/**
 * Does a write of `written` make the place word's own resource (`webhooks/route.ts` saving a
 * webhook or its endpoint), rather than handle one of its deliveries?
 */
function managesResource(word: string, written: readonly string[]): boolean {
  const resource = normaliseTarget(word);
  return written.some(
    (target) => target === resource || (target.startsWith(resource) && setUpBy.test(target.slice(resource.length))),
  );
}

/** Does code at `node` run while a delivery is handled, by what its registration, its callers or the project's layout say? */
export function runsPerDelivery(node: TSESTree.Node, analysis: FileAnalysis): boolean {
  return runsInDelivery([node], [], [], analysis);
}

/**
 * Is `node` run only by runners that hold a delivery to one run at a time (an Inngest step, a
 * graphile-worker job)? Then the second pass of one delivery comes after the first has written,
 * and its check finds the row: only two different deliveries at once can both write. A schedule's
 * runs are not held so: they overlap, and each instance fires.
 */
function heldOneAtATime(node: TSESTree.Node, analysis: FileAnalysis): boolean {
  const { brokers } = analysis.file.libraries;
  const held = (runner: string | undefined) =>
    brokers.some((adapter) => adapter.name === runner && adapter.oneRunAtATime);
  for (let current = node.parent; current; current = current.parent) {
    const entry = isFunction(current) ? entryPointOf(current, analysis) : undefined;
    if (entry && (entry.kind === 'cron' || !held(entry.library))) return false;
  }
  const runners = [...analysis.runnersAt(node), ...analysis.runnersElsewhere(node)];
  return runners.length > 0 && runners.every(held);
}

/** The values a check-then-insert checks and writes. */
function checkedValues(checked: CheckedWrite): TSESTree.Node[] {
  return [
    ...(checked.read.filters ?? []).flatMap((filter) => filter.values),
    ...checked.write.fields.flatMap((field) => field.values),
  ];
}

/**
 * Is a value the broker assigned to this delivery (a message id, an offset) among `values`?
 * With `byName`, also a value only named as one (`eventId`): enough to support a finding.
 */
function namesDelivery(values: readonly TSESTree.Node[], analysis: FileAnalysis, byName = false): boolean {
  return values.some((value) =>
    analysis.tracer.scalars(value).some((fact) => fact.kind === 'delivery' && (byName || !fact.guessed)),
  );
}

/** A file's path within its project (the whole path when no project root is found). */
function projectPath(filename: string): string {
  const root = projectRoot(filename);
  return root ? path.relative(root, filename) : filename;
}

/**
 * Is code at `node` run once, by hand: a data migration, a seed or a script (by its folder), or
 * a command an operator types (by its decorator)? Nothing repeats it by itself, and whoever runs
 * it twice sees it.
 */
function runByHand(node: TSESTree.Node, analysis: FileAnalysis): boolean {
  return namesOneOffPlace(projectPath(analysis.file.filename)) || inCommand(node, analysis.file);
}

/** A write that records a handled delivery: the code itself expects the repeat it guards against. */
function recordsHandled(checked: CheckedWrite, analysis: FileAnalysis): boolean {
  const write = checked.write;
  if (write.claim) return true;
  // A cache of what was processed (`CachedProcessedEntry`) keeps results to reuse, not a record of handling.
  if (!isMarker(write, analysis))
    return write.targets.some(
      (target) => (soundsLikeClaimStore(target) && !namesCache(target)) || storesDeliveries(target),
    );
  // A key-value marker named as the record of what was handled (`SET processed:<id> 1`), or keyed
  // by the delivery (`SET seen:<message id> 1`), is that delivery's record. One named a lock
  // (`SET sig-lock:<hash> 1 EX 3600`) is judged by the work it spaces out.
  return write.targets.some(namesHandledRecord) || namesDelivery(checkedValues(checked), analysis, true);
}

/**
 * The check asks for a column named for deduplication (`dedup_key`, `idempotency_key`) and the
 * write fills it: whatever the table, and wherever its callers are, the code records that it
 * handled the key, expecting the repeat it guards against.
 */
function recordsDedupeKey({ read, write }: CheckedWrite): boolean {
  const written = new Set(write.fields.map((field) => columnName(field.name)));
  return (read.filters ?? []).some((filter) => namesHandledRecord(filter.name) && written.has(columnName(filter.name)));
}

/**
 * A key-value marker written without NX (`SET checked:<id> 1`): a second one is the same marker,
 * so what a repeat doubles is only the work its check lets run, as with a done-flag.
 */
function isMarker(write: DataOperation, analysis: FileAnalysis): boolean {
  return !write.claim && analysis.file.libraries.dataAdapter(write.library)?.keyPolicy === 'whole-key';
}

/**
 * A write whose second copy moves money or takes a seat: by its table, an amount of money it
 * records (not a catalogue's price, not a count), an amount it adds to (a counter of scans is
 * no money), or a paid access it moves on. A row of a seat or licence table takes one when it
 * names who receives it (`userId`), or when its fields are not all shown.
 */
function duplicatesStake(operation: DataOperation, module: FileContext): boolean {
  if (operation.kind === 'read' || operation.kind === 'serialisation' || operation.kind === 'delete') return false;
  const amount = (name: string) => namesMoneyField(name, module);
  const moneyTable = operation.targets.some(namesMoney);
  if (operation.kind === 'update') {
    const added = addedFields(operation, module) ?? [];
    return moneyTable
      ? added.length > 0
      : added.some((field) => namesMoney(field) || amount(field) || namesPaidAccessEnd(field));
  }
  if (moneyTable) return true;
  if (
    operation.targets.some(namesCountedGrant) &&
    (operation.fieldsComplete !== true || operation.fields.some((field) => namesGrantee(field.name)))
  )
    return true;
  // A catalogue's entry (a product and its price) moves no money however many there are.
  return (
    operation.kind === 'insert' &&
    !operation.targets.some(namesCatalogue) &&
    operation.fields.some((field) => amount(field.name) && !writesZero(field))
  );
}

/** A field written as nothing but zero (`pricePerUse: 0`): an amount that moves no money. */
function writesZero(field: Field): boolean {
  return field.values.length > 0 && field.values.every(isZero);
}

/**
 * What makes a call's repeat count: `money`, a second copy that moves money or takes a seat, where
 * only a user's second click repeats it (a second post to another system, a second follow, is that
 * user's own doing); `adds`, any second copy at all (a row inserted, a quantity added to, a
 * provider called, a message sent), where a repeat comes by itself; `leaves`, a second copy made
 * outside the process's database (a provider called, a message sent, a POST that delivers), not a
 * row. A message to the project's own queue counts only where a repeat comes by itself: elsewhere
 * its consumer does the work, and is judged where it does it.
 */
type Stake = 'money' | 'adds' | 'leaves';

/** A write whose repeat adds a second copy: an insert no key settles, or an update that adds to a quantity. */
function addsCopy(operation: DataOperation, module: FileContext): boolean {
  if (operation.kind === 'update') return (addedFields(operation, module) ?? []).length > 0;
  // A key-value SET overwrites its key: a second one leaves the same state, unless it stores a sum.
  return operation.kind === 'insert' && isWork(operation, module);
}

/** Does a call, or a project function it calls (a few calls deep), repeat what is at `stake`? */
function callAtStake(
  call: TSESTree.CallExpression,
  module: FileContext,
  depth: number,
  seen: Set<FunctionNode>,
  stake: Stake = 'money',
): boolean {
  if (reachesOwnServer(call, module)) return false;
  const provider = providerCallAt(call, module);
  const copies = stake === 'adds' || stake === 'leaves';
  if (provider) return !provider.keyed && (copies || movesMoney.has(provider.effect));
  // A message sent, or a POST that delivers rather than asks (its answer's body unread, or its endpoint
  // named for what it delivers), which another system takes as one more; a PUT or a DELETE leaves the same state.
  if (
    copies &&
    (sends(call, module) ||
      (writingMethod(call, module) === 'POST' && (!bodyRead(call, module) || reachesDeliveringEndpoint(call, module))))
  )
    return true;
  const operations = callOperations(call, module);
  if (operations.length > 0)
    return (
      stake !== 'leaves' &&
      operations.some((operation) =>
        stake === 'adds' ? addsCopy(operation, module) : duplicatesStake(operation, module),
      )
    );
  if (depth >= helperDepth) return false;
  const target = calledFunction(module, call.callee);
  if (!target || seen.has(target.fn)) return false;
  seen.add(target.fn);
  let found = false;
  walk(
    target.fn.body,
    target.module.visitorKeys,
    (node) => {
      if (found) return false;
      if (node !== target.fn.body && isFunction(node) && !runsInline(node)) return false;
      if (node.type === 'CallExpression') found = callAtStake(node, target.module, depth + 1, seen, stake);
      return !found;
    },
    walkBudget,
  );
  return found;
}

/**
 * A row of starting values made when none is found (`{ userId, limit1: false, sent: 0 }`), where
 * the check lets nothing else run but reads: the code makes sure a state row exists and goes on to
 * read it. A second copy holds the same defaults, found by the same reads. A row holding only the
 * key it was looked up by is a claim, and a status (`'processing'`) a step of work.
 */
function defaultsMadeWhenMissing(checked: CheckedWrite, analysis: FileAnalysis): boolean {
  const { write, read } = checked;
  if (write.kind !== 'insert' || write.fieldsComplete !== true) return false;
  const looked = new Set((read.filters ?? []).map((filter) => columnName(filter.name)));
  const rest = write.fields.filter((field) => !looked.has(columnName(field.name)));
  const starting = (value: TSESTree.Node) => {
    const bare = unwrapExpression(value);
    return isNothing(bare) || isZero(bare) || (bare.type === 'ArrayExpression' && bare.elements.length === 0);
  };
  return (
    rest.length > 0 &&
    rest.every((field) => field.values.length === 1 && starting(field.values[0])) &&
    checked.decidedAfter().every((call) => {
      const operations = analysis.operationsAt(call);
      return operations.length > 0 && operations.every((operation) => operation.kind === 'read');
    })
  );
}

/**
 * Is a duplicate of this check-then-insert worth a finding?
 * - A write that records what was handled: always.
 * - A plain marker: when the work the check lets run after it repeats harm (`workRepeats`).
 * - Inside a delivery's handler: always, unless its runner holds one delivery to one run at a time.
 * - Elsewhere: when the write, or what the same check lets run after it, moves money or grants
 *   access, and the check looks for a particular row rather than for any (a lazily made
 *   singleton); never in a data migration, a seed or a script, run once by hand.
 * - A check that never finds what the write stores (`blind`) stops no repeat: only inside a
 *   delivery's handler, where the repeat comes by itself.
 */
export function repeatMatters(checked: CheckedWrite, analysis: FileAnalysis): boolean {
  if (checked.blind) return inDelivery(checked, analysis);
  if (recordsHandled(checked, analysis)) return true;
  if (defaultsMadeWhenMissing(checked, analysis)) return false;
  if (isMarker(checked.write, analysis)) {
    // With nothing after it, the check and the marker are a helper's `once(key)`: its callers do
    // the work, when the check tells them what it found (`if (seen) return false`). Not when the
    // check reads the stored time back to compare it (a throttle's `now - last < 30 s`): that is
    // state, and what its callers do is out of sight.
    const after = checked.decidedAfter();
    const once = after.length === 0 && !checked.fallsThrough && !readBack(checked.read.node, analysis.file);
    return once || workRepeats(after, checked, analysis);
  }
  // Where one delivery never runs beside itself, only two deliveries at once duplicate the write:
  // as outside a delivery, that matters when it moves money or takes a seat.
  if (inDelivery(checked, analysis) && !heldOneAtATime(checked.at, analysis)) return true;
  // A data migration, a seed, a script or a command: run once, by hand.
  if (runByHand(checked.at, analysis)) return false;
  // A check for any row of the table (`findFirst()`): a singleton made lazily, once per deployment.
  if (checked.read.filters?.length === 0) return false;
  if (duplicatesStake(checked.write, analysis.file)) return true;
  return callsAtStake(checked.decidedAfter(), analysis);
}

/**
 * Does the unique key that covers a checked write refuse the second worker's copy? Not a primary
 * key its library saves by (TypeORM's `save()`): a save that comes after a racing worker's finds
 * that row and updates it, so no row is duplicated but what runs after the save runs twice, which
 * matters as it does after a marker.
 */
export function keyRefusesRepeat(checked: CheckedWrite, analysis: FileAnalysis): boolean {
  const key = checked.coveringKey();
  if (!key) return false;
  return !(key.primary && checked.write.savesByPrimaryKey && workRepeats(checked.runsAfter(), checked, analysis));
}

/**
 * Is a write that no unique key settles (an upsert by filter) worth a finding? Where a second run
 * comes by itself (a delivery's handler), always; elsewhere only a user's second request makes
 * one, and that matters when the second copy moves money or takes a seat: a second settings
 * document does not. Never in a script run once by hand.
 */
export function duplicateMatters(write: DataOperation, analysis: FileAnalysis): boolean {
  const values = [...(write.filters ?? []), ...write.fields].flatMap((field) => field.values);
  if (runsInDelivery([write.node], values, write.targets, analysis)) return true;
  return !runByHand(write.node, analysis) && duplicatesStake(write, analysis.file);
}

/**
 * Does the effect a fresh key is given to move money or take a seat? Outside a delivery only a
 * user's second request or a client's retry sends it again, with another key, and that matters
 * for a payment, a payout or a grant; a second captcha check or a second customer record does
 * not. A provider's own dedupe field always matters: the providers' table lists the fields of
 * calls whose repeat costs (a payout batch, a transfer, a conversion counted twice). Else it is
 * read from the write the key is a column of, the call it is handed to (a provider's effect, or
 * the names and strings of each call around it, an amount of money beside it), the key's own text
 * and the function it is made in.
 */
export function freshKeyMatters(key: EffectKey, file: FileContext): boolean {
  if (key.providerField) return true;
  if (key.operation && duplicatesStake(key.operation, file)) return true;
  const names = [staticText(key.node, file.scopeOf, () => ' ')?.text ?? '', ...(key.operation?.targets ?? [])];
  const fields = propertiesAround(key).flatMap((property) => keyName(property) ?? []);
  for (let node = key.node; node.parent && !isFunction(node.parent); node = node.parent) {
    const call = callTaking(node);
    if (!call) continue;
    const provider = providerCallAt(call, file);
    if (provider) return movesMoney.has(provider.effect);
    names.push(file.text(call.callee));
    for (const argument of call.arguments) if (argument.type === 'Literal') names.push(String(argument.value));
  }
  const fn = enclosingFunction(key.node);
  if (fn) names.push(functionName(fn) ?? '');
  return (
    names.some((name) => namesMoney(name) || namesCountedGrant(name)) ||
    fields.some((name) => namesMoneyField(name, file))
  );
}

/**
 * Is the key sent beside a Lightning invoice (`{ invoice: bolt11, idempotencyKey }`)? The invoice
 * settles repeats on its own: it can be paid once, so the key only names the attempt.
 */
export function besideSingleUseBill(key: EffectKey): boolean {
  return propertiesAround(key).some(
    (property) =>
      namesSingleUseBill(keyName(property) ?? '') ||
      (property.value.type === 'Identifier' && namesSingleUseBill(property.value.name)),
  );
}

/** The properties of the objects the key stands in, up to its function: what is sent beside it. */
function propertiesAround(key: EffectKey): TSESTree.Property[] {
  const found: TSESTree.Property[] = [];
  for (let node = key.node.parent; node && !isFunction(node); node = node.parent)
    if (node.type === 'ObjectExpression')
      found.push(...node.properties.filter((property) => property.type === 'Property'));
  return found;
}

/** A field named for an amount of money (`amount`, `unitPrice`), not a count (`totalVisits`). */
function namesMoneyField(name: string, module: FileContext): boolean {
  return module.libraries.names.meaning(name) === 'amount' && namesMoneyAmount(name);
}

/** Members that read what a response says, not just whether it went through (`ok`, `status`). */
const responseBody = new Set(['json', 'text', 'data', 'body', 'blob', 'arrayBuffer', 'formData']);

/** Is the body of a request's answer read (`await res.json()`, `(await fetch(…)).text()`): the request asks? */
function bodyRead(call: TSESTree.CallExpression, module: FileContext): boolean {
  let node: TSESTree.Node = call;
  while (node.parent?.type === 'AwaitExpression' || node.parent?.type === 'ChainExpression') node = node.parent;
  const readsBody = (use: TSESTree.Node) =>
    use.parent?.type === 'MemberExpression' &&
    use.parent.object === use &&
    responseBody.has(propertyName(use.parent) ?? '');
  if (readsBody(node)) return true;
  const declarator = node.parent;
  if (declarator?.type !== 'VariableDeclarator' || declarator.init !== node || declarator.id.type !== 'Identifier')
    return false;
  const variable = variableOf(declarator.id, module.scopeOf(declarator.id));
  return (variable?.references ?? []).some((reference) => readsBody(reference.identifier));
}

/** Does any of these calls (the work a check let through) repeat what is at `stake`? */
function callsAtStake(calls: readonly TSESTree.Node[], analysis: FileAnalysis, stake: Stake = 'money'): boolean {
  const seen = new Set<FunctionNode>();
  return calls.some((call) => call.type === 'CallExpression' && callAtStake(call, analysis.file, 0, seen, stake));
}

/**
 * Is work that runs before its claim is recorded worth a finding? Where a second pass comes by
 * itself (a delivery's handler) or the write records what was handled, always; where the write
 * fills the key a check for duplicates asked (`dedup_key`), when the work adds a copy (an email
 * sent, a row inserted); elsewhere only a
 * user's retry repeats it, and that matters when the work moves money or takes a seat (a second
 * invitation email, a second post to another system, does not), and not in a script run once by hand.
 */
export function workBeforeMatters(checked: CheckedWrite, analysis: FileAnalysis): boolean {
  if (checked.blind) return inDelivery(checked, analysis);
  if (recordsHandled(checked, analysis)) return true;
  const calls = checked.workBefore.map((work) => work.node);
  if (recordsDedupeKey(checked) && callsAtStake(calls, analysis, 'adds')) return true;
  if (isMarker(checked.write, analysis)) return workRepeats(calls, checked, analysis);
  if (inDelivery(checked, analysis)) return true;
  return !runByHand(checked.at, analysis) && callsAtStake(calls, analysis);
}

/**
 * Is the work before a record that nothing claims first worth a finding (a record of handled
 * deliveries, an insert whose unique violation the code takes as the duplicate)? Where a second
 * pass comes by itself, when the work adds a copy (a row, a quantity, a provider call, a message);
 * elsewhere only a user's retry repeats it, and that matters when the work moves money or takes a seat.
 */
export function workBeforeRecordMatters(
  calls: readonly TSESTree.Node[],
  write: DataOperation,
  analysis: FileAnalysis,
): boolean {
  if (runsPerDelivery(write.node, analysis)) return callsAtStake(calls, analysis, 'adds');
  return !runByHand(write.node, analysis) && callsAtStake(calls, analysis);
}

/**
 * Is a done-flag set after its work, or set first without a compare-and-set, worth a finding? A flag is everywhere (a form's
 * `emailVerified`), and work that sets a state (a subscription resumed) or asks another system (a
 * POST whose answer is read) is the same when repeated. It is a claim recorded too late where a
 * second pass comes by itself and the work adds a copy, or anywhere the work moves money or grants
 * access.
 */
export function flagMatters(checked: CheckedWrite, analysis: FileAnalysis): boolean {
  return workRepeats(
    (checked.workAfter ?? checked.workBefore).map((work) => work.node),
    checked,
    analysis,
  );
}

/**
 * Does the work a flag or a marker guards repeat harm: a copy where a second pass comes by
 * itself (a delivery, or a drain of the rows a query picked as not done, run again and again), or
 * money or a seat anywhere? A marker is written for no other reason than to stop that
 * work repeating, so in a delivery any call out counts, and work the analysis cannot see into (a
 * mailer, a callback), unless the marker is named for the refresh it spaces out; a flag is the
 * row's own state, and only work seen to add a copy counts.
 */
function workRepeats(calls: readonly TSESTree.Node[], checked: CheckedWrite, analysis: FileAnalysis): boolean {
  if (callsAtStake(calls, analysis)) return true;
  if (!inDelivery(checked, analysis))
    // A drain that sends each row out (an email, a post) is an outbox, whoever runs it; one that
    // writes the same database is an action's own bookkeeping, which an admin repeats only by racing.
    return checked.drains === true && callsAtStake(calls, analysis, 'leaves');
  if (callsAtStake(calls, analysis, 'adds')) return true;
  // Work out of sight behind a marker named for a refresh (`refresh-token-set:<id>`) is that refresh.
  return (
    isMarker(checked.write, analysis) &&
    !checked.write.targets.some(namesRateLimit) &&
    calls.some((call) => effectOnly(call, analysis))
  );
}

/**
 * A call made for its effect alone (`await notify(…)`, its answer thrown away) that calls out, or
 * whose target the analysis cannot read; not one whose name says it asks or logs, not a command
 * of a store the file already uses (`redis.expire(…)`), and not a collection's `push` in memory.
 */
function effectOnly(call: TSESTree.Node, analysis: FileAnalysis): boolean {
  if (call.type !== 'CallExpression' || promiseStep(call) || onlyAsks(call) || !resultIgnored(call)) return false;
  if (reachesOwnServer(call, analysis.file)) return false;
  if (analysis.operationsAt(call).length > 0 || storeCommand(call, analysis) || inMemory(call, analysis.file))
    return false;
  const module = analysis.file;
  return callsAtStake([call], analysis) || (!providerCallAt(call, module) && !calledFunction(module, call.callee));
}

/** `redis.expire(key)`: a method of a client the file makes data operations with. */
function storeCommand(call: TSESTree.CallExpression, analysis: FileAnalysis): boolean {
  if (call.callee.type !== 'MemberExpression') return false;
  const receiver = analysis.file.code(call.callee.object);
  return analysis
    .allOperations()
    .some(
      (operation) =>
        operation.node.type === 'CallExpression' &&
        operation.node.callee.type === 'MemberExpression' &&
        analysis.file.code(operation.node.callee.object) === receiver,
    );
}
