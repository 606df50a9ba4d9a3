/**
 * Scaffolds a rule: its file, its catalogue entry, its place in the plugin object, its page and
 * its test, then regenerates what lists the rules. The test starts red: it expects a report the
 * new rule does not make yet.
 *
 *   npm run new:rule -- require-something
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { insertBefore, run, camelCase } from './scaffold.js';

const name = process.argv[2] ?? '';
if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)+$/.test(name)) {
  console.error('Usage: npm run new:rule -- NAME   (kebab-case, e.g. no-shared-retry-key)');
  process.exit(2);
}
const plugin = fileURLToPath(new URL('../', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));
const id = camelCase(name);
const files = {
  rule: `${plugin}src/rules/${name}.ts`,
  page: `${plugin}docs/rules/${name}.md`,
  test: `${root}test/eslint-plugin/rules/${name}.test.ts`,
};
for (const file of Object.values(files)) {
  if (existsSync(file)) {
    console.error(`${file} exists already: nothing written.`);
    process.exit(2);
  }
}

writeFileSync(
  files.rule,
  `import { analysisFor } from '../lint/file-analysis.js';
import { createRule } from '../create-rule.js';

export const ${id} = createRule({
  name: '${name}',
  meta: {
    type: 'problem',
    messages: {
      found: 'Say what is wrong and where the value came from, in one sentence.',
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const analysis = analysisFor(context);
    return {
      // Ask analysis/ (through \`analysis\`) and report what it finds.
      'Program:exit'() {
        void analysis;
      },
    };
  },
});
`,
);

writeFileSync(
  files.page,
  `# idempotency/${name}

> Describe what the rule disallows, as in the catalogue.

## Why

What goes wrong in production when this code receives the same delivery twice.

## Examples

### Incorrect

\`\`\`ts
\`\`\`

### Correct

\`\`\`ts
\`\`\`

## When not to use it

## Learn why

The lesson \`idempotent-consumers#predict\` shows it run for real.
`,
);

writeFileSync(
  files.test,
  `import { ruleTester } from '../rule-tester.js';
import { ${id} } from '../../../eslint-plugin/src/rules/${name}.js';

ruleTester.run('${name}', ${id}, {
  valid: [
    // Code the rule must leave alone, near misses first.
    'export {};',
  ],
  invalid: [
    // Code the rule must report: this case fails until the rule reports it.
    { code: 'export {};', errors: [{ messageId: 'found' }] },
  ],
});
`,
);

const cataloguePath = `${plugin}src/catalogue.ts`;
writeFileSync(
  cataloguePath,
  insertBefore(
    readFileSync(cataloguePath, 'utf8'),
    '} as const satisfies Record<string, CatalogueEntry>;',
    `  '${name}': {
    description: 'Disallow …',
    severity: 'error',
    lesson: { lesson: 'idempotent-consumers', anchor: 'predict', seeAlso: [] },
  },
`,
  ),
);

const indexPath = `${plugin}src/index.ts`;
let index = readFileSync(indexPath, 'utf8');
index = insertBefore(index, 'import { lazyTypeScriptParser }', `import { ${id} } from './rules/${name}.js';\n`);
index = insertBefore(index, '} satisfies { [Name in RuleName]: { name: Name } };', `  '${name}': ${id},\n`);
writeFileSync(indexPath, index);

run('npx', ['tsx', `${plugin}scripts/generate.ts`]);
console.log(`Written: ${Object.values(files).join(', ')}; added to src/catalogue.ts and src/index.ts; README and extension settings regenerated.
Next: the description and lesson place in the catalogue, the rule, its page, its tests (npx vitest run --config test/vitest.config.ts ${files.test.slice(root.length)}).`);
