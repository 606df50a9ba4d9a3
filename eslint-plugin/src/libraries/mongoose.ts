import { repositoryMethods, repositoryOperation } from './shared/repository-calls.js';
import { mongooseSchemas } from './shared/model-readers.js';
import type { DataAdapter } from '../analysis/index.js';

/**
 * Mongoose models: `Refund.exists`, `new Refund(…).save()`, `updateOne(…, { upsert: true })`. The
 * MongoDB driver's collections have an adapter of their own (mongodb.ts).
 */
export const mongoose: DataAdapter = {
  kind: 'data',
  name: 'mongoose',
  label: 'Mongoose',
  modules: ['mongoose', '@nestjs/mongoose', '@typegoose/typegoose'],
  methods: repositoryMethods,
  recognise: (node, file) => (node.type === 'CallExpression' ? repositoryOperation('mongoose', node, file) : undefined),
  remedy: 'an upsert, or insert and treat the unique violation as the duplicate',
  increments: { fieldMaps: ['$inc'], methods: ['increment'] },
  uniqueViolations: ['E11000', '11000'],
  primaryKey: '_id',
  // `new Schema(…)`, and `model('name', …)` where a model is registered.
  models: { mentions: /\bSchema\s*(<[^>]*>)?\s*\(|\.model\s*(<[^>]*>)?\s*\(/, read: mongooseSchemas },
};
