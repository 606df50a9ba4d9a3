import { describe, expect, it } from 'vitest';

import { liquibase } from '../../../eslint-plugin/src/libraries/liquibase.js';
import { whenSqlParserReady } from '../../../eslint-plugin/src/analysis/sql/parser.js';
import { lintProject } from '../support/project.js';

await whenSqlParserReady();

const changeLog = (changes: string) => `<?xml version="1.1" encoding="UTF-8" standalone="no"?>
<databaseChangeLog xmlns="http://www.liquibase.org/xml/ns/dbchangelog">
  <changeSet author="team" id="1">
${changes}
  </changeSet>
</databaseChangeLog>
`;

const inbox = `
    <createTable tableName="inbox">
      <column name="inboxId" type="INTEGER" autoIncrement="true">
        <constraints nullable="false" primaryKey="true" primaryKeyName="inbox_pkey" />
      </column>
      <column name="messageId" type="VARCHAR(50)">
        <constraints nullable="false" />
      </column>
      <column name="receivedAt" type="TIMESTAMP" />
    </createTable>`;

describe('liquibase adapter', () => {
  const read = (changes: string) => liquibase.schema!.read(changeLog(changes), 'changelog/db.changelog-1.0.xml');

  it("reads a created table's primary key and unique columns, whole", () => {
    expect(
      read(`${inbox}
    <createTable tableName="refunds">
      <column name="refundId" type="VARCHAR(30)"><constraints primaryKey="true" /></column>
      <column name="orderId" type="VARCHAR(30)"><constraints unique="true" nullable="false" /></column>
    </createTable>`),
    ).toEqual([
      {
        table: 'inbox',
        keys: [
          {
            columns: ['inboxId'],
            partial: false,
            primary: true,
            written: 'primary key (inboxId) in createTable inbox',
          },
        ],
      },
      {
        table: 'refunds',
        keys: [
          { columns: ['orderId'], partial: false, written: 'orderId unique in createTable refunds' },
          {
            columns: ['refundId'],
            partial: false,
            primary: true,
            written: 'primary key (refundId) in createTable refunds',
          },
        ],
      },
    ]);
  });

  it('adds the keys of later changes to a table declared elsewhere, and SQL given as text', () => {
    expect(
      read(`
    <addUniqueConstraint tableName="inbox" columnNames="messageId, handler" constraintName="inbox_message" />
    <createIndex tableName="payments" indexName="payments_reference" unique="true"><column name="referenceId" /></createIndex>
    <createIndex tableName="payments" indexName="payments_frn"><column name="frn" /></createIndex>
    <sql>CREATE UNIQUE INDEX settlements_invoice ON settlements ("invoiceNumber");</sql>`),
    ).toEqual([
      {
        table: 'inbox',
        keys: [
          { columns: ['messageId', 'handler'], partial: false, written: 'addUniqueConstraint inbox_message on inbox' },
        ],
        addition: true,
      },
      {
        table: 'payments',
        keys: [{ columns: ['referenceId'], partial: false, written: 'unique index payments_reference on payments' }],
        addition: true,
      },
      expect.objectContaining({ table: 'settlements', addition: true }),
    ]);
  });

  it('leaves a table whose keys a change may drop or rename unsure, and reads other XML as declaring nothing', () => {
    expect(read(`<dropIndex tableName="inbox" indexName="inbox_message" />`)).toEqual([
      { table: 'inbox', keys: [], addition: true, unsure: true },
    ]);
    expect(
      liquibase.schema!.read('<project><modelVersion>4.0.0</modelVersion></project>', 'changelog/pom.xml'),
    ).toEqual([]);
  });

  it('settles a claim on the table its changelogs declare, through the real eslint command', async () => {
    const claim = `
export async function claim(pool, id) {
  await pool.query('INSERT INTO inbox ("messageId") VALUES ($1) ON CONFLICT ("messageId") DO NOTHING', [id]);
}
`;
    const lint = async (later: string) =>
      (
        await lintProject({
          'changelog/db.changelog-1.0.xml': changeLog(inbox),
          'changelog/db.changelog-1.1.xml': changeLog(later),
          'src/claim.js': claim,
        })
      ).findings;
    expect(await lint('<tagDatabase tag="v1" />')).toEqual([
      'src/claim.js:3 idempotency/no-claim-without-unique-key/noMatchingKey',
    ]);
    expect(await lint('<addUniqueConstraint tableName="inbox" columnNames="messageId" />')).toEqual([]);
    // A key dropped by a change the reader does not follow leaves the table's keys unknown: silent.
    expect(await lint('<dropUniqueConstraint tableName="inbox" constraintName="inbox_other" />')).toEqual([]);
  });
});
