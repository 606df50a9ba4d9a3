import { parseExerciseHandler, runnable, type Exercise } from '../exercise.js';
import { formatOutcome, type RaceScenario } from '../scenario.js';
import { runRaces, type RaceResult } from './race.js';

/**
 * An exercise's "two workers at once" on two connections of a real server, where a worker can wait
 * for the other's uncommitted row; PGlite, with one connection, can only alternate their statements.
 */
export interface ExerciseRace {
  readonly schedule: 'two workers at once';
  /** The durable state the two workers left, e.g. `effects=1 sum=130`. */
  readonly state: string;
  /** `null` when the state is right; otherwise what is wrong with it. */
  readonly broken: string | null;
  /** `A=done, B=waited/stopped` … */
  readonly deliveries: readonly string[];
  readonly race: Extract<RaceResult, { ok: true }>;
}

export type ExerciseRaceResult =
  { readonly ok: true; readonly run: ExerciseRace } | { readonly ok: false; readonly error: string };

export async function raceExercise(exercise: Exercise, text: string, url: string): Promise<ExerciseRaceResult> {
  const schedule = exercise.schedules.find((each) => each.name === 'two workers at once');
  const [first, second] = schedule?.deliveries ?? [];
  if (!schedule || !first || !second || first.worker === second.worker)
    return { ok: false, error: `exercise "${exercise.id}" has no schedule of two workers at once` };
  let handler;
  try {
    handler = parseExerciseHandler(text);
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  const race: RaceScenario = {
    anchor: `exercise-${exercise.id}`,
    label: `${exercise.id}, two workers at once`,
    schemaSql: handler.tables.join('\n'),
    messages: { [first.worker]: first.message, [second.worker]: second.message } as RaceScenario['messages'],
    handler: runnable(handler),
    readOutcome: (db) => exercise.readOutcome(db),
    words: { took: 'done', declined: 'stopped' },
    ...(handler.transaction === 'none' ? { commits: 'each' as const } : {}),
  };
  const [result] = await runRaces([race], url, 'idempotency_exercise');
  if (!result?.ok) return { ok: false, error: result?.failure ?? 'the race did not run' };
  const words = result.line.slice(result.line.indexOf(': ') + 2, result.line.lastIndexOf('; ')).split(', ');
  return {
    ok: true,
    run: {
      schedule: 'two workers at once',
      state: formatOutcome(result.outcome),
      broken: exercise.judge(result.outcome, schedule),
      deliveries: words,
      race: result,
    },
  };
}
