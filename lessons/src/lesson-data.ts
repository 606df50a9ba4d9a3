import builtLesson from '../generated/idempotent-consumers.json' with { type: 'json' };
import { parseBuiltLesson } from './built-lesson.js';
import type { BuiltLesson } from './model.js';

/** The idempotent-consumers lesson as the build rendered it: text, code, and option labels. */
export const idempotentConsumersLesson: BuiltLesson = parseBuiltLesson(
  builtLesson,
  '@idempotency/lessons/idempotent-consumers.json',
);
