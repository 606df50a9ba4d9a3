import { readFile } from 'node:fs/promises';

import type { DatabaseOpener } from '../database.js';
import { pgliteOpener } from '../pglite-database.js';
import { pgliteImageFile } from './paths.js';

/**
 * PGlite in Node, started from the image `npm run build` prepared. Without the image it would still
 * work, by running initdb, but several times slower; a missing image is reported instead, because
 * a silent fallback would hide a broken build behind slow runs.
 */
export function pgliteFromImage(imageFile = pgliteImageFile): DatabaseOpener {
  return async () => {
    let image: Buffer;
    try {
      image = await readFile(imageFile);
    } catch {
      throw new Error(`${imageFile} is missing: run \`npm run build -w lessons\` to prepare the database image`);
    }
    return pgliteOpener({ dataDirImage: new Blob([new Uint8Array(image)]) })();
  };
}
