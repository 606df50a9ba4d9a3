import { beforeAll, describe, expect, it } from 'vitest';

import { uniqueKeysInSql } from '../../../eslint-plugin/src/analysis/sql/ddl.js';
import { mysqlGrammarLoaded } from '../../../eslint-plugin/src/analysis/sql/mysql-ddl.js';
import { whenSqlParserReady } from '../../../eslint-plugin/src/analysis/sql/parser.js';
import { summariseSql } from '../../../eslint-plugin/src/analysis/sql/statements.js';

/** SQL read with PostgreSQL's own grammar: what a statement does, and what a migration declares unique. */

beforeAll(() => whenSqlParserReady());

// First: any MySQL text read before it would have loaded the grammar.
describe('the common path', () => {
  it('PostgreSQL DDL never loads the MySQL grammar', () => {
    expect(
      uniqueKeysInSql('CREATE TABLE inbox (message_id text PRIMARY KEY); CREATE UNIQUE INDEX a ON b (c);'),
    ).toHaveLength(2);
    expect(uniqueKeysInSql('')).toEqual([]);
    expect(mysqlGrammarLoaded()).toBe(false);
  });
});

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
      'a conflict target with a column the code fills in is not a known target',
      'INSERT INTO "CollectionItem" ("collectionId", "$5") VALUES ($1, $2) ON CONFLICT ("collectionId", "$5") DO UPDATE SET "tagId" = 1',
      { kind: 'insert', onConflict: { action: 'update', target: [], inferred: 'other' } },
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

  it('is unknown, not empty, for DDL neither PostgreSQL nor MySQL can read', () => {
    expect(
      uniqueKeysInSql('CREATE TABLE t (id INT UNSIGNED AUTO_INCREMENT, KEY idx (id)) PARTITION BY HASH(id)'),
    ).toBeNull();
  });
});

