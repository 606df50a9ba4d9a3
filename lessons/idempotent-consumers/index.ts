import type { RunnableLesson } from '../src/scenario.js';
import { examples } from './examples.js';
import { exercises } from './exercises.js';
import { questions } from './questions.js';
import { races } from './races.js';

/** What the idempotent-consumers lesson runs; its text is in `lesson.json` beside this file. */
export const idempotentConsumers: RunnableLesson = {
  id: 'idempotent-consumers',
  examples,
  questions,
  races,
  exercises,
};
