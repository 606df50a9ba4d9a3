import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { idempotentConsumers } from '../../lessons/idempotent-consumers/index.js';
import { inboxTable } from '../../lessons/idempotent-consumers/tables.js';
import type { LessonDatabase } from '../../lessons/src/database.js';
import { idempotentConsumersLesson } from '../../lessons/src/lesson-data.js';
import { allQuestions } from '../../lessons/src/built-lesson.js';
import { pgliteFromImage } from '../../lessons/src/node/pglite-node.js';
import { LessonRunner } from '../../lessons/src/runner.js';
import { defineQuestion, type RunnableLesson, type ShownHandler } from '../../lessons/src/scenario.js';
import { exampleLines } from '../support/example-lines.js';

// One PGlite instance for the whole file: starting one costs half a second and 700 MB.
let database: LessonDatabase;
let runner: LessonRunner;
const sharedDatabase = async (): Promise<LessonDatabase> => ({
  engine: database.engine,
  read: database.read,
  reset: (sql) => database.reset(sql),
  asWorker: (work) => database.asWorker(work),
  runSql: (sql) => database.runSql(sql),
  close: async () => undefined, // the file closes it once, in afterAll
});

beforeAll(async () => {
  database = await pgliteFromImage()();
  runner = await LessonRunner.open(idempotentConsumers, sharedDatabase);
});

afterAll(async () => {
  await database?.close();
});

describe('the examples, run on PGlite', () => {
  it('print exactly the lines the lesson promises', async () => {
    const lines: string[] = [];
    for (const example of idempotentConsumers.examples) {
      const result = await runner.runExample(example.anchor);
      expect(result.ok, JSON.stringify(result)).toBe(true);
      if (result.ok) lines.push(...result.line.split('\n'));
    }
    expect(lines).toEqual(exampleLines);
  });

  it('give the same line when run again, because every run starts from a fresh database', async () => {
    const first = await runner.runExample('example-4-4');
    const second = await runner.runExample('example-4-4');
    expect(second).toEqual(first);
  });

  it('queue overlapping runs instead of mixing their rows', async () => {
    const results = await Promise.all(idempotentConsumers.examples.map((example) => runner.runExample(example.anchor)));
    const sequential = [];
    for (const example of idempotentConsumers.examples) sequential.push(await runner.runExample(example.anchor));
    expect(results).toEqual(sequential);
  });
});

describe('the transcript of a run', () => {
  it('shows each statement with its parameters and row counts, the transaction boundaries, and the final rows', async () => {
    const result = await runner.runExample('example-4-3');
    expect(result.transcript).toHaveLength(1);
    const [part] = result.transcript;
    const workerA = part.statements.filter((statement) => statement.who === 'worker A');
    expect(workerA).toEqual([
      { who: 'worker A', sql: 'DISCARD ALL', params: [], returned: null, changed: null },
      { who: 'worker A', sql: 'BEGIN', params: [], returned: null, changed: null },
      {
        who: 'worker A',
        sql: 'INSERT INTO inbox(message_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING message_id',
        params: ['payout-cedar-1'],
        returned: 1,
        changed: 1,
      },
      {
        who: 'worker A',
        sql: 'INSERT INTO effects(effect_id, amount) VALUES ($1, $2)',
        params: ['payout-cedar', 250],
        returned: 0,
        changed: 1,
      },
      { who: 'worker A', sql: 'ROLLBACK', params: [], returned: null, changed: null },
    ]);
    expect(part.tables).toEqual({
      effects: [{ effect_id: 'payout-cedar', amount: 250 }],
      inbox: [{ message_id: 'payout-cedar-1' }],
    });
  });

  it('gives an item that compares designs one part per fresh database, named after the design', async () => {
    const result = await runner.runExample('example-4-5');
    expect(result.transcript.map((part) => [part.title, part.tables['balances']])).toEqual([
      ['per-worker claim', [{ account_id: 'acct-9', cents: 700, as_of: 17 }]],
      ['snapshot claim', [{ account_id: 'acct-9', cents: 900, as_of: 18 }]],
      ['sequence guard', [{ account_id: 'acct-9', cents: 900, as_of: 18 }]],
      // The older snapshot reaching the consumer for the first time after the newer one: the inbox
      // has never seen it and lets it write 700; the sequence stored beside the balance refuses it.
      ['snapshot claim, reconcile-17 first seen late', [{ account_id: 'acct-9', cents: 700, as_of: 17 }]],
      ['sequence guard, reconcile-17 first seen late', [{ account_id: 'acct-9', cents: 900, as_of: 18 }]],
    ]);
    const lateGuarded = result.transcript[2].statements.filter(
      (statement) => statement.who === 'worker B' && statement.sql.startsWith('INSERT'),
    );
    expect(lateGuarded.map((statement) => [statement.params, statement.returned, statement.changed])).toEqual([
      [['acct-9', 700, 17], 0, 0],
    ]);
  });
});

