import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { FunctionNode } from '../../../eslint-plugin/src/analysis/context/file-context.js';
import { calledFunction } from '../../../eslint-plugin/src/analysis/project/calls.js';
import { beginLint } from '../../../eslint-plugin/src/analysis/project/files.js';
import { resolveImport } from '../../../eslint-plugin/src/analysis/project/modules.js';
import { projectRoot } from '../../../eslint-plugin/src/analysis/project/root.js';
import { inFile } from '../support/file.js';

/** Module resolution as the analysis reads a project: relative files, index modules, tsconfig paths, sibling packages named by a path; never an installed package. */

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
write(
  'App/package.json',
  JSON.stringify({ name: 'app', dependencies: { '@acme/common': 'file:../Common', kafkajs: '^2.2.4' } }),
);
write('App/Jobs/sweep.ts');
write('Common/Server/Semaphore.ts');
write('Common/index.ts');

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

  it.each([
    [
      'a sibling package, named by a file: dependency of the nearest package.json',
      'App/Jobs/sweep.ts',
      '@acme/common/Server/Semaphore',
      'Common/Server/Semaphore.ts',
    ],
    ["that package's index", 'App/Jobs/sweep.ts', '@acme/common', 'Common/index.ts'],
    [
      'the near miss: a package that names it by no path is not read',
      'src/consumer.ts',
      '@acme/common/Server/Semaphore',
      undefined,
    ],
    ['the near miss: a dependency given by version is installed code', 'App/Jobs/sweep.ts', 'kafkajs', undefined],
  ])('%s', (_name, file, specifier, expected) => {
    const resolved = resolveImport(path.join(project, file), specifier);
    expect(resolved && path.relative(project, resolved)).toBe(expected);
  });

  it('places a file in the project whose folder has .git, and a bare name in none', () => {
    expect(projectRoot(from)).toBe(project);
    expect(projectRoot('consumer.ts')).toBeUndefined();
  });

  it("places a file of a checkout without .git in the folder that has the repository's .github, above its package", () => {
    const archive = mkdtempSync(path.join(tmpdir(), 'idempotency-archive-'));
    try {
      mkdirSync(path.join(archive, '.github/workflows'), { recursive: true });
      mkdirSync(path.join(archive, 'service-orders/src'), { recursive: true });
      writeFileSync(path.join(archive, 'service-orders/package.json'), '{}');
      const consumer = path.join(archive, 'service-orders/src/consumer.ts');
      writeFileSync(consumer, '');
      expect(projectRoot(consumer)).toBe(archive);
    } finally {
      rmSync(archive, { recursive: true, force: true });
    }
  });

  it('places a service that keeps its own .github inside a repository in the repository, where its migrations are', () => {
    const repository = mkdtempSync(path.join(tmpdir(), 'idempotency-monorepo-'));
    try {
      mkdirSync(path.join(repository, '.git'));
      mkdirSync(path.join(repository, 'services/web/.github'), { recursive: true });
      mkdirSync(path.join(repository, 'services/web/app'), { recursive: true });
      const handler = path.join(repository, 'services/web/app/tags.js');
      writeFileSync(handler, '');
      expect(projectRoot(handler)).toBe(repository);
    } finally {
      rmSync(repository, { recursive: true, force: true });
    }
  });
});

describe('the function a call runs, wherever the project declares it', () => {
  write(
    'src/payments.ts',
    'export class Payments {\n  charge(id: string) { return id; }\n  static make(id: string) { return id; }\n}\nexport const payments = new Payments();\n',
  );
  write('src/billing.ts', 'function refund(id: string) {\n  return id;\n}\nexport default { refund };\n');
  write('src/base.ts', 'export class Base {\n  record(id: string) { return id; }\n}\n');
  write('src/ledger.ts', "import { Base } from './base';\nexport class Ledger extends Base {}\n");
  write('src/notify.js', 'exports.notify = function notify(id) {\n  return id;\n};\n');
  write(
    'src/registry.ts',
    'export class Registry {\n  [name: string]: unknown;\n  static {}\n  find(id: string) { return id; }\n}\n',
  );
  const consumer = `
import { payments, Payments } from './payments';
import billing from './billing';
import { Ledger } from './ledger';
import * as mail from './notify';

function local(id: string) { return id; }

class Handler {
  constructor(private readonly ledger: Ledger) {}
  run(id: string) {
    local(id);
    payments.charge(id);
    Payments.make(id);
    billing.refund(id);
    this.ledger.record(id);
    mail.notify(id);
    unknown.thing(id);
    registry.find(id);
  }
}
import { Registry } from './registry';
const registry = new Registry();
`;
  const where = (fn: FunctionNode, filename: string) => `${path.relative(project, filename)}:${fn.loc.start.line}`;
  it.each([
    ['a function of the same file', 'local', 'src/handler.ts:7'],
    ['a method of an exported instance', 'payments.charge', 'src/payments.ts:2'],
    ['a static method of an exported class', 'Payments.make', 'src/payments.ts:3'],
    ['a property of an exported object naming a function of its module', 'billing.refund', 'src/billing.ts:1'],
    ['an inherited method of a constructor parameter typed with a class', 'this.ledger.record', 'src/base.ts:2'],
    ['a CommonJS export', 'mail.notify', 'src/notify.js:1'],
    ['nothing for a name the project does not declare', 'unknown.thing', undefined],
    ['a method of a class that also has an index signature and a static block', 'registry.find', 'src/registry.ts:4'],
  ])('%s', (_name, callee, expected) => {
    beginLint(undefined);
    const found = inFile(
      consumer,
      (file, call) => {
        const target = calledFunction(file, call(callee).callee);
        return target && where(target.fn, target.module.filename);
      },
      path.join(project, 'src/handler.ts'),
    );
    expect(found).toBe(expected);
  });
});
