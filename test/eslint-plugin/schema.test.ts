import { describe, expect, it } from 'vitest';

import { lintProject as lintProjectAt } from './support/project.js';

/**
 * The code these tests read runs in the project's workers: a check-then-insert there is reported
 * whatever its table holds, so the schema alone decides. Its files are written under
 * `src/workers/`, and findings are named as the tests wrote them.
 */
async function lintProject(...[files, ...rest]: Parameters<typeof lintProjectAt>): ReturnType<typeof lintProjectAt> {
  const moved = Object.fromEntries(
    Object.entries(files).map(([name, text]) => [name.replace(/(^|\/)src\//, '$1src/workers/'), text]),
  );
  const result = await lintProjectAt(moved, ...rest);
  return { ...result, findings: result.findings.map((finding) => finding.replace('src/workers/', 'src/')) };
}

/**
 * What the project's schema says arbitrates a check-then-insert, through the real `eslint`
 * command on small projects: a unique key that covers the checked columns lets the database
 * settle the race; without one, or with a partial one, the check still decides.
 */

const prismaSchema = `
datasource db {
  provider = "postgresql"
  url      = env("DATABASE_URL")
}

model Subscriber {
  id    String @id @default(cuid())
  email String @unique
  name  String
}

model Entry {
  id        String @id @default(cuid())
  invoiceId String
  accountId String
  cents     Int
  @@unique([invoiceId, accountId])
}

model Visit {
  id     String @id @default(cuid())
  userId String
  day    String
}
`;

const prismaConsumer = `
export async function subscribe(prisma, email, name) {
  const existing = await prisma.subscriber.findFirst({ where: { email } });
  if (existing) return existing;
  return prisma.subscriber.create({ data: { email, name } });
}

export async function book(prisma, invoiceId, accountId, cents) {
  const found = await prisma.entry.findFirst({ where: { invoiceId, accountId } });
  if (!found) await prisma.entry.create({ data: { invoiceId, accountId, cents } });
}

export async function visit(prisma, userId, day) {
  const seen = await prisma.visit.findFirst({ where: { userId, day } });
  if (!seen) await prisma.visit.create({ data: { userId, day } });
}
`;

describe('the schema decides whether a check-then-insert is a race', () => {
  it('Prisma: @unique and @@unique covering the checked fields settle it; a model without one does not', async () => {
    const { findings } = await lintProject({
      'prisma/schema.prisma': prismaSchema,
      'src/subscribe.js': prismaConsumer,
    });
    expect(findings).toEqual(['src/subscribe.js:15 idempotency/no-check-then-insert/checkThenInsert']);
  });

  it('without a schema nothing is known, and every check still decides', async () => {
    const { findings } = await lintProject({ 'src/subscribe.js': prismaConsumer });
    expect(findings).toEqual([
      'src/subscribe.js:10 idempotency/no-check-then-insert/checkThenInsert',
      'src/subscribe.js:15 idempotency/no-check-then-insert/checkThenInsert',
      'src/subscribe.js:5 idempotency/no-check-then-insert/checkThenInsert',
    ]);
  });

  it('a schema in a sibling package of a monorepo counts', async () => {
    const { findings } = await lintProject({
      'packages/db/prisma/schema.prisma': prismaSchema,
      'apps/worker/src/subscribe.js': prismaConsumer,
    });
    expect(findings).toEqual(['apps/worker/src/subscribe.js:15 idempotency/no-check-then-insert/checkThenInsert']);
  });

  it("a service's table definitions beside its code, in a package at the repository's top level, count for a consumer in another", async () => {
    const inbox = (key: string) =>
      `CREATE TABLE \`processed\` (\`id\` varchar(64) NOT NULL, \`seq\` int NOT NULL${key}) ENGINE=InnoDB;`;
    const files = (schema: string, where = 'service-notification/src/db/processed.sql') => ({
      'service-notification/package.json': '{"name":"service-notification"}',
      [where]: schema,
      'base-consumer/package.json': '{"name":"base-consumer"}',
      'base-consumer/src/workers/notify.js': `
export async function notify(connection, event) {
  const [found] = await connection.execute('SELECT id FROM processed WHERE id = ?', [event.id]);
  if (found.length > 0) return;
  await connection.execute('INSERT INTO processed (id, seq) VALUES (?, ?)', [event.id, 1]);
}`,
    });
    const keyed = await lintProjectAt(files(inbox(', PRIMARY KEY (`id`)')));
    expect(keyed.findings).toEqual([]);
    const inDb = await lintProjectAt(files(inbox(', PRIMARY KEY (`id`)'), 'service-notification/db/processed.sql'));
    expect(inDb.findings).toEqual([]);
    // The same table with no key, and the keyed one in a folder that is not a package: the check decides.
    const keyless = await lintProjectAt(files(inbox('')));
    expect(keyless.findings).toEqual([
      'base-consumer/src/workers/notify.js:5 idempotency/no-check-then-insert/checkThenInsert',
    ]);
    const notAPackage = await lintProjectAt(files(inbox(', PRIMARY KEY (`id`)'), 'docs/src/db/processed.sql'));
    expect(notAPackage.findings).toEqual([
      'base-consumer/src/workers/notify.js:5 idempotency/no-check-then-insert/checkThenInsert',
    ]);
  });

  it("a package's table definitions kept in a tables/ folder count", async () => {
    const files = (key: string) => ({
      'packages/schemas/package.json': '{"name":"schemas"}',
      'packages/schemas/tables/processed.sql': `CREATE TABLE processed (id text NOT NULL${key}, seq int NOT NULL);`,
      'packages/worker/package.json': '{"name":"worker"}',
      'packages/worker/src/workers/notify.js': `
export async function notify(pool, event) {
  const { rows } = await pool.query('SELECT id FROM processed WHERE id = $1', [event.id]);
  if (rows.length > 0) return;
  await pool.query('INSERT INTO processed (id, seq) VALUES ($1, $2)', [event.id, 1]);
}`,
    });
    expect((await lintProjectAt(files(' PRIMARY KEY'))).findings).toEqual([]);
    expect((await lintProjectAt(files(''))).findings).toEqual([
      'packages/worker/src/workers/notify.js:5 idempotency/no-check-then-insert/checkThenInsert',
    ]);
  });

  it('Prisma: one schema per provider, in the project or in a package of a monorepo', async () => {
    const local = await lintProject({
      'prisma/postgres/schema.prisma': prismaSchema,
      'src/subscribe.js': prismaConsumer,
    });
    expect(local.findings).toEqual(['src/subscribe.js:15 idempotency/no-check-then-insert/checkThenInsert']);
    const packaged = await lintProject({
      'packages/database/prisma/mysql/schema.prisma': prismaSchema.replace('"postgresql"', '"mysql"'),
      'apps/worker/src/subscribe.js': prismaConsumer,
    });
    expect(packaged.findings).toEqual([
      'apps/worker/src/subscribe.js:15 idempotency/no-check-then-insert/checkThenInsert',
    ]);
  });

  it('Prisma: a multi-file schema, its models spread over files and subfolders of prisma/schema/', async () => {
    const [head, models] = prismaSchema.split('model Subscriber');
    const [subscriber, rest] = `model Subscriber${models}`.split('model Entry');
    const [entry, visit] = `model Entry${rest}`.split('model Visit');
    const files = {
      'prisma/schema/schema.prisma': head,
      'prisma/schema/subscriber.prisma': subscriber,
      'prisma/schema/billing/entry.prisma': entry,
      'prisma/schema/visit.prisma': `model Visit${visit}`,
      'src/subscribe.js': prismaConsumer,
    };
    expect((await lintProject(files)).findings).toEqual([
      'src/subscribe.js:15 idempotency/no-check-then-insert/checkThenInsert',
    ]);
    // One file of it broken: the tables it names are unknown, and the others keep their keys.
    const broken = await lintProject({ ...files, 'prisma/schema/billing/entry.prisma': entry.replace(/}\s*$/, '') });
    expect(broken.findings).toEqual(['src/subscribe.js:15 idempotency/no-check-then-insert/checkThenInsert']);
    expect(broken.stderr.match(/entry\.prisma: it could not be read as a Prisma schema/g)).toHaveLength(1);
    const withoutKey = await lintProject({
      ...files,
      'prisma/schema/billing/entry.prisma': entry.replace('@@unique([invoiceId, accountId])', ''),
    });
    expect(withoutKey.findings).toEqual([
      'src/subscribe.js:10 idempotency/no-check-then-insert/checkThenInsert',
      'src/subscribe.js:15 idempotency/no-check-then-insert/checkThenInsert',
    ]);
  });

  it("Prisma: a schema kept where package.json's prisma.schema or prisma.config.ts says", async () => {
    const elsewhere = { 'database/main.prisma': prismaSchema, 'src/subscribe.js': prismaConsumer };
    expect((await lintProject(elsewhere)).findings).toHaveLength(3);
    const byPackage = await lintProject({
      ...elsewhere,
      'package.json': JSON.stringify({ name: 'project', type: 'module', prisma: { schema: 'database/main.prisma' } }),
    });
    expect(byPackage.findings).toEqual(['src/subscribe.js:15 idempotency/no-check-then-insert/checkThenInsert']);
    const byConfig = await lintProject({
      ...elsewhere,
      'prisma.config.ts':
        "import { defineConfig } from 'prisma/config';\nexport default defineConfig({ schema: 'database' });\n",
    });
    expect(byConfig.findings).toEqual(['src/subscribe.js:15 idempotency/no-check-then-insert/checkThenInsert']);
    // A path built at run time is not followed: nothing is run to find it.
    const computed = await lintProject({
      ...elsewhere,
      'prisma.config.ts':
        "import path from 'node:path';\nexport default { schema: path.join('database', 'main.prisma') };\n",
    });
    expect(computed.findings).toHaveLength(3);
  });

  const sqlConsumer = `
export async function claim(pool, id) {
  const { rows } = await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
  if (rows.length > 0) return false;
  await pool.query('INSERT INTO inbox (message_id) VALUES ($1)', [id]);
  return true;
}
`;

  it('SQL migrations: a primary key added by ALTER TABLE covers the check', async () => {
    const { findings } = await lintProject({
      'migrations/001_inbox.sql':
        'CREATE TABLE inbox (message_id text NOT NULL, seen_at timestamptz DEFAULT now());\nALTER TABLE ONLY inbox ADD CONSTRAINT inbox_pkey PRIMARY KEY (message_id);',
      'src/claim.js': sqlConsumer,
    });
    expect(findings).toEqual([]);
  });

  it("Supabase: a table's definition kept beside its migrations (supabase/inbox.sql) covers the check, in the folder of a monorepo's backend; one kept elsewhere does not", async () => {
    const definition =
      'create table if not exists inbox (message_id text primary key not null, seen_at timestamptz default now());';
    const beside = await lintProject({
      'backend/supabase/inbox.sql': definition,
      'backend/supabase/migrations/2026010101_seen.sql': 'alter table inbox add column source text;',
      'backend/api/src/claim.js': sqlConsumer,
    });
    expect(beside.findings).toEqual([]);
    const elsewhere = await lintProject({
      'backend/notes/inbox.sql': definition,
      'backend/api/src/claim.js': sqlConsumer,
    });
    expect(elsewhere.findings).toEqual(['backend/api/src/claim.js:5 idempotency/no-check-then-insert/checkThenInsert']);
  });

  const mysqlConsumer = `
export async function claim(pool, id) {
  const [rows] = await pool.query('SELECT 1 FROM inbox WHERE message_id = ?', [id]);
  if (rows.length > 0) return false;
  await pool.query('INSERT INTO inbox (message_id) VALUES (?)', [id]);
  return true;
}

export async function visit(pool, userId, day) {
  const [rows] = await pool.query('SELECT 1 FROM visits WHERE user_id = ? AND day = ?', [userId, day]);
  if (rows.length === 0) await pool.query('INSERT INTO visits (user_id, day) VALUES (?, ?)', [userId, day]);
}
`;

  it('MySQL migrations: a UNIQUE KEY in a backticked CREATE TABLE covers the check; a table with only a plain KEY does not', async () => {
    const { findings, stderr } = await lintProject({
      'migrations/001_init.sql': [
        'CREATE TABLE `inbox` (`id` int NOT NULL AUTO_INCREMENT, `message_id` varchar(64) NOT NULL, PRIMARY KEY (`id`), UNIQUE KEY `inbox_message` (`message_id`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;',
        'CREATE TABLE `visits` (`id` int NOT NULL AUTO_INCREMENT, `user_id` int NOT NULL, `day` date NOT NULL, PRIMARY KEY (`id`), KEY `visits_user_day` (`user_id`, `day`)) ENGINE=InnoDB;',
      ].join('\n'),
      'src/claim.js': mysqlConsumer,
    });
    expect(findings).toEqual(['src/claim.js:11 idempotency/no-check-then-insert/checkThenInsert']);
    expect(stderr).not.toMatch(/could not be read/);
  });

  it("CREATE TABLE texts a project's own code returns and runs count as its schema: a primary key covers the check, a plain KEY does not, a text only exported is no schema", async () => {
    const { findings, stderr } = await lintProject({
      'src/examples.ts':
        "export const keyedVisits = 'CREATE TABLE visits (user_id int NOT NULL, day date NOT NULL, PRIMARY KEY (user_id, day))';\n",
      'src/database-migration.ts': `
export class Migration {
  async $run(db) {
    await db.execute(this.inboxTable());
    await db.execute(this.visitsTable());
  }
  private inboxTable(): string {
    return \`CREATE TABLE IF NOT EXISTS inbox (
      message_id varchar(64) NOT NULL,
      received_at int(11) unsigned NOT NULL,
      PRIMARY KEY (message_id)
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8;\`;
  }
  private visitsTable(): string {
    return \`CREATE TABLE IF NOT EXISTS visits (
      id int(11) NOT NULL AUTO_INCREMENT,
      user_id int(11) NOT NULL,
      day date NOT NULL,
      PRIMARY KEY (id),
      KEY visits_user_day (user_id, day)
    ) ENGINE=InnoDB;\`;
  }
}
`,
      'src/claim.js': mysqlConsumer,
    });
    expect(findings).toEqual(['src/claim.js:11 idempotency/no-check-then-insert/checkThenInsert']);
    expect(stderr).not.toMatch(/could not be read/);
  });

  it('MySQL migrations: a key added later by ALTER TABLE … ADD UNIQUE covers the check, and a drop does not take one away', async () => {
    const created =
      'CREATE TABLE `inbox` (`id` int NOT NULL AUTO_INCREMENT PRIMARY KEY, `message_id` varchar(64) NOT NULL);\nCREATE TABLE `visits` (`id` int PRIMARY KEY, `user_id` int, `day` date);';
    const added = await lintProject({
      'db/migrations/001_init.sql': created,
      'db/migrations/002_keys.sql':
        'ALTER TABLE `visits` ADD CONSTRAINT `visits_once` UNIQUE (`user_id`, `day`), ALGORITHM=INPLACE;',
      'src/claim.js': mysqlConsumer,
    });
    expect(added.findings).toEqual(['src/claim.js:5 idempotency/no-check-then-insert/checkThenInsert']);
    const dropped = await lintProject({
      'db/migrations/001_init.sql': created.replace(
        '`message_id` varchar(64) NOT NULL)',
        '`message_id` varchar(64) NOT NULL, UNIQUE KEY `inbox_message` (`message_id`))',
      ),
      'db/migrations/002_keys.sql': 'ALTER TABLE `inbox` DROP INDEX `inbox_message`;',
      'src/claim.js': mysqlConsumer,
    });
    // A drop may be a down section's: the key still settles inbox (silence when unsure); visits still has none.
    expect(dropped.findings).toEqual(['src/claim.js:11 idempotency/no-check-then-insert/checkThenInsert']);
  });

  it('a MySQL-looking migration that neither grammar reads is skipped with one warning, and the rules stay silent about the tables it names', async () => {
    const unreadable =
      'CREATE TABLE `inbox` (`message_id` varchar(64) NOT NULL, UNIQUE KEY (`message_id`)) PARTITION BY KEY() PARTITIONS 4;';
    const { findings, stderr } = await lintProject({
      'migrations/001_inbox.sql': unreadable,
      'src/claim.js': mysqlConsumer,
    });
    expect(stderr.match(/could not be read as SQL/g)).toHaveLength(1);
    // visits: as unknown as without a schema, its check still decides; inbox: named by the skipped file.
    expect(findings).toEqual(['src/claim.js:11 idempotency/no-check-then-insert/checkThenInsert']);
  });

  it('a partial unique index settles duplicates only among some rows: the check still decides', async () => {
    const { findings } = await lintProject({
      'db/migrations/001_inbox.sql':
        'CREATE TABLE inbox (message_id text NOT NULL, done boolean);\nCREATE UNIQUE INDEX inbox_open ON inbox (message_id) WHERE NOT done;',
      'src/claim.js': sqlConsumer,
    });
    expect(findings).toEqual(['src/claim.js:5 idempotency/no-check-then-insert/checkThenInsert']);
  });

  it('a partial unique index on rows still live (WHERE deleted_at IS NULL) covers an insert that leaves them live', async () => {
    const migration = (where: string) =>
      `CREATE TABLE inbox (message_id text NOT NULL, deleted_at timestamptz);\nCREATE UNIQUE INDEX inbox_live ON inbox (message_id) WHERE ${where};`;
    const live = await lintProject({
      'db/migrations/001_inbox.sql': migration('deleted_at IS NULL'),
      'src/claim.js': sqlConsumer,
    });
    expect(live.findings).toEqual([]);
    // A condition on a value the insert may set otherwise covers only some of the rows it writes.
    const other = await lintProject({
      'db/migrations/001_inbox.sql': migration("deleted_at IS NULL AND message_id <> ''"),
      'src/claim.js': sqlConsumer,
    });
    expect(other.findings).toEqual(['src/claim.js:5 idempotency/no-check-then-insert/checkThenInsert']);
  });

  it('a partial unique index on rows of some statuses covers an insert whose status the SQL writes among them', async () => {
    const migration = (where: string) =>
      `CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), user_id text NOT NULL, item_id text NOT NULL, status text NOT NULL, price bigint);\nCREATE UNIQUE INDEX orders_one_active ON orders (user_id, item_id) WHERE ${where};`;
    const purchase = (status: string) => `
export async function purchase(pool, userId, itemId, price) {
  const { rows } = await pool.query("SELECT 1 FROM orders WHERE user_id = $1 AND item_id = $2 AND status NOT IN ('FAILED', 'REFUNDED')", [userId, itemId]);
  if (rows.length > 0) throw new Error('already bought');
  await pool.query("INSERT INTO orders (user_id, item_id, status, price) VALUES ($1, $2, '${status}', $3)", [userId, itemId, price]);
}
`;
    const lint = (where: string, status: string) =>
      lintProject({ 'db/migrations/001_orders.sql': migration(where), 'src/purchase.js': purchase(status) });
    expect((await lint("status NOT IN ('FAILED', 'REFUNDED')", 'PENDING')).findings).toEqual([]);
    expect((await lint("status = 'PENDING'", 'PENDING')).findings).toEqual([]);
    // The near misses: an insert of a status the index leaves out, or of one the condition does not list.
    expect((await lint("status NOT IN ('FAILED', 'REFUNDED')", 'FAILED')).findings).toEqual([
      'src/purchase.js:5 idempotency/no-check-then-insert/checkThenInsert',
    ]);
    expect((await lint("status IN ('PAID')", 'PENDING')).findings).toEqual([
      'src/purchase.js:5 idempotency/no-check-then-insert/checkThenInsert',
    ]);
  });

  it('effects between the check and a protected insert run twice, and are named', async () => {
    const { findings, messages } = await lintProject({
      'migrations/001.sql':
        'CREATE TABLE inbox (message_id text PRIMARY KEY);\nCREATE TABLE stats (day text PRIMARY KEY, handled int);',
      'src/claim.js': `
export async function handle(pool, id, day) {
  const { rows } = await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
  if (rows.length > 0) return;
  await pool.query('UPDATE stats SET handled = handled + 1 WHERE day = $1', [day]);
  await pool.query('INSERT INTO inbox (message_id) VALUES ($1)', [id]);
}
`,
    });
    expect(findings).toEqual(['src/claim.js:6 idempotency/no-claim-after-effect/protectedButWorkBefore']);
    expect(messages[0]).toContain('PRIMARY KEY (message_id) on inbox');
    expect(messages[0]).toContain('the UPDATE of stats');
  });

  it('writes in the same transaction as the protected insert are rolled back with it', async () => {
    const { findings } = await lintProject({
      'prisma/schema.prisma': prismaSchema.replace(
        'model Visit',
        'model Account {\n  id String @id\n  provider String\n  providerAccountId String\n  @@unique([provider, providerAccountId])\n}\n\nmodel Visit',
      ),
      'src/oauth.js': `
export async function link(prisma, provider, providerAccountId, email) {
  return prisma.$transaction(async (tx) => {
    const existing = await tx.account.findFirst({ where: { provider, providerAccountId } });
    if (existing) return existing;
    await tx.subscriber.update({ where: { email }, data: { name: provider } });
    return tx.account.create({ data: { provider, providerAccountId } });
  });
}
`,
    });
    expect(findings).toEqual([]);
  });

  it('an insert on a unique key after the check, in the same transaction, takes a twin transaction and its other insert back', async () => {
    const schema = `
model Email {
  id         String @id @default(cuid())
  campaignId String
  contactId  String
}

model CampaignEmail {
  campaignId String
  contactId  String
  emailId    String
  @@unique([campaignId, contactId])
}
`;
    const handler = (withKey: boolean) => `
export async function record(prisma, campaignId, contactId) {
  await prisma.$transaction(async (tx) => {
    const existing = await tx.email.findFirst({ where: { campaignId, contactId } });
    if (existing) return;
    const email = await tx.email.create({ data: { campaignId, contactId } });
    ${withKey ? 'await tx.campaignEmail.create({ data: { campaignId, contactId, emailId: email.id } });' : ''}
  });
}
`;
    expect((await lintProject({ 'prisma/schema.prisma': schema, 'src/record.js': handler(true) })).findings).toEqual(
      [],
    );
    // The keyed insert first, after the check, then the unkeyed one: the twin fails there just the same.
    const keyedFirst = `
export async function record(prisma, campaignId, contactId, emailId) {
  await prisma.$transaction(async (tx) => {
    const existing = await tx.email.findFirst({ where: { campaignId, contactId } });
    if (existing) return;
    await tx.campaignEmail.create({ data: { campaignId, contactId, emailId } });
    await tx.email.create({ data: { campaignId, contactId } });
  });
}
`;
    expect((await lintProject({ 'prisma/schema.prisma': schema, 'src/record.js': keyedFirst })).findings).toEqual([]);
    expect((await lintProject({ 'prisma/schema.prisma': schema, 'src/record.js': handler(false) })).findings).toEqual([
      'src/record.js:6 idempotency/no-check-then-insert/checkThenInsert',
    ]);
  });

  it('a schema file that does not parse is skipped with one warning, and nothing crashes', async () => {
    const { findings, stderr } = await lintProject({
      'prisma/schema.prisma': 'model Broken {\n  id String @id\n',
      'src/subscribe.js': prismaConsumer,
      'src/again.js': prismaConsumer,
    });
    expect(findings).toHaveLength(6);
    expect(stderr.match(/could not be read as a Prisma schema/g)).toHaveLength(1);
  });

  it('Prisma: block comments and spaces at the end of a line are read, not taken for a broken schema', async () => {
    const commented = prismaSchema
      .replace('model Subscriber {', '/* ===== subscribers ===== */\nmodel Subscriber { ')
      .replace('model Entry {', '/*\n  Ledger entries,\n  one per invoice and account\n*/\nmodel Entry {  ')
      .replace('name  String', 'name  String /* shown in mails */ ');
    const { findings, stderr } = await lintProject({
      'prisma/schema.prisma': commented,
      'src/subscribe.js': prismaConsumer,
    });
    expect(findings).toEqual(['src/subscribe.js:15 idempotency/no-check-then-insert/checkThenInsert']);
    expect(stderr).not.toMatch(/could not be read/);
  });

  it('Prisma: a no-break space where a space would do is read as one', async () => {
    const spaced = prismaSchema
      .replace('model Entry {', 'model Entry {\u00a0 ')
      .replace('model Visit {', 'model\u00a0Visit {');
    expect(spaced).not.toEqual(prismaSchema);
    const { findings, stderr } = await lintProject({
      'prisma/schema.prisma': spaced,
      'src/subscribe.js': prismaConsumer,
    });
    expect(findings).toEqual(['src/subscribe.js:15 idempotency/no-check-then-insert/checkThenInsert']);
    expect(stderr).not.toMatch(/could not be read/);
  });

  it('Prisma: @@id naming one field without brackets is a key', async () => {
    const keyed = prismaSchema.replace(
      'model Visit {\n  id     String @id @default(cuid())\n  userId String\n  day    String\n}',
      'model Visit {\n  userId String\n  day    String\n  @@id(userId)\n}',
    );
    expect(keyed).not.toEqual(prismaSchema);
    const { findings } = await lintProject({ 'prisma/schema.prisma': keyed, 'src/subscribe.js': prismaConsumer });
    expect(findings).toEqual([]);
  });

  it('a schema left with merge-conflict markers: the rules stay silent about the tables it names', async () => {
    const conflicted = prismaSchema
      .replace('model Subscriber {', '<<<<<<< HEAD\nmodel Subscriber {')
      .replace('model Entry {', '=======\n>>>>>>> feature\nmodel Entry {');
    const named = await lintProject({ 'prisma/schema.prisma': conflicted, 'src/subscribe.js': prismaConsumer });
    expect(named.findings).toEqual([]);
    expect(named.stderr.match(/could not be read as a Prisma schema/g)).toHaveLength(1);
    // A table the unreadable schema does not name is as unknown as without a schema: its check still decides.
    const other = await lintProject({
      'prisma/schema.prisma': conflicted,
      'src/subscribe.js': prismaConsumer.replace(/prisma\.subscriber/g, 'prisma.newsletter'),
    });
    expect(other.findings).toEqual(['src/subscribe.js:5 idempotency/no-check-then-insert/checkThenInsert']);
  });

  it('a key with a scope column the insert fills, or on a sibling column written from the checked value, settles it; a sibling filled with a fresh value does not', async () => {
    const schema = `
model Tag {
  id        String @id @default(cuid())
  projectId String
  name      String
  @@unique([projectId, name])
}
model Account {
  id       String @id @default(cuid())
  email    String
  emailKey String @unique
}
`;
    const consumer = `import { randomUUID } from 'node:crypto';
export async function addTag(prisma, projectId, name) {
  const found = await prisma.tag.findFirst({ where: { name } });
  if (found) return found;
  return prisma.tag.create({ data: { projectId, name } });
}
export async function addAccount(prisma, accountId, email) {
  const found = await prisma.account.findFirst({ where: { email } });
  if (found) return found;
  return prisma.account.create({ data: { id: accountId, email, emailKey: email.toLowerCase() } });
}
export async function addAccountAnyway(prisma, accountId, email) {
  const found = await prisma.account.findFirst({ where: { email } });
  if (found) return found;
  return prisma.account.create({ data: { id: accountId, email, emailKey: randomUUID() } });
}
export async function addAccountByName(prisma, accountId, email) {
  const found = await prisma.account.findFirst({ where: { email } });
  if (found) return found;
  const emailKey = \`account-\${email}\`;
  return prisma.account.create({ data: { id: accountId, email, emailKey } });
}
export async function addAccountByStamp(prisma, accountId, email) {
  const found = await prisma.account.findFirst({ where: { email } });
  if (found) return found;
  const emailKey = \`account-\${accountId}\`;
  return prisma.account.create({ data: { id: accountId, email, emailKey } });
}
`;
    const { findings } = await lintProject({ 'prisma/schema.prisma': schema, 'src/add.js': consumer });
    // A constant built from the checked value fills the key as the value itself would; one built from another does not.
    expect(findings).toEqual([
      'src/add.js:15 idempotency/no-check-then-insert/checkThenInsert',
      'src/add.js:27 idempotency/no-check-then-insert/checkThenInsert',
    ]);
  });

  it('settings can point at a schema kept elsewhere', async () => {
    const files = { 'config/database/main.prisma': prismaSchema, 'src/subscribe.js': prismaConsumer };
    expect((await lintProject(files)).findings).toHaveLength(3);
    expect((await lintProject(files, { schema: ['config/database'] })).findings).toEqual([
      'src/subscribe.js:15 idempotency/no-check-then-insert/checkThenInsert',
    ]);
  });

  it('knex migrations: a unique column, a composite unique and an added key settle checks; a table without one does not', async () => {
    const { findings } = await lintProject({
      'migrations/001_auth_servers.js': `
exports.up = function (knex) {
  return knex.schema
    .createTable('authServers', function (table) {
      table.uuid('id').notNullable().primary();
      table.string('url').notNullable().unique();
    })
    .createTable('grants', (t) => {
      t.increments();
      t.string('authServerId');
      t.string('accessToken');
    })
    .createTable('visits', (t) => {
      t.increments();
      t.string('userId');
    });
};
`,
      'migrations/002_grants_key.js': `
exports.up = (knex) => knex.schema.alterTable('grants', (t) => { t.unique(['authServerId', 'accessToken']); });
`,
      'src/service.js': `
export async function getOrCreate(knex, url) {
  const found = await knex('authServers').where({ url }).first();
  if (found) return found;
  await knex('authServers').insert({ url });
}

export async function grant(knex, authServerId, accessToken) {
  const found = await knex('grants').where({ authServerId, accessToken }).first();
  if (!found) await knex('grants').insert({ authServerId, accessToken });
}

export async function visit(knex, userId) {
  const seen = await knex('visits').where({ userId }).first();
  if (!seen) await knex('visits').insert({ userId });
}
`,
    });
    expect(findings).toEqual(['src/service.js:15 idempotency/no-check-then-insert/checkThenInsert']);
  });

  it('Drizzle: a unique column, a composite unique index and a composite primary key settle checks; a partial index and a table without one do not', async () => {
    const { findings } = await lintProject({
      'packages/db/schema.ts': `
import { pgTable, text, integer, unique, uniqueIndex, primaryKey } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
export const user = pgTable('user', { id: text('id').primaryKey(), email: text('email').notNull().unique() });
export const members = pgTable('members', { orgId: text('org_id'), userId: text('user_id') }, (t) => [uniqueIndex('members_org_user').on(t.orgId, t.userId)]);
export const seats = pgTable('seats', { orgId: text('org_id'), seat: integer('seat') }, (t) => ({ pk: primaryKey({ columns: [t.orgId, t.seat] }) }));
export const invites = pgTable('invites', { id: text('id').primaryKey(), email: text('email') }, (t) => [uniqueIndex('open_invite').on(t.email).where(sql\`accepted_at is null\`)]);
export const visits = pgTable('visits', { id: text('id').primaryKey(), userId: text('user_id') });
`,
      'server/src/accounts.ts': `
import { and, eq } from 'drizzle-orm';
import { user as userTable, members, seats, invites, visits } from '../../packages/db/schema';
export async function signUp(db, email, id) {
  const found = await db.query.user.findFirst({ where: eq(userTable.email, email) });
  if (!found) await db.insert(userTable).values({ id, email });
}
export async function join(db, orgId, userId) {
  const [member] = await db.select().from(members).where(and(eq(members.orgId, orgId), eq(members.userId, userId)));
  if (!member) await db.insert(members).values({ orgId, userId });
}
export async function take(db, orgId, seat) {
  const [taken] = await db.select().from(seats).where(and(eq(seats.orgId, orgId), eq(seats.seat, seat)));
  if (!taken) await db.insert(seats).values({ orgId, seat });
}
export async function invite(db, email, id) {
  const [open] = await db.select().from(invites).where(eq(invites.email, email));
  if (!open) await db.insert(invites).values({ id, email });
}
export async function visit(db, userId, id) {
  const [seen] = await db.select().from(visits).where(eq(visits.userId, userId));
  if (!seen) await db.insert(visits).values({ id, userId });
}
`,
    });
    expect(findings).toEqual([
      'server/src/accounts.ts:18 idempotency/no-check-then-insert/checkThenInsert',
      'server/src/accounts.ts:22 idempotency/no-check-then-insert/checkThenInsert',
    ]);
  });

  it('Sequelize: keys from createTable uniqueKeys, addIndex and a model init settle checks; a table without one does not', async () => {
    const { findings } = await lintProject({
      'migrations/001-followers.js': `
module.exports = {
  up: async (queryInterface, DataTypes) => {
    await queryInterface.createTable('ConversationFollowers', {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      UserId: { type: DataTypes.INTEGER },
      ConversationId: { type: DataTypes.INTEGER },
    }, { uniqueKeys: { uniqueUserConversation: { customIndex: true, fields: ['UserId', 'ConversationId'] } } });
    await queryInterface.createTable('Visits', { id: { type: DataTypes.INTEGER, primaryKey: true }, UserId: { type: DataTypes.INTEGER } });
    await queryInterface.addIndex('Tags', ['CollectiveId', 'name'], { unique: true });
  },
};
`,
      'src/models.js': `
import { DataTypes, Model } from 'sequelize';
export class Member extends Model {}
Member.init({ id: { type: DataTypes.INTEGER, primaryKey: true }, email: { type: DataTypes.STRING, unique: true } }, { sequelize, tableName: 'Members' });
export const Refund = sequelize.define('Refund', { refundId: { type: DataTypes.STRING, unique: true } });
`,
      'src/service.js': `
import { ConversationFollower, Member, Tag, Visit } from './db.js';
import * as models from './models.js';

export async function follow(UserId, ConversationId) {
  if (await ConversationFollower.findOne({ where: { UserId, ConversationId } })) return;
  await ConversationFollower.create({ UserId, ConversationId });
}

export async function tag(CollectiveId, name) {
  if (await Tag.findOne({ where: { CollectiveId, name } })) return;
  await Tag.create({ CollectiveId, name });
}

export async function join(email) {
  if (await Member.findOne({ where: { email } })) return;
  await Member.create({ email });
}

export async function visit(UserId) {
  if (await Visit.findOne({ where: { UserId } })) return;
  await Visit.create({ UserId });
}

// A model defined without options, reached through the module of models: its unique column settles it.
export async function refund(refundId) {
  if (await models.Refund.findOne({ where: { refundId } })) return;
  await models.Refund.create({ refundId });
}
`,
    });
    expect(findings).toEqual(['src/service.js:22 idempotency/no-check-then-insert/checkThenInsert']);
  });

  it('Prisma: a client a package outside the project made keeps its schema there, so a model the project does not declare has unknown keys', async () => {
    const worker = (source: string) => `
import { Worker } from 'bullmq';
import { prisma } from '${source}';
new Worker('signers', async (job) => {
  const signer = await prisma.documentSigner.findFirst({ where: { email: job.data.email, envelopeId: job.data.envelopeId } });
  if (signer) return;
  await prisma.documentSigner.create({ data: { email: job.data.email, envelopeId: job.data.envelopeId } });
});
`;
    const fromPackage = await lintProject({ 'src/worker.ts': worker('@acme/core/prisma-client') });
    expect(fromPackage.findings).toEqual([]);
    // The near misses: the project's own schema declares the model, or the client is Prisma's own.
    const declared = await lintProject({
      'prisma/schema.prisma': 'model DocumentSigner {\n  id String @id\n  email String\n  envelopeId String\n}\n',
      'src/worker.ts': worker('@acme/core/prisma-client'),
    });
    expect(declared.findings).toEqual(['src/worker.ts:7 idempotency/no-check-then-insert/checkThenInsert']);
    const own = await lintProject({ 'src/worker.ts': worker('@prisma/client') });
    expect(own.findings).toEqual(['src/worker.ts:7 idempotency/no-check-then-insert/checkThenInsert']);
  });

  it('Sequelize: a TypeScript migration whose parameter is typed QueryInterface (named otherwise) adds its unique index', async () => {
    const migration = (options: string) => `
import { QueryInterface } from 'sequelize';
export async function up(query: QueryInterface): Promise<void> {
  await query.addIndex('invoice_items', ['invoice_id', 'source_record_type', 'source_record_id'], ${options});
}
`;
    const service = `
import { InvoiceItem } from './models';
export async function addFee(invoiceId: string, encounterId: string) {
  if (await InvoiceItem.findOne({ where: { invoiceId, sourceRecordType: 'Encounter', sourceRecordId: encounterId } })) return;
  await InvoiceItem.create({ invoiceId, sourceRecordType: 'Encounter', sourceRecordId: encounterId, quantity: 1, price: 20 });
}
`;
    const models = 'export const InvoiceItem: any = {};\n';
    const unique = await lintProject({
      'src/migrations/1763676214752-unique.ts': migration('{ unique: true, name: "invoice_items_source_unique" }'),
      'src/fees.ts': service,
      'src/models.ts': models,
    });
    expect(unique.findings).toEqual([]);
    const plain = await lintProject({
      'src/migrations/1763676214752-index.ts': migration('{ name: "invoice_items_source" }'),
      'src/fees.ts': service,
      'src/models.ts': models,
    });
    expect(plain.findings).toEqual(['src/fees.ts:5 idempotency/no-check-then-insert/checkThenInsert']);
  });

  it('Sequelize: a model typed through the namespace the default import names (Sequelize.STRING) declares its primary key', async () => {
    const { findings } = await lintProject({
      'src/models/stake_transaction.ts': `
import Sequelize from 'sequelize';
export default (sequelize: Sequelize.Sequelize) =>
  sequelize.define('StakeTransaction', {
    transaction_hash: { type: Sequelize.STRING, allowNull: false, primaryKey: true },
    address: { type: Sequelize.STRING, allowNull: false },
  }, { tableName: 'StakeTransactions', timestamps: false });
`,
      'src/stakes.ts': `
import { models } from './database';
export async function recordTrade(transaction_hash: string, address: string) {
  if (await models.StakeTransaction.findOne({ where: { transaction_hash } })) return;
  await models.StakeTransaction.create({ transaction_hash, address });
}
export async function recordFirstTrade(transaction_hash: string, address: string) {
  if (await models.StakeTransaction.findOne({ where: { address } })) return;
  await models.StakeTransaction.create({ transaction_hash, address });
}
`,
      'src/database.ts': 'export const models: any = {};\n',
    });
    expect(findings).toEqual(['src/stakes.ts:9 idempotency/no-check-then-insert/checkThenInsert']);
  });

  it('quoted names in SQL keep their case: an ON CONFLICT on "userId" meets the key a Sequelize migration adds on userId', async () => {
    const { findings } = await lintProject({
      'migrations/001-subscriptions.js': `
module.exports = {
  up: async (queryInterface, Sequelize) => {
    await queryInterface.createTable('subscriptions', { id: { type: Sequelize.UUID, primaryKey: true }, userId: { type: Sequelize.UUID }, documentId: { type: Sequelize.UUID }, event: { type: Sequelize.STRING } });
    await queryInterface.addIndex('subscriptions', ['userId', 'documentId', 'event'], { name: 'subscriptions_user_document_event', type: 'UNIQUE' });
  },
};
`,
      'src/subscribe.js': `
export async function subscribe(sequelize, userId, documentId, event) {
  await sequelize.query('INSERT INTO subscriptions ("id", "userId", "documentId", "event") VALUES (gen_random_uuid(), :userId, :documentId, :event) ON CONFLICT ("userId", "documentId", "event") DO NOTHING', { replacements: { userId, documentId, event } });
}

export async function subscribeAll(sequelize, userId, event) {
  await sequelize.query('INSERT INTO subscriptions ("id", "userId", "event") VALUES (gen_random_uuid(), :userId, :event) ON CONFLICT ("userId", "event") DO NOTHING', { replacements: { userId, event } });
}
`,
    });
    expect(findings).toEqual(['src/subscribe.js:7 idempotency/no-claim-without-unique-key/noMatchingKey']);
  });

  it('a row saved as a new entity, or spread from the object the check read, fills the columns the key covers', async () => {
    const { findings } = await lintProject({
      'prisma/schema.prisma': `
model UtmTemplate {
  id        String  @id
  name      String
  projectId String?
  @@unique([projectId, name])
}
`,
      'src/entities.ts': `
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity()
@Index(['productVariantId', 'stockLocationId'], { unique: true })
export class StockLevel {
  @PrimaryGeneratedColumn() id!: number;
  @Column() productVariantId!: string;
  @Column() stockLocationId!: string;
}
`,
      'src/service.ts': `
import { StockLevel } from './entities.js';

export async function stockLevel(repo: any, productVariantId: string, stockLocationId: string) {
  const level = await this.connection.getRepository(StockLevel).findOne({ where: { productVariantId, stockLocationId } });
  if (level) return level;
  return this.connection.getRepository(StockLevel).save(new StockLevel({ productVariantId, stockLocationId }));
}

export async function template(prisma: any, workspace: any, props: any) {
  const existing = await prisma.utmTemplate.findFirst({ where: { projectId: workspace.id, name: props.name } });
  if (existing) throw new Error('exists');
  return prisma.utmTemplate.create({ data: { id: 'utm_1', projectId: workspace.id, ...props } });
}
`,
    });
    expect(findings).toEqual([]);
  });

  it('TypeORM migrations: a unique index of new Table({ … }) or createIndex(new TableIndex({ … })) settles an upsert the entity alone would not', async () => {
    const entities = `
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('member_cache')
export class MemberCacheItem {
  @PrimaryGeneratedColumn() id!: number;
  @Column() guild_id!: string;
  @Column() user_id!: string;
}

@Entity('reminders')
export class Reminder {
  @PrimaryGeneratedColumn() id!: number;
  @Column() guild_id!: string;
  @Column() user_id!: string;
}
`;
    const migration = `
import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
export class CreateMemberCache1682788165866 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(new Table({
      name: 'member_cache',
      columns: [{ name: 'id', type: 'int', isPrimary: true, isGenerated: true }, { name: 'guild_id', type: 'bigint' }, { name: 'user_id', type: 'bigint' }],
      indices: [{ columnNames: ['guild_id', 'user_id'], isUnique: true }, { columnNames: ['user_id'] }],
    }));
    await queryRunner.createTable(new Table({ name: 'reminders', columns: [{ name: 'id', type: 'int', isPrimary: true }, { name: 'guild_id', type: 'bigint' }, { name: 'user_id', type: 'bigint' }] }));
    await queryRunner.createIndex('reminders', new TableIndex({ columnNames: ['user_id'] }));
  }
  public async down(): Promise<void> {}
}
`;
    const service = `
import { getRepository } from 'typeorm';
import { MemberCacheItem, Reminder } from './entities.js';
export async function save(items) {
  await getRepository(MemberCacheItem).upsert(items, ['guild_id', 'user_id']);
  await getRepository(Reminder).upsert(items, ['guild_id', 'user_id']);
}
`;
    const { findings } = await lintProject({
      'src/entities.ts': entities,
      'src/migrations/1682788165866-CreateMemberCache.ts': migration,
      'src/service.ts': service,
    });
    expect(findings).toEqual(['src/service.ts:6 idempotency/no-claim-without-unique-key/noMatchingKey']);
  });

  it('TypeORM entities: a unique column and a composite primary key, read from the entity classes', async () => {
    const { findings } = await lintProject({
      'src/entities.ts': `
import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

@Entity()
export class User {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ unique: true }) walletAddress!: string;
}

@Entity('segment_customers')
export class SegmentCustomers {
  @PrimaryColumn() segmentId!: string;
  @PrimaryColumn() customerId!: string;
}

@Entity()
export class Visit {
  @PrimaryGeneratedColumn() id!: number;
  @Column() userId!: string;
}
`,
      'src/service.ts': `
import { getRepository } from 'typeorm';
import { SegmentCustomers, User, Visit } from './entities.js';

export async function findOrCreateUser(walletAddress: string) {
  const found = await User.findOne({ where: { walletAddress } });
  if (found) return found;
  return User.create({ walletAddress }).save();
}

export async function addToSegment(repo: any, segmentId: string, customerId: string) {
  const member = await this.segmentCustomersRepository.findOneBy({ segmentId, customerId });
  if (!member) await this.segmentCustomersRepository.save({ segmentId, customerId });
}

export async function visit(userId: string) {
  const seen = await Visit.findOne({ where: { userId } });
  if (!seen) await Visit.insert({ userId });
}
`,
    });
    expect(findings).toEqual(['src/service.ts:18 idempotency/no-check-then-insert/checkThenInsert']);
  });

  it("TypeORM entities declared with a project's own decorator around @Entity: their keys are read", async () => {
    const { findings } = await lintProject({
      'src/orm.ts': 'export const MultiORMEntity = (name: string) => (target: unknown) => target;',
      'src/heartbeat.entity.ts': `
import { Column, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { MultiORMEntity } from './orm.js';

@MultiORMEntity('heartbeats')
@Unique(['time', 'entities'])
export class Heartbeat {
  @PrimaryGeneratedColumn() id!: number;
  @Column() time!: number;
  @Column() entities!: string;
}
`,
      // The same table name in another database's migration (a desktop app's offline store), with no such key.
      'src/offline/migrations/20230130165608_create-table-heartbeats.ts': `
import { Knex } from 'knex';
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('heartbeats', (table) => {
    table.increments('id').primary();
    table.timestamp('time').notNullable();
  });
}
`,
      'src/heartbeats.ts': `
import knexFactory from 'knex';
const knex = knexFactory({ client: 'pg' });
export async function save(beat: { time: number; entities: string }) {
  await knex('heartbeats').insert(beat).onConflict(['time', 'entities']).ignore();
}
`,
    });
    expect(findings).toEqual([]);
  });

  it('Mongoose: a unique compound index on the schema a model is made from', async () => {
    const { findings } = await lintProject({
      'src/tenant.schema.ts': `
import mongoose, { Schema } from 'mongoose';
const tenantSchema = new Schema<{ identifier: string }>({ identifier: String, _environmentId: String, name: String });
tenantSchema.index({ _environmentId: 1, identifier: 1 }, { unique: true });
export const Tenant = mongoose.model('Tenant', tenantSchema);
`,
      'src/create-tenant.js': `
import mongoose from 'mongoose';
export async function createTenant(tenantRepository, _environmentId, identifier, name) {
  const existing = await tenantRepository.findOne({ _environmentId, identifier });
  if (existing) throw new Error('exists');
  return tenantRepository.create({ _environmentId, identifier, name });
}
`,
    });
    expect(findings).toEqual([]);
  });

  it.each([
    ['a migration hands index specifications to its own helper', `{ key: { user_id: 1, name: 1 }, unique: true }`, []],
    [
      'a migration creates the index on the collection',
      `await db.tags.createIndex({ user_id: 1, name: 1 }, { unique: true });`,
      [],
    ],
    [
      'a migration creates indexes on the collection by its name',
      `await db.collection('tags').createIndexes([{ key: { user_id: 1, name: 1 }, unique: true }]);`,
      [],
    ],
    [
      'a migration names two collections and hands a unique specification to its helper: which one it keys is unknown',
      `{ key: { user_id: 1, name: 1 }, unique: true }`,
      [],
      'db.users',
    ],
    [
      'the near miss: the index is not unique',
      `{ key: { user_id: 1, name: 1 }, unique: false }`,
      ['src/tags.js:5 idempotency/no-claim-without-unique-key/caughtNoKey'],
    ],
  ])('MongoDB indexes made by migrations, for a Mongoose model: %s', async (_name, index, expected, other?: string) => {
    const spec = index.startsWith('{');
    const { findings } = await lintProject({
      'src/models/Tag.js': `
import mongoose, { Schema } from 'mongoose';
export const Tag = mongoose.model('Tag', new Schema({ user_id: String, name: String, color: String }));
`,
      'migrations/20190912_create_tags_indexes.js': spec
        ? `
import Helpers from './lib/helpers.js';
const indexes = [{ key: { user_id: 1 }, name: 'user_id_1' }, ${index}];
export const migrate = async ({ db }) => {
  ${other ? `await Helpers.addIndexesToCollection(${other}, indexes);` : ''}
  await Helpers.addIndexesToCollection(db.tags, indexes);
};
`
        : `export const migrate = async ({ db }) => { ${index} };`,
      'src/tags.js': `
import { Tag } from './models/Tag.js';
export async function createTag(userId, name, color) {
  try {
    return await Tag.create({ user_id: userId, name, color });
  } catch (error) {
    if (error.code === 11000) return Tag.findOne({ user_id: userId, name });
    throw error;
  }
}
`,
    });
    expect(findings).toEqual(expected);
  });

  it("Mongoose: a Schema imported from a validation library declares no model's keys", async () => {
    const { findings } = await lintProject({
      'src/validation.ts': `
import Schema from 'validate';
export const userSchema = new Schema({ email: { type: String, unique: true } });
`,
      'src/models.ts': `
import mongoose, { Schema } from 'mongoose';
export const User = mongoose.model('User', new Schema({ email: String }));
`,
      'src/jobs/users.ts': `
import mongoose from 'mongoose';
import { User } from '../models';
export async function userFor(email) {
  const found = await User.findOne({ email });
  if (found) return found;
  return User.create({ email });
}
`,
    });
    expect(findings).toEqual(['src/jobs/users.ts:7 idempotency/no-check-then-insert/checkThenInsert']);
  });

  it('Mongoose: a model whose schema reaches model() through a loader function is not known, so its keys are unknown; a model read with no key on the checked field is reported', async () => {
    const { findings } = await lintProject({
      'src/imap/models.ts': `
import mongoose, { Schema } from 'mongoose';
export const customerImapSchema = new Schema({ email: { type: String, unique: true }, contactsId: String });
export const loadImapCustomerClass = (_models) => customerImapSchema;
const logSchema = new Schema({ message: String });
export const Log = mongoose.model('Log', logSchema);
`,
      'src/connection.ts': `
import mongoose from 'mongoose';
import { loadImapCustomerClass } from './imap/models';
export const models = {};
models.ImapCustomers = mongoose.model('imap_customers', loadImapCustomerClass(models));
`,
      'src/jobs/imap.ts': `
import mongoose from 'mongoose';
import { models } from '../connection';
import { Log } from '../imap/models';
export async function customerFor(email) {
  const prev = await models.ImapCustomers.findOne({ email });
  if (prev) return prev;
  return models.ImapCustomers.create({ email });
}
export async function logOnce(message) {
  const prev = await Log.findOne({ message });
  if (prev) return prev;
  return Log.create({ message });
}
`,
    });
    expect(findings).toEqual(['src/jobs/imap.ts:13 idempotency/no-check-then-insert/checkThenInsert']);
  });
});

describe('DDL that migration code sends as text', () => {
  const consumer = `
export async function claim(pool, id) {
  const { rows } = await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
  if (rows.length > 0) return false;
  await pool.query('INSERT INTO inbox (message_id) VALUES ($1)', [id]);
  return true;
}

export async function visit(pool, userId, day) {
  const { rows } = await pool.query('SELECT 1 FROM visits WHERE user_id = $1 AND day = $2', [userId, day]);
  if (rows.length === 0) await pool.query('INSERT INTO visits (user_id, day) VALUES ($1, $2)', [userId, day]);
}
`;
  const inbox = 'CREATE TABLE inbox (id serial PRIMARY KEY, message_id text NOT NULL)';
  const key = 'CREATE UNIQUE INDEX inbox_message ON inbox (message_id)';
  const visits = 'CREATE TABLE visits (id serial PRIMARY KEY, user_id int NOT NULL, day date NOT NULL)';

  it.each([
    [
      'TypeORM: queryRunner.query in a migration class',
      'src/migrations/1700000000000-Init.ts',
      `import { MigrationInterface, QueryRunner } from 'typeorm';
export class Init1700000000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(\`${inbox}\`);
    await queryRunner.query(\`${key}\`);
    await queryRunner.query(\`${visits}\`);
  }
  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX inbox_message');
  }
}
`,
    ],
    [
      'knex: knex.raw and knex.schema.raw beside createTable',
      'migrations/20240101_init.js',
      `exports.up = async (knex) => {
  await knex.schema.createTable('inbox', (t) => { t.increments(); t.string('message_id').notNullable(); });
  await knex.schema.raw('${key}');
  await knex.raw('${visits}');
};
`,
    ],
    [
      'knex: a migration whose up takes the connection as db and runs db.raw',
      'lib/model/migrations/20240101-01-init.js',
      `const up = async (db) => {
  await db.raw('${inbox}; ${visits};');
  await db.raw('ALTER TABLE visits ADD COLUMN note text; ${key};');
};
module.exports = { up };
`,
    ],
    [
      'Kysely: sql templates executed in a migration',
      'src/db/migrations/001_init.ts',
      `import { Kysely, sql } from 'kysely';
export async function up(db: Kysely<any>): Promise<void> {
  await sql\`${inbox}\`.execute(db);
  await sql\`${key}\`.execute(db);
  await sql\`${visits}\`.execute(db);
}
`,
    ],
    [
      'MikroORM: this.addSql in a migration class',
      'src/migrations/Migration20240101000000.ts',
      `import { Migration } from '@mikro-orm/migrations';
export class Migration20240101000000 extends Migration {
  async up(): Promise<void> {
    this.addSql('${inbox};');
    this.addSql('alter table "inbox" add constraint "inbox_message_id_unique" unique ("message_id");');
    this.addSql('${visits};');
  }
}
`,
    ],
    [
      'node-pg-migrate: pgm.sql',
      'migrations/1700000000000_init.js',
      `exports.up = (pgm) => {
  pgm.sql(\`${inbox}; ${key};\`);
  pgm.sql('${visits}');
};
`,
    ],
    [
      'Sequelize: queryInterface.sequelize.query',
      'migrations/20240101-init.js',
      `module.exports = {
  up: async (queryInterface) => {
    const table = 'CREATE TABLE inbox (id serial PRIMARY KEY, message_id text NOT NULL)';
    await queryInterface.sequelize.query(table);
    await queryInterface.sequelize.query('${key}');
    await queryInterface.sequelize.query('${visits}');
  },
};
`,
    ],
  ])('%s: the unique index settles the check on inbox; visits has none', async (_name, file, migration) => {
    const read = await lintProject({ [file]: migration, 'src/claim.js': consumer });
    expect(read.findings).toEqual(['src/claim.js:11 idempotency/no-check-then-insert/checkThenInsert']);
    expect(read.stderr).not.toMatch(/could not be read/);
    // The same migration without the index: the check on inbox decides again.
    const without = await lintProject({
      [file]: migration.replace(key, 'SELECT 1').replace(/alter table "inbox"[^']*/, 'select 1'),
      'src/claim.js': consumer,
    });
    expect(without.findings).toEqual([
      'src/claim.js:11 idempotency/no-check-then-insert/checkThenInsert',
      'src/claim.js:5 idempotency/no-check-then-insert/checkThenInsert',
    ]);
  });

  it('TypeORM on MySQL: a generated migration in MySQL DDL, read through the MySQL grammar', async () => {
    const migration = (uniqueIndex: string) => `import { MigrationInterface, QueryRunner } from 'typeorm';
export class Init1700000000000 implements MigrationInterface {
  name = 'Init1700000000000';
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(\`CREATE TABLE \\\`inbox\\\` (\\\`id\\\` int NOT NULL AUTO_INCREMENT, \\\`message_id\\\` varchar(255) NOT NULL, ${uniqueIndex}PRIMARY KEY (\\\`id\\\`)) ENGINE=InnoDB\`);
    await queryRunner.query(\`CREATE TABLE \\\`visits\\\` (\\\`id\\\` int NOT NULL AUTO_INCREMENT, \\\`user_id\\\` int NOT NULL, \\\`day\\\` date NOT NULL, PRIMARY KEY (\\\`id\\\`)) ENGINE=InnoDB\`);
  }
}
`;
    const keyed = await lintProject({
      'src/migrations/1700000000000-Init.ts': migration('UNIQUE INDEX \\`IDX_inbox_message\\` (\\`message_id\\`), '),
      'src/claim.js': consumer,
    });
    expect(keyed.findings).toEqual(['src/claim.js:11 idempotency/no-check-then-insert/checkThenInsert']);
    const plain = await lintProject({
      'src/migrations/1700000000000-Init.ts': migration('INDEX \\`IDX_inbox_message\\` (\\`message_id\\`), '),
      'src/claim.js': consumer,
    });
    expect(plain.findings).toEqual([
      'src/claim.js:11 idempotency/no-check-then-insert/checkThenInsert',
      'src/claim.js:5 idempotency/no-check-then-insert/checkThenInsert',
    ]);
  });

  it('a claim on a column no key covers is reported only when the migration shows every key of its table', async () => {
    const claim = `
export async function claim(pool, id) {
  await pool.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT (message_id) DO NOTHING', [id]);
}
`;
    const migration = (index: string) => `import { MigrationInterface, QueryRunner } from 'typeorm';
export class Init1700000000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('${inbox}');
    ${index}
  }
}
`;
    const lint = async (index: string) =>
      (await lintProject({ 'src/migrations/1-Init.ts': migration(index), 'src/claim.js': claim })).findings;
    // No index: the table is known whole, and no key covers message_id.
    expect(await lint('')).toEqual(['src/claim.js:3 idempotency/no-claim-without-unique-key/noMatchingKey']);
    expect(await lint(`await queryRunner.query('${key}');`)).toEqual([]);
    // An index whose text is built at run time, or one the tool's own call adds: unknown, never keyless.
    expect(await lint('await queryRunner.query(`CREATE UNIQUE INDEX ${this.name} ON inbox (message_id)`);')).toEqual(
      [],
    );
    expect(
      await lint(
        "await queryRunner.createIndex('inbox', new TableIndex({ columnNames: ['message_id'], isUnique: true }));",
      ),
    ).toEqual([]);
    // A test's throwaway table says nothing of the real schema: the table stays unknown.
    const fromTest = await lintProject({
      'test/setup.ts': `import { sql } from 'kysely';\nexport async function setup(db) {\n  await sql\`${inbox}\`.execute(db);\n}\n`,
      'src/claim.js': claim,
    });
    expect(fromTest.findings).toEqual([]);
    const fromMigration = await lintProject({
      'db/migrations/001_init.ts': `import { sql } from 'kysely';\nexport async function up(db) {\n  await sql\`${inbox}\`.execute(db);\n}\n`,
      'src/claim.js': claim,
    });
    expect(fromMigration.findings).toEqual(['src/claim.js:3 idempotency/no-claim-without-unique-key/noMatchingKey']);
    // A project kept in a folder named tests is not a test: only paths inside it count.
    const { mkdirSync, mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const outer = mkdtempSync(path.join(tmpdir(), 'idempotency-outer-'));
    const before = process.env.TMPDIR;
    try {
      mkdirSync(path.join(outer, 'tests'));
      process.env.TMPDIR = path.join(outer, 'tests');
      const inTests = await lintProject({
        'db/migrations/001_init.ts': `import { sql } from 'kysely';\nexport async function up(db) {\n  await sql\`${inbox}\`.execute(db);\n}\n`,
        'src/claim.js': claim,
      });
      expect(inTests.findings).toEqual(['src/claim.js:3 idempotency/no-claim-without-unique-key/noMatchingKey']);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(outer, { recursive: true, force: true });
    }
  });
});

describe('what the schema model knows of a table, and how sure it is', async () => {
  const { whenSqlParserReady } = await import('../../eslint-plugin/src/analysis/sql/parser.js');
  const { uniqueKeysInSql } = await import('../../eslint-plugin/src/analysis/sql/ddl.js');
  const { SchemaModel } = await import('../../eslint-plugin/src/analysis/schema/model.js');
  await whenSqlParserReady();
  const model = (sql: string, unreadable: string[] = []) =>
    new SchemaModel(
      (uniqueKeysInSql(sql) ?? []).map((table) => ({ ...table, file: 'migrations/001.sql' })),
      ['migrations/001.sql'],
      unreadable,
    );

  it('reads model code only when a table it may name is looked up, with the keys reading it all would give', async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = mkdtempSync(path.join(tmpdir(), 'idempotency-models-'));
    try {
      const payouts = path.join(dir, 'payout.entity.ts');
      const categories = path.join(dir, 'categories.ts');
      writeFileSync(payouts, '@Entity() export class PayoutEntity {}');
      writeFileSync(categories, "export const Categories = pgTable('categories', {});");
      const declared = {
        [payouts]: { table: 'PayoutEntity', keys: [{ columns: ['reference'], partial: false, written: 'reference' }] },
        [categories]: { table: 'categories', keys: [{ columns: ['slug'], partial: false, written: 'slug' }] },
      };
      const read: string[] = [];
      const schema = new SchemaModel([], [], [], undefined, {
        files: [payouts, categories],
        read: (file) => {
          read.push(path.basename(file));
          return [{ ...declared[file], file }];
        },
      });
      expect(schema.knows('invoice')).toBe(false);
      expect(read).toEqual([]);
      expect(schema.keyWithin('payout', ['reference'])?.file).toBe(payouts);
      expect(read).toEqual(['payout.entity.ts']);
      // `category` is spelled `categories` there: read all the same.
      expect(schema.uniqueKeys('category').map((key) => key.columns)).toEqual([['slug']]);
      expect(read).toEqual(['payout.entity.ts', 'categories.ts']);
      expect(schema.filesRead()).toEqual([payouts, categories]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a table with no key at all is known, and its keys are settled: there are none', () => {
    const schema = model('CREATE TABLE inbox (message_id text NOT NULL);');
    expect(schema.knows('inbox')).toBe(true);
    expect(schema.keysSettled('inbox')).toBe(true);
    expect(schema.uniqueKeys('inbox')).toEqual([]);
    expect(schema.declaration('inbox')).toEqual({ name: 'inbox', files: ['migrations/001.sql'] });
  });

  it('a unique index on expressions keys the columns they read: the same values give the same expression', () => {
    const schema = model(
      "CREATE TABLE users (id int PRIMARY KEY, email text); CREATE UNIQUE INDEX users_email ON users (lower(email)); CREATE TABLE mappings (id int PRIMARY KEY, tenant text, external_id text, realm text); CREATE UNIQUE INDEX mappings_external ON mappings (tenant, external_id, COALESCE(realm, ''));",
    );
    expect(schema.uniqueKeys('user').map((key) => key.columns)).toEqual([['id'], ['email']]);
    expect(schema.keysSettled('user')).toBe(true);
    expect(schema.uniqueKeys('mapping').map((key) => key.columns)).toEqual([
      ['id'],
      ['tenant', 'external_id', 'realm'],
    ]);
  });

  it('UNIQUE on a column added by ALTER TABLE is a key', () => {
    const schema = model(
      'CREATE TABLE coupons (id bigserial PRIMARY KEY); ALTER TABLE coupons ADD COLUMN code text UNIQUE;',
    );
    expect(schema.uniqueKeys('coupon').map((key) => key.columns)).toEqual([['id'], ['code']]);
  });

  it.each([
    [
      'an exclusion constraint',
      'CREATE TABLE bookings (id int PRIMARY KEY, during tstzrange, EXCLUDE USING gist (during WITH &&));',
      'booking',
    ],
    [
      'UNIQUE USING INDEX',
      'CREATE TABLE tags (id int PRIMARY KEY, name text); ALTER TABLE tags ADD CONSTRAINT tags_name UNIQUE USING INDEX tags_name_idx;',
      'tag',
    ],
    ['a copy of another table', 'CREATE TABLE archive (LIKE orders INCLUDING ALL);', 'archive'],
    ['a partition', 'CREATE TABLE orders_2024 PARTITION OF orders FOR VALUES FROM (1) TO (2);', 'orders_2024'],
    [
      'a renamed column',
      'CREATE TABLE events (id int PRIMARY KEY, event_id text); ALTER TABLE events RENAME COLUMN event_id TO external_id;',
      'event',
    ],
    [
      'only an index, the table created elsewhere',
      'CREATE UNIQUE INDEX invoices_sequence ON invoices (recurring_id, sequence) WHERE recurring_id IS NOT NULL;',
      'invoice',
    ],
    ['only an ALTER TABLE', 'ALTER TABLE invoices ADD CONSTRAINT invoices_token UNIQUE (token);', 'invoice'],
    [
      'a DO block that names it quoted',
      'CREATE TABLE "Secret" (id int PRIMARY KEY, name text); DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_indexes) THEN CREATE UNIQUE INDEX "Secret_name_key" ON "Secret" (name); END IF; END $$;',
      'secret',
    ],
    [
      'a DO block that names it',
      "CREATE TABLE jobs (id int PRIMARY KEY, key text); DO $$ BEGIN EXECUTE 'CREATE UNIQUE INDEX jobs_key ON jobs (key)'; END $$;",
      'job',
    ],
  ])('%s leaves the keys unsettled', (_name, sql, target) => {
    const schema = model(sql);
    expect(schema.knows(target)).toBe(true);
    expect(schema.keysSettled(target)).toBe(false);
  });

  it('a statement neither PostgreSQL nor MySQL reads leaves the tables it names unsettled, and the others as they were', () => {
    const schema = model(
      'CREATE TABLE feeds (id int PRIMARY KEY, post_id int);\nALTER TABLE feeds ADD UNIQUE KEY feeds_post (post_id) USING BTREE, PARTITION BY HASH(id);\nCREATE TABLE topics (id int PRIMARY KEY);',
    );
    expect(schema.keysSettled('feed')).toBe(false);
    expect(schema.keysSettled('topic')).toBe(true);
  });

  it("a MySQL statement PostgreSQL rejects is read with MySQL's grammar: its key counts, and the table stays settled", () => {
    const schema = model(
      'CREATE TABLE feeds (id int PRIMARY KEY, post_id int);\nALTER TABLE feeds ADD UNIQUE KEY feeds_post (post_id) USING BTREE;\nCREATE TABLE topics (id int PRIMARY KEY);',
    );
    expect(schema.keysSettled('feed')).toBe(true);
    expect(schema.keyWithin('feed', ['post_id'])?.written).toBe('UNIQUE KEY (post_id) on feeds');
  });

  it('a schema file that could not be read leaves every table unsettled', () => {
    const schema = model('CREATE TABLE inbox (message_id text NOT NULL);', ['migrations/002.sql']);
    expect(schema.knows('inbox')).toBe(true);
    expect(schema.keysSettled('inbox')).toBe(false);
  });
});

describe('model files: which tables the readers know whole', () => {
  it('Drizzle: a table with plain indexes only is known whole; an extra entry the reader cannot see leaves it unsure', async () => {
    const { findings } = await lintProject({
      'src/schema.ts': `
import { pgTable, serial, text, index } from 'drizzle-orm/pg-core';
import { tokenKey } from './keys';
export const visits = pgTable('visits', { id: serial('id').primaryKey(), userId: text('user_id') }, (t) => [index('visits_user').on(t.userId)]);
export const tokens = pgTable('tokens', { id: serial('id').primaryKey(), token: text('token') }, (t) => [tokenKey(t)]);
`,
      'src/track.ts': `
import { visits, tokens } from './schema';
export async function track(db, userId, token) {
  await db.insert(visits).values({ userId }).onConflictDoNothing();
  await db.insert(tokens).values({ token }).onConflictDoNothing();
}
`,
    });
    expect(findings.filter((finding) => finding.includes('no-claim-without-unique-key'))).toEqual([
      'src/track.ts:4 idempotency/no-claim-without-unique-key/noKeyOnColumns',
    ]);
  });

  it('Mongoose: a schema without unique fields is known by its _id; a plugin or a schema made elsewhere is not known whole', async () => {
    const { findings } = await lintProject({
      'src/models.ts': `
import mongoose, { Schema } from 'mongoose';
import { ipSchema } from './shared.js';
const visitSchema = new Schema({ userId: { type: String, index: true }, day: String });
export const Visit = mongoose.model('Visit', visitSchema);
const tokenSchema = new Schema({ token: String });
tokenSchema.plugin(uniqueTokens);
export const Token = mongoose.model('Token', tokenSchema);
export const Ip = mongoose.model('Ip', ipSchema);
const spreadSchema = new Schema({ ...base, name: String });
export const Spread = mongoose.model('Spread', spreadSchema);
`,
      'src/track.ts': `
import mongoose from 'mongoose';
export async function track(userId: string, day: string, token: string, ip: string) {
  await Visit.updateOne({ userId, day }, { $set: { at: new Date() } }, { upsert: true });
  await Token.updateOne({ token }, { $set: { token } }, { upsert: true });
  await Ip.updateOne({ ip }, { $set: { ip } }, { upsert: true });
  await Spread.updateOne({ name: ip }, { $set: { ip } }, { upsert: true });
}
`,
    });
    expect(findings.filter((finding) => finding.includes('no-claim-without-unique-key'))).toEqual([
      'src/track.ts:4 idempotency/no-claim-without-unique-key/upsertNoKey',
    ]);
  });

  it('Mongoose: indexes chained on the schema as it is made are read; a plugin in the chain leaves it unsure', async () => {
    const { findings } = await lintProject({
      'src/models.ts': `
import mongoose, { Schema } from 'mongoose';
const visitSchema = new Schema({ userId: String, day: String }).index({ userId: 1 }).index({ day: 1, userId: 1 }, { unique: true });
export const Visit = mongoose.model('Visit', visitSchema);
const seatSchema = new Schema({ userId: String, day: String }).index({ userId: 1, day: 1 });
export const Seat = mongoose.model('Seat', seatSchema);
const tokenSchema = new Schema({ token: String }).plugin(uniqueTokens).index({ token: 1 });
export const Token = mongoose.model('Token', tokenSchema);
`,
      'src/track.ts': `
import mongoose from 'mongoose';
export async function track(userId: string, day: string, token: string) {
  await Visit.updateOne({ userId, day }, { $set: { at: new Date() } }, { upsert: true });
  await Seat.updateOne({ userId, day }, { $set: { at: new Date() } }, { upsert: true });
  await Token.updateOne({ token }, { $set: { token } }, { upsert: true });
}
`,
    });
    expect(findings.filter((finding) => finding.includes('no-claim-without-unique-key'))).toEqual([
      'src/track.ts:5 idempotency/no-claim-without-unique-key/upsertNoKey',
    ]);
  });

  it('NestJS Mongoose: @Prop({ unique: true }) is a key; SchemaFactory indexes count', async () => {
    const { findings } = await lintProject({
      'src/keys.schema.ts': `
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
@Schema()
export class ApiKey { @Prop({ unique: true }) key: string; @Prop() owner: string; }
export const ApiKeySchema = SchemaFactory.createForClass(ApiKey);
@Schema()
export class Seat { @Prop() teamId: string; @Prop() userId: string; }
export const SeatSchema = SchemaFactory.createForClass(Seat);
SeatSchema.index({ teamId: 1, userId: 1 }, { unique: true });
`,
      'src/service.ts': `
import { Model } from 'mongoose';
export class Service {
  constructor(private apiKeyModel: Model<unknown>, private seatModel: Model<unknown>) {}
  async keep(key: string, owner: string, teamId: string, userId: string) {
    await this.apiKeyModel.updateOne({ key }, { owner }, { upsert: true });
    await this.seatModel.updateOne({ teamId, userId }, { teamId }, { upsert: true });
    await this.apiKeyModel.updateOne({ owner }, { owner }, { upsert: true });
  }
}
`,
      'src/main.ts':
        "import { Service } from './service';\nexport const keep = (service: Service) => service.keep('k', 'o', 't', 'u');\n",
    });
    expect(findings.filter((finding) => finding.includes('no-claim-without-unique-key'))).toEqual([
      'src/service.ts:8 idempotency/no-claim-without-unique-key/upsertNoKey',
    ]);
  });

  it('TypeORM: an entity with a base class, a one-to-one relation or no primary column (a MikroORM entity) is not known whole', async () => {
    const { findings } = await lintProject({
      'src/entities.ts': `
import { Entity, PrimaryGeneratedColumn, Column, OneToOne, JoinColumn } from 'typeorm';
@Entity('receipts') export class Receipt { @PrimaryGeneratedColumn() id: number; @Column() orderId: string; }
@Entity('profiles') export class Profile { @PrimaryGeneratedColumn() id: number; @OneToOne(() => User) @JoinColumn() user: User; @Column() userId: string; }
@Entity('notes') export class Note extends Base { @Column() ref: string; }
@Entity({ tableName: 'locks' }) export class Lock { @PrimaryKey({ columnType: 'text' }) id!: string; @Property() owner!: string; }
`,
      'src/write.ts': `
import { Repository } from 'typeorm';
export async function write(db: any, orderId: string, userId: string, ref: string) {
  await db.query('INSERT INTO receipts ("orderId") VALUES ($1) ON CONFLICT DO NOTHING', [orderId]);
  await db.query('INSERT INTO profiles ("userId") VALUES ($1) ON CONFLICT DO NOTHING', [userId]);
  await db.query('INSERT INTO notes (ref) VALUES ($1) ON CONFLICT DO NOTHING', [ref]);
  try {
    await db.query('INSERT INTO locks (id, owner) VALUES ($1, $2)', [ref, userId]);
  } catch (error) {
    if (String(error).includes('locks_pkey')) return;
  }
}
`,
    });
    expect(findings.filter((finding) => finding.includes('no-claim-without-unique-key'))).toEqual([
      'src/write.ts:4 idempotency/no-claim-without-unique-key/noKeyOnColumns',
    ]);
  });
});

describe('a project written anew at the same path', async () => {
  const { Linter } = await import('eslint');
  const { mkdirSync, mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const plugin = (await import('../../eslint-plugin/src/index.js')).default;

  it('is listed anew: the schema of the project now there decides, not a listing of the one before', () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'idempotency-rewritten-')), 'tree');
    const write = (files: Record<string, string>) => {
      rmSync(dir, { recursive: true, force: true });
      for (const [name, text] of Object.entries({ 'package.json': '{}', ...files })) {
        mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        writeFileSync(path.join(dir, name), text);
      }
    };
    const lint = () =>
      new Linter({ configType: 'flat', cwd: dir })
        .verify(
          prismaConsumer,
          [{ plugins: { idempotency: plugin as never }, rules: { 'idempotency/no-check-then-insert': 'error' } }],
          path.join(dir, 'src/workers/subscribe.js'),
        )
        .map((message) => `${message.line} ${message.ruleId ?? message.message}`);
    try {
      write({});
      expect(lint()).toEqual([
        '5 idempotency/no-check-then-insert',
        '10 idempotency/no-check-then-insert',
        '15 idempotency/no-check-then-insert',
      ]);
      write({ 'prisma/schema.prisma': prismaSchema });
      expect(lint()).toEqual(['15 idempotency/no-check-then-insert']);
    } finally {
      rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  });
});
