import { sequelizeDeclarations } from './shared/model-readers.js';
import { repositoryMethods, repositoryOperation } from './shared/repository-calls.js';
import type { DataAdapter } from '../analysis/index.js';

/** Sequelize models: `Refund.findOne`, `Refund.create`, `findOrCreate`, `upsert`. */
export const sequelize: DataAdapter = {
  kind: 'data',
  name: 'sequelize',
  label: 'Sequelize',
  modules: ['sequelize', 'sequelize-typescript', '@nestjs/sequelize'],
  methods: repositoryMethods,
  recognise: (node, file) =>
    node.type === 'CallExpression' ? repositoryOperation('sequelize', node, file) : undefined,
  remedy: 'an upsert, or insert and treat the unique violation as the duplicate',
  increments: { methods: ['increment', 'decrement'] },
  uniqueViolations: ['UniqueConstraintError', 'UniqueConstraint'],
  // Types written `DataTypes.STRING`, or through the namespace the default import names (`Sequelize.STRING`).
  models: { mentions: /\b(queryInterface|QueryInterface|DataTypes|Sequelize\.[A-Z]+)\b/, read: sequelizeDeclarations },
  // A migration's `queryInterface.sequelize.query('CREATE UNIQUE INDEX …')`.
  ddlCalls: [{ method: 'query', receiver: /^sequelize$/ }],
};
