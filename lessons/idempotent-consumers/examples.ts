import {
  defineExample,
  handlerModule,
  onPool,
  shown,
  shownWorker,
  type ExampleScenario,
  type ShownHandler,
} from '../src/scenario.js';
import type { DeliveryResult, ItemSession } from '../src/session.js';
import * as example41Handlers from './handlers/example-4-1.js';
import * as example42 from './handlers/example-4-2.js';
import * as example43 from './handlers/example-4-3.js';
import * as example44Handlers from './handlers/example-4-4.js';
import * as example45Handlers from './handlers/example-4-5.js';
import * as example46Handlers from './handlers/example-4-6.js';
import * as example47Handlers from './handlers/example-4-7.js';
import * as example49Handlers from './handlers/example-4-9.js';
import * as example410Handlers from './handlers/example-4-10.js';
import * as example411Handlers from './handlers/example-4-11.js';
import * as example412Handlers from './handlers/example-4-12.js';
import * as example413Handlers from './handlers/example-4-13.js';
import * as example414Handlers from './handlers/example-4-14.js';
import * as example415Handlers from './handlers/example-4-15.js';
import * as predictHandlers from './handlers/predict.js';
import {
  balanceOf,
  brokerCopies,
  brokerOffset,
  countRows,
  effectIds,
  effectTotals,
  inboxIds,
  nextFromBroker,
} from './readouts.js';
import {
  balancesTable,
  datedInboxTable,
  inboxTable,
  keyedEffectsTable,
  jobsTable,
  outboxTables,
  partitionTables,
  payoutsTable,
  providerTables,
  sequencedBalancesTable,
  uncheckedInboxTable,
  unkeyedEffectsTable,
} from './tables.js';

/** How a worker's claim reads in a result line, for the unique claim and for check-then-insert. */
export const claimWords = {
  unique: { took: 'fresh', declined: 'conflict' },
  checking: { took: 'inserted', declined: 'skipped' },
} as const;

const claimWord = (fresh: boolean) => (fresh ? claimWords.unique.took : claimWords.unique.declined);

const example41 = handlerModule('example-4-1', example41Handlers);

/** The unique claim first, then check-then-insert on a table with no key, one worker at a time. */
const inboxDesigns = [
  {
    label: '4.1 inbox claims',
    schemaSql: inboxTable,
    handler: shown(example41, 'claimNotice', []),
    words: claimWords.unique,
  },
  {
    label: '4.1 check then insert, one worker at a time',
    schemaSql: uncheckedInboxTable,
    handler: shown(example41, 'claimNoticeByChecking', ['no-check-then-insert']),
    words: claimWords.checking,
  },
] as const;

const notices = { first: { id: 'notice-amber' }, second: { id: 'notice-birch' } } as const;

export const inboxClaims = defineExample({
  anchor: 'example-4-1',
  number: '4.1',
  shown: inboxDesigns.map((design) => design.handler),
  messages: notices,
  async run(session, { first, second }) {
    const lines: string[] = [];
    for (const design of inboxDesigns) {
      await session.fresh(design.schemaSql, design.label);
      const claims: string[] = [];
      for (const delivery of [
        { worker: 'A', message: first },
        { worker: 'B', message: second },
        { worker: 'A', message: first },
      ] as const) {
        const result = await session.deliver(delivery, design.handler.run);
        claims.push(
          `${delivery.message.id}=${result.committed ? (result.value ? design.words.took : design.words.declined) : result.reason}`,
        );
      }
      lines.push(`${design.label}: ${claims.join(', ')}`);
    }
    return lines.join('\n');
  },
});

const elmSnapshots = {
  older: { id: 'snapshot-elm-01', accountId: 'acct-elm', cents: 860 },
  newer: { id: 'snapshot-elm-02', accountId: 'acct-elm', cents: 930 },
} as const;

export const snapshotIdentity = defineExample({
  anchor: 'example-4-2',
  number: '4.2',
  shown: [shown(handlerModule('example-4-2', example42), 'applyBalanceSnapshot', [])],
  messages: elmSnapshots,
  async run(session, { older, newer }) {
    await session.fresh(inboxTable + balancesTable);
    const claims: string[] = [];
    for (const delivery of [
      { worker: 'A', message: older },
      { worker: 'B', message: newer },
    ] as const) {
      const result = await session.deliver(delivery, example42.applyBalanceSnapshot);
      claims.push(result.committed ? claimWord(result.value) : result.reason);
    }
    const ids = await session.readCommitted('the inbox', inboxIds);
    const balance = await session.readCommitted('the balance', (db) => balanceOf(db, older.accountId));
    return `4.2 snapshots: ids=${ids.join(',')} claims=${claims.join(',')} balance=${balance}`;
  },
});

