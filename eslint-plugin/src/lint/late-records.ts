import { duplicateCatches } from '../analysis/control/caught.js';
import { enclosingFunction } from '../analysis/control/statements.js';
import { claimedFacts } from '../analysis/keys/effect-keys.js';
import { namesHandledRecord } from '../analysis/naming/stores.js';
import type { DataOperation } from '../analysis/operations/index.js';
import type { Work } from '../analysis/work/work.js';
import { checkedWrites, workBetween } from './checked-writes.js';
import type { FileAnalysis } from './file-analysis.js';
import { workBeforeRecordMatters } from './stakes.js';

/**
 * A record of a handled delivery that nothing asks before the work, written after it in the
 * handler: `await stripe.refunds.create(…); await db.processedEvent.create({ eventId })`. The
 * record is there to stop a repeat, but a redelivery runs the work again before it gets there,
 * and only then finds (or duplicates) the record.
 */
export interface LateRecord {
  write: DataOperation;
  /** How the code tells the record stops a repeat: it is named as the record of handled deliveries, or its unique violation is caught as the duplicate. */
  record: 'handled' | 'refused';
  /** The work before the record that a repeat adds again: a row, a message, an unkeyed provider call. */
  workBefore: readonly Work[];
}

const found = new WeakMap<FileAnalysis, readonly LateRecord[]>();

/** The file's records of handled deliveries written after work that adds, with no claim before it. Ask at `Program:exit`. */
export function lateRecords(analysis: FileAnalysis): readonly LateRecord[] {
  let known = found.get(analysis);
  if (!known) found.set(analysis, (known = findLateRecords(analysis)));
  return known;
}

function findLateRecords(analysis: FileAnalysis): LateRecord[] {
  const operations = analysis.allOperations();
  const decided = new Set(checkedWrites(analysis).map((checked) => checked.write.node));
  const records: LateRecord[] = [];
  for (const write of operations) {
    if ((write.kind !== 'insert' && write.kind !== 'upsert') || decided.has(write.node)) continue;
    const record = handledRecord(write, analysis)
      ? 'handled'
      : refusedAsDuplicate(write, analysis)
        ? 'refused'
        : undefined;
    const fn = enclosingFunction(write.node);
    if (!record || !fn) continue;
    // Something before it already settles repeats or looks: a claim, a lock, a read of the same records.
    const before = operations.filter(
      (other) => other.node.range[0] < write.node.range[0] && enclosingFunction(other.node) === fn,
    );
    if (before.some((other) => other.claim || other.kind === 'serialisation' || other.skipsDuplicates)) continue;
    if (before.some((other) => other.targets.some((target) => write.targets.includes(target)))) continue;
    const settles = write.kind === 'insert' && !write.arbitrated ? 'unsettled' : 'ignored';
    const workBefore = workBetween(write, write.node, fn.body.range[0], settles, undefined, analysis);
    const calls = workBefore.map((work) => work.node);
    if (workBefore.length > 0 && workBeforeRecordMatters(calls, write, analysis))
      records.push({ write, record, workBefore });
  }
  return records;
}

/** An insert into a table named as the record of handled deliveries, keyed by the delivery's id, in a handler. */
function handledRecord(write: DataOperation, analysis: FileAnalysis): boolean {
  return (
    write.targets.some(namesHandledRecord) &&
    claimedFacts(write, analysis.tracer, analysis.file)?.some((fact) => fact.kind === 'delivery') === true &&
    analysis.servesDelivery(write.node)
  );
}

/**
 * `try { await gateway.credit(…); await Transaction.insert({ paymentId }) } catch (error) { if (error
 * instanceof UniqueViolationError) return }`: an insert whose unique violation the code takes as
 * the duplicate. The code expects the repeat, and stops it only after the work before the insert
 * has run again.
 */
function refusedAsDuplicate(write: DataOperation, analysis: FileAnalysis): boolean {
  return write.kind === 'insert' && !write.arbitrated && duplicateCatches(write.node, analysis.file).length > 0;
}
