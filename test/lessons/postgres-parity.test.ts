import { createServer } from 'node:net';
import { dirname } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { idempotentConsumers } from '../../lessons/idempotent-consumers/index.js';
import { readRecordedRaces } from '../../lessons/src/build/recorded-races.js';
import { lessonFolder, packageRoot } from '../../lessons/src/node/paths.js';
import { pgliteFromImage } from '../../lessons/src/node/pglite-node.js';
import { postgresOpener } from '../../lessons/src/node/postgres-database.js';
import { raceExercise } from '../../lessons/src/node/exercise-race.js';
import { runRaces } from '../../lessons/src/node/race.js';
import { LessonRunner } from '../../lessons/src/runner.js';

/**
 * The lesson on a real PostgreSQL server must give exactly what PGlite gives, and the server must
 * show the race PGlite cannot. This runs when DATABASE_URL names a server, which
 * `lessons/scripts/with-postgres.sh` provides (it also sets LESSONS_REQUIRE_POSTGRES=1, so a
 * missing URL there is a failure, not a quiet pass). A plain `npm test` has no server and runs only
 * the first test, which needs none.
 */

const databaseUrl = process.env['DATABASE_URL'];

/** A port on 127.0.0.1 that nothing listens on: taken from the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('postgresOpener', () => {
  it('says plainly that the server cannot be reached, instead of failing later mid-lesson', async () => {
    const open = postgresOpener(`postgresql://postgres@127.0.0.1:${await closedPort()}/postgres`);
    await expect(open()).rejects.toThrow(/^Cannot reach the PostgreSQL server at DATABASE_URL: .*ECONNREFUSED/);
  });
});

if (process.env['LESSONS_REQUIRE_POSTGRES'] === '1' && !databaseUrl) {
  describe('the PostgreSQL parity run', () => {
    it('has DATABASE_URL set', () => {
      expect(databaseUrl, 'LESSONS_REQUIRE_POSTGRES=1 but DATABASE_URL is not set').toBeTruthy();
    });
  });
}

if (databaseUrl) {
  describe('the lesson on the PostgreSQL server at DATABASE_URL', () => {
    let onPglite: LessonRunner;
    let onPostgres: LessonRunner;

    beforeAll(async () => {
      onPostgres = await LessonRunner.open(idempotentConsumers, postgresOpener(databaseUrl));
      onPglite = await LessonRunner.open(idempotentConsumers, pgliteFromImage());
    });

    afterAll(async () => {
      await onPostgres?.close();
      await onPglite?.close();
    });

    it('runs on a real server, not on PGlite', () => {
      expect(onPostgres.engine).toMatch(/^PostgreSQL \d+/);
      expect(onPglite.engine).toBe('PGlite');
    });

    for (const example of idempotentConsumers.examples) {
      it(`example ${example.number} prints the same line as on PGlite`, async () => {
        const server = await onPostgres.runExample(example.anchor);
        expect(server.ok, JSON.stringify(server)).toBe(true);
        expect(server).toEqual(await onPglite.runExample(example.anchor));
      });
    }

    for (const question of idempotentConsumers.questions) {
      it(`${question.anchor}: every option produces the same state and the same option is proven right`, async () => {
        const server = await onPostgres.checkQuestion(question.anchor);
        expect(
          Object.values(server.options).every((run) => run.ok),
          JSON.stringify(server),
        ).toBe(true);
        expect(server.provenRight).toHaveLength(1);
        expect(server).toEqual(await onPglite.checkQuestion(question.anchor));
      });
    }

    for (const exercise of idempotentConsumers.exercises) {
      it(`exercise ${exercise.id}: two workers at once on two real connections leave the state PGlite's alternating model leaves, for the model solution, the starter and each wrong answer`, async () => {
        const answers = [
          { why: 'the model solution', text: exercise.model },
          { why: 'the starting handler', text: exercise.starter },
          ...exercise.wrong,
        ];
        for (const answer of answers) {
          const modelled = await onPglite.checkExercise(exercise.id, answer.text);
          const onServer = await raceExercise(exercise, answer.text, databaseUrl);
          expect(onServer.ok, `${answer.why}: ${JSON.stringify(onServer)}`).toBe(true);
          if (!modelled.ok || !onServer.ok) continue;
          const alternating = modelled.runs.find((run) => run.schedule === 'two workers at once')!;
          expect({ state: onServer.run.state, broken: onServer.run.broken }, answer.why).toEqual({
            state: alternating.state,
            broken: alternating.broken,
          });
          expect(onServer.run.race.engine).toMatch(/^PostgreSQL \d+/);
        }
        // The model solution's second worker really meets the first one's claim on the server: it waits, then stops.
        const model = await raceExercise(exercise, exercise.model, databaseUrl);
        expect(model.ok && model.run.deliveries).toEqual(
          exercise.id === 'repeat-safe-effect' ? ['A=done', 'B=waited/done'] : ['A=done', 'B=waited/stopped'],
        );
      });
    }

    it('shows check-then-insert letting both workers insert, the unique claim making one wait, then conflict or insert as the other commits or rolls back, the refund key keeping one refund, a record after the credit letting both credit, SKIP LOCKED not waiting, an advisory lock waiting, and REPEATABLE READ failing with 40001 until retried', async () => {
      const results = await runRaces(idempotentConsumers.races, databaseUrl);
      expect(results.map((result) => (result.ok ? result.line : result.failure))).toEqual([
        '4.1 race, check then insert: A=inserted, B=inserted; inbox=2',
        '4.1 race, unique claim: A=fresh, B=waited/conflict; inbox=1',
        '4.1 race, unique claim, A rolls back: A=fresh/rolled back, B=waited/fresh; inbox=1',
        '4.4 race, refund keyed by refund: A=new, B=waited/already-recorded; inbox=2 effects=1',
        '4.4 race, refund keyed by message: A=new, B=new; inbox=2 effects=2',
        '4.6 race, check, credit, record: A=credited, B=waited/credited; inbox=1 effects=2',
        '4.6 race, claim first: A=credited, B=waited/skipped; inbox=1 effects=1',
        '4.11 race, SKIP LOCKED: A=took a job, B=took a job; effects=2',
        '4.11 race, advisory lock around a check and the credit: A=credited, B=waited/skipped; effects=1',
        '4.12 race, claim under REPEATABLE READ: A=credited, B=waited/40001/retried/skipped; inbox=1 effects=1',
        '4.14 race, the provider keeps the key in one transaction: A=paid, B=waited/replayed; charges=1',
      ]);
      const [
        checkThenInsert,
        uniqueClaim,
        afterRollback,
        refundKey,
        messageKey,
        creditThenRecord,
        claimFirst,
        skipLocked,
        advisoryLock,
        repeatableRead,
        providerKey,
      ] = results;
      expect(checkThenInsert?.ok && checkThenInsert.workers).toEqual({
        A: { took: true, waited: false, retried: 0 },
        B: { took: true, waited: false, retried: 0 },
      });
      expect(uniqueClaim?.ok && uniqueClaim.workers).toEqual({
        A: { took: true, waited: false, retried: 0 },
        B: { took: false, waited: true, retried: 0 },
      });
      expect(afterRollback?.ok && afterRollback.workers).toEqual({
        A: { took: true, waited: false, retried: 0 },
        B: { took: true, waited: true, retried: 0 },
      });
      // SKIP LOCKED: B never waits for A's locked job, takes the other one, and the order queued twice is credited twice.
      expect(skipLocked?.ok && skipLocked.workers).toEqual({
        A: { took: true, waited: false, retried: 0 },
        B: { took: true, waited: false, retried: 0 },
      });
      // The advisory lock makes B wait for A's whole transaction; B's look then sees A's credit.
      expect(advisoryLock?.ok && advisoryLock.workers).toEqual({
        A: { took: true, waited: false, retried: 0 },
        B: { took: false, waited: true, retried: 0 },
      });
      // REPEATABLE READ: B's claim waits for A's row, then fails with 40001; the retry, in a new transaction, sees the claim.
      const repeatableEvents = repeatableRead?.ok
        ? repeatableRead.timeline.filter((event) => event.worker === 'B').map((event) => event.text)
        : [];
      expect(repeatableEvents.find((text) => text.startsWith('ERROR 40001'))).toBe(
        'ERROR 40001: could not serialize access due to concurrent update',
      );
      expect(repeatableEvents.filter((text) => text === 'BEGIN')).toHaveLength(2);
      expect(repeatableEvents.slice(-3)).toEqual([
        "INSERT INTO inbox(message_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING message_id  ['order-88-paid']",
        '-> 0 rows, 0 changed',
        'COMMIT',
      ]);
      // The timeline puts B's wait, as pg_blocking_pids saw it, between A's insert and A's COMMIT, and B's answer after it.
      const events = uniqueClaim?.ok
        ? uniqueClaim.timeline.map((event) => `${event.worker} ${event.text.replace(/\d+/g, 'n')}`)
        : [];
      expect(events.slice(-4)).toEqual([
        'B waiting: pg_blocking_pids(n) names worker A (n)',
        'A COMMIT',
        'B -> n rows, n changed',
        'B COMMIT',
      ]);
      expect(uniqueClaim?.ok && uniqueClaim.timeline.at(-2)?.text).toBe('-> 0 rows, 0 changed');
      expect(
        afterRollback?.ok && afterRollback.timeline.slice(-3).map((event) => `${event.worker} ${event.text}`),
      ).toEqual(['A ROLLBACK', 'B -> 1 row, 1 changed', 'B COMMIT']);
      expect(uniqueClaim?.ok && uniqueClaim.engine).toMatch(/^PostgreSQL \d+/);
      // The recording the panel shows must still be what the server does (process ids aside).
      const recorded = await readRecordedRaces(lessonFolder(idempotentConsumers.id), dirname(packageRoot));
      const withoutPids = (text: string) =>
        text.replace(/pg_blocking_pids\(\d+\) names worker (\w) \(\d+\)/, 'pg_blocking_pids names worker $1');
      expect(recorded, 'no recorded-races.json: run npm run lesson -- record-races with DATABASE_URL').not.toBeNull();
      expect(
        recorded!.races.map((race) => ({
          ...race,
          timeline: race.timeline.map((event) => ({ ...event, text: withoutPids(event.text) })),
        })),
      ).toEqual(
        results.map((result, index) => ({
          anchor: idempotentConsumers.races[index].anchor,
          label: result.label,
          line: result.ok ? result.line : result.failure,
          timeline: result.ok ? result.timeline.map((event) => ({ ...event, text: withoutPids(event.text) })) : [],
        })),
      );
      expect(refundKey?.ok && refundKey.outcome).toEqual({ inbox: 2, effects: 1 });
      expect(messageKey?.ok && messageKey.outcome).toEqual({ inbox: 2, effects: 2 });
      // Both workers checked before either recorded, so both credited; B waited only at its record, which then did nothing.
      const statementsOf = (race: (typeof results)[number] | undefined) =>
        race?.ok
          ? race.timeline.map((event) => `${event.worker} ${event.text.replace(/\d+/g, 'n').split('  [')[0]}`)
          : [];
      expect(statementsOf(creditThenRecord).slice(2, 6)).toEqual([
        'A SELECT n FROM inbox WHERE message_id = $n',
        'A -> n rows',
        'B SELECT n FROM inbox WHERE message_id = $n',
        'B -> n rows',
      ]);
      expect(statementsOf(creditThenRecord).slice(-4)).toEqual([
        'B waiting: pg_blocking_pids(n) names worker A (n)',
        'A COMMIT',
        'B -> n rows, n changed',
        'B COMMIT',
      ]);
      expect(creditThenRecord?.ok && creditThenRecord.timeline.at(-2)?.text).toBe('-> 0 rows, 0 changed');
      // With the claim first, B waits at its claim while A goes on to credit and commit; B then stops without crediting.
      expect(statementsOf(claimFirst).slice(2)).toEqual([
        'A INSERT INTO inbox(message_id) VALUES ($n) ON CONFLICT DO NOTHING RETURNING message_id',
        'A -> n row, n changed',
        'B INSERT INTO inbox(message_id) VALUES ($n) ON CONFLICT DO NOTHING RETURNING message_id',
        'B waiting: pg_blocking_pids(n) names worker A (n)',
        'A INSERT INTO effects(effect_id, amount) VALUES ($n, $n)',
        'A -> n rows, n changed',
        'A COMMIT',
        'B -> n rows, n changed',
        'B COMMIT',
      ]);
      // The provider's key row, held in A's transaction, makes B's request wait; B then reads A's charge from the key.
      expect(providerKey?.ok && providerKey.workers).toEqual({
        A: { took: true, waited: false, retried: 0 },
        B: { took: false, waited: true, retried: 0 },
      });
      expect(statementsOf(providerKey).slice(-10)).toEqual([
        'B waiting: pg_blocking_pids(n) names worker A (n)',
        "A INSERT INTO provider_charges(charge_id, payee, cents) VALUES ('charge-' || $n, $n, $n) RETURNING charge_id",
        'A -> n row, n changed',
        "A UPDATE provider_keys SET state = 'done', charge_id = $n WHERE idempotency_key = $n",
        'A -> n rows, n changed',
        'A COMMIT',
        'B -> n rows, n changed',
        "B SELECT fingerprint = mdn($n || ':' || $n) AS same, state, charge_id FROM provider_keys WHERE idempotency_key = $n",
        'B -> n row',
        'B COMMIT',
      ]);
    });
  });
}