const payout = { id: 'payout-cedar-1', payoutId: 'payout-cedar', cents: 250 };

export const rollbackKeepsClaimRetryable = defineExample({
  anchor: 'example-4-3',
  number: '4.3',
  shown: [shown(handlerModule('example-4-3', example43), 'recordPayout', [])],
  messages: { payout },
  async run(session, { payout: message }) {
    await session.fresh(inboxTable + keyedEffectsTable);
    await session.deliver({ worker: 'A', message }, example43.recordPayout, { interruptBeforeCommit: true });
    const before = await session.readAsFreshWorker('B', 'the inbox and effects', async (db) => ({
      inbox: await countRows(db, 'inbox'),
      effects: await countRows(db, 'effects'),
    }));
    const retry = await session.deliver({ worker: 'B', message }, example43.recordPayout);
    const after = {
      inbox: await session.readCommitted('the inbox', (db) => countRows(db, 'inbox')),
      effects: await session.readCommitted('the effects', (db) => countRows(db, 'effects')),
    };
    return (
      `4.3 rollback: fresh-worker-before inbox=${before.inbox} effects=${before.effects}; ` +
      `retry=${retry.committed ? retry.value : retry.reason}; after inbox=${after.inbox} effects=${after.effects}`
    );
  },
});

const example44 = handlerModule('example-4-4', example44Handlers);

/** Two messages that describe one refund; the race on a real server hands one to each worker. */
export const oneRefundTwice: Readonly<Record<'A' | 'B', example44Handlers.RefundNotice>> = {
  A: { id: 'source-maple-a', refundId: 'refund-maple-7', cents: 1200 },
  B: { id: 'source-maple-b', refundId: 'refund-maple-7', cents: 1200 },
};

/** The refund keyed by the refund, then by the message that carried it, over the same two messages. */
const refundDesigns = [
  { label: '4.4 effect identity', name: 'recordRefund', flaggedBy: [] },
  { label: '4.4 keyed by message', name: 'recordRefundPerMessage', flaggedBy: ['no-delivery-id-effect-key'] },
] as const;

export const effectIdentity = defineExample({
  anchor: 'example-4-4',
  number: '4.4',
  shown: refundDesigns.map((design) => shown(example44, design.name, design.flaggedBy)),
  messages: { first: oneRefundTwice.A, second: oneRefundTwice.B },
  async run(session, { first, second }) {
    const lines: string[] = [];
    for (const design of refundDesigns) {
      await session.fresh(inboxTable + keyedEffectsTable, design.label);
      const handled: string[] = [];
      for (const delivery of [
        { worker: 'A', message: first },
        { worker: 'B', message: second },
      ] as const) {
        const result = await session.deliver(delivery, example44Handlers[design.name]);
        handled.push(
          `${delivery.message.id}=${result.committed ? `${result.value.claim}/${result.value.effect}` : result.reason}`,
        );
      }
      const inbox = await session.readCommitted('the inbox', (db) => countRows(db, 'inbox'));
      const effects = await session.readCommitted('the effects', (db) => countRows(db, 'effects'));
      lines.push(`${design.label}: ${handled.join(', ')}; inbox=${inbox} effects=${effects}`);
    }
    return lines.join('\n');
  },
});

const example45 = handlerModule('example-4-5', example45Handlers);

/** Each design over the same arrivals: two snapshots in order, then the older one again, late. */
const lateReplayDesigns = [
  {
    name: 'per-worker claim',
    handler: shown(
      example45,
      'applySnapshotClaimedPerWorker',
      [],
      'the worker keys the inbox claim, and no rule judges claim keys',
    ),
  },
  { name: 'snapshot claim', handler: shown(example45, 'applySnapshotClaimedOnce', []) },
  { name: 'sequence guard', handler: shown(example45, 'applySnapshotIfNewer', []) },
] as const;

