import type { Queryable } from './database.js';
import {
  formatOutcome,
  type Delivery,
  type LessonMessage,
  type Outcome,
  type RuleId,
  type WorkerName,
  WorkerProcess,
} from './scenario.js';
import type { DeliveryResult, ItemSession } from './session.js';

/**
 * Exercises: the learner edits a handler (its tables, its key, its SQL, whether it runs in one
 * transaction) and a checker runs it the ways production hurts a consumer. A handler is written in
 * a small text form of the lesson's own, so that it can be edited in a terminal or a panel and run
 * without executing anything but SQL:
 *
 *     table: CREATE TABLE inbox (message_id text PRIMARY KEY);
 *     transaction: one                       (or: none, each statement committing on its own)
 *     key: refund-{refundId}                 (text and message fields; {key} in SQL is this value)
 *     run: INSERT INTO inbox(message_id) VALUES ({id}) ON CONFLICT DO NOTHING RETURNING message_id
 *       stop if no row                       (or: stop if a row)
 *     remembered: {id}                       (stops if this worker process remembers the value)
 *     remember: {id}                         (this worker process remembers the value)
 *
 * Lines starting with `#` are comments. `{field}` in SQL becomes a parameter, never text.
 */

export type ExerciseStep =
  | { readonly kind: 'run'; readonly sql: string; readonly stopIf?: 'no row' | 'a row' }
  | { readonly kind: 'remembered' | 'remember'; readonly template: string };

export interface ExerciseHandler {
  readonly tables: readonly string[];
  readonly transaction: 'one' | 'none';
  readonly key: string;
  readonly steps: readonly ExerciseStep[];
}

export class ExerciseSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

export function parseExerciseHandler(text: string): ExerciseHandler {
  const tables: string[] = [];
  let transaction: ExerciseHandler['transaction'] = 'one';
  let key = '{id}';
  const steps: ExerciseStep[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    const number = index + 1;
    if (line === '' || line.startsWith('#')) return;
    const modifier = /^stop if (no row|a row)$/.exec(line);
    if (modifier) {
      const last = steps.at(-1);
      if (!last || last.kind !== 'run') throw new ExerciseSyntaxError(number, '"stop if …" must follow a "run:" line');
      steps[steps.length - 1] = { ...last, stopIf: modifier[1] as 'no row' | 'a row' };
      return;
    }
    const field = /^([a-z]+):\s*(.*)$/.exec(line);
    if (!field)
      throw new ExerciseSyntaxError(
        number,
        `expected "table:", "transaction:", "key:", "run:", "remembered:", "remember:" or "stop if no row", found "${line}"`,
      );
    const [, name, value] = field as unknown as [string, string, string];
    if (value === '') throw new ExerciseSyntaxError(number, `"${name}:" needs a value`);
    switch (name) {
      case 'table':
        tables.push(value);
        break;
      case 'transaction':
        if (value !== 'one' && value !== 'none')
          throw new ExerciseSyntaxError(number, `transaction is "one" or "none", not "${value}"`);
        transaction = value;
        break;
      case 'key':
        key = value;
        break;
      case 'run':
        steps.push({ kind: 'run', sql: value });
        break;
      case 'remembered':
      case 'remember':
        steps.push({ kind: name, template: value });
        break;
      default:
        throw new ExerciseSyntaxError(number, `unknown field "${name}:"`);
    }
  });
  if (!steps.some((step) => step.kind === 'run')) throw new ExerciseSyntaxError(1, 'the handler has no "run:" line');
  return { tables, transaction, key, steps };
}

type Fields = Readonly<Record<string, string | number>>;

function fill(template: string, fields: Fields, what: string): string {
  return template.replace(/\{([A-Za-z]+)\}/g, (_whole, name: string) => {
    const value = fields[name];
    if (value === undefined)
      throw new Error(
        `${what} names {${name}}, which the message does not have (it has ${Object.keys(fields)
          .map((each) => `{${each}}`)
          .join(', ')})`,
      );
    return String(value);
  });
}

/** SQL with `{field}` placeholders made into numbered parameters. */
function bind(sql: string, fields: Fields): { text: string; params: (string | number)[] } {
  const params: (string | number)[] = [];
  const text = sql.replace(/\{([A-Za-z]+)\}/g, (_whole, name: string) => {
    const value = fields[name];
    if (value === undefined) throw new Error(`the SQL names {${name}}, which neither the message nor the key provides`);
    params.push(value);
    return `$${params.length}`;
  });
  return { text, params };
}

/** The handler as the runner calls it: the message's fields and `{key}` fill its SQL. */
export function runnable(handler: ExerciseHandler) {
  return async (db: Queryable, message: LessonMessage, _workerId: string, process: WorkerProcess): Promise<boolean> => {
    const fields: Fields = { ...(message as unknown as Fields) };
    const withKey: Fields = { ...fields, key: fill(handler.key, fields, 'the key') };
    const memory = process.instance(Set) as Set<string>;
    for (const step of handler.steps) {
      if (step.kind !== 'run') {
        const value = fill(step.template, withKey, `${step.kind}:`);
        if (step.kind === 'remember') memory.add(value);
        else if (memory.has(value)) return false;
        continue;
      }
      const { text, params } = bind(step.sql, withKey);
      const result = await db.query(text, params);
      if ((step.stopIf === 'no row' && result.rows.length === 0) || (step.stopIf === 'a row' && result.rows.length > 0))
        return false;
    }
    return true;
  };
}

