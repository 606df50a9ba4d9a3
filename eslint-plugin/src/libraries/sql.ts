import { sqlOperations, uniqueKeysInSql, type DataAdapter, type SqlCalls } from '../analysis/index.js';
import { prismaMigrationPointers } from './prisma.js';

/**
 * SQL sent as text, whatever the client: pg, postgres.js, pg-promise, mysql2, Slonik,
 * better-sqlite3, knex.raw, Prisma's raw queries, Drizzle and Kysely `sql` templates. A call is
 * SQL when it sends text that starts like a statement; these method names may send it from a name.
 */
export const sqlCalls: SqlCalls = {
  methods: new Set([
    'query',
    'execute',
    'exec',
    'raw',
    'unsafe',
    'none',
    'one',
    'oneOrNone',
    'many',
    'manyOrNone',
    'any',
    'result',
    'multi',
    'run',
    'all',
    'get',
    'prepare',
    'sql',
    '$executeRawUnsafe',
    '$queryRawUnsafe',
    'maybeOne',
    'maybeOneFirst',
    'oneFirst',
    'queryArray',
    'queryObject',
  ]),
  restParameters: new Set(['$executeRawUnsafe', '$queryRawUnsafe']),
  wrappers: new Map(),
  // pg-promise's `none` resolves to null, and rejects if the statement returns rows.
  answerless: new Set(['none']),
};

export const sql: DataAdapter = {
  kind: 'data',
  name: 'sql',
  label: 'SQL',
  modules: [
    'pg',
    'postgres',
    'pg-promise',
    'mysql2',
    'mysql',
    'slonik',
    'better-sqlite3',
    'sqlite3',
    '@neondatabase/serverless',
    '@vercel/postgres',
  ],
  methods: 'any',
  recognise: (node, file) => sqlOperations(node, file.scopeOf, sqlCalls, 'sql'),
  remedy: 'INSERT … ON CONFLICT DO NOTHING and check the row count',
  uniqueViolations: ['23505', 'unique_violation', 'duplicate key', 'ER_DUP_ENTRY', 'SQLITE_CONSTRAINT'],
  // DDL files and migration folders of the common tools (plain SQL, Prisma, Supabase, Drizzle Kit).
  schema: {
    locations: [
      'schema.sql',
      'db/schema.sql',
      'db/structure.sql',
      { folder: 'migrations', ending: '.sql', depth: 3 },
      { folder: 'db/migrations', ending: '.sql', depth: 3 },
      { folder: 'database/migrations', ending: '.sql', depth: 3 },
      { folder: 'src/migrations', ending: '.sql', depth: 3 },
      { folder: 'prisma/migrations', ending: '.sql', depth: 2 },
      // Supabase's migrations, and the table definitions a project keeps beside them (`supabase/orders.sql`, `supabase/schemas/`).
      { folder: 'supabase', ending: '.sql', depth: 2 },
      { folder: 'drizzle', ending: '.sql', depth: 2 },
      { folder: 'sql', ending: '.sql', depth: 2 },
      // Table definitions kept in a folder of their own (`tables/orders.sql`, `schema/orders.sql`).
      { folder: 'tables', ending: '.sql', depth: 1 },
      { folder: 'schema', ending: '.sql', depth: 2 },
      // Table definitions kept beside the code that queries them (`src/db/orders.sql`).
      { folder: 'db', ending: '.sql', depth: 1 },
      { folder: 'database', ending: '.sql', depth: 1 },
      { folder: 'src/db', ending: '.sql', depth: 1 },
      { folder: 'src/database', ending: '.sql', depth: 1 },
    ],
    // Prisma Migrate's folder where a project moved its schema (`schema: './src/model'`).
    pointers: prismaMigrationPointers,
    endings: ['.sql'],
    read: (text) => uniqueKeysInSql(text),
    kind: 'SQL',
  },
};