/** Two snapshots of one account, the older with the lower sequence. */
const reconcileSnapshots = {
  older: { id: 'reconcile-17', accountId: 'acct-9', sequence: 17, cents: 700 },
  newer: { id: 'reconcile-18', accountId: 'acct-9', sequence: 18, cents: 900 },
} as const;

export const lateReplay = defineExample({
  anchor: 'example-4-5',
  number: '4.5',
  shown: lateReplayDesigns.map((design) => design.handler),
  messages: reconcileSnapshots,
  async run(session, { older, newer }) {
    const applied = (result: DeliveryResult<unknown>) =>
      result.committed ? (result.value ? 'applied' : 'skipped') : result.reason;
    const balance = () => session.readCommitted('the balance', (db) => balanceOf(db, older.accountId));
    const replays: string[] = [];
    for (const design of lateReplayDesigns) {
      await session.fresh(inboxTable + sequencedBalancesTable, design.name);
      await session.deliver({ worker: 'A', message: older }, design.handler.run);
      await session.deliver({ worker: 'A', message: newer }, design.handler.run);
      const replay = await session.deliver({ worker: 'B', message: older }, design.handler.run);
      replays.push(`${design.name} B=${applied(replay)} balance=${await balance()}`);
    }
    // The older snapshot was never delivered before: it reaches worker B for the first time after the newer one.
    const firstSeenLate: string[] = [];
    for (const design of lateReplayDesigns.filter((candidate) => candidate.name !== 'per-worker claim')) {
      await session.fresh(inboxTable + sequencedBalancesTable, `${design.name}, ${older.id} first seen late`);
      await session.deliver({ worker: 'A', message: newer }, design.handler.run);
      const late = await session.deliver({ worker: 'B', message: older }, design.handler.run);
      firstSeenLate.push(`${design.name} B=${applied(late)} balance=${await balance()}`);
    }
    return [
      `4.5 late replay of ${older.id}: ${replays.join('; ')}`,
      `4.5 ${older.id} first arrives after ${newer.id}: ${firstSeenLate.join('; ')}`,
    ].join('\n');
  },
});

const example46 = handlerModule('example-4-6', example46Handlers);

/** How a cashback handler's result reads in a line. */
export const creditWords = { took: 'credited', declined: 'skipped' } as const;

const creditWord = (result: DeliveryResult<unknown>) =>
  result.committed ? (result.value ? creditWords.took : creditWords.declined) : result.reason;

async function inboxAndEffectCounts(session: ItemSession): Promise<string> {
  const inbox = await session.readCommitted('the inbox', (db) => countRows(db, 'inbox'));
  const effects = await session.readCommitted('the effects', (db) => countRows(db, 'effects'));
  return `inbox=${inbox} effects=${effects}`;
}

export const claimFirst = shown(example46, 'claimThenCredit', []);
export const creditThenRecordOnPool = onPool(shown(example46, 'creditThenRecord', ['no-claim-after-effect']));

/** The record written after the effect, its statements committing one by one, next to the claim made first in one transaction. */
const claimOrderDesigns = [
  { label: 'check, credit, record, on a pool', short: 'check, credit, record', handler: creditThenRecordOnPool },
  { label: 'claim first, one transaction', short: 'claim first', handler: claimFirst },
] as const;

export const orderPaidTwice: Readonly<Record<'A' | 'B', example46Handlers.PaidOrder>> = {
  A: { id: 'order-41-paid', cashbackId: 'cashback-41', cents: 150 },
  B: { id: 'order-41-paid', cashbackId: 'cashback-41', cents: 150 },
};

export const claimAfterEffect = defineExample({
  anchor: 'example-4-6',
  number: '4.6',
  shown: claimOrderDesigns.map((design) => design.handler),
  messages: { order: orderPaidTwice.A },
  async run(session, { order }) {
    // The paid order reaching worker A and worker B.
    const orderToBoth = [
      { worker: 'A', message: order },
      { worker: 'B', message: order },
    ] as const;
    const lines: string[] = [];
    for (const design of claimOrderDesigns) {
      await session.fresh(inboxTable + unkeyedEffectsTable, design.label);
      const results = await session.sideBySide(orderToBoth, design.handler.run, { commits: design.handler.commits });
      lines.push(
        `4.6 ${design.label}: ${orderToBoth.map((delivery, index) => `${delivery.worker}=${creditWord(results[index])}`).join(', ')}; ${await inboxAndEffectCounts(session)}`,
      );
    }
    // Worker A dies right after the credit, its second statement; the broker then hands the order to worker B.
    const afterCrash: string[] = [];
    for (const design of claimOrderDesigns) {
      await session.fresh(inboxTable + unkeyedEffectsTable, `${design.short}, A dies after the credit`);
      const commits = design.handler.commits;
      const died = await session.deliver({ worker: 'A', message: order }, design.handler.run, {
        commits,
        diesAfterStatements: 2,
      });
      const retry = await session.deliver({ worker: 'B', message: order }, design.handler.run, { commits });
      afterCrash.push(
        `${design.short} A=${creditWord(died)} B=${creditWord(retry)} ${await inboxAndEffectCounts(session)}`,
      );
    }
    lines.push(`4.6 A dies after its credit, then B: ${afterCrash.join('; ')}`);
    return lines.join('\n');
  },
});

