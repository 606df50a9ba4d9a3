import type { Exercise, Schedule } from '../src/exercise.js';
import type { Delivery, LessonMessage, Outcome } from '../src/scenario.js';
import { effectTotals } from './readouts.js';

/**
 * One exercise per rule of eslint-plugin-idempotency: a handler that makes the rule's mistake, the
 * schedules that expose it, and the state every schedule must leave. The state asked for is one
 * effect per business operation, computed from the arrivals each schedule sends.
 */

type Fields = LessonMessage & Readonly<Record<string, string | number>>;

/** The four schedules, with the message a late replay sends again (a copy, or the same operation republished). */
function schedules(first: Fields, second: Fields, replayed: Fields): Schedule[] {
  const to = (worker: 'A' | 'B', message: Fields): Delivery<LessonMessage> => ({ worker, message });
  return [
    {
      name: 'redelivery after COMMIT',
      story: `worker A handles ${first.id} and commits, but its acknowledgement is lost; worker B gets ${first.id} again`,
      deliveries: [to('A', first), to('B', first)],
    },
    {
      name: 'two workers at once',
      story: `workers A and B both get ${first.id} at the same moment; their statements alternate`,
      deliveries: [to('A', first), to('B', first)],
    },
    {
      name: 'a crash between statements',
      story: `worker A dies part-way through ${first.id}; worker B gets ${first.id} again`,
      deliveries: [to('A', first), to('B', first)],
      crashes: true,
    },
    {
      name: 'a late replay',
      story: `worker A handles ${first.id}, then ${second.id}; later worker B gets ${replayed.id}${replayed.id === first.id ? ' again' : `, which repeats ${first.id} under a new id`}`,
      deliveries: [to('A', first), to('A', second), to('B', replayed)],
    },
  ];
}

const readEffects = async (db: Parameters<Exercise['readOutcome']>[0]): Promise<Outcome> => effectTotals(db);

/** Right when the effects hold each business operation the schedule delivered exactly once. */
function oncePerOperation(operation: string): Exercise['judge'] {
  return (outcome, schedule) => {
    const operations = new Map<string, number>();
    for (const delivery of schedule.deliveries) {
      const message = delivery.message as Fields;
      operations.set(String(message[operation]), Number(message['cents']));
    }
    const effects = operations.size;
    const sum = [...operations.values()].reduce((total, cents) => total + cents, 0);
    if (outcome['effects'] === effects && outcome['sum'] === sum) return null;
    const named = [...operations.keys()].join(' and ');
    return `expected ${named} once each (effects=${effects} sum=${sum}), found effects=${outcome['effects']} sum=${outcome['sum']}`;
  };
}

const keyedTables = [
  'table: CREATE TABLE inbox (message_id text PRIMARY KEY);',
  'table: CREATE TABLE effects (effect_id text PRIMARY KEY, amount integer NOT NULL);',
];
const claim = [
  'run: INSERT INTO inbox(message_id) VALUES ({id}) ON CONFLICT DO NOTHING RETURNING message_id',
  '  stop if no row',
];
const lines = (...parts: (string | readonly string[])[]) => `${parts.flat().join('\n')}\n`;

const refund = (id: string, refundId: string, cents: number): Fields => ({ id, refundId, cents });
const refundKeyed = (key: string) =>
  lines(
    keyedTables,
    'transaction: one',
    `key: ${key}`,
    claim,
    'run: INSERT INTO effects(effect_id, amount) VALUES ({key}, {cents}) ON CONFLICT DO NOTHING',
  );

const sale = (id: string, saleId: string): Fields => ({ id, saleId, cents: 88 });
const saleKeyed = (key: string) =>
  lines(
    keyedTables,
    'transaction: one',
    `key: ${key}`,
    claim,
    'run: INSERT INTO effects(effect_id, amount) VALUES ({key}, {cents}) ON CONFLICT DO NOTHING',
  );

const order = (id: string, cashbackId: string, cents: number): Fields => ({ id, cashbackId, cents });
const firstOrder = order('order-71-paid', 'cashback-71', 130);
const secondOrder = order('order-72-paid', 'cashback-72', 40);
const unkeyedEffects = 'table: CREATE TABLE effects (effect_id text NOT NULL, amount integer NOT NULL);';
const credit = 'run: INSERT INTO effects(effect_id, amount) VALUES ({cashbackId}, {cents})';

