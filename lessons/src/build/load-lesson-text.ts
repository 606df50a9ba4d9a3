import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

import { LessonFileError } from '../json-reader.js';
import { readLessonText, type LessonText } from './lesson-text.js';

/**
 * Reads `<folder>/lesson.json`. A missing file, broken JSON or a bad field all end up as a
 * LessonFileError naming the file (relative to `root`) and, where there is one, the field.
 */
export async function loadLessonText(folder: string, root: string): Promise<{ text: LessonText; file: string }> {
  const path = join(folder, 'lesson.json');
  const file = relative(root, path) || path;
  let content: string;
  try {
    content = await readFile(path, 'utf8');
  } catch {
    throw new LessonFileError(file, '', 'is missing');
  }
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch (error) {
    throw new LessonFileError(file, '', `is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { text: readLessonText(json, file), file };
}