// intended: no-in-memory-dedupe
export const rememberingWorker = shownWorker(handlerModule('example-4-7', example47Handlers), 'RememberingWorker', [
  'no-in-memory-dedupe',
]);

/** What an in-memory set remembers, and what the inbox does, over one order's four arrivals. */
const memoryDesigns: readonly { label: string; handler: ShownHandler }[] = [
  { label: 'set in memory', handler: rememberingWorker },
  { label: 'inbox claim', handler: claimFirst },
];

const rememberedOrder = { id: 'order-52-paid', cashbackId: 'cashback-52', cents: 90 };

export const inMemoryDedupe = defineExample({
  anchor: 'example-4-7',
  number: '4.7',
  shown: memoryDesigns.map((design) => design.handler),
  messages: { order: rememberedOrder },
  async run(session, { order }) {
    const lines: string[] = [];
    for (const design of memoryDesigns) {
      await session.fresh(inboxTable + unkeyedEffectsTable, design.label);
      const handled: string[] = [];
      for (const [worker, restartFirst] of [
        ['A', false],
        ['A', false],
        ['A', true],
        ['B', false],
      ] as const) {
        if (restartFirst) session.restart(worker);
        const result = await session.deliver({ worker, message: order }, design.handler.run);
        handled.push(`${worker}${restartFirst ? ' restarted' : ''}=${creditWord(result)}`);
      }
      lines.push(`4.7 ${design.label}: ${handled.join(', ')}; ${await inboxAndEffectCounts(session)}`);
    }
    return lines.join('\n');
  },
});

/** The same claim over two inbox tables: one without a unique key, one keyed by the message id. */
const inboxKeys = [
  { label: 'no unique key', schemaSql: uncheckedInboxTable },
  { label: 'PRIMARY KEY (message_id)', schemaSql: inboxTable },
] as const;

export const claimWithoutUniqueKey = defineExample({
  anchor: 'example-4-8',
  number: '4.8',
  // intended: no-claim-without-unique-key, which can report it only where it sees the table (tables.ts), not in the snippet alone
  shown: [claimFirst],
  messages: { order: orderPaidTwice.A },
  async run(session, { order }) {
    const lines: string[] = [];
    for (const key of inboxKeys) {
      await session.fresh(key.schemaSql + unkeyedEffectsTable, key.label);
      const handled: string[] = [];
      for (const worker of ['A', 'B'] as const) {
        const delivery = { worker, message: order };
        handled.push(`${delivery.worker}=${creditWord(await session.deliver(delivery, claimFirst.run))}`);
      }
      lines.push(`4.8 claim, inbox with ${key.label}: ${handled.join(', ')}; ${await inboxAndEffectCounts(session)}`);
    }
    return lines.join('\n');
  },
});

const example49 = handlerModule('example-4-9', example49Handlers);

