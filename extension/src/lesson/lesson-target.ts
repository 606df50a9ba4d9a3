/** A place in a lesson: `idempotent-consumers#q1` names lesson `idempotent-consumers`, anchor `q1`. */
export interface LessonTarget {
  lesson: string;
  anchor?: string;
}

const idPattern = /^[a-z0-9][a-z0-9-]*$/;

/** Parses `lesson#anchor`; anything that is not made of plain ids is refused (it reaches a webview). */
export function parseLessonTarget(text: string): LessonTarget | undefined {
  const [lesson = '', anchor, ...rest] = text.trim().split('#');
  if (rest.length > 0 || !idPattern.test(lesson)) return undefined;
  if (anchor === undefined || anchor === '') return { lesson };
  return idPattern.test(anchor) ? { lesson, anchor } : undefined;
}
