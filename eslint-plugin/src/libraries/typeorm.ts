import type { TSESTree } from '@typescript-eslint/utils';

import {
  fieldsOf,
  link,
  normaliseTarget,
  type AdapterFile,
  type Chain,
  type DataAdapter,
  type DataOperation,
} from '../analysis/index.js';
import { atChainEnd, chainEnds, tableName } from './shared/query-chains.js';
import { repositoryMethods, repositoryOperation } from './shared/repository-calls.js';
import { typeormEntities, typeormMigrationTables } from './shared/model-readers.js';

/** TypeORM: `manager.createQueryBuilder().insert().into(Refund).values(row).orIgnore()`. */
function typeormBuilder(
  chain: Chain,
  end: TSESTree.CallExpression,
  { scopeOf }: AdapterFile,
): DataOperation | undefined {
  const insert = link(chain, 'insert');
  const into = link(chain, 'into');
  const values = link(chain, 'values');
  if (!insert || !into || !values || insert.call.arguments.length > 0) return undefined;
  const entity = tableName(into.call.arguments[0]);
  if (!entity) return undefined;
  return {
    kind: 'insert',
    library: 'typeorm',
    targets: [normaliseTarget(entity)],
    node: end,
    label: `the TypeORM insert into ${entity}`,
    fields: fieldsOf(values.call.arguments[0], scopeOf),
    arbitrated: Boolean(link(chain, 'orIgnore', 'orUpdate')),
    skipsDuplicates: Boolean(link(chain, 'orIgnore')),
  };
}

const builder = atChainEnd(typeormBuilder);

/** TypeORM: repositories and entity managers, and the query builder's insert. */
export const typeorm: DataAdapter = {
  kind: 'data',
  name: 'typeorm',
  label: 'TypeORM',
  modules: ['typeorm', '@nestjs/typeorm'],
  methods: new Set([...repositoryMethods, ...chainEnds]),
  recognise: (node, file) =>
    builder(node, file) ?? (node.type === 'CallExpression' ? repositoryOperation('typeorm', node, file) : undefined),
  remedy: 'an upsert, or insert and treat the unique violation as the duplicate',
  // `increment()`, and a MongoDB repository's `$inc` (`findOneAndUpdate(filter, { $inc: { stock: 1 } })`).
  increments: { methods: ['increment', 'decrement'], fieldMaps: ['$inc'] },
  uniqueKey: {
    // A failed query is a QueryFailedError holding the driver's error: PostgreSQL's 23505, MySQL's ER_DUP_ENTRY.
    violation: {
      codes: ['23505', 'ER_DUP_ENTRY'],
      path: ['driverError', 'code'],
      errorClass: { name: 'QueryFailedError', module: 'typeorm' },
    },
    declare: (write, fields, declared) => {
      // Without the entity's declaration, its name from the repository's: `inboxRepository` → Inbox.
      const target = write.targets[0] ?? 'entity';
      const entity = declared ?? `${target[0].toUpperCase()}${target.slice(1)}`;
      return `@Unique([${fields.map((field) => `'${field}'`).join(', ')}]) to entity ${entity}`;
    },
  },
  // `@Entity`, or a project's own decorator around it (`@MultiORMEntity('heartbeats')`), and a migration's `new Table({ … })`.
  models: {
    mentions: /@\w*Entity\b|new\s+Table(Index|Unique)?\s*\(/,
    read: (file) => [...typeormEntities(file), ...typeormMigrationTables(file)],
  },
  // A migration's `up(queryRunner)`: `await queryRunner.query('CREATE UNIQUE INDEX …')`.
  ddlCalls: [{ method: 'query', receiver: /^queryRunner$/ }],
};