export const transactionalOutbox = defineExample({
  anchor: 'example-4-9',
  number: '4.9',
  shown: [
    shown(example49, 'placeOrderWithOutbox', []),
    onPool(shown(example49, 'relayOutbox', [])),
    shown(example49, 'consumePaidOrder', []),
    onPool(
      shown(
        example49,
        'placeOrderThenPublish',
        [],
        'publishing after a commit is a producer-side gap; the rules look at consumers',
      ),
    ),
  ],
  messages: { order: { id: 'order-93', cashbackId: 'cashback-93', cents: 120 }, relayRun: { id: 'relay-run' } },
  async run(session, { order, relayRun }) {
    const count = (table: 'orders' | 'broker' | 'inbox' | 'effects') =>
      session.readCommitted(`the ${table} rows`, (db) => countRows(db, table));
    await session.fresh(outboxTables + inboxTable + unkeyedEffectsTable, 'outbox, the relay dies after publishing');
    await session.deliver({ worker: 'A', message: order }, example49Handlers.placeOrderWithOutbox);
    // Publishing reaches the broker at once, so the relay's statements commit one by one; it dies after its first publish.
    const died = await session.deliver({ worker: 'A', message: relayRun }, example49Handlers.relayOutbox, {
      commits: 'each',
      diesAfterStatements: 2,
    });
    const again = await session.deliver({ worker: 'B', message: relayRun }, example49Handlers.relayOutbox, {
      commits: 'each',
    });
    const copies = await session.readCommitted('the copies the broker holds', brokerCopies);
    const consumed: string[] = [];
    for (const [index, copy] of copies.entries()) {
      const worker = index % 2 === 0 ? 'A' : 'B';
      consumed.push(
        `${worker}=${creditWord(await session.deliver({ worker, message: copy }, example49Handlers.consumePaidOrder))}`,
      );
    }
    const relays = `relay A=${died.committed ? `published ${died.value}` : died.reason}, relay B=published ${again.committed ? again.value : again.reason}`;
    const outbox = `4.9 outbox: ${relays}; orders=${await count('orders')} published=${copies.length}; consumer ${consumed.join(', ')}; inbox=${await count('inbox')} effects=${await count('effects')}`;
    await session.fresh(outboxTables, 'commit, then publish');
    const producer = await session.deliver({ worker: 'A', message: order }, example49Handlers.placeOrderThenPublish, {
      commits: 'each',
      diesAfterStatements: 1,
    });
    const direct = `4.9 commit, then publish: producer ${producer.committed ? 'published' : producer.reason}; orders=${await count('orders')} published=${await count('broker')}`;
    return `${outbox}\n${direct}`;
  },
});

const example410 = handlerModule('example-4-10', example410Handlers);

/** When the consumer tells the broker it is done, and where it keeps its position. */
const acknowledgementDesigns = [
  { label: 'ack before COMMIT, A dies before COMMIT', ackFirst: true, handler: shown(example410, 'creditPayment', []) },
  {
    label: 'ack after COMMIT, A dies before the ack',
    ackFirst: false,
    handler: shown(example410, 'creditPayment', []),
  },
  {
    label: "position kept in the effect's transaction, A dies before the ack",
    ackFirst: false,
    handler: shown(example410, 'creditAndKeepPosition', []),
  },
] as const;

export const acknowledgementOrder = defineExample({
  anchor: 'example-4-10',
  number: '4.10',
  shown: [
    shown(example410, 'acknowledge', []),
    shown(
      example410,
      'creditPayment',
      [],
      'no key at all: the example is about when the broker is told, which no rule sees',
    ),
    shown(example410, 'creditAndKeepPosition', []),
  ],
  messages: { payment: { id: 'payment-20', offset: 0, cashbackId: 'cashback-20', cents: 75 } },
  async run(session, { payment }) {
    const lines: string[] = [];
    for (const design of acknowledgementDesigns) {
      await session.fresh(
        partitionTables +
          unkeyedEffectsTable +
          `INSERT INTO partition_log VALUES (${payment.offset}, '${payment.id}', '${payment.cashbackId}', ${payment.cents});`,
        design.label,
      );
      if (design.ackFirst) {
        await session.deliver({ worker: 'A', message: payment }, example410Handlers.acknowledge);
        await session.deliver({ worker: 'A', message: payment }, design.handler.run, { interruptBeforeCommit: true });
      } else {
        // A commits its transaction and dies before it can tell the broker.
        await session.deliver({ worker: 'A', message: payment }, design.handler.run);
      }
      // Worker B takes over the partition and asks the broker where to start.
      const offset = await session.readCommitted("the broker's offset for the group", brokerOffset);
      const next = await session.readCommitted('what the broker hands worker B', nextFromBroker);
      let handed = `B starts at offset ${offset}: nothing there`;
      if (next) {
        const result = await session.deliver({ worker: 'B', message: next }, design.handler.run);
        handed = `B starts at offset ${offset}: ${next.id}=${result.committed ? (result.value === false ? 'skipped' : 'credited') : result.reason}`;
      }
      lines.push(
        `4.10 ${design.label}: ${handed}; effects=${await session.readCommitted('the effects', (db) => countRows(db, 'effects'))}`,
      );
    }
    return lines.join('\n');
  },
});

