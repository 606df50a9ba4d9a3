/**
 * The browser-safe entry of @idempotency/lessons: the lesson model, the built lesson, and the
 * runner with its PGlite opener. Nothing reachable from here imports Node built-ins or `pg`, so a
 * webview bundle can include it as it is. Node-only pieces are in `@idempotency/lessons/node`.
 */

export type * from './model.js';
export type { DatabaseOpener, LessonDatabase, Queryable, QueryRows, StatementResult } from './database.js';
export type {
  AnswerRule,
  Delivery,
  ExampleScenario,
  Handler,
  LessonMessage,
  Outcome,
  QuestionScenario,
  RuleId,
  RunnableLesson,
  ShownHandler,
  WorkerName,
} from './scenario.js';
export type { ExampleResult, HandlerRun, ItemFailure, QuestionCheck, RunEvent, SqlRun } from './runner.js';
export type { Exercise, ExerciseCheck, ExerciseHandler, Schedule, ScheduleRun } from './exercise.js';
export type { PgliteAssets, PgliteAssetUrls } from './pglite-database.js';
export type { TableRows, TimelineEvent, Transcript, TranscriptPart, TranscriptStatement } from './transcript.js';

export { builtLessonFormat } from './model.js';
export { formatOutcome } from './scenario.js';
export { formatStatementResults, formatTimeline, formatTranscript } from './transcript.js';
export { LessonRunner, describeFailure } from './runner.js';
export { ExerciseSyntaxError, parseExerciseHandler } from './exercise.js';
export { PgliteLessonDatabase, loadPgliteAssets, pgliteOpener } from './pglite-database.js';
export { allQuestions, lessonAnchors, parseBuiltLesson } from './built-lesson.js';
export { LessonFileError } from './json-reader.js';
export { idempotentConsumers } from '../idempotent-consumers/index.js';
export { idempotentConsumersLesson } from './lesson-data.js';
