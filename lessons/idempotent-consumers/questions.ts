import type { Queryable } from '../src/database.js';
import { defineQuestion, handlerModule, onPool, shown, shownWorker, type QuestionScenario } from '../src/scenario.js';
import { claimFirst, creditThenRecordOnPool, rememberingWorker } from './examples.js';
import type { PaidOrder } from './handlers/example-4-6.js';
import * as predictHandlers from './handlers/predict.js';
import * as q1Handlers from './handlers/q1.js';
import * as q2Handlers from './handlers/q2.js';
import * as q3Handlers from './handlers/q3.js';
import * as q4Handlers from './handlers/q4.js';
import * as q5Handlers from './handlers/q5.js';
import * as q6Handlers from './handlers/q6.js';
import * as q7Handlers from './handlers/q7.js';
import { balanceOf, countRows, effectTotals, recordedSales } from './readouts.js';
import {
  balancesTable,
  claimsTable,
  inboxTable,
  keyedEffectsTable,
  saleEffectsTable,
  uncheckedInboxTable,
  unkeyedEffectsTable,
} from './tables.js';

const predictModule = handlerModule('predict', predictHandlers);
const q1Module = handlerModule('q1', q1Handlers);
const q2Module = handlerModule('q2', q2Handlers);
const q3Module = handlerModule('q3', q3Handlers);
const q4Module = handlerModule('q4', q4Handlers);

const notAnEffectKey = 'worker identity here keys the inbox claim, not an effect';

async function inboxAndEffects(db: Queryable) {
  return { inbox: await countRows(db, 'inbox'), ...(await effectTotals(db)) };
}

const shippedLedgerHandler = shown(predictModule, 'handleJob', []);

export const predict = defineQuestion<predictHandlers.LedgerJob>({
  anchor: 'predict',
  schemaSql: inboxTable + unkeyedEffectsTable,
  deliveries: [
    // Worker A commits; its pod dies before the acknowledgement, so the broker hands the job to B.
    { worker: 'A', message: { id: 'job-77', effectId: 'ledger-77', cents: 500 } },
    { worker: 'B', message: { id: 'job-77', effectId: 'ledger-77', cents: 500 } },
  ],
  shipped: shippedLedgerHandler,
  options: {
    a: shown(
      predictModule,
      'handleJobIgnoringClaim',
      [],
      'both keys are right; the handler ignores its own claim, which no rule looks for',
    ),
    b: shippedLedgerHandler,
    c: shown(predictModule, 'handleJobClaimingPerWorker', [], notAnEffectKey),
  },
  readOutcome: inboxAndEffects,
  answer: { kind: 'same-as-shipped' },
});

const shippedResultHandler = shown(q1Module, 'handleResult', ['no-delivery-id-effect-key']);

export const q1 = defineQuestion<q1Handlers.ResultMessage>({
  anchor: 'q1',
  schemaSql: inboxTable + unkeyedEffectsTable,
  deliveries: [
    { worker: 'A', message: { id: 'result-81', courseId: 'math-1', cents: 500 } },
    { worker: 'B', message: { id: 'result-81', courseId: 'math-1', cents: 500 } },
    { worker: 'A', message: { id: 'result-82', courseId: 'math-1', cents: 300 } },
  ],
  shipped: shippedResultHandler,
  options: {
    a: shown(q1Module, 'handleResultPerWorker', ['no-delivery-id-effect-key']),
    b: shown(q1Module, 'handleResultIgnoringClaim', ['no-delivery-id-effect-key']),
    c: shippedResultHandler,
    d: shown(q1Module, 'handleResultPerCourse', []),
  },
  readOutcome: inboxAndEffects,
  answer: { kind: 'same-as-shipped' },
});

const shippedSnapshotHandler = shown(q2Module, 'applySnapshot', []);

export const q2 = defineQuestion<q2Handlers.BalanceSnapshot>({
  anchor: 'q2',
  schemaSql: inboxTable + balancesTable,
  deliveries: [
    { worker: 'A', message: { id: 'reconcile-17', accountId: 'acct-9', cents: 700 } },
    { worker: 'B', message: { id: 'reconcile-17', accountId: 'acct-9', cents: 700 } },
    { worker: 'A', message: { id: 'reconcile-18', accountId: 'acct-9', cents: 900 } },
  ],
  shipped: shippedSnapshotHandler,
  options: {
    a: shown(
      q2Module,
      'applySnapshotAsDelta',
      [],
      'the key is the account, which is right; adding where it should assign is a meaning no rule can read',
    ),
    b: shown(
      q2Module,
      'applySnapshotPerAccount',
      [],
      'the account keys the inbox claim, and no rule judges claim keys',
    ),
    c: shown(q2Module, 'applySnapshotPerWorker', [], notAnEffectKey),
    d: shippedSnapshotHandler,
  },
  readOutcome: async (db) => ({ inbox: await countRows(db, 'inbox'), balance: await balanceOf(db, 'acct-9') }),
  answer: { kind: 'same-as-shipped' },
});

