import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { libraries } from '../../../eslint-plugin/src/libraries/index.js';
import type { LibraryAdapter } from '../../../eslint-plugin/src/analysis/index.js';

/**
 * Adding a library is one adapter file and one line in libraries/index.ts: these checks fail
 * when an adapter is written but not registered, registered without tests, or when library
 * knowledge creeps back into analysis/ (test/eslint-plugin/layering.test.ts checks that).
 */

const root = new URL('../../../', import.meta.url);
const librariesDir = fileURLToPath(new URL('eslint-plugin/src/libraries/', root));
const testsDir = fileURLToPath(new URL('test/eslint-plugin/libraries/', root));

/** Files in libraries/ that hold the table and a team's settings, not one library. */
const notAdapters = new Set(['index.ts', 'settings.ts']);

function isAdapter(value: unknown): value is LibraryAdapter {
  return (
    typeof value === 'object' &&
    value !== null &&
    ['broker', 'data', 'store', 'values', 'providers'].includes((value as { kind?: string }).kind ?? '')
  );
}

describe('the library table', () => {
  const adapterFiles = readdirSync(librariesDir).filter((name) => name.endsWith('.ts') && !notAdapters.has(name));

  it.each(adapterFiles)('%s exports an adapter that is registered', async (file) => {
    const module = (await import(`${librariesDir}${file}`)) as Record<string, unknown>;
    const adapters = Object.values(module).filter(isAdapter);
    expect(
      adapters.length,
      `${file} exports no adapter (helpers shared by adapters belong in libraries/shared/)`,
    ).toBeGreaterThan(0);
    for (const adapter of adapters)
      expect(libraries, `${adapter.name} is not in libraries/index.ts`).toContain(adapter);
  });

  it('every registered adapter has a test file of its own name', () => {
    const missing = libraries
      .filter((adapter) => !existsSync(`${testsDir}${adapter.name}.test.ts`))
      .map((adapter) => adapter.name);
    expect(missing).toEqual([]);
  });

  it('every registered adapter has a row in docs/libraries.md', () => {
    const page = readFileSync(fileURLToPath(new URL('eslint-plugin/docs/libraries.md', root)), 'utf8');
    const rows = new Set([...page.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]));
    expect(libraries.map((adapter) => adapter.name).filter((name) => name !== 'settings' && !rows.has(name))).toEqual(
      [],
    );
  });

  it('adapter names are unique', () => {
    const names = libraries.map((adapter) => adapter.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
