import type { Queryable } from '../src/database.js';
import { defineRace, type RaceScenario } from '../src/scenario.js';
import {
  claimWords,
  creditWords,
  oneRefundTwice,
  orderPaidTwice,
  providerRequests,
  queuedJobs,
  queuedTwice,
} from './examples.js';
import { creditOnceUnderLock, workNextJob } from './handlers/example-4-11.js';
import { claimUnderRepeatableRead } from './handlers/example-4-12.js';
import { providerPays } from './handlers/example-4-14.js';
import { claimThenCredit, creditThenRecord } from './handlers/example-4-6.js';
import { claimNotice, claimNoticeByChecking } from './handlers/example-4-1.js';
import { recordRefund, recordRefundPerMessage, type RefundNotice } from './handlers/example-4-4.js';
import { countRows } from './readouts.js';
import { inboxTable, keyedEffectsTable, providerTables, uncheckedInboxTable, unkeyedEffectsTable } from './tables.js';

/**
 * Examples 4.1, 4.4, 4.6, 4.11, 4.12 and 4.14 with their handlers raced by workers A and B on two connections of a real
 * server, where one worker can wait for the other's uncommitted row.
 */

const bothHandle = { A: { id: 'notice-amber' }, B: { id: 'notice-amber' } };
const inboxRows = async (db: Queryable) => ({ inbox: await countRows(db, 'inbox') });

const effectRows = async (db: Queryable) => ({
  inbox: await countRows(db, 'inbox'),
  effects: await countRows(db, 'effects'),
});
const madeTheEffect = (record: typeof recordRefund) => async (db: Queryable, message: RefundNotice) =>
  (await record(db, message)).effect === 'new';

export const races: readonly RaceScenario[] = [
  {
    anchor: 'example-4-1',
    label: '4.1 race, check then insert',
    schemaSql: uncheckedInboxTable,
    messages: bothHandle,
    handler: claimNoticeByChecking,
    readOutcome: inboxRows,
    words: claimWords.checking,
  },
  {
    anchor: 'example-4-1',
    label: '4.1 race, unique claim',
    schemaSql: inboxTable,
    messages: bothHandle,
    handler: claimNotice,
    readOutcome: inboxRows,
    words: claimWords.unique,
  },
  {
    anchor: 'example-4-1',
    label: '4.1 race, unique claim, A rolls back',
    schemaSql: inboxTable,
    messages: bothHandle,
    handler: claimNotice,
    readOutcome: inboxRows,
    words: claimWords.unique,
    rollsBack: 'A',
  },
  defineRace({
    anchor: 'example-4-4',
    label: '4.4 race, refund keyed by refund',
    schemaSql: inboxTable + keyedEffectsTable,
    messages: oneRefundTwice,
    handler: madeTheEffect(recordRefund),
    readOutcome: effectRows,
    words: { took: 'new', declined: 'already-recorded' },
  }),
  defineRace({
    anchor: 'example-4-4',
    label: '4.4 race, refund keyed by message',
    schemaSql: inboxTable + keyedEffectsTable,
    messages: oneRefundTwice,
    handler: madeTheEffect(recordRefundPerMessage),
    readOutcome: effectRows,
    words: { took: 'new', declined: 'already-recorded' },
  }),
  // Each worker runs the whole handler in one transaction here; the check still comes before the record.
  defineRace({
    anchor: 'example-4-6',
    label: '4.6 race, check, credit, record',
    schemaSql: inboxTable + unkeyedEffectsTable,
    messages: orderPaidTwice,
    handler: creditThenRecord,
    readOutcome: effectRows,
    words: creditWords,
  }),
  defineRace({
    anchor: 'example-4-6',
    label: '4.6 race, claim first',
    schemaSql: inboxTable + unkeyedEffectsTable,
    messages: orderPaidTwice,
    handler: claimThenCredit,
    readOutcome: effectRows,
    words: creditWords,
  }),
  // Both workers poll at once: the second skips the job the first has locked and takes the other one.
  defineRace({
    anchor: 'example-4-11',
    label: '4.11 race, SKIP LOCKED',
    schemaSql: queuedJobs(queuedTwice.order, [queuedTwice.first, queuedTwice.second]) + unkeyedEffectsTable,
    messages: { A: { id: 'poll-A' }, B: { id: 'poll-B' } },
    handler: workNextJob,
    readOutcome: async (db) => ({ effects: await countRows(db, 'effects') }),
    words: { took: 'took a job', declined: 'found none' },
  }),
  defineRace({
    anchor: 'example-4-11',
    label: '4.11 race, advisory lock around a check and the credit',
    schemaSql: unkeyedEffectsTable,
    messages: { A: queuedTwice.order, B: queuedTwice.order },
    handler: creditOnceUnderLock,
    readOutcome: async (db) => ({ effects: await countRows(db, 'effects') }),
    words: creditWords,
  }),
  defineRace({
    anchor: 'example-4-12',
    label: '4.12 race, claim under REPEATABLE READ',
    schemaSql: inboxTable + unkeyedEffectsTable,
    messages: {
      A: { id: 'order-88-paid', cashbackId: 'cashback-88', cents: 45 },
      B: { id: 'order-88-paid', cashbackId: 'cashback-88', cents: 45 },
    },
    handler: claimUnderRepeatableRead,
    readOutcome: effectRows,
    words: creditWords,
    retriesSerializationFailures: true,
  }),
  // The provider handles each request in one transaction: the second request's key waits for the first one's.
  defineRace({
    anchor: 'example-4-14',
    label: '4.14 race, the provider keeps the key in one transaction',
    schemaSql: providerTables,
    messages: { A: providerRequests.payout, B: providerRequests.payout },
    handler: async (db, request) => {
      const answer = await providerPays(db, request);
      if (answer.startsWith('paid') || answer.startsWith('replayed')) return answer.startsWith('paid');
      throw new Error(`the provider answered "${answer}"`);
    },
    readOutcome: async (db) => ({ charges: await countRows(db, 'provider_charges') }),
    words: { took: 'paid', declined: 'replayed' },
  }),
];
