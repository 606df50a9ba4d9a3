import { lessonLinks } from 'eslint-plugin-idempotency';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { idempotentConsumers } from '../../lessons/idempotent-consumers/index.js';
import { parseExerciseHandler } from '../../lessons/src/exercise.js';
import { pgliteFromImage } from '../../lessons/src/node/pglite-node.js';
import { LessonRunner } from '../../lessons/src/runner.js';

let runner: LessonRunner;

beforeAll(async () => {
  runner = await LessonRunner.open(idempotentConsumers, pgliteFromImage());
});

afterAll(async () => {
  await runner?.close();
});

describe('the exercises', () => {
  it('cover every rule of eslint-plugin-idempotency', () => {
    expect(new Set(idempotentConsumers.exercises.map((exercise) => exercise.rule))).toEqual(
      new Set(Object.keys(lessonLinks)),
    );
  });

  for (const exercise of idempotentConsumers.exercises) {
    it(`${exercise.id}: the model solution leaves the right state after every schedule`, async () => {
      const check = await runner.checkExercise(exercise.id, exercise.model);
      expect(check.ok && check.runs.map((run) => [run.schedule, run.broken])).toEqual(
        exercise.schedules.map((schedule) => [schedule.name, null]),
      );
      expect(check.ok && check.passed).toBe(true);
    });

    it(`${exercise.id}: the starting handler fails, and each listed wrong answer fails the schedule it should`, async () => {
      const starter = await runner.checkExercise(exercise.id, exercise.starter);
      expect(starter.ok && starter.passed).toBe(false);
      for (const wrong of exercise.wrong) {
        const check = await runner.checkExercise(exercise.id, wrong.text);
        expect(check.ok, wrong.why).toBe(true);
        if (!check.ok) continue;
        const broken = check.runs.find((run) => run.schedule === wrong.fails);
        expect(broken?.broken, `${exercise.id}: "${wrong.why}" should fail ${wrong.fails}`).not.toBeNull();
        expect(broken?.hint ?? exercise.hints[wrong.fails] ?? '', `${exercise.id}: a hint for ${wrong.fails}`).not.toBe(
          '',
        );
      }
    });
  }

  it('shows the durable state each schedule left and which one broke it', async () => {
    const check = await runner.checkExercise('effect-key', idempotentConsumers.exercises[0].starter);
    expect(check.ok && check.runs.map((run) => `${run.schedule}: ${run.deliveries.join(', ')}; ${run.state}`)).toEqual([
      'redelivery after COMMIT: A=done, B=stopped; effects=1 sum=400',
      'two workers at once: A=done, B=stopped; effects=1 sum=400',
      'a crash between statements: A=died after statement 1, B=done; effects=1 sum=400',
      'a late replay: A=done, A=done, B=done; effects=3 sum=1100',
    ]);
    expect(check.ok && check.runs[3].broken).toBe(
      'expected refund-7 and refund-8 once each (effects=2 sum=700), found effects=3 sum=1100',
    );
  });

  it("reports a handler it cannot read with the line, and SQL that fails with PostgreSQL's message, without throwing", async () => {
    expect(() => parseExerciseHandler('run: SELECT 1\nstop if maybe')).toThrow(
      'line 2: expected "table:", "transaction:", "key:", "run:", "remembered:", "remember:" or "stop if no row", found "stop if maybe"',
    );
    expect(await runner.checkExercise('effect-key', 'transaction: sometimes\nrun: SELECT 1')).toEqual({
      ok: false,
      error: 'line 1: transaction is "one" or "none", not "sometimes"',
    });
    const check = await runner.checkExercise(
      'effect-key',
      'table: CREATE TABLE effects (effect_id text, amount integer);\nrun: INSERT INTO nowhere VALUES ({id})',
    );
    expect(check.ok && check.passed).toBe(false);
    expect(check.ok && check.runs[0].broken).toMatch(/relation "nowhere" does not exist/);
  });
});