export const q3 = defineQuestion<q3Handlers.RefundMessage>({
  anchor: 'q3',
  schemaSql: inboxTable + keyedEffectsTable,
  deliveries: [
    { worker: 'A', message: { id: 'credit-note-31', refundId: 'refund-9001', merchantId: 'merchant-5', cents: 400 } },
    { worker: 'B', message: { id: 'credit-note-32', refundId: 'refund-9001', merchantId: 'merchant-5', cents: 400 } },
    { worker: 'A', message: { id: 'credit-note-33', refundId: 'refund-9002', merchantId: 'merchant-5', cents: 300 } },
  ],
  options: {
    a: shown(q3Module, 'recordRefundBySourceMessage', ['no-delivery-id-effect-key']),
    b: shown(
      q3Module,
      'recordRefundByMerchant',
      [],
      'a merchant id is a business identity; only the domain knows it is too coarse for a refund',
    ),
    c: shown(q3Module, 'recordRefundByAmount', ['no-amount-effect-key']),
    d: shown(q3Module, 'recordRefundByWorker', []),
  },
  labelledBy: 'effectId',
  readOutcome: inboxAndEffects,
  answer: { kind: 'reproduces', trace: { inbox: 3, effects: 1, sum: 400 } },
});

const q4Deliveries = [
  { worker: 'A', message: { id: 'delivery-501', saleId: 'sale-301', cents: 88, currency: 'EUR' } },
  // The same sale again, published anew: a different delivery id, through another worker.
  { worker: 'B', message: { id: 'delivery-502', saleId: 'sale-301', cents: 88, currency: 'EUR' } },
  { worker: 'A', message: { id: 'delivery-503', saleId: 'sale-302', cents: 88, currency: 'EUR' } },
] as const;

/** Each sale exactly once, in the order `recordedSales` reads them. */
const everySaleOnce = [...new Set(q4Deliveries.map((delivery) => delivery.message.saleId))].sort().join(',');

export const q4 = defineQuestion<q4Handlers.SaleMessage>({
  anchor: 'q4',
  schemaSql: inboxTable + saleEffectsTable,
  deliveries: q4Deliveries,
  shipped: shown(q4Module, 'recordSale', ['no-amount-effect-key']),
  options: {
    a: shown(q4Module, 'recordSaleByDelivery', ['no-delivery-id-effect-key']),
    b: shown(q4Module, 'recordSaleByAmountAndCurrency', ['no-amount-effect-key']),
    c: shown(q4Module, 'recordSaleBySale', []),
    // Worker identity makes this a delivery-derived key; the amount rule leaves such keys to that rule.
    d: shown(q4Module, 'recordSaleByWorkerAndAmount', []),
  },
  labelledBy: 'effectId',
  readOutcome: async (db) => ({
    inbox: await countRows(db, 'inbox'),
    ...(await effectTotals(db)),
    sales: (await recordedSales(db)).join(','),
  }),
  answer: {
    kind: 'satisfies',
    requirement: `keeps the replay out and the second sale in: sales=${everySaleOnce}`,
    holds: (outcome) => outcome['sales'] === everySaleOnce,
  },
});

const creditedOnce = {
  kind: 'satisfies',
  requirement: 'credits the cashback once: effects=1',
  holds: (outcome) => outcome['effects'] === 1,
} as const satisfies QuestionScenario['answer'];

export const q5 = defineQuestion<PaidOrder>({
  anchor: 'q5',
  schemaSql: inboxTable + unkeyedEffectsTable,
  deliveries: [
    { worker: 'A', message: { id: 'order-63-paid', cashbackId: 'cashback-63', cents: 240 } },
    { worker: 'B', message: { id: 'order-63-paid', cashbackId: 'cashback-63', cents: 240 } },
  ],
  sideBySide: true,
  options: {
    a: creditThenRecordOnPool,
    b: claimFirst,
    c: onPool(shown(handlerModule('q5', q5Handlers), 'creditUnlessCredited', ['no-check-then-insert'])),
  },
  readOutcome: inboxAndEffects,
  answer: creditedOnce,
});

export const q6 = defineQuestion<PaidOrder>({
  anchor: 'q6',
  schemaSql: inboxTable + unkeyedEffectsTable,
  deliveries: [
    { worker: 'A', message: { id: 'order-74-paid', cashbackId: 'cashback-74', cents: 60 } },
    // The broker lost A's acknowledgement and hands the order to worker B, then back to A.
    { worker: 'B', message: { id: 'order-74-paid', cashbackId: 'cashback-74', cents: 60 } },
    { worker: 'A', message: { id: 'order-74-paid', cashbackId: 'cashback-74', cents: 60 } },
  ],
  options: {
    a: rememberingWorker,
    // intended: no-in-memory-dedupe and no-claim-after-effect
    b: shownWorker(handlerModule('q6', q6Handlers), 'RememberingAndRecordingWorker', ['no-in-memory-dedupe']),
    c: claimFirst,
  },
  readOutcome: inboxAndEffects,
  answer: creditedOnce,
});

const q7Module = handlerModule('q7', q7Handlers);

export const q7 = defineQuestion<PaidOrder>({
  anchor: 'q7',
  schemaSql: uncheckedInboxTable + claimsTable + unkeyedEffectsTable,
  deliveries: [
    { worker: 'A', message: { id: 'order-85-paid', cashbackId: 'cashback-85', cents: 300 } },
    { worker: 'B', message: { id: 'order-85-paid', cashbackId: 'cashback-85', cents: 300 } },
  ],
  options: {
    a: shown(q7Module, 'claimInClaimsThenCredit', []),
    b: shown(q7Module, 'checkInboxThenCredit', ['no-check-then-insert']),
    // intended: no-claim-without-unique-key, where it sees the inbox table; the snippet alone shows no schema
    c: claimFirst,
  },
  readOutcome: async (db) => ({
    inbox: await countRows(db, 'inbox'),
    claims: await countRows(db, 'claims'),
    effects: await countRows(db, 'effects'),
  }),
  answer: { kind: 'reproduces', trace: { inbox: 2, claims: 0, effects: 2 } },
});

export const questions: readonly QuestionScenario[] = [predict, q1, q2, q3, q4, q5, q6, q7];
