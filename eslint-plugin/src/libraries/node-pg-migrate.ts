import type { DataAdapter } from '../analysis/index.js';

/**
 * node-pg-migrate: a migration tool, not a client. It sends no queries a rule judges; its
 * migrations declare keys, and those written as SQL (`pgm.sql('CREATE UNIQUE INDEX …')`) are read.
 * Its own calls (`pgm.createTable`, `pgm.addConstraint`, `pgm.createIndex`) are not read yet: the
 * tables they name stay unsure.
 */
export const nodePgMigrate: DataAdapter = {
  kind: 'data',
  name: 'node-pg-migrate',
  label: 'node-pg-migrate',
  modules: ['node-pg-migrate'],
  methods: new Set(),
  recognise: () => undefined,
  remedy: 'let a unique key settle the duplicate',
  ddlCalls: [{ method: 'sql', receiver: /^pgm$/ }],
};
