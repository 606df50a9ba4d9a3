/**
 * Scaffolds an adapter: its file, its line in the registry, its test and its row in
 * docs/libraries.md (the registry test fails when any of the four is missing). The test starts
 * red: it expects the analysis to know something the new adapter does not say yet.
 *
 *   npm run new:adapter -- acme-queue [broker|data]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { camelCase, insertBefore } from './scaffold.js';

const [name = '', kind = 'broker'] = process.argv.slice(2);
if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name) || !['broker', 'data'].includes(kind)) {
  console.error(
    'Usage: npm run new:adapter -- NAME [broker|data]   (the npm package name in kebab-case, e.g. acme-queue)',
  );
  process.exit(2);
}
const plugin = fileURLToPath(new URL('../', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));
const id = camelCase(name);
const files = {
  adapter: `${plugin}src/libraries/${name}.ts`,
  test: `${root}test/eslint-plugin/libraries/${name}.test.ts`,
};
for (const file of Object.values(files)) {
  if (existsSync(file)) {
    console.error(`${file} exists already: nothing written.`);
    process.exit(2);
  }
}

const broker = `import type { BrokerAdapter } from '../analysis/index.js';

/** ${name}: how its handlers are registered and what identifies a delivery. */
export const ${id}: BrokerAdapter = {
  kind: 'broker',
  name: '${name}',
  modules: ['${name}'],
  shapes: {
    delivery: {
      inherits: 'common:delivery',
      members: {
        // id: { identity: 'the ${name} delivery id' },
        // body: { shape: 'payload' },
      },
    },
  },
  // handlers: [{ call: 'listen', argument: 1, shape: '${name}:delivery', evidence: { imports: true } }],
};
`;
const data = `import type { DataAdapter } from '../analysis/index.js';

/** ${name}: which calls read and write, and how it settles duplicates. */
export const ${id}: DataAdapter = {
  kind: 'data',
  name: '${name}',
  label: '${name}',
  modules: ['${name}'],
  methods: new Set([]),
  recognise() {
    return undefined;
  },
  remedy: 'let a unique key settle the duplicate',
};
`;
writeFileSync(files.adapter, kind === 'broker' ? broker : data);

const brokerTest = `import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

describe('${name} adapter', () => {
  it.each([
    // [what it shows, code with probe(…) calls, the facts found for each probe]
    ['a handler: the delivery id identifies the delivery', \`import { listen } from '${name}'; listen('q', async (d) => { probe(d.id); });\`, [['delivery:the ${name} delivery id']]],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
`;
const dataTest = `import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

describe('${name} adapter', () => {
  it('recognises an insert', () => {
    const [operation] = operationsIn(\`import { db } from '${name}'; await db.insert('refunds', { refundId });\`);
    expect(operation).toMatchObject({ kind: 'insert', targets: ['refund'] });
  });
});
`;
writeFileSync(files.test, kind === 'broker' ? brokerTest : dataTest);

const registryPath = `${plugin}src/libraries/index.ts`;
let registry = readFileSync(registryPath, 'utf8');
registry = insertBefore(registry, '\nexport type { LibraryAdapter', `import { ${id} } from './${name}.js';\n`);
registry = insertBefore(
  registry,
  kind === 'broker' ? '  // Databases and stores' : '];\n\nexport const defaultLibraryTable',
  `  ${id},\n`,
);
writeFileSync(registryPath, registry);

const docsPath = `${plugin}docs/libraries.md`;
const docs = readFileSync(docsPath, 'utf8');
const lastRow = [...docs.matchAll(/^\| `[^`]+` \|.*$/gm)].at(-1);
if (!lastRow || lastRow.index === undefined)
  throw new Error('docs/libraries.md has no table of adapters: add the row by hand.');
const at = lastRow.index + lastRow[0].length;
writeFileSync(
  docsPath,
  `${docs.slice(0, at)}\n| \`${name}\` | ${name} | Say what the adapter knows. |${docs.slice(at)}`,
);

console.log(`Written: ${Object.values(files).join(', ')}; registered in src/libraries/index.ts; a row in docs/libraries.md.
Next: fill in the adapter and its test (npx vitest run --config test/vitest.config.ts ${files.test.slice(root.length)}).`);