const example411 = handlerModule('example-4-11', example411Handlers);

/** One order's cashback, enqueued twice; the races on a real server start from the same two jobs. */
export const queuedTwice = {
  first: 'job-61-a',
  second: 'job-61-b',
  order: { id: 'order-61-paid', cashbackId: 'cashback-61', cents: 80 },
} as const;

export const queuedJobs = (order: example411Handlers.CashbackOrder, jobIds: readonly string[]) =>
  jobsTable +
  jobIds
    .map(
      (jobId) =>
        `INSERT INTO jobs(job_id, cashback_id, cents) VALUES ('${jobId}', '${order.cashbackId}', ${order.cents});`,
    )
    .join('');

const lockDesigns = [
  {
    label: 'advisory lock around the credit',
    handler: shown(
      example411,
      'creditUnderLock',
      [],
      'the lock is on the business id, which is right; a lock that guards nothing but the write is a meaning no rule reads',
    ),
  },
  { label: 'advisory lock around a check and the credit', handler: shown(example411, 'creditOnceUnderLock', []) },
] as const;

export const locksShareWork = defineExample({
  anchor: 'example-4-11',
  number: '4.11',
  shown: [
    shown(example411, 'workNextJob', [], 'the job is enqueued twice; no rule can know two jobs are one operation'),
    ...lockDesigns.map((design) => design.handler),
  ],
  messages: { order: queuedTwice.order, firstJob: { id: queuedTwice.first }, secondJob: { id: queuedTwice.second } },
  async run(session, { order, firstJob, secondJob }) {
    await session.fresh(queuedJobs(order, [firstJob.id, secondJob.id]) + unkeyedEffectsTable, 'SKIP LOCKED');
    const polls: string[] = [];
    for (const worker of ['A', 'B', 'A'] as const) {
      const result = await session.deliver(
        { worker, message: { id: `poll-${worker}` } },
        example411Handlers.workNextJob,
      );
      polls.push(`${worker}=${result.committed ? (result.value ? 'took a job' : 'found none') : result.reason}`);
    }
    const lines = [
      `4.11 SKIP LOCKED, one order queued twice: ${polls.join(', ')}; effects=${await session.readCommitted('the effects', (db) => countRows(db, 'effects'))}`,
    ];
    for (const design of lockDesigns) {
      await session.fresh(unkeyedEffectsTable, design.label);
      const handled: string[] = [];
      for (const worker of ['A', 'B'] as const)
        handled.push(`${worker}=${creditWord(await session.deliver({ worker, message: order }, design.handler.run))}`);
      lines.push(
        `4.11 ${design.label}: ${handled.join(', ')}; effects=${await session.readCommitted('the effects', (db) => countRows(db, 'effects'))}`,
      );
    }
    return lines.join('\n');
  },
});

export const claimUnderRepeatableRead = shown(
  handlerModule('example-4-12', example412Handlers),
  'claimUnderRepeatableRead',
  [],
);

export const stricterIsolation = defineExample({
  anchor: 'example-4-12',
  number: '4.12',
  shown: [claimUnderRepeatableRead],
  messages: { order: { id: 'order-88-paid', cashbackId: 'cashback-88', cents: 45 } },
  async run(session, { order }) {
    await session.fresh(inboxTable + unkeyedEffectsTable);
    const handled: string[] = [];
    for (const worker of ['A', 'B'] as const)
      handled.push(
        `${worker}=${creditWord(await session.deliver({ worker, message: order }, claimUnderRepeatableRead.run))}`,
      );
    return `4.12 claim under REPEATABLE READ, one worker at a time: ${handled.join(', ')}; ${await inboxAndEffectCounts(session)}`;
  },
});

const example413 = handlerModule('example-4-13', example413Handlers);

/** The credit without a key of its own, then keyed by the cashback; the same pruned inbox under both. */
const retentionDesigns = [
  {
    label: 'credit with no key of its own',
    handler: shown(example413, 'claimAndCredit', []),
    table: unkeyedEffectsTable,
  },
  {
    label: 'credit keyed by its cashback',
    handler: shown(example413, 'claimAndCreditOnce', []),
    table: keyedEffectsTable,
  },
] as const;

