import type { RuleName } from 'eslint-plugin-idempotency';

import type { Queryable } from './database.js';
import type { Exercise } from './exercise.js';
import type { ItemSession } from './session.js';

/**
 * The executable half of a lesson: what each example and question runs. The text half lives in the
 * lesson's `lesson.json`; the build joins the two by anchor and checks that they agree.
 */

export type WorkerName = 'A' | 'B';

/** Every lesson message carries the identity its transport gave it, plus its own business fields. */
export interface LessonMessage {
  readonly id: string;
}

export interface Delivery<Message extends LessonMessage> {
  readonly worker: WorkerName;
  readonly message: Message;
}

/**
 * The memory of one worker process: it lasts across that worker's deliveries and is gone when the
 * process restarts. A handler that keeps state in memory keeps it here, so each simulated worker
 * has its own, as separate processes do.
 */
export class WorkerProcess {
  private readonly instances = new Map<new () => object, object>();

  /** The process's one instance of `Kind`, made on first use. */
  instance<T extends object>(Kind: new () => T): T {
    let existing = this.instances.get(Kind) as T | undefined;
    if (!existing) {
      existing = new Kind();
      this.instances.set(Kind, existing);
    }
    return existing;
  }
}

/** A consumer handler as the lessons write it: the connection of one worker, one message. */
export type Handler<Message, Result = unknown> = (
  db: Queryable,
  message: Message,
  workerId: string,
  process: WorkerProcess,
) => Promise<Result>;

/**
 * How a handler's statements reach the database: `together` in one worker transaction (the lesson's
 * default), `each` committing one by one, as statements sent through a connection pool do.
 */
export type Commits = 'together' | 'each';

/** A rule of eslint-plugin-idempotency, by id. Only the type is imported: the browser never loads the plugin. */
export type RuleId = RuleName;

/**
 * A handler that the lesson both shows and runs. `moduleId` names the file it lives in
 * (`<lesson>/handlers/<moduleId>.ts`); the build reads the displayed text from there, by `name`.
 */
export interface ShownHandler {
  readonly moduleId: string;
  readonly name: string;
  /**
   * The message type is erased here so that options with different handlers can sit in one list;
   * `defineQuestion` is where a scenario's deliveries and its handlers meet, under one message type.
   */
  readonly run: Handler<LessonMessage>;
  /** The rules that must report this code; empty for code that no rule should report. */
  readonly flaggedBy: readonly RuleId[];
  /** Why no rule reports it, for faulty code that lies outside every rule's reach. */
  readonly unflaggedBecause?: string;
  /** `each` for a handler written against a pool; omitted for one worker transaction. */
  readonly commits?: Commits;
}

export interface HandlerModule<Exports> {
  readonly id: string;
  readonly exports: Exports;
}

export function handlerModule<Exports extends object>(id: string, exports: Exports): HandlerModule<Exports> {
  return { id, exports };
}

/** Picks a handler out of its module by name; the name is checked by the compiler and again here. */
export function shown<Exports extends object>(
  module: HandlerModule<Exports>,
  name: keyof Exports & string,
  flaggedBy: readonly RuleId[],
  unflaggedBecause?: string,
): ShownHandler {
  const run = module.exports[name];
  if (typeof run !== 'function') {
    throw new Error(`handlers/${module.id}.ts: export "${name}" is not a function`);
  }
  return {
    moduleId: module.id,
    name,
    run: run as Handler<LessonMessage>,
    flaggedBy,
    ...(unflaggedBecause ? { unflaggedBecause } : {}),
  };
}

/** The same handler with its statements committing one by one, as on a pool. */
export function onPool(handler: ShownHandler): ShownHandler {
  return { ...handler, commits: 'each' };
}

/** A worker written as a class whose `handle` method takes each delivery; every worker process has its own instance. */
export interface WorkerClass<Message> {
  new (): { handle(db: Queryable, message: Message): Promise<boolean> };
}

/** Picks a worker class out of its module; the lesson shows the class and runs one instance per worker process. */
export function shownWorker<Exports extends object>(
  module: HandlerModule<Exports>,
  name: keyof Exports & string,
  flaggedBy: readonly RuleId[],
): ShownHandler {
  const Kind = module.exports[name] as unknown as WorkerClass<LessonMessage>;
  if (
    typeof Kind !== 'function' ||
    typeof (Kind.prototype as { handle?: unknown } | undefined)?.handle !== 'function'
  ) {
    throw new Error(`handlers/${module.id}.ts: export "${name}" is not a class with a handle method`);
  }
  return {
    moduleId: module.id,
    name,
    run: (db, message, _workerId, process) => process.instance(Kind).handle(db, message),
    flaggedBy,
  };
}

/** Durable state read back after the last commit, in display order: `inbox=2 effects=2 sum=800`. */
export type Outcome = Readonly<Record<string, string | number>>;

export function formatOutcome(outcome: Outcome): string {
  return Object.entries(outcome)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
}

