import { describe, expect, it } from 'vitest';

import { lintProject } from './support/project.js';

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
    const { findings } = await lintProject({ 'prisma/schema.prisma': prismaSchema, 'src/subscribe.js': prismaConsumer });
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
    const { findings } = await lintProject({ 'packages/db/prisma/schema.prisma': prismaSchema, 'apps/worker/src/subscribe.js': prismaConsumer });
    expect(findings).toEqual(['apps/worker/src/subscribe.js:15 idempotency/no-check-then-insert/checkThenInsert']);
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
      'migrations/001_inbox.sql': 'CREATE TABLE inbox (message_id text NOT NULL, seen_at timestamptz DEFAULT now());\nALTER TABLE ONLY inbox ADD CONSTRAINT inbox_pkey PRIMARY KEY (message_id);',
      'src/claim.js': sqlConsumer,
    });
    expect(findings).toEqual([]);
  });

  it('a partial unique index settles duplicates only among some rows: the check still decides', async () => {
    const { findings } = await lintProject({
      'db/migrations/001_inbox.sql': 'CREATE TABLE inbox (message_id text NOT NULL, done boolean);\nCREATE UNIQUE INDEX inbox_open ON inbox (message_id) WHERE NOT done;',
      'src/claim.js': sqlConsumer,
    });
    expect(findings).toEqual(['src/claim.js:5 idempotency/no-check-then-insert/checkThenInsert']);
  });

  it('effects between the check and a protected insert run twice, and are named', async () => {
    const { findings, messages } = await lintProject({
      'migrations/001.sql': 'CREATE TABLE inbox (message_id text PRIMARY KEY);\nCREATE TABLE stats (day text PRIMARY KEY, handled int);',
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
      'prisma/schema.prisma': prismaSchema.replace('model Visit', 'model Account {\n  id String @id\n  provider String\n  providerAccountId String\n  @@unique([provider, providerAccountId])\n}\n\nmodel Visit'),
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

  it('a schema file that does not parse is skipped with one warning, and nothing crashes', async () => {
    const { findings, stderr } = await lintProject({
      'prisma/schema.prisma': 'model Broken {\n  id String @id\n',
      'src/subscribe.js': prismaConsumer,
      'src/again.js': prismaConsumer,
    });
    expect(findings).toHaveLength(6);
    expect(stderr.match(/could not be read as a Prisma schema/g)).toHaveLength(1);
  });

  it('settings can point at a schema kept elsewhere', async () => {
    const files = { 'config/database/main.prisma': prismaSchema, 'src/subscribe.js': prismaConsumer };
    expect((await lintProject(files)).findings).toHaveLength(3);
    expect((await lintProject(files, { schema: ['config/database'] })).findings).toEqual(['src/subscribe.js:15 idempotency/no-check-then-insert/checkThenInsert']);
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
});

