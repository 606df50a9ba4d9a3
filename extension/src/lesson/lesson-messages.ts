/** What the host tells the lesson page. */
export type MessageToLesson = { type: 'go-to'; anchor: string | undefined };

/** What the lesson page tells the host. */
export type MessageFromLesson =
  | { type: 'database-ready'; milliseconds: number }
  | { type: 'database-failed'; reason: string };

/** Messages come from page script; they are checked before use like any other input. */
export function isMessageFromLesson(value: unknown): value is MessageFromLesson {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case 'database-ready':
      return typeof message.milliseconds === 'number';
    case 'database-failed':
      return typeof message.reason === 'string';
    default:
      return false;
  }
}
