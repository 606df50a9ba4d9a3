import { beforeAll, describe, expect, it } from 'vitest';

import { uniqueKeysInSql } from '../../../eslint-plugin/src/analysis/sql/ddl.js';
import { whenSqlParserReady } from '../../../eslint-plugin/src/analysis/sql/parser.js';
import { summariseSql } from '../../../eslint-plugin/src/analysis/sql/statements.js';

/** SQL read with PostgreSQL's own grammar: what a statement does, and what a migration declares unique. */

beforeAll(() => whenSqlParserReady());

describe('what a statement does', () => {
  it.each([
    [
      'an inbox claim that skips duplicates',
      'INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT (message_id) DO NOTHING',
      { kind: 'insert', table: 'inbox', onConflict: { action: 'nothing', target: ['message_id'] } },
    ],
    [
      'a locking read names its filter',
      'SELECT 1 FROM refunds WHERE refund_id = $1 FOR UPDATE',
      { kind: 'read', tables: ['refunds'], locksRows: true, filters: ['refund_id'] },
    ],
    [
      'a compare-and-set is an update',
      "UPDATE orders SET status = 'paid' WHERE id = $1 AND status = 'pending'",
      { kind: 'update', table: 'orders' },
    ],
    [
      'a plain insert has no conflict clause',
      'INSERT INTO ledger (sale_id, cents) VALUES ($1, $2)',
      { kind: 'insert', table: 'ledger', onConflict: undefined },
    ],
  ])('%s', (_name, text, expected) => {
    expect(summariseSql(text)?.statements[0]).toMatchObject(expected);
  });

  it('is nothing for text that is not SQL', () => {
    expect(summariseSql('not sql at all')).toBeNull();
  });
});

describe('unique keys a migration declares', () => {
  const keys = (text: string) =>
    uniqueKeysInSql(text)?.map((table) => [
      table.table,
      table.keys.map((key) => `${key.columns.join('+')}${key.partial ? ' (partial)' : ''}`),
    ]);

  it.each([
    [
      'a primary key in the table',
      'CREATE TABLE inbox (message_id text PRIMARY KEY, seen_at timestamptz)',
      [['inbox', ['message_id']]],
    ],
    [
      'a table constraint over two columns',
      'CREATE TABLE sales (sale_id text, account_id text, UNIQUE (sale_id, account_id))',
      [['sales', ['sale_id+account_id']]],
    ],
    [
      'a partial unique index',
      'CREATE UNIQUE INDEX refunds_live ON refunds (refund_id) WHERE deleted_at IS NULL',
      [['refunds', ['refund_id (partial)']]],
    ],
    [
      'a constraint added later',
      'ALTER TABLE payouts ADD CONSTRAINT payouts_key UNIQUE (payout_id)',
      [['payouts', ['payout_id']]],
    ],
    ['a plain index settles nothing', 'CREATE INDEX by_day ON visits (day)', []],
  ])('%s', (_name, text, expected) => {
    expect(keys(text)).toEqual(expected);
  });

  it('is unknown, not empty, for DDL PostgreSQL cannot read', () => {
    expect(uniqueKeysInSql('CREATE TABLE t (id INT UNSIGNED AUTO_INCREMENT, KEY idx (id))')).toBeNull();
  });
});
