import type { DatabaseOpener, LessonDatabase, StatementResult } from './database.js';
import { checkExercise, type ExerciseCheck } from './exercise.js';
import {
  formatOutcome,
  type ExampleScenario,
  type Outcome,
  type QuestionScenario,
  type RunnableLesson,
  type ShownHandler,
} from './scenario.js';
import { ItemSession, StepFailure } from './session.js';
import type { Transcript } from './transcript.js';

export interface ItemFailure {
  readonly step: number;
  readonly stepLabel: string;
  readonly reason: string;
}

/** Every result carries the transcript of the SQL that produced it, failed or not. */
export type ExampleResult =
  | {
      readonly anchor: string;
      readonly number: string;
      readonly ok: true;
      readonly line: string;
      readonly transcript: Transcript;
    }
  | {
      readonly anchor: string;
      readonly number: string;
      readonly ok: false;
      readonly failure: ItemFailure;
      readonly transcript: Transcript;
    };

/** The durable state one handler leaves after all of a question's deliveries. */
export type HandlerRun =
  | { readonly ok: true; readonly outcome: Outcome; readonly text: string; readonly transcript: Transcript }
  | { readonly ok: false; readonly failure: ItemFailure; readonly transcript: Transcript };

export interface QuestionCheck {
  readonly anchor: string;
  /** What the question's own handler produced, when the question shows one. */
  readonly shipped?: HandlerRun;
  /** Every option's run, in the lesson's order. */
  readonly options: Readonly<Record<string, HandlerRun>>;
  /** The options the database proves right: normally exactly one. */
  readonly provenRight: readonly string[];
  /** What "right" meant for this question, e.g. `reproduces inbox=3 effects=1 sum=400`. */
  readonly criterion: string;
}

/** What SQL typed into the console gave: each statement's result, or PostgreSQL's error message. */
export type SqlRun =
  { readonly ok: true; readonly results: readonly StatementResult[] } | { readonly ok: false; readonly error: string };

/** What a runner tells its listeners after each run, for a host that shows the evidence of a result. */
export type RunEvent =
  | { readonly kind: 'example'; readonly anchor: string; readonly result: ExampleResult }
  | { readonly kind: 'question'; readonly anchor: string; readonly check: QuestionCheck };

export function describeFailure(failure: ItemFailure): string {
  return `failed at step ${failure.step} (${failure.stepLabel}): ${failure.reason}`;
}

/**
 * Runs a lesson's examples and quiz checks on one database, each on a private, freshly reset
 * state. Calls may overlap (a panel's buttons); they are queued, because each run owns the database
 * while it resets and fills it.
 */
export class LessonRunner {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<(event: RunEvent) => void>();

  private constructor(
    readonly lesson: RunnableLesson,
    private readonly db: LessonDatabase,
  ) {}

  static async open(lesson: RunnableLesson, openDatabase: DatabaseOpener): Promise<LessonRunner> {
    return new LessonRunner(lesson, await openDatabase());
  }

  get engine(): string {
    return this.db.engine;
  }

  /** Calls `listener` after every example run and every question check; returns how to stop. */
  onRun(listener: (event: RunEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async runExample(anchor: string): Promise<ExampleResult> {
    const example = this.example(anchor);
    const result = await this.exclusive(async (): Promise<ExampleResult> => {
      const session = new ItemSession(this.db);
      try {
        const line = await example.run(session, example.messages);
        return { anchor, number: example.number, ok: true, line, transcript: await session.transcript() };
      } catch (error) {
        return {
          anchor,
          number: example.number,
          ok: false,
          failure: asItemFailure(error),
          transcript: await session.transcript(),
        };
      }
    });
    this.tell({ kind: 'example', anchor, result });
    return result;
  }

  /** Runs the question's own handler (`shipped`) or one option's handler over the question's deliveries. */
  runHandler(anchor: string, which: string): Promise<HandlerRun> {
    const question = this.question(anchor);
    const handler = which === 'shipped' ? question.shipped : question.options[which];
    if (!handler)
      throw new Error(`Question "${anchor}" has no ${which === 'shipped' ? 'shown handler' : `option "${which}"`}`);
    return this.exclusive(() => runQuestionHandler(this.db, question, handler));
  }

  async checkQuestion(anchor: string): Promise<QuestionCheck> {
    const question = this.question(anchor);
    const shipped = question.shipped ? await this.runHandler(anchor, 'shipped') : undefined;
    const options: Record<string, HandlerRun> = {};
    for (const optionId of Object.keys(question.options)) options[optionId] = await this.runHandler(anchor, optionId);
    const check = judge(question, shipped, options);
    this.tell({ kind: 'question', anchor, check });
    return check;
  }

  /**
   * Runs a learner's handler text (see `exercise.ts`) through every schedule of an exercise, each
   * on a fresh database: the state each left, the one that broke it, and a hint.
   */
  checkExercise(id: string, handlerText: string): Promise<ExerciseCheck> {
    const exercise = this.lesson.exercises.find((candidate) => candidate.id === id);
    if (!exercise) throw new Error(`Lesson "${this.lesson.id}" has no exercise "${id}"`);
    return this.exclusive(() => checkExercise(exercise, handlerText, () => new ItemSession(this.db)));
  }

  private tell(event: RunEvent): void {
    // A listener is a host's display; its failure must not turn a run into a failed one.
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        /* the result itself is still returned to the caller */
      }
    }
  }