export const inboxRetention = defineExample({
  anchor: 'example-4-13',
  number: '4.13',
  shown: [...retentionDesigns.map((design) => design.handler), shown(example413, 'pruneInbox', [])],
  messages: {
    order: { id: 'order-95-paid', cashbackId: 'cashback-95', cents: 210, day: 1 },
    prune: { id: 'nightly-prune', day: 30, keepDays: 7 },
    replay: { id: 'order-95-paid', cashbackId: 'cashback-95', cents: 210, day: 30 },
  },
  async run(session, { order, prune, replay }) {
    const lines: string[] = [];
    for (const design of retentionDesigns) {
      await session.fresh(datedInboxTable + design.table, design.label);
      const first = await session.deliver({ worker: 'A', message: order }, design.handler.run);
      const pruned = await session.deliver({ worker: 'A', message: prune }, example413Handlers.pruneInbox);
      const late = await session.deliver({ worker: 'B', message: replay }, design.handler.run);
      lines.push(
        `4.13 inbox kept ${prune.keepDays} days, ${design.label}: day ${order.day} A=${creditWord(first)}; day ${prune.day} pruned ${pruned.committed ? pruned.value : pruned.reason}, ` +
          `replay B=${creditWord(late)}; ${await inboxAndEffectCounts(session)}`,
      );
    }
    return lines.join('\n');
  },
});

const example414 = handlerModule('example-4-14', example414Handlers);

/** Two requests to the provider, as the run sends them: the same payout twice, or two payouts under one key. */
export const providerRequests = {
  payout: { id: 'payout-41', idempotencyKey: 'payout-41', payee: 'shop-12', cents: 2500 },
  earlier: { id: 'payout-42', idempotencyKey: 'shop-12-day-5', payee: 'shop-12', cents: 1800 },
  later: { id: 'payout-44', idempotencyKey: 'shop-12-day-5', payee: 'shop-12', cents: 2100 },
} as const;

const answerOf = (result: DeliveryResult<string | null>) =>
  result.committed ? (result.value ?? 'skipped') : result.reason;

/**
 * A worker that calls the provider inside its transaction. The provider answers in a transaction of
 * its own; on the lesson's one connection that cannot run while the worker's is open, so it runs
 * just before it. It reads and writes only the provider's tables, so the two leave the state they
 * would leave in the real order. The worker must then send exactly the request answered, once.
 */
async function deliverCallingProvider(
  session: ItemSession,
  worker: 'A' | 'B',
  payout: example414Handlers.PayoutOrdered,
  options: { interruptBeforeCommit?: boolean } = {},
): Promise<DeliveryResult<string | null>> {
  const expected = example414Handlers.paymentFor(payout);
  const answer = await session.outside('the provider', `answers worker ${worker}'s call`, (db) =>
    example414Handlers.providerPays(db, expected),
  );
  let calls = 0;
  const pay: example414Handlers.ProviderClient = (request) => {
    calls += 1;
    if (calls > 1 || JSON.stringify(request) !== JSON.stringify(expected))
      return Promise.reject(
        new Error(`worker ${worker} sent ${JSON.stringify(request)}, not the one call the provider answered`),
      );
    return Promise.resolve(answer);
  };
  const result = await session.deliver(
    { worker, message: payout },
    (db, message) => example414Handlers.payOutInsideTransaction(db, message, pay),
    options,
  );
  if (calls !== 1) throw new Error(`worker ${worker} did not call the provider, which had already answered`);
  return result;
}

