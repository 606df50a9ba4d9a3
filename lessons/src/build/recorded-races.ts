import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

import { JsonReader, LessonFileError } from '../json-reader.js';
import type { RecordedRaces } from '../model.js';

/**
 * `<lesson>/recorded-races.json`: the races as `npm run lesson -- record-races` last ran them on a
 * real server. A host without a server shows these, dated and named as recorded; the parity test
 * runs the races again and fails when the recording no longer matches.
 */
export const recordedRacesFile = (folder: string) => join(folder, 'recorded-races.json');

export async function readRecordedRaces(folder: string, root: string): Promise<RecordedRaces | null> {
  const path = recordedRacesFile(folder);
  const file = relative(root, path) || path;
  let content: string;
  try {
    content = await readFile(path, 'utf8');
  } catch {
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch (error) {
    throw new LessonFileError(file, '', `is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const recorded = new JsonReader(file, json);
  return {
    recordedOn: recorded.field('recordedOn').matching(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD'),
    engine: recorded.field('engine').matching(/^PostgreSQL \d/, 'a server such as "PostgreSQL 15.18"'),
    races: recorded
      .field('races')
      .items()
      .map((race) => ({
        anchor: race.field('anchor').string(),
        label: race.field('label').string(),
        line: race.field('line').string(),
        timeline: race
          .field('timeline')
          .items()
          .map((event) => ({
            worker: event.field('worker').oneOf(['A', 'B'] as const),
            text: event.field('text').string(),
          })),
      })),
  };
}
