import { LessonFileError } from '../json-reader.js';

/** The messages a text may cite, by name: a question's deliveries are `1`, `2` …; an example names its own. */
export type Facts = Readonly<Record<string, object>>;

/**
 * A scenario states the messages its run delivers, so its ids and figures are taken from those
 * messages rather than typed in: `{2.cents}` is the amount of a question's second delivery,
 * `{order.id}` the id of the message an example calls `order`. Changing a delivery changes the
 * text; a placeholder that names nothing is the author's mistake, reported with its field.
 */
export function fillFromDeliveries(markdown: string, facts: Facts, file: string, field: string): string {
  return markdown.replace(/\{([a-z0-9]+)\.([a-zA-Z]+)\}/g, (placeholder, name: string, key: string) => {
    const value = (facts[name] as Record<string, unknown> | undefined)?.[key];
    if (typeof value !== 'string' && typeof value !== 'number') {
      const known = Object.entries(facts).flatMap(([fact, message]) =>
        Object.keys(message).map((each) => `{${fact}.${each}}`),
      );
      throw new LessonFileError(
        file,
        field,
        `names ${placeholder}, which its deliveries do not provide (they provide ${known.join(', ') || 'nothing'})`,
      );
    }
    return String(value);
  });
}

/** A question's deliveries as facts: `{1.worker}`, `{1.id}`, `{1.cents}` … */
export function deliveryFacts(deliveries: readonly { readonly worker: string; readonly message: object }[]): Facts {
  return Object.fromEntries(
    deliveries.map((delivery, index) => [String(index + 1), { worker: delivery.worker, ...delivery.message }]),
  );
}