  /**
   * Runs SQL a learner typed against the database as the last run left it. It is queued like the
   * runs, so it never lands in the middle of one; the next run resets what it changed.
   */
  runSql(sql: string): Promise<SqlRun> {
    return this.exclusive(async () => {
      try {
        return { ok: true, results: await this.db.runSql(sql) };
      } catch (error) {
        return { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
    });
  }

  close(): Promise<void> {
    return this.exclusive(() => this.db.close());
  }

  private example(anchor: string): ExampleScenario {
    const example = this.lesson.examples.find((candidate) => candidate.anchor === anchor);
    if (!example) throw new Error(`Lesson "${this.lesson.id}" has no example "${anchor}"`);
    return example;
  }

  private question(anchor: string): QuestionScenario {
    const question = this.lesson.questions.find((candidate) => candidate.anchor === anchor);
    if (!question) throw new Error(`Lesson "${this.lesson.id}" has no question "${anchor}"`);
    return question;
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work, work);
    this.queue = result.catch(() => undefined);
    return result;
  }
}

async function runQuestionHandler(
  db: LessonDatabase,
  question: QuestionScenario,
  handler: ShownHandler,
): Promise<HandlerRun> {
  const session = new ItemSession(db);
  try {
    await session.fresh(question.schemaSql);
    const options = { commits: handler.commits };
    if (question.sideBySide) await session.sideBySide(question.deliveries, handler.run, options);
    else for (const delivery of question.deliveries) await session.deliver(delivery, handler.run, options);
    const outcome = await session.readCommitted('the durable state', (db) => question.readOutcome(db));
    return { ok: true, outcome, text: formatOutcome(outcome), transcript: await session.transcript() };
  } catch (error) {
    return { ok: false, failure: asItemFailure(error), transcript: await session.transcript() };
  }
}

function judge(
  question: QuestionScenario,
  shipped: HandlerRun | undefined,
  options: Record<string, HandlerRun>,
): QuestionCheck {
  const rule = question.answer;
  let criterion: string;
  let isRight: (outcome: Outcome) => boolean;
  switch (rule.kind) {
    case 'same-as-shipped': {
      if (!shipped?.ok) {
        const why = shipped ? describeFailure(shipped.failure) : 'the question shows no handler';
        return {
          anchor: question.anchor,
          shipped,
          options,
          provenRight: [],
          criterion: `the shown handler's state, which is unknown: ${why}`,
        };
      }
      const expected = shipped.text;
      criterion = `the state the shown handler produces: ${expected}`;
      isRight = (outcome) => formatOutcome(outcome) === expected;
      break;
    }
    case 'reproduces':
      criterion = `reproduces ${formatOutcome(rule.trace)}`;
      isRight = (outcome) => Object.entries(rule.trace).every(([field, value]) => outcome[field] === value);
      break;
    case 'satisfies':
      criterion = rule.requirement;
      isRight = (outcome) => rule.holds(outcome);
      break;
  }
  const provenRight = Object.entries(options)
    .filter(([, run]) => run.ok && isRight(run.outcome))
    .map(([optionId]) => optionId);
  return { anchor: question.anchor, ...(shipped ? { shipped } : {}), options, provenRight, criterion };
}

function asItemFailure(error: unknown): ItemFailure {
  if (error instanceof StepFailure) return { step: error.step, stepLabel: error.stepLabel, reason: error.reason };
  return {
    step: 0,
    stepLabel: 'before the first step',
    reason: error instanceof Error ? error.message : String(error),
  };
}