describe('unique keys a MySQL migration declares', () => {
  const keys = (text: string) =>
    uniqueKeysInSql(text)?.map((table) => [
      table.table,
      table.keys.map((key) => key.columns.join('+')),
      [table.unsure ? 'unsure' : '', table.addition ? 'addition' : ''].filter(Boolean).join(' '),
    ]);

  it.each([
    [
      'backticks, a table PRIMARY KEY, a UNIQUE KEY over two columns, a plain KEY and table options',
      'CREATE TABLE `feeds` (`id` int NOT NULL AUTO_INCREMENT, `post_id` int NOT NULL, `user_id` int, PRIMARY KEY (`id`), UNIQUE KEY `feeds_post_user` (`post_id`,`user_id`), KEY `by_user` (`user_id`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;',
      [['feeds', ['id', 'post_id+user_id'], '']],
    ],
    [
      'a UNIQUE column and a column PRIMARY KEY',
      'CREATE TABLE `users` (`id` bigint unsigned NOT NULL PRIMARY KEY AUTO_INCREMENT, `email` varchar(255) NOT NULL UNIQUE, `name` varchar(255));',
      [['users', ['id', 'email'], '']],
    ],
    [
      'a table without a unique key is known, with none',
      'CREATE TABLE `visits` (`user_id` int NOT NULL, `day` date NOT NULL, KEY `by_day` (`day`)) ENGINE=InnoDB;',
      [['visits', [], '']],
    ],
    [
      'CREATE UNIQUE INDEX',
      'CREATE UNIQUE INDEX `users_email` ON `users` (`email`);',
      [['users', ['email'], 'addition']],
    ],
    ['a plain index settles nothing', 'CREATE INDEX `by_day` ON `visits` (`day`);', []],
    [
      'ALTER TABLE … ADD UNIQUE KEY … USING BTREE',
      'ALTER TABLE `feeds` ADD UNIQUE KEY `feeds_post` (`post_id`) USING BTREE;',
      [['feeds', ['post_id'], 'addition']],
    ],
    [
      'ALTER TABLE … ADD CONSTRAINT … UNIQUE and ADD PRIMARY KEY in one statement',
      'ALTER TABLE `grants` ADD CONSTRAINT `grants_server_token` UNIQUE (`server_id`, `token`), ADD PRIMARY KEY (`id`);',
      [['grants', ['server_id+token', 'id'], 'addition']],
    ],
    [
      'ADD COLUMN … UNIQUE',
      'ALTER TABLE `coupons` ADD COLUMN `code` varchar(32) UNIQUE;',
      [['coupons', ['code'], 'addition']],
    ],
    // Drops are not applied (a down section drops what its up section made), as with PostgreSQL's DDL.
    ['a dropped key', 'ALTER TABLE `feeds` DROP INDEX `feeds_post`;', []],
    ['a dropped primary key', 'ALTER TABLE `feeds` DROP PRIMARY KEY;', []],
    ['DROP INDEX … ON', 'DROP INDEX `users_email` ON `users`;', []],
    [
      'DROP TABLE IF EXISTS before CREATE TABLE, as dumps write them',
      'DROP TABLE IF EXISTS `orders`;\nCREATE TABLE `orders` (`id` bigint unsigned NOT NULL AUTO_INCREMENT, `ref` varchar(64) NOT NULL, PRIMARY KEY (`id`), UNIQUE KEY `orders_ref_unique` (`ref`)) ENGINE=InnoDB;',
      [['orders', ['id', 'ref'], '']],
    ],
    [
      'CHANGE COLUMN keeping its name changes its type, and may make it unique',
      'ALTER TABLE `users` CHANGE COLUMN `email` `email` varchar(320) NOT NULL UNIQUE;',
      [['users', ['email'], 'addition']],
    ],
    [
      'CHANGE COLUMN to another name is a rename',
      'ALTER TABLE `users` CHANGE COLUMN `mail` `email` varchar(320) NOT NULL;',
      [['users', [], 'unsure addition']],
    ],
    [
      'Prisma Migrate for MySQL: UNIQUE INDEX inside CREATE TABLE, CREATE UNIQUE INDEX, a foreign key',
      [
        '-- CreateTable',
        'CREATE TABLE `Entry` (',
        '    `id` VARCHAR(191) NOT NULL,',
        '    `invoiceId` VARCHAR(191) NOT NULL,',
        '    `accountId` VARCHAR(191) NOT NULL,',
        '    `email` VARCHAR(191) NOT NULL,',
        '',
        '    UNIQUE INDEX `Entry_email_key`(`email`),',
        '    INDEX `Entry_accountId_idx`(`accountId`),',
        '    PRIMARY KEY (`id`)',
        ') DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;',
        '',
        '-- CreateIndex',
        'CREATE UNIQUE INDEX `Entry_invoiceId_accountId_key` ON `Entry`(`invoiceId`, `accountId`);',
        '',
        '-- AddForeignKey',
        'ALTER TABLE `Entry` ADD CONSTRAINT `Entry_accountId_fkey` FOREIGN KEY (`accountId`) REFERENCES `Account`(`id`) ON DELETE RESTRICT ON UPDATE CASCADE;',
      ].join('\n'),
      // Names keep the case they are written with, as the code's queries and Prisma's models name them.
      [
        ['Entry', ['email', 'id'], ''],
        ['Entry', ['invoiceId+accountId'], 'addition'],
      ],
    ],
    [
      "Drizzle Kit for MySQL: statement breakpoints and SERIAL (which implies UNIQUE), which MySQL's grammar here lacks",
      'CREATE TABLE `users` (\n\t`id` serial AUTO_INCREMENT NOT NULL,\n\t`email` varchar(256) NOT NULL,\n\tCONSTRAINT `users_email_unique` UNIQUE(`email`)\n);\n--> statement-breakpoint\nCREATE TABLE `posts` (\n\t`id` int NOT NULL,\n\t`user_id` bigint unsigned,\n\tCONSTRAINT `posts_id` PRIMARY KEY(`id`)\n);',
      [
        ['users', ['id', 'email'], ''],
        ['posts', ['id'], ''],
      ],
    ],
    [
      'a renamed table',
      'RENAME TABLE `feeds` TO `posts_feed`;',
      [
        ['feeds', [], 'unsure addition'],
        ['posts_feed', [], 'unsure addition'],
      ],
    ],
    [
      'an expression key',
      'CREATE TABLE `users` (`id` int PRIMARY KEY, `email` varchar(255), UNIQUE KEY `email_ci` ((lower(`email`))));',
      [['users', ['id'], 'unsure']],
    ],
    ['a copy of another table', 'CREATE TABLE `archive` LIKE `orders`;', [['archive', [], 'unsure']]],
    [
      'statements PostgreSQL reads and MySQL statements in one file',
      'CREATE TABLE inbox (message_id text PRIMARY KEY);\nALTER TABLE `feeds` ADD UNIQUE KEY `feeds_post` (`post_id`) USING BTREE;\nCREATE UNIQUE INDEX refunds_key ON refunds (refund_id) WHERE deleted_at IS NULL;',
      [
        ['inbox', ['message_id'], ''],
        ['refunds', ['refund_id'], 'addition'],
        ['feeds', ['post_id'], 'addition'],
      ],
    ],
  ])('%s', (_name, text, expected) => {
    expect(keys(text)).toEqual(expected);
  });

  it('a mysqldump file: SET, conditional comments, LOCK TABLES and INSERTs around the DDL', () => {
    const dump = [
      '/*!40101 SET NAMES utf8mb4 */;',
      'DROP TABLE IF EXISTS `payouts`;',
      'CREATE TABLE `payouts` (`id` int NOT NULL AUTO_INCREMENT, `reference` varchar(64) NOT NULL, PRIMARY KEY (`id`), UNIQUE KEY `payouts_reference` (`reference`)) ENGINE=InnoDB AUTO_INCREMENT=3 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;',
      'LOCK TABLES `payouts` WRITE;',
      "INSERT INTO `payouts` VALUES (1,'a'),(2,'b');",
      'UNLOCK TABLES;',
    ].join('\n');
    expect(keys(dump)).toContainEqual(['payouts', ['id', 'reference'], '']);
  });

  it('a large data dump: its DDL is read statement by statement, and a statement the split cannot place leaves its table unsure', () => {
    const rows = (note: string) =>
      Array.from({ length: 6000 }, (_, i) => (i === 7 ? `(${i},'${note}')` : `(${i},'note ${i}')`)).join(',');
    const dump = (note: string) =>
      [
        'CREATE TABLE `a` (`id` int NOT NULL, `code` varchar(9), PRIMARY KEY (`id`), UNIQUE KEY `a_code` (`code`)) ENGINE=InnoDB;',
        `INSERT INTO \`a\` VALUES ${rows(note)};`,
        'CREATE TABLE `b` (`id` int NOT NULL, `ref` varchar(9), PRIMARY KEY (`id`), UNIQUE KEY `b_ref` (`ref`)) ENGINE=InnoDB;',
        `INSERT INTO \`b\` VALUES ${rows(note)};`,
        'CREATE TABLE `c` (`id` int NOT NULL, `day` date, PRIMARY KEY (`id`)) ENGINE=InnoDB;',
      ].join('\n');
    expect(dump('plain').length).toBeGreaterThan(200_000);
    expect(keys(dump("it''s"))).toEqual([
      ['a', ['id', 'code'], ''],
      ['b', ['id', 'ref'], ''],
      ['c', ['id'], ''],
    ]);
    // MySQL's backslash escape is not PostgreSQL's: the statements are split wrongly around it.
    expect(keys(dump("it\\'s"))).toEqual([
      ['a', ['id', 'code'], ''],
      ['c', ['id'], ''],
      ['b', [], 'unsure addition'],
    ]);
  });

  it('a statement MySQL-looking but read by neither grammar leaves the tables it names unsure, and the file readable', () => {
    expect(
      keys(
        'CREATE TABLE `topics` (`id` int PRIMARY KEY);\nCREATE TABLE `feeds` (`id` int PRIMARY KEY, `post_id` int, UNIQUE KEY `feeds_post` (`post_id`)) PARTITION BY HASH(`id`) PARTITIONS 4;',
      ),
    ).toEqual([
      ['topics', ['id'], ''],
      ['feeds', [], 'unsure addition'],
    ]);
  });
});