/** How the database decides which option of a question is right. */
export type AnswerRule =
  /** The option whose state equals the state the shipped handler produces. */
  | { readonly kind: 'same-as-shipped' }
  /** The option whose state shows every field of an observed trace. */
  | { readonly kind: 'reproduces'; readonly trace: Outcome }
  /** The option whose state meets a stated business requirement. */
  | { readonly kind: 'satisfies'; readonly requirement: string; holds(outcome: Outcome): boolean };

export interface QuestionScenario {
  /** `predict`, `q1` … */
  readonly anchor: string;
  readonly schemaSql: string;
  readonly deliveries: readonly Delivery<LessonMessage>[];
  /** The handler the question shows and asks about, when it shows one. */
  readonly shipped?: ShownHandler;
  readonly options: Readonly<Record<string, ShownHandler>>;
  /**
   * A question whose answer is code (any rule but `same-as-shipped`) labels each option with its
   * handler; when options differ only in how one variable is computed, with that variable's
   * declaration instead. A question about the shown handler's state labels options with states.
   */
  readonly labelledBy?: string;
  readOutcome(db: Queryable): Promise<Outcome>;
  readonly answer: AnswerRule;
  /**
   * The deliveries run side by side, each worker taking one step (one worker transaction) in turn,
   * instead of one after another; see `ItemSession.sideBySide`.
   */
  readonly sideBySide?: boolean;
}

export interface ExampleScenario {
  /** `example-4-1` … */
  readonly anchor: string;
  /** `4.1` … */
  readonly number: string;
  /** The handlers shown with the example, the one it runs first. */
  readonly shown: readonly ShownHandler[];
  /** The messages the example delivers, by a name its text cites them with (`{order.cents}`). */
  readonly messages: Readonly<Record<string, LessonMessage>>;
  /**
   * Runs the example on a fresh database (one per design it compares) and returns its result, one
   * line per design, composed from rows read back. It delivers `messages`, which it is handed.
   */
  run(session: ItemSession, messages: Readonly<Record<string, LessonMessage>>): Promise<string>;
}

/** Lets an example be written with its own messages: what its text cites is what its run delivers. */
export function defineExample<Messages extends Readonly<Record<string, LessonMessage>>>(
  example: Omit<ExampleScenario, 'messages' | 'run'> & {
    messages: Messages;
    run(session: ItemSession, messages: Messages): Promise<string>;
  },
): ExampleScenario {
  // The run is only ever handed the messages beside it, so erasing their type here is sound.
  return example;
}

/**
 * Two workers on two real connections handling the same message at the same moment. PGlite has a
 * single connection and cannot run this; it needs a PostgreSQL server.
 */
export interface RaceScenario {
  /** The example whose handlers it races, e.g. `example-4-1`. */
  readonly anchor: string;
  /** Starts the result line, e.g. `4.1 race, unique claim`. */
  readonly label: string;
  readonly schemaSql: string;
  /** What each worker handles: one message for both, or a message each. */
  readonly messages: Readonly<Record<WorkerName, LessonMessage>>;
  /** Resolves to `true` when this worker took the message (or made the effect). */
  readonly handler: Handler<LessonMessage, boolean>;
  /** The durable state once both workers are done, e.g. `{ inbox: 1 }`. */
  readOutcome(db: Queryable): Promise<Outcome>;
  /** How a worker's result reads in the line: `fresh`/`conflict`, `inserted`/`skipped`. */
  readonly words: { readonly took: string; readonly declined: string };
  /** A worker that ends with ROLLBACK instead of COMMIT, once the other is seen waiting for it. */
  readonly rollsBack?: WorkerName;
  /**
   * A worker whose transaction fails with a serialization failure (SQLSTATE 40001, which isolation
   * above READ COMMITTED raises) rolls back and runs the handler again in a new transaction.
   */
  readonly retriesSerializationFailures?: boolean;
  /** `each` for a handler whose statements commit one by one (no BEGIN), as on a pool; one transaction when omitted. */
  readonly commits?: Commits;
}

export interface RunnableLesson {
  readonly id: string;
  readonly examples: readonly ExampleScenario[];
  /** The prediction first, then the quiz questions in order. */
  readonly questions: readonly QuestionScenario[];
  /** What only a real server can show; run when one is available. */
  readonly races: readonly RaceScenario[];
  /** Handlers for the learner to mend, checked by the schedules that break them. */
  readonly exercises: readonly Exercise[];
}

/** Lets a scenario be written with its own message type and stored beside the others. */
export function defineQuestion<Message extends LessonMessage>(
  scenario: Omit<QuestionScenario, 'deliveries'> & { deliveries: readonly Delivery<Message>[] },
): QuestionScenario {
  return scenario;
}

/** Lets a race be written with its own message type: its messages and its handler are checked together. */
export function defineRace<Message extends LessonMessage>(
  race: Omit<RaceScenario, 'messages' | 'handler'> & {
    messages: Readonly<Record<WorkerName, Message>>;
    handler: Handler<Message, boolean>;
  },
): RaceScenario {
  // The handler only ever receives the messages beside it, so erasing their type here is sound.
  return race as unknown as RaceScenario;
}
