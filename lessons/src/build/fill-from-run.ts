import { LessonFileError } from '../json-reader.js';
import type { HandlerRun } from '../runner.js';

/**
 * An option's explanation states what its run did, so its figures are taken from that run rather
 * than typed in: `{sum}` is a field of the durable state the run read back, and `{effects.effect_id}`
 * lists that column over the rows the run left, each value as code. A placeholder the run cannot
 * fill is the lesson author's mistake and is reported with the field it sits in.
 */
export function fillFromRun(
  markdown: string,
  run: Extract<HandlerRun, { ok: true }>,
  file: string,
  field: string,
): string {
  const values = new Map<string, string>(Object.entries(run.outcome).map(([name, value]) => [name, String(value)]));
  const tables = run.transcript.at(-1)?.tables ?? {};
  for (const [table, rows] of Object.entries(tables)) {
    const columns = new Set(rows.flatMap((row) => Object.keys(row)));
    for (const column of columns) {
      const listed = rows.map((row) => `\`${String(row[column])}\``);
      values.set(`${table}.${column}`, listed.length > 0 ? listed.join(', ') : 'no rows');
    }
  }
  return markdown.replace(/\{([a-z_]+(?:\.[a-z_]+)?)\}/g, (placeholder, name: string) => {
    const value = values.get(name);
    if (value === undefined) {
      throw new LessonFileError(
        file,
        field,
        `names ${placeholder}, which its run does not provide (it provides ${[...values.keys()].map((known) => `{${known}}`).join(', ')})`,
      );
    }
    return value;
  });
}