export const exercises: readonly Exercise[] = [
  {
    id: 'effect-key',
    rule: 'no-delivery-id-effect-key',
    title: 'Key the refund by the refund',
    task: 'The refund is keyed by the id of the message that carried it. Change the key so that a refund published again under a new message id is still paid once, and two different refunds are both paid.',
    starter: refundKeyed('{id}'),
    model: refundKeyed('{refundId}'),
    schedules: schedules(
      refund('notice-31', 'refund-7', 400),
      refund('notice-32', 'refund-8', 300),
      refund('notice-33', 'refund-7', 400),
    ),
    readOutcome: readEffects,
    judge: oncePerOperation('refundId'),
    hints: {
      'a late replay':
        'The copy came with a new message id. Which field names the refund itself, whatever message carries it?',
    },
    wrong: [
      { why: 'the key of the starting handler: the message id', text: refundKeyed('{id}'), fails: 'a late replay' },
      { why: 'one key for every refund', text: refundKeyed('refund'), fails: 'a late replay' },
    ],
  },
  {
    id: 'amount-key',
    rule: 'no-amount-effect-key',
    title: 'Two sales of the same amount are two sales',
    task: 'Each sale is keyed by its amount, so two sales of 88 cents become one. Change the key so that each sale is recorded once, however often it arrives.',
    starter: saleKeyed('amount-{cents}'),
    model: saleKeyed('{saleId}'),
    schedules: schedules(
      sale('delivery-501', 'sale-301'),
      sale('delivery-503', 'sale-302'),
      sale('delivery-502', 'sale-301'),
    ),
    readOutcome: readEffects,
    judge: oncePerOperation('saleId'),
    hints: {
      'a late replay': 'Two different sales had the same amount. What does each sale have that no other sale has?',
    },
    wrong: [
      { why: 'the amount, as the starting handler has it', text: saleKeyed('amount-{cents}'), fails: 'a late replay' },
      {
        why: 'the delivery id, which a republished sale does not keep',
        text: saleKeyed('{id}'),
        fails: 'a late replay',
      },
    ],
  },
  {
    id: 'check-then-insert',
    rule: 'no-check-then-insert',
    title: 'Let the database decide who was first',
    task: 'The handler looks for the order in the inbox and inserts it when it is missing. Make the inbox itself turn a second arrival away, so that two workers at once credit once.',
    starter: lines(
      'table: CREATE TABLE inbox (message_id text NOT NULL);',
      unkeyedEffects,
      'transaction: one',
      'run: SELECT 1 FROM inbox WHERE message_id = {id}',
      '  stop if a row',
      'run: INSERT INTO inbox(message_id) VALUES ({id})',
      credit,
    ),
    model: lines(
      'table: CREATE TABLE inbox (message_id text PRIMARY KEY);',
      unkeyedEffects,
      'transaction: one',
      claim,
      credit,
    ),
    schedules: schedules(firstOrder, secondOrder, firstOrder),
    readOutcome: readEffects,
    judge: oncePerOperation('id'),
    hints: {
      'two workers at once':
        'Both workers looked before either inserted. Give the inbox a primary key and claim with an insert that says ON CONFLICT DO NOTHING and returns its row: then one insert decides.',
    },
    wrong: [
      {
        why: 'the starting handler',
        text: lines(
          'table: CREATE TABLE inbox (message_id text NOT NULL);',
          unkeyedEffects,
          'transaction: one',
          'run: SELECT 1 FROM inbox WHERE message_id = {id}',
          '  stop if a row',
          'run: INSERT INTO inbox(message_id) VALUES ({id})',
          credit,
        ),
        fails: 'two workers at once',
      },
    ],
  },
  {
    id: 'claim-after-effect',
    rule: 'no-claim-after-effect',
    title: 'Claim before the effect, in its transaction',
    task: 'On a pool, the handler checks the inbox, credits, and only then records the order. Reorder it (and decide what runs in one transaction) so that two workers at once, and a worker that dies half-way, still leave exactly one credit.',
    starter: lines(
      keyedTables[0],
      unkeyedEffects,
      'transaction: none',
      'run: SELECT 1 FROM inbox WHERE message_id = {id}',
      '  stop if a row',
      credit,
      'run: INSERT INTO inbox(message_id) VALUES ({id}) ON CONFLICT DO NOTHING',
    ),
    model: lines(keyedTables[0], unkeyedEffects, 'transaction: one', claim, credit),
    schedules: schedules(firstOrder, secondOrder, firstOrder),
    readOutcome: readEffects,
    judge: oncePerOperation('id'),
    hints: {
      'two workers at once':
        'Both workers checked before either recorded. Make the claim the first statement, and let its returned row decide.',
      'a crash between statements':
        'Statements that commit one by one leave the first behind when the worker dies. What would make the claim and the credit commit together?',
    },
    wrong: [
      {
        why: 'the starting handler',
        text: lines(
          keyedTables[0],
          unkeyedEffects,
          'transaction: none',
          'run: SELECT 1 FROM inbox WHERE message_id = {id}',
          '  stop if a row',
          credit,
          'run: INSERT INTO inbox(message_id) VALUES ({id}) ON CONFLICT DO NOTHING',
        ),
        fails: 'two workers at once',
      },
      {
        why: 'the claim first, but still one statement at a time on a pool',
        text: lines(keyedTables[0], unkeyedEffects, 'transaction: none', claim, credit),
        fails: 'a crash between statements',
      },
      {
        why: 'one transaction, with the record still after the credit',
        text: lines(
          keyedTables[0],
          unkeyedEffects,
          'transaction: one',
          'run: SELECT 1 FROM inbox WHERE message_id = {id}',
          '  stop if a row',
          credit,
          'run: INSERT INTO inbox(message_id) VALUES ({id}) ON CONFLICT DO NOTHING',
        ),
        fails: 'two workers at once',
      },
    ],
  },
  {
    id: 'in-memory-dedupe',
    rule: 'no-in-memory-dedupe',
    title: 'Remember in the database, not in the process',
    task: 'The worker skips orders it remembers crediting, in its own memory. Make the decision in a place that every worker and every restart reads.',
    starter: lines(keyedTables[0], unkeyedEffects, 'transaction: one', 'remembered: {id}', credit, 'remember: {id}'),
    model: lines(keyedTables[0], unkeyedEffects, 'transaction: one', claim, credit),
    schedules: schedules(firstOrder, secondOrder, firstOrder),
    readOutcome: readEffects,
    judge: oncePerOperation('id'),
    hints: {
      'redelivery after COMMIT': "Worker B's memory never heard of the order. Which table does every worker read?",
    },
    wrong: [
      {
        why: 'the starting handler',
        text: lines(keyedTables[0], unkeyedEffects, 'transaction: one', 'remembered: {id}', credit, 'remember: {id}'),
        fails: 'redelivery after COMMIT',
      },
    ],
  },
  {
    id: 'unique-key',
    rule: 'no-claim-without-unique-key',
    title: 'Give ON CONFLICT something to conflict with',
    task: 'The claim says ON CONFLICT DO NOTHING, but the inbox was created without a key. Change the table so that the claim works as written.',
    starter: lines(
      'table: CREATE TABLE inbox (message_id text NOT NULL);',
      unkeyedEffects,
      'transaction: one',
      claim,
      credit,
    ),
    model: lines(
      'table: CREATE TABLE inbox (message_id text NOT NULL UNIQUE);',
      unkeyedEffects,
      'transaction: one',
      claim,
      credit,
    ),
    schedules: schedules(firstOrder, secondOrder, firstOrder),
    readOutcome: readEffects,
    judge: oncePerOperation('id'),
    hints: {
      'redelivery after COMMIT':
        "Worker B's insert returned a row, so it credited. What makes a second row with the same message_id impossible?",
    },
    wrong: [
      {
        why: 'the starting table, with no key',
        text: lines(
          'table: CREATE TABLE inbox (message_id text NOT NULL);',
          unkeyedEffects,
          'transaction: one',
          claim,
          credit,
        ),
        fails: 'redelivery after COMMIT',
      },
    ],
  },
  {
    id: 'repeat-safe-effect',
    rule: 'require-repeat-safe-effect',
    title: 'Give the credit a boundary of its own',
    task: 'The handler credits the cashback on every delivery and keeps no record of it. Give the credit a boundary a repeat cannot pass, so that an order delivered again is credited once and two orders are both credited.',
    starter: lines(unkeyedEffects, 'transaction: one', credit),
    model: lines(
      'table: CREATE TABLE effects (effect_id text PRIMARY KEY, amount integer NOT NULL);',
      'transaction: one',
      `${credit} ON CONFLICT DO NOTHING`,
    ),
    schedules: schedules(firstOrder, secondOrder, firstOrder),
    readOutcome: readEffects,
    judge: oncePerOperation('cashbackId'),
    hints: {
      'redelivery after COMMIT':
        'Nothing remembers that this cashback was paid. What could the database refuse to store a second time?',
    },
    wrong: [
      {
        why: 'the starting handler, with no boundary at all',
        text: lines(unkeyedEffects, 'transaction: one', credit),
        fails: 'redelivery after COMMIT',
      },
    ],
  },
];
