/** What the host tells the lesson page. */
export type MessageToLesson = { type: 'go-to'; anchor: string | undefined };

/** What the lesson page tells the host. */
export type MessageFromLesson =
  | { type: 'database-ready'; milliseconds: number }
  | { type: 'database-failed'; reason: string }
  /** The page's progress (choices, results), saved by the host too; see LessonPanel. */
  | { type: 'state'; state: { lesson: string } & Record<string, unknown> };

/** Progress is a few answers; anything far larger is not the page's state. */
const maximumStateLength = 64 * 1024;

/** Messages come from page script; they are checked before use like any other input. */
export function isMessageFromLesson(value: unknown): value is MessageFromLesson {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case 'database-ready':
      return typeof message.milliseconds === 'number';
    case 'database-failed':
      return typeof message.reason === 'string';
    case 'state': {
      const state = message.state as Record<string, unknown> | null;
      return (
        typeof state === 'object' &&
        state !== null &&
        typeof state.lesson === 'string' &&
        JSON.stringify(state).length <= maximumStateLength
      );
    }
    default:
      return false;
  }
}