describe('workers side by side', () => {
  const boundaries = new Set(['DISCARD ALL', 'BEGIN', 'COMMIT', 'ROLLBACK']);
  const workerStatements = (statements: readonly { who: string; sql: string }[]) =>
    statements
      .filter((statement) => statement.who !== 'reader' && !boundaries.has(statement.sql))
      .map((statement) => `${statement.who} ${statement.sql.split('(')[0]}`);

  it('take turns a statement at a time when the handler is on a pool, each statement its own worker transaction', async () => {
    const result = await runner.runExample('example-4-6');
    const [onPool, claimFirst, poolCrash] = result.transcript;
    expect(workerStatements(onPool.statements)).toEqual([
      'worker A SELECT 1 FROM inbox WHERE message_id = $1',
      'worker B SELECT 1 FROM inbox WHERE message_id = $1',
      'worker A INSERT INTO effects',
      'worker B INSERT INTO effects',
      'worker A INSERT INTO inbox',
      'worker B INSERT INTO inbox',
    ]);
    expect(onPool.statements.filter((statement) => statement.sql === 'BEGIN')).toHaveLength(6);
    // One transaction per worker: B's claim runs only after A's transaction is over, and finds A's row.
    expect(claimFirst.statements.filter((statement) => statement.sql === 'BEGIN')).toHaveLength(2);
    expect(workerStatements(claimFirst.statements)).toEqual([
      'worker A INSERT INTO inbox',
      'worker A INSERT INTO effects',
      'worker B INSERT INTO inbox',
    ]);
    // The worker that died after its credit never wrote its record; the credit it committed stays.
    expect(workerStatements(poolCrash.statements).filter((statement) => statement.startsWith('worker A'))).toEqual([
      'worker A SELECT 1 FROM inbox WHERE message_id = $1',
      'worker A INSERT INTO effects',
    ]);
    expect(poolCrash.tables['effects']).toHaveLength(2);
  });

  it('are what lets the record after the credit repeat it: one after another, its check finds the first record', async () => {
    const q5 = idempotentConsumers.questions.find((question) => question.anchor === 'q5')!;
    const inTurn = await runner.runHandler('q5', 'a');
    const oneAfterAnother = await LessonRunner.open(
      { ...idempotentConsumers, questions: [{ ...q5, sideBySide: false }] },
      sharedDatabase,
    );
    const sequential = await oneAfterAnother.runHandler('q5', 'a');
    expect(inTurn.ok && inTurn.text).toBe('inbox=1 effects=2 sum=480');
    expect(sequential.ok && sequential.text).toBe('inbox=1 effects=1 sum=240');
  });

  it('give each worker process its own memory, which a restart empties', async () => {
    const result = await runner.runExample('example-4-7');
    expect(result.ok && result.line.split('\n')[0]).toBe(
      '4.7 set in memory: A=credited, A=skipped, A restarted=credited, B=credited; inbox=0 effects=3',
    );
    // The memory belongs to the run: a second run starts with empty processes and gives the same line.
    expect(await runner.runExample('example-4-7')).toEqual(result);
  });
});