export const providerKeys = defineExample({
  anchor: 'example-4-14',
  number: '4.14',
  shown: [
    onPool(
      shown(
        example414,
        'providerPays',
        [],
        "the provider's own side: it keeps the keys its clients send, which is what the lesson asks of a consumer",
      ),
    ),
    shown(
      example414,
      'payOutInsideTransaction',
      [],
      'the call is keyed by the payout, which is right; where the call sits in the transaction is a question of order no rule reads',
    ),
  ],
  messages: {
    ...providerRequests,
    ordered: { id: 'payout-ordered-43', payoutId: 'payout-43', payee: 'shop-12', cents: 900 },
  },
  async run(session, { payout, earlier, later, ordered }) {
    const charges = () => session.readCommitted('the charges', (db) => countRows(db, 'provider_charges'));
    const pays = example414Handlers.providerPays;
    const lines: string[] = [];

    // The provider commits the key as in progress before it pays, so a second request meets that record.
    await session.fresh(providerTables, 'the same key while the first request runs');
    const [first, second] = await session.sideBySide(
      [
        { worker: 'A', message: payout },
        { worker: 'B', message: payout },
      ],
      pays,
      { commits: 'each' },
    );
    const retry = await session.deliver({ worker: 'B', message: payout }, pays, { commits: 'each' });
    lines.push(
      `4.14 same key, a second request while the first runs: A=${answerOf(first)}, B=${answerOf(second)}; B later=${answerOf(retry)}; charges=${await charges()}`,
    );

    await session.fresh(providerTables, 'one key for two payouts');
    const answers = [];
    for (const [worker, message] of [
      ['A', earlier],
      ['B', later],
    ] as const)
      answers.push(`${worker}=${answerOf(await session.deliver({ worker, message }, pays, { commits: 'each' }))}`);
    lines.push(
      `4.14 one key (${earlier.idempotencyKey}) for ${earlier.id} and ${later.id}: ${answers.join(', ')}; charges=${await charges()}`,
    );

    await session.fresh(providerTables + inboxTable + payoutsTable, 'the provider called inside the transaction');
    const payouts = () => session.readCommitted('the payouts recorded', (db) => countRows(db, 'payouts'));
    const died = await deliverCallingProvider(session, 'A', ordered, { interruptBeforeCommit: true });
    const afterCrash = `charges=${await charges()} payouts=${await payouts()}`;
    const redelivered = await deliverCallingProvider(session, 'B', ordered);
    lines.push(
      `4.14 provider called inside the transaction: A=${answerOf(died)}: ${afterCrash}; redelivery B=${answerOf(redelivered)}: charges=${await charges()} payouts=${await payouts()}`,
    );
    return lines.join('\n');
  },
});

/** The opening question's handler, then the same handler without its inbox claim, each over the question's two deliveries. */
const replayDesigns = [
  {
    label: "the opening question's handler",
    handler: shown(handlerModule('predict', predictHandlers), 'handleJob', []),
  },
  {
    label: 'the same handler without its inbox',
    handler: shown(
      handlerModule('example-4-15', example415Handlers),
      'handleJobWithoutInbox',
      [],
      'the lesson hands the job over as an argument, so no rule sees a delivery handler here; in a consumer, require-repeat-safe-effect (configs.strict) reports the insert',
    ),
  },
] as const;

export const replayWithoutBoundary = defineExample({
  anchor: 'example-4-15',
  number: '4.15',
  shown: replayDesigns.map((design) => design.handler),
  messages: { job: { id: 'job-77', effectId: 'ledger-77', cents: 500 } },
  async run(session, { job }) {
    const lines: string[] = [];
    for (const design of replayDesigns) {
      await session.fresh(inboxTable + unkeyedEffectsTable, design.label);
      // Worker A commits and dies before its acknowledgement; the broker hands the same job to worker B.
      const after: string[] = [];
      for (const worker of ['A', 'B'] as const) {
        const result = await session.deliver({ worker, message: job }, design.handler.run);
        const effects = await session.readCommitted('the effects', (db) => countRows(db, 'effects'));
        after.push(`after ${worker}${result.committed ? '' : ` (${result.reason})`} effects=${effects}`);
      }
      const inbox = await session.readCommitted('the inbox', (db) => countRows(db, 'inbox'));
      const ids = await session.readCommitted('the effects', effectIds);
      const { sum } = await session.readCommitted('the sum of the effects', effectTotals);
      lines.push(
        `4.15 ${design.label}, ${job.id} to A then B: ${after.join(', ')}; inbox=${inbox} entries=${ids.join(',')} sum=${sum}`,
      );
    }
    return lines.join('\n');
  },
});

export const examples: readonly ExampleScenario[] = [
  inboxClaims,
  snapshotIdentity,
  rollbackKeepsClaimRetryable,
  effectIdentity,
  lateReplay,
  claimAfterEffect,
  inMemoryDedupe,
  claimWithoutUniqueKey,
  transactionalOutbox,
  acknowledgementOrder,
  locksShareWork,
  stricterIsolation,
  inboxRetention,
  providerKeys,
  replayWithoutBoundary,
];