/** One way production hurts a consumer, with the arrivals it sends. */
export interface Schedule {
  readonly name: 'redelivery after COMMIT' | 'two workers at once' | 'a crash between statements' | 'a late replay';
  /** What happens, in a sentence, for the learner. */
  readonly story: string;
  readonly deliveries: readonly Delivery<LessonMessage>[];
  /**
   * The first worker dies part-way through its first delivery (`a crash between statements`). The
   * checker tries every place: after its first statement, after its second, and so on.
   */
  readonly crashes?: boolean;
}

export interface Exercise {
  /** `effect-key` …: `npm run lesson -- exercise effect-key`. */
  readonly id: string;
  /** The plugin rule whose mistake the starting handler makes. */
  readonly rule: RuleId;
  readonly title: string;
  /** What to change, and what must hold afterwards. */
  readonly task: string;
  readonly starter: string;
  readonly model: string;
  readonly schedules: readonly Schedule[];
  /** The durable state every schedule must leave, read after its last transaction. */
  readOutcome(db: Queryable): Promise<Outcome>;
  /** `null` when the state is right; otherwise what is wrong with it. */
  judge(outcome: Outcome, schedule: Schedule): string | null;
  /** A nudge for each schedule, shown when that schedule breaks the learner's handler. */
  readonly hints: Readonly<Partial<Record<Schedule['name'], string>>>;
  /** Tempting answers, each with the schedule it must fail: a test holds the checker to them. */
  readonly wrong: readonly { readonly why: string; readonly text: string; readonly fails: Schedule['name'] }[];
}

export interface ScheduleRun {
  readonly schedule: Schedule['name'];
  readonly story: string;
  /** The durable state the schedule left, e.g. `inbox=1 effects=2`. */
  readonly state: string;
  /** `null` when the state is right. */
  readonly broken: string | null;
  readonly hint: string | null;
  /** Each delivery and what came of it: `A=done`, `B=stopped`, `A=died after statement 1`. */
  readonly deliveries: readonly string[];
}

export type ExerciseCheck =
  | { readonly ok: true; readonly passed: boolean; readonly runs: readonly ScheduleRun[] }
  | { readonly ok: false; readonly error: string };

/** Runs a learner's handler text through every schedule of an exercise, each on a fresh database. */
export async function checkExercise(
  exercise: Exercise,
  text: string,
  session: () => ItemSession,
): Promise<ExerciseCheck> {
  let handler: ExerciseHandler;
  try {
    handler = parseExerciseHandler(text);
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  const run = runnable(handler);
  const statements = handler.steps.filter((step) => step.kind === 'run').length;
  const runs: ScheduleRun[] = [];
  for (const schedule of exercise.schedules) {
    // A crash is tried after each statement in turn; the first place that breaks the handler is the one shown.
    let shown: ScheduleRun | undefined;
    for (const dies of schedule.crashes
      ? Array.from({ length: Math.max(1, statements - 1) }, (_, index) => index + 1)
      : [undefined]) {
      shown = await runSchedule(exercise, handler, run, schedule, dies, session());
      if (shown.broken) break;
    }
    runs.push(shown!);
  }
  return { ok: true, passed: runs.every((each) => each.broken === null), runs };
}

async function runSchedule(
  exercise: Exercise,
  handler: ExerciseHandler,
  run: ReturnType<typeof runnable>,
  schedule: Schedule,
  diesAfterStatements: number | undefined,
  items: ItemSession,
): Promise<ScheduleRun> {
  const story = diesAfterStatements
    ? schedule.story.replace('part-way through', `after statement ${diesAfterStatements} of`)
    : schedule.story;
  try {
    await items.fresh(handler.tables.join('\n'), schedule.name);
    const results: string[] = [];
    const word = (delivery: Delivery<LessonMessage>, result: DeliveryResult<boolean>) =>
      `${delivery.worker}=${result.committed ? (result.value ? 'done' : 'stopped') : result.reason}`;
    if (schedule.name === 'two workers at once') {
      // PGlite has one connection, so the workers' statements alternate one by one, each committing.
      const together = await items.sideBySide(schedule.deliveries, run, { commits: 'each' });
      together.forEach((result, index) => results.push(word(schedule.deliveries[index], result)));
    } else {
      for (const [index, delivery] of schedule.deliveries.entries()) {
        const dies = index === 0 ? diesAfterStatements : undefined;
        const result = await items.deliver(delivery, run, {
          commits: handler.transaction === 'one' ? 'together' : 'each',
          ...(dies ? { diesAfterStatements: dies } : {}),
        });
        results.push(word(delivery, result));
      }
    }
    const outcome = await items.readCommitted('the durable state', (db) => exercise.readOutcome(db));
    const broken = exercise.judge(outcome, schedule);
    return {
      schedule: schedule.name,
      story,
      state: formatOutcome(outcome),
      broken,
      hint: broken ? (exercise.hints[schedule.name] ?? null) : null,
      deliveries: results,
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      schedule: schedule.name,
      story,
      state: 'none: the run failed',
      broken: reason,
      hint: exercise.hints[schedule.name] ?? null,
      deliveries: [],
    };
  }
}

export type { WorkerName };