describe('the SQL console', () => {
  it("runs what a learner types on the database the last run left, and gives PostgreSQL's message for a mistake", async () => {
    await runner.runExample('example-4-4');
    const rows = await runner.runSql('SELECT effect_id, amount FROM effects ORDER BY effect_id');
    expect(rows).toEqual({
      ok: true,
      results: [
        {
          columns: ['effect_id', 'amount'],
          rows: [
            { effect_id: 'source-maple-a', amount: 1200 },
            { effect_id: 'source-maple-b', amount: 1200 },
          ],
          affectedRows: null,
        },
      ],
    });
    expect(await runner.runSql('SELECT * FROM no_such_table')).toEqual({
      ok: false,
      error: 'relation "no_such_table" does not exist',
    });
  });

  it('rolls back a transaction the typed text leaves open, so the next run is unaffected', async () => {
    await runner.runExample('example-4-3');
    expect(await runner.runSql("BEGIN; INSERT INTO inbox VALUES ('typed')")).toMatchObject({ ok: true });
    expect(await runner.runSql('SELECT count(*)::int AS n FROM inbox')).toMatchObject({
      ok: true,
      results: [{ rows: [{ n: 1 }] }],
    });
    expect((await runner.runExample('example-4-3')).ok).toBe(true);
  });
});

describe('the quiz, decided by the database', () => {
  for (const question of allQuestions(idempotentConsumersLesson)) {
    it(`${question.anchor}: the declared answer is the one option the database proves right`, async () => {
      const check = await runner.checkQuestion(question.anchor);
      expect(check.provenRight).toEqual([question.answer]);
    });

    it(`${question.anchor}: each option label is what its handler produces now`, async () => {
      const check = await runner.checkQuestion(question.anchor);
      for (const option of question.options) {
        const run = check.options[option.id];
        expect(run?.ok, `${question.anchor} option ${option.id}`).toBe(true);
        if (option.labelKind === 'outcome' && run?.ok) expect(run.text).toBe(option.label);
      }
    });
  }

  it('gives every option of a question a state of its own, so no two answers are the same answer', async () => {
    for (const question of idempotentConsumers.questions) {
      const check = await runner.checkQuestion(question.anchor);
      const states = Object.values(check.options).map((run) => (run.ok ? run.text : 'failed'));
      expect(new Set(states).size, `${question.anchor}: ${states.join(' | ')}`).toBe(states.length);
    }
  });

  it('question 1 asks about a handler whose state is inbox=2 effects=2 sum=800', async () => {
    const run = await runner.runHandler('q1', 'shipped');
    expect(run.ok && run.text).toBe('inbox=2 effects=2 sum=800');
  });

  it('question 2 asks about a handler whose state is inbox=2 balance=900', async () => {
    const run = await runner.runHandler('q2', 'shipped');
    expect(run.ok && run.text).toBe('inbox=2 balance=900');
  });

  it('question 3 is decided by reproducing inbox=3 effects=1 sum=400', async () => {
    const check = await runner.checkQuestion('q3');
    const proven = check.options[check.provenRight[0]];
    expect(proven?.ok && proven.outcome).toEqual({ inbox: 3, effects: 1, sum: 400 });
  });

  it('question 4: only the proven key keeps the replay out and the second sale in', async () => {
    const check = await runner.checkQuestion('q4');
    const states = Object.fromEntries(
      Object.entries(check.options).map(([id, run]) => [id, run.ok ? run.outcome['sales'] : 'failed']),
    );
    expect(states[check.provenRight[0]]).toBe('sale-301,sale-302');
    expect(Object.values(states).filter((sales) => sales === 'sale-301,sale-302')).toHaveLength(1);
  });
});

