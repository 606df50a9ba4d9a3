import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { beginLint } from '../../../eslint-plugin/src/analysis/project/files.js';
import { resolveImport } from '../../../eslint-plugin/src/analysis/project/modules.js';
import { projectRoot } from '../../../eslint-plugin/src/analysis/project/root.js';

/** Module resolution as the analysis reads a project: relative files, index modules, tsconfig paths; never a package. */

const project = mkdtempSync(path.join(tmpdir(), 'idempotency-resolve-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
const write = (file: string, text = 'export {};') => {
  mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
  writeFileSync(path.join(project, file), text);
};
mkdirSync(path.join(project, '.git'));
write('package.json', '{"name":"p","private":true}');
write(
  'tsconfig.json',
  JSON.stringify({
    compilerOptions: { baseUrl: '.', paths: { '~/*': ['src/*'], '@shared/*': ['packages/shared/*'] } },
  }),
);
write('src/consumer.ts');
write('src/keys.ts');
write('src/services/index.ts');
write('src/legacy.js');
write('packages/shared/money.ts');
write('node_modules/kafkajs/index.js');

describe('resolving an import of the project', () => {
  const from = path.join(project, 'src/consumer.ts');
  beginLint(undefined);
  it.each([
    ['a relative file written with .js', './keys.js', 'src/keys.ts'],
    ['a relative file without an ending', './keys', 'src/keys.ts'],
    ['a folder by its index module', './services', 'src/services/index.ts'],
    ['a JavaScript module', './legacy', 'src/legacy.js'],
    ['a tsconfig path', '~/keys', 'src/keys.ts'],
    ['a tsconfig path into another package', '@shared/money', 'packages/shared/money.ts'],
    ['a package is never read', 'kafkajs', undefined],
    ['a file that does not exist', './missing', undefined],
  ])('%s', (_name, specifier, expected) => {
    const resolved = resolveImport(from, specifier);
    expect(resolved && path.relative(project, resolved)).toBe(expected);
  });

  it('places a file in the project whose folder has .git, and a bare name in none', () => {
    expect(projectRoot(from)).toBe(project);
    expect(projectRoot('consumer.ts')).toBeUndefined();
  });
});