describe('a failing item', () => {
  // A lesson written for this test: one handler refers to a table its item never creates.
  const healthy: ShownHandler = {
    moduleId: 'test',
    name: 'claim',
    flaggedBy: [],
    run: async (db, message) => {
      await db.query('INSERT INTO inbox(message_id) VALUES ($1) ON CONFLICT DO NOTHING', [message.id]);
    },
  };
  const broken: ShownHandler = {
    ...healthy,
    name: 'writeToMissingTable',
    run: async (db, message) => {
      await db.query('INSERT INTO inbox(message_id) VALUES ($1)', [message.id]);
      await db.query('INSERT INTO missing_table(id) VALUES ($1)', [message.id]);
    },
  };
  const countInbox = async (db: LessonDatabase['read']) => ({
    inbox: (await db.query<{ count: number }>('SELECT count(*)::int AS count FROM inbox')).rows[0].count,
  });
  const fragileLesson: RunnableLesson = {
    id: 'fragile',
    examples: [
      {
        anchor: 'example-1-1',
        number: '1.1',
        shown: [broken],
        messages: {},
        async run(session) {
          await session.fresh(inboxTable);
          await session.deliver({ worker: 'A', message: { id: 'm-1' } }, healthy.run);
          await session.deliver({ worker: 'B', message: { id: 'm-2' } }, broken.run);
          return 'unreachable';
        },
      },
      {
        anchor: 'example-1-2',
        number: '1.2',
        shown: [healthy],
        messages: {},
        async run(session) {
          await session.fresh(inboxTable);
          await session.deliver({ worker: 'A', message: { id: 'm-1' } }, healthy.run);
          const state = await session.readCommitted('the inbox', countInbox);
          return `1.2 inbox=${state.inbox}`;
        },
      },
    ],
    questions: [
      defineQuestion({
        anchor: 'q1',
        schemaSql: inboxTable,
        deliveries: [
          { worker: 'A', message: { id: 'm-1' } },
          { worker: 'B', message: { id: 'm-2' } },
        ],
        options: { a: broken, b: healthy },
        readOutcome: countInbox,
        answer: { kind: 'reproduces', trace: { inbox: 2 } },
      }),
    ],
    races: [],
    exercises: [],
  };

  it('reports the step that failed, and the next item runs as if nothing happened', async () => {
    const fragile = await LessonRunner.open(fragileLesson, sharedDatabase);
    const failed = await fragile.runExample('example-1-1');
    expect(failed.ok).toBe(false);
    if (!failed.ok) {
      expect(failed.failure.step).toBe(3);
      expect(failed.failure.stepLabel).toBe('worker B handles m-2');
      expect(failed.failure.reason).toMatch(/missing_table/);
    }
    expect(await fragile.runExample('example-1-2')).toMatchObject({
      anchor: 'example-1-2',
      number: '1.2',
      ok: true,
      line: '1.2 inbox=1',
    });
    // The failed run still shows what ran: worker A committed, worker B's second statement failed and rolled back.
    expect(
      failed.transcript[0]?.statements
        .filter((statement) => statement.returned === null && !statement.error)
        .map((statement) => `${statement.who} ${statement.sql}`),
    ).toEqual([
      'worker A DISCARD ALL',
      'worker A BEGIN',
      'worker A COMMIT',
      'worker B DISCARD ALL',
      'worker B BEGIN',
      'worker B ROLLBACK',
    ]);
    expect(failed.transcript[0]?.statements.find((statement) => statement.error)?.error).toMatch(/missing_table/);
    expect(failed.transcript[0]?.tables).toEqual({ inbox: [{ message_id: 'm-1' }] });
  });

  it('fails one option of a question while the others still run and are judged', async () => {
    const fragile = await LessonRunner.open(fragileLesson, sharedDatabase);
    const check = await fragile.checkQuestion('q1');
    expect(check.options['a']?.ok).toBe(false);
    expect(check.options['b']).toMatchObject({ ok: true, outcome: { inbox: 2 }, text: 'inbox=2' });
    expect(check.provenRight).toEqual(['b']);
  });

  it('rolls back the failed worker transaction, so its first insert is not left behind', async () => {
    const fragile = await LessonRunner.open(fragileLesson, sharedDatabase);
    const run = await fragile.runHandler('q1', 'a');
    // The very first delivery fails after its inbox insert; had that insert survived, inbox would be 1.
    expect(!run.ok && run.failure.stepLabel).toBe('worker A handles m-1');
    const state = await countInbox(database.read);
    expect(state.inbox).toBe(0);
  });
});
