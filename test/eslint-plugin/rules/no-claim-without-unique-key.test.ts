import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { uncheckedInboxTable } from '../../../lessons/idempotent-consumers/tables.js';
import { noClaimWithoutUniqueKey } from '../../../eslint-plugin/src/rules/no-claim-without-unique-key.js';
import { ruleTester } from '../rule-tester.js';
import { lintProject } from '../support/project.js';

/**
 * The rule needs the project's schema: every case is linted as a file of a small project on disk
 * whose migrations, Prisma schema and Mongoose models say which keys each table has.
 */

const migration = `
CREATE TABLE inbox (id bigserial PRIMARY KEY, message_id text NOT NULL, received_at timestamptz DEFAULT now());
CREATE TABLE processed_messages (message_id text PRIMARY KEY, processed_at timestamptz DEFAULT now());
CREATE TABLE audit_log (event text, at timestamptz);
CREATE TABLE contract_edits (id bigserial PRIMARY KEY, contract_id text NOT NULL, data jsonb);
CREATE TABLE payments (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), order_id text NOT NULL, tenant_id text NOT NULL, cents int);
CREATE UNIQUE INDEX payments_order ON payments (tenant_id, order_id);
CREATE TABLE deliveries (id bigserial PRIMARY KEY, webhook_id text, deleted_at timestamptz);
CREATE UNIQUE INDEX deliveries_live ON deliveries (webhook_id) WHERE deleted_at IS NULL;
CREATE TABLE subscribers (id bigserial PRIMARY KEY, email text);
CREATE UNIQUE INDEX subscribers_email ON subscribers (lower(email));
CREATE TABLE coupons (id bigserial PRIMARY KEY);
ALTER TABLE coupons ADD COLUMN code text UNIQUE;
CREATE TABLE bookings (id bigserial PRIMARY KEY, room text, during tstzrange);
ALTER TABLE bookings ADD CONSTRAINT no_overlap EXCLUDE USING gist (room WITH =, during WITH &&);
CREATE TABLE events (id bigserial PRIMARY KEY, event_id text);
ALTER TABLE events RENAME COLUMN event_id TO external_id;
CREATE TABLE discovery_feeds (id bigserial PRIMARY KEY, post_id int NOT NULL, topic_id int NOT NULL, author_id int NOT NULL, published_at timestamptz);
`;

const prismaSchema = `
datasource db {
  provider = "postgresql"
  url      = env("DATABASE_URL")
}

model Webhook {
  id        String @id @default(cuid())
  eventId   String
  payload   Json
}

model Subscriber {
  id    String @id @default(cuid())
  email String @unique
}

model Membership {
  id     String @id @default(cuid())
  userId String
  teamId String
  @@unique([userId, teamId])
}
`;

const mongooseModels = `
import mongoose, { Schema } from 'mongoose';

const accountIpsSchema = new Schema({ accountId: { type: String, index: true }, ip: String, lastConnection: Date });
accountIpsSchema.index({ accountId: 1, ip: 1 });
export const AccountIps = mongoose.model('AccountIp', accountIpsSchema);

const walletSchema = new Schema({ walletId: { type: String, unique: true }, currency: String });
export const Wallet = mongoose.model('Wallet', walletSchema);

const payoutSchema = new Schema({ payoutId: { type: String, unique: true }, currency: String });
export const Payout = mongoose.model('Payout', payoutSchema);

const metadataSchema = new Schema({ routingFeeLastEntry: String });
export const DbMetadata = mongoose.model('DbMetadata', metadataSchema);

const quizSchema = new Schema({ accountId: String, quizId: String });
quizSchema.index({ accountId: 1, quizId: 1 }, { unique: true });
export const Quiz = mongoose.model('Quiz', quizSchema);

const tokenSchema = new Schema({ token: String });
tokenSchema.plugin(uniqueTokens);
export const Token = mongoose.model('Token', tokenSchema);
`;

const nestSchema = `
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

@Schema()
export class EventKeys {
  @Prop()
  key: string;

  @Prop()
  type: string;
}

export const EventKeysSchema = SchemaFactory.createForClass(EventKeys);
`;

const here = path.dirname(fileURLToPath(import.meta.url));
const project = mkdtempSync(path.join(tmpdir(), 'idempotency-claims-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
for (const [name, text] of Object.entries({
  'package.json': JSON.stringify({ name: 'claims', private: true, type: 'module' }),
  'migrations/001_init.sql': migration,
  'prisma/schema.prisma': prismaSchema,
  'src/models.ts': mongooseModels,
  'src/event-keys.schema.ts': nestSchema,
})) {
  mkdirSync(path.dirname(path.join(project, name)), { recursive: true });
  writeFileSync(path.join(project, name), text);
}
mkdirSync(path.join(project, '.git'));
const filename = path.join(project, 'src/handler.ts');
/** A file among the project's jobs: a second run of what it does comes by itself. */
const jobFile = path.join(project, 'src/jobs/handler.ts');
const elsewhere = path.join(tmpdir(), 'no-project', 'handler.ts');

ruleTester.run('no-claim-without-unique-key', noClaimWithoutUniqueKey, {
  valid: [
    {
      name: 'pg: an audit row written with ON CONFLICT DO NOTHING, outside a delivery, its answer unread: a row per event',
      filename,
      code: `export async function log(db, e) { await db.query('INSERT INTO audit_log (event, at) VALUES ($1, now()) ON CONFLICT DO NOTHING', [e]); }`,
    },
    {
      name: "pg-promise: none() resolves to nothing, so an edit history's DO NOTHING answers nobody",
      filename,
      code: `import pgp from 'pg-promise'; export const recordEdit = async (pg, id, data) => tryOrLog(pg.none('insert into contract_edits (contract_id, data) values ($1, $2) on conflict do nothing', [id, data]));`,
    },
    {
      name: 'the near miss of an upsert with no unique key in a job: outside a delivery, a second document of a log costs nothing',
      filename,
      code: `import mongoose from 'mongoose'; export async function touch(accountId, ip) { await AccountIps.updateOne({ accountId, ip }, { $set: { lastConnection: new Date() } }, { upsert: true }); }`,
    },
    {
      name: 'the near miss of a payout upserted with no key: in a script run once by hand, nothing repeats it',
      filename: path.join(project, 'scripts/open-payouts.ts'),
      code: `import mongoose from 'mongoose'; export async function open(currency) { await Payout.updateOne({ currency }, { $set: { currency } }, { upsert: true }); }`,
    },
    {
      name: 'a wallet upserted with no key on its filter outside a delivery: a wallet holds money, a second one moves none',
      filename,
      code: `import mongoose from 'mongoose'; export async function open(currency) { await Wallet.updateOne({ currency }, { $set: { currency } }, { upsert: true }); }`,
    },
    {
      name: 'pg: ON CONFLICT DO NOTHING on the primary key',
      filename,
      code: `export async function claim(db, id) { await db.query('INSERT INTO processed_messages (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]); }`,
    },
    {
      name: 'pg: ON CONFLICT (cols) naming a unique index in another order',
      filename,
      code: `export async function pay(db, o, t) { await db.query('INSERT INTO payments (order_id, tenant_id, cents) VALUES ($1, $2, 3) ON CONFLICT (order_id, tenant_id) DO NOTHING', [o, t]); }`,
    },
    {
      name: 'pg: a partial unique index on the target: not ours to judge',
      filename,
      code: `export async function deliver(db, id) { await db.query('INSERT INTO deliveries (webhook_id) VALUES ($1) ON CONFLICT (webhook_id) WHERE deleted_at IS NULL DO NOTHING', [id]); }`,
    },
    {
      name: 'pg: a partial unique index the inserted row fills may fire',
      filename,
      code: `export async function deliver(db, id) { await db.query('INSERT INTO deliveries (webhook_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]); }`,
    },
    {
      name: 'pg: a unique index on lower(email) refuses the same email again',
      filename,
      code: `export async function subscribe(db, email) { await db.query('INSERT INTO subscribers (email) VALUES ($1) ON CONFLICT DO NOTHING', [email]); }`,
    },
    {
      name: 'pg: a unique column added by ALTER TABLE … ADD COLUMN',
      filename,
      code: `export async function redeem(db, code) { await db.query('INSERT INTO coupons (code) VALUES ($1) ON CONFLICT (code) DO NOTHING', [code]); }`,
    },
    {
      name: 'pg: an exclusion constraint may settle it',
      filename,
      code: `export async function book(db, room, during) { await db.query('INSERT INTO bookings (room, during) VALUES ($1, $2) ON CONFLICT DO NOTHING', [room, during]); }`,
    },
    {
      name: 'pg: a table whose columns were renamed is not fully known',
      filename,
      code: `export async function record(db, id) { await db.query('INSERT INTO events (external_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]); }`,
    },
    {
      name: 'pg: ON CONFLICT ON CONSTRAINT is not judged',
      filename,
      code: `export async function record(db, id) { await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT ON CONSTRAINT inbox_message DO NOTHING', [id]); }`,
    },
    {
      name: 'pg: a table the schema does not know',
      filename,
      code: `export async function claim(db, id) { await db.query('INSERT INTO claims (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]); }`,
    },
    {
      name: 'pg: no project, no schema: silent',
      filename: elsewhere,
      code: `export async function claim(db, id) { await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]); }`,
    },
    {
      name: 'pg: a plain insert claims nothing',
      filename,
      code: `export async function log(db, e) { await db.query('INSERT INTO audit_log (event, at) VALUES ($1, now())', [e]); }`,
    },
    {
      name: 'pg: INSERT with no column list fills every column',
      filename,
      code: `export async function claim(db, id, m) { await db.query('INSERT INTO inbox VALUES ($1, $2, now()) ON CONFLICT DO NOTHING', [id, m]); }`,
    },
    {
      name: 'pg: the primary key filled with the given id may conflict',
      filename,
      code: `export async function claim(db, id, m) { await db.query('INSERT INTO inbox (id, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [id, m]); }`,
    },
    {
      name: 'knex: .onConflict(cols).ignore() on a unique key',
      filename,
      code: `import knex from 'knex'; export async function pay(db, o, t) { await db('payments').insert({ order_id: o, tenant_id: t }).onConflict(['tenant_id', 'order_id']).ignore(); }`,
    },
    {
      name: 'knex: rows with a spread may fill a key',
      filename,
      code: `import knex from 'knex'; export async function claim(db, row) { await db('inbox').insert({ ...row }).onConflict().ignore(); }`,
    },
    {
      name: 'Drizzle: onConflictDoNothing with a target covered by a unique index',
      filename,
      code: `import { eq } from 'drizzle-orm'; export async function pay(db, o, t) { await db.insert(payments).values({ orderId: o, tenantId: t }).onConflictDoNothing({ target: [payments.tenantId, payments.orderId] }); }`,
    },
    {
      name: 'Supabase: upsert onConflict naming a unique index',
      filename,
      code: `import { createClient } from '@supabase/supabase-js'; export async function pay(supabase, o, t) { await supabase.from('payments').upsert({ order_id: o, tenant_id: t }, { onConflict: 'tenant_id,order_id', ignoreDuplicates: true }); }`,
    },
    {
      name: 'Prisma: upsert needs a unique where by its API',
      filename,
      code: `export async function track(prisma, eventId) { await prisma.webhook.upsert({ where: { id: eventId }, create: { eventId, payload: {} }, update: {} }); }`,
    },
    {
      name: 'near miss: P2002 listed with P2003 and P2025 as failures not worth retrying, beside a comment that says unique: no duplicate is taken as done',
      filename,
      code: `export async function recordAttempt(prisma, eventId) {
        for (let attempt = 0; ; attempt++) {
          try { await prisma.webhook.create({ data: { eventId, payload: 'x' } }); return; } catch (error) {
            // Deterministic failures (a unique conflict, a row gone) do not heal by waiting.
            const code = error.code;
            if (!(code === 'P2002' || code === 'P2003' || code === 'P2025') && attempt < 3) continue;
            logger.error(error);
            return;
          }
        }
      }`,
    },
    {
      name: 'near miss: the same codes as a list of failures not worth retrying',
      filename,
      code: `export async function recordAttempt(prisma, eventId) { try { await prisma.webhook.create({ data: { eventId, payload: 'x' } }); } catch (error) { if (['P2002', 'P2003'].includes(error.code)) return; throw error; } }`,
    },
    {
      name: 'Prisma: create and catch P2002 on a unique field',
      filename,
      code: `export async function subscribe(prisma, email) { try { await prisma.subscriber.create({ data: { email } }); } catch (e) { if (e.code === 'P2002') return; throw e; } }`,
    },
    {
      name: 'Prisma: create and catch P2002 on a compound unique key',
      filename,
      code: `export async function join(prisma, userId, teamId) { try { await prisma.membership.create({ data: { userId, teamId } }); } catch (e) { if (e.code === 'P2002') return; throw e; } }`,
    },
    {
      name: "an error class of the project's own check, caught to keep it out of the error report, is not the database's refusal",
      filename,
      code: `
        class DuplicateError extends Error {}
        async function logEvent(db, e) { await db.query('INSERT INTO audit_log (event, at) VALUES ($1, now())', [e.name]); }
        export async function ingest(db, events) {
          for (const e of events) {
            try { await logEvent(db, e); } catch (error) { if (!(error instanceof DuplicateError)) report(error); }
          }
        }`,
    },
    {
      name: 'Prisma: a catch that does not treat the duplicate',
      filename,
      code: `export async function track(prisma, eventId) { try { await prisma.webhook.create({ data: { eventId, payload: {} } }); } catch (e) { log(e); throw e; } }`,
    },
    {
      name: 'Prisma: a relation written through a nested object may fill a key',
      filename,
      code: `export async function join(prisma, userId, teamId) { try { await prisma.membership.create({ data: { user: { connect: { id: userId } }, teamId } }); } catch (e) { if (e.code === 'P2002') return; throw e; } }`,
    },
    {
      name: 'Prisma: a catch around two writes may be meant for the other one',
      filename,
      code: `export async function track(prisma, eventId, email) { try { await prisma.subscriber.create({ data: { email } }); await prisma.webhook.create({ data: { eventId } }); } catch (e) { if (e.code === 'P2002') return; throw e; } }`,
    },
    {
      name: 'Mongoose: upsert by a unique field',
      filename,
      code: `import mongoose from 'mongoose'; export async function track(walletId) { await Wallet.updateOne({ walletId }, { $set: { currency: 'BTC' } }, { upsert: true }); }`,
    },
    {
      name: 'Mongoose: upsert by a unique compound index',
      filename,
      code: `import mongoose from 'mongoose'; export async function done(accountId, quizId) { await Quiz.findOneAndUpdate({ accountId, quizId }, { $set: { at: new Date() } }, { upsert: true }); }`,
    },
    {
      name: 'Mongoose: upsert by _id',
      filename,
      code: `import mongoose from 'mongoose'; export async function touch(id) { await AccountIps.updateOne({ _id: id }, { $set: { lastConnection: new Date() } }, { upsert: true }); }`,
    },
    {
      name: 'Mongoose: a schema with a plugin may have keys we cannot see',
      filename,
      code: `import mongoose from 'mongoose'; export async function keep(token) { await Token.updateOne({ token }, { $set: { token } }, { upsert: true }); }`,
    },
    {
      name: 'Mongoose: a filter with operators is not a plain match',
      filename,
      code: `import mongoose from 'mongoose'; export async function touch(ids) { await AccountIps.updateOne({ accountId: { $in: ids } }, { $set: { lastConnection: new Date() } }, { upsert: true }); }`,
    },
    {
      name: 'Mongoose: a filter by an operator ($where) is not an empty filter',
      filename,
      code: `import mongoose from 'mongoose'; export async function mark(day) { await DbMetadata.findOneAndUpdate({ $where: 'this.ok' }, { $set: { routingFeeLastEntry: day } }, { upsert: true }); }`,
    },
    {
      name: 'Redis: SET NX has one key and needs no schema',
      filename,
      code: `import Redis from 'ioredis'; export async function claim(redis, id) { return redis.set(\`inbox:\${id}\`, '1', 'EX', 3600, 'NX'); }`,
    },
    {
      name: 'DynamoDB: a conditional put is keyed by the table key',
      filename,
      code: `import { PutCommand } from '@aws-sdk/lib-dynamodb'; export async function claim(client, id) { await client.send(new PutCommand({ TableName: 'inbox', Item: { messageId: id }, ConditionExpression: 'attribute_not_exists(messageId)' })); }`,
    },
  ],
  invalid: [
    {
      name: 'pg: ON CONFLICT DO NOTHING on a table whose only key is a generated id',
      filename,
      code: `export async function claim(db, id) { const r = await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id', [id]); return r.rowCount === 1; }`,
      errors: [
        {
          messageId: 'noKeyOnColumns',
          data: {
            table: 'inbox',
            write: 'the INSERT into inbox',
            columns: 'message_id',
            index: 'inbox(message_id)',
            where: 'in a new migration',
          },
        },
      ],
    },
    {
      name: 'pg: ON CONFLICT DO NOTHING on a table with no key at all, in a job',
      filename: jobFile,
      code: `export async function log(db, e) { await db.query('INSERT INTO audit_log (event, at) VALUES ($1, now()) ON CONFLICT DO NOTHING', [e]); }`,
      errors: [{ messageId: 'noKey' }],
    },
    {
      name: 'pg-promise: none() on a table with only a generated key, in a job: a redelivery writes the row twice',
      filename: jobFile,
      code: `import pgp from 'pg-promise'; export const recordEdit = async (pg, id, data) => tryOrLog(pg.none('insert into contract_edits (contract_id, data) values ($1, $2) on conflict do nothing', [id, data]));`,
      errors: [{ messageId: 'noKeyOnColumns' }],
    },
    {
      name: 'pg: ON CONFLICT DO NOTHING whose answer is read, outside a delivery',
      filename,
      code: `export async function log(db, e) { const r = await db.query('INSERT INTO audit_log (event, at) VALUES ($1, now()) ON CONFLICT DO NOTHING', [e]); return r.rowCount > 0; }`,
      errors: [{ messageId: 'noKey' }],
    },
    {
      name: 'pg: ON CONFLICT (cols) that no unique index matches exactly',
      filename,
      code: `export async function pay(db, o) { await db.query('INSERT INTO payments (order_id, cents) VALUES ($1, 3) ON CONFLICT (order_id) DO NOTHING', [o]); }`,
      errors: [
        {
          messageId: 'noMatchingKey',
          data: {
            table: 'payments',
            write: 'the INSERT into payments',
            columns: 'order_id',
            index: 'payments(order_id)',
            where: 'in a new migration',
          },
        },
      ],
    },
    {
      name: 'pg: ON CONFLICT (col) DO UPDATE on a column with no key',
      filename,
      code: `export async function claim(db, id) { await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT (message_id) DO UPDATE SET received_at = now()', [id]); }`,
      errors: [{ messageId: 'noMatchingKey' }],
    },
    {
      name: 'pg: a fresh id in the key never conflicts either',
      filename,
      code: `export async function claim(db, id) { await db.query('INSERT INTO inbox (id, message_id) VALUES (nextval(\\'inbox_id_seq\\'), $1) ON CONFLICT DO NOTHING', [id]); }`,
      errors: [{ messageId: 'noKeyOnColumns' }],
    },
    {
      name: 'knex: .onConflict().ignore() on a table with only a generated key, in a job',
      filename: jobFile,
      code: `import knex from 'knex'; export async function feed(db, postId, topicId, authorId) { await db('discovery_feeds').insert({ post_id: postId, topic_id: topicId, author_id: authorId }).onConflict().ignore(); }`,
      errors: [
        {
          messageId: 'noKeyOnColumns',
          data: {
            table: 'discovery_feeds',
            write: 'the knex insert into discovery_feeds',
            columns: 'post_id, topic_id, author_id',
            index: 'discovery_feeds(post_id, topic_id, author_id)',
            where: 'in a new migration',
          },
        },
      ],
    },
    {
      name: 'knex: .onConflict(col).merge() naming a column with no key',
      filename,
      code: `import knex from 'knex'; export async function claim(db, id) { await db('inbox').insert({ message_id: id }).onConflict('message_id').merge(); }`,
      errors: [{ messageId: 'noMatchingKey' }],
    },
    {
      name: 'Drizzle: onConflictDoNothing() on a table with no key on the inserted columns',
      filename,
      code: `import { eq } from 'drizzle-orm'; export async function claim(db, id) { await db.insert(inboxTable).values({ messageId: id }).onConflictDoNothing(); }`,
      errors: [{ messageId: 'noKeyOnColumns' }],
    },
    {
      name: 'Drizzle: onConflictDoNothing({ target }) naming half a unique index',
      filename,
      code: `import { eq } from 'drizzle-orm'; export async function pay(db, o, t) { await db.insert(payments).values({ orderId: o, tenantId: t }).onConflictDoNothing({ target: payments.orderId }); }`,
      errors: [{ messageId: 'noMatchingKey' }],
    },
    {
      name: 'Supabase: upsert onConflict naming a column with no key',
      filename,
      code: `import { createClient } from '@supabase/supabase-js'; export async function claim(supabase, id) { await supabase.from('inbox').upsert({ message_id: id }, { onConflict: 'message_id', ignoreDuplicates: true }); }`,
      errors: [{ messageId: 'noMatchingKey' }],
    },
    {
      name: "the near miss of the project's own error class: its module turns the database's 23505 into it",
      filename,
      code: `
        class DuplicateError extends Error {}
        const rethrow = (error) => { throw error.code === '23505' ? new DuplicateError() : error; };
        async function logEvent(db, e) { await db.query('INSERT INTO audit_log (event, at) VALUES ($1, now())', [e.name]).catch(rethrow); }
        export async function ingest(db, events) {
          for (const e of events) {
            try { await logEvent(db, e); } catch (error) { if (!(error instanceof DuplicateError)) report(error); }
          }
        }`,
      errors: [{ messageId: 'caughtNoKey' }],
    },
    {
      name: 'Prisma: P2002 tested with the other driver codes for the same violation, on a field with no unique key',
      filename,
      code: `export async function track(prisma, eventId) { try { await prisma.webhook.create({ data: { eventId, payload: 'x' } }); } catch (e) { if (e.code === 'P2002' || e.code === '23505') return false; throw e; } return true; }`,
      errors: [{ messageId: 'caughtNoKey' }],
    },
    {
      name: 'Prisma: create and catch P2002 on a field with no unique key',
      filename,
      code: `export async function track(prisma, eventId) { try { await prisma.webhook.create({ data: { eventId, payload: 'x' } }); } catch (e) { if (e.code === 'P2002') return false; throw e; } return true; }`,
      errors: [
        {
          messageId: 'caughtNoKey',
          data: {
            table: 'Webhook',
            write: 'prisma.webhook.create()',
            columns: 'eventId, payload',
            index: 'Webhook(eventId, payload)',
            where: 'in its schema',
          },
        },
      ],
    },
    {
      name: 'Prisma: createMany skipDuplicates on a model keyed only by a generated id, in a job',
      filename: jobFile,
      code: `export async function track(prisma, eventId) { await prisma.webhook.createMany({ data: [{ eventId }], skipDuplicates: true }); }`,
      errors: [{ messageId: 'noKeyOnColumns' }],
    },
    {
      name: 'Mongoose: upsert by fields with a plain, not unique, index, in a job',
      filename: jobFile,
      code: `import mongoose from 'mongoose'; export async function touch(accountId, ip) { await AccountIps.updateOne({ accountId, ip }, { $set: { lastConnection: new Date() } }, { upsert: true }); }`,
      errors: [
        {
          messageId: 'upsertNoKey',
          data: {
            table: 'AccountIp',
            write: 'AccountIps.updateOne()',
            columns: 'accountId, ip',
            index: 'AccountIp(accountId, ip)',
            where: 'in its schema',
          },
        },
      ],
    },
    {
      name: 'the near miss of a log upserted outside a delivery: a payout upserted with no key on its filter, anywhere, moves money',
      filename,
      code: `import mongoose from 'mongoose'; export async function open(currency) { await Payout.updateOne({ currency }, { $set: { currency } }, { upsert: true }); }`,
      errors: [
        {
          messageId: 'upsertNoKey',
          data: {
            table: 'Payout',
            write: 'Payout.updateOne()',
            columns: 'currency',
            index: 'Payout(currency)',
            where: 'in its schema',
          },
        },
      ],
    },
    {
      name: 'Mongoose: upsert with an empty filter, in a job',
      filename: jobFile,
      code: `import mongoose from 'mongoose'; export async function mark(day) { await DbMetadata.findOneAndUpdate({}, { $set: { routingFeeLastEntry: day } }, { upsert: true }); }`,
      errors: [{ messageId: 'upsertEmptyFilter' }],
    },
    {
      name: 'Mongoose: create and catch E11000 on a field with no unique index',
      filename,
      code: `import mongoose from 'mongoose'; export async function add(accountId, ip) { try { await AccountIps.create({ accountId, ip }); } catch (err) { if (err.code === 11000) return; throw err; } }`,
      errors: [{ messageId: 'caughtNoKey' }],
    },
    {
      name: 'NestJS Mongoose: a @Schema class whose @Prop is not unique, in a job',
      filename: jobFile,
      code: `import { Model } from 'mongoose'; class EventsService { constructor(EventKeysModel) { this.EventKeysModel = EventKeysModel; } seed(name) { return this.EventKeysModel.updateOne({ key: name }, { key: name, type: 'String' }, { upsert: true }).exec(); } } export const run = (model, name) => new EventsService(model).seed(name);`,
      errors: [{ messageId: 'upsertNoKey' }],
    },
  ],
});

describe('no-claim-without-unique-key across modules', () => {
  it("the lesson's example 4.8: claimFirst on the unchecked inbox is reported at its claim, once the table is in a migration", async () => {
    const lesson = path.resolve(here, '../../../lessons/idempotent-consumers/handlers');
    const { findings, messages } = await lintProject({
      'migrations/001_inbox.sql': `${uncheckedInboxTable}\nCREATE TABLE effects (effect_id text NOT NULL, amount integer NOT NULL);\n`,
      'src/handlers/inbox.ts': readFileSync(path.join(lesson, 'inbox.ts'), 'utf8'),
      'src/handlers/example-4-6.ts': readFileSync(path.join(lesson, 'example-4-6.ts'), 'utf8'),
    });
    const mine = findings.filter((finding) => finding.includes('no-claim-without-unique-key'));
    // claimThenCredit's claim, and the late record of creditThenRecord (example 4.6) on the same table.
    expect(mine).toEqual([
      'src/handlers/example-4-6.ts:20 idempotency/no-claim-without-unique-key/noKey',
      'src/handlers/inbox.ts:5 idempotency/no-claim-without-unique-key/noKey',
    ]);
    expect(messages).toContain(
      'Claim with no unique key to settle it: inbox has none, so the INSERT into inbox inserts the duplicate; add a unique index on inbox(message_id) in a new migration.',
    );
  });

  const recordWebhook = `
export async function recordWebhook(prisma, eventId) {
  try {
    await prisma.webhook.create({ data: { eventId, payload: 'seen' } });
    return true;
  } catch (error) {
    if (error.code === 'P2002') return false;
    throw error;
  }
}
`;

  it('a claim helper in another module, and a Prisma schema beside it', async () => {
    const { findings } = await lintProject({
      'prisma/schema.prisma': prismaSchema,
      'src/claims.js': recordWebhook,
      'src/consumer.js': `
import { recordWebhook } from './claims.js';
export async function onEvent(prisma, event) {
  if (!(await recordWebhook(prisma, event.id))) return;
  await prisma.subscriber.create({ data: { email: event.email } });
}
`,
    });
    expect(findings.filter((finding) => finding.includes('no-claim-without-unique-key'))).toEqual([
      'src/claims.js:4 idempotency/no-claim-without-unique-key/caughtNoKey',
    ]);
  });

  it('SQL sent as text names a Prisma key by the columns its fields are mapped to', async () => {
    const schema = `
model ExtractedTag {
  sourceId      String @map("uipath_value_id") @db.Uuid
  applicationId String @map("application_id") @db.Uuid
  value         String
  page          Int
  @@id([sourceId, applicationId, value])
  @@map("extracted_tag")
}
`;
    const insert = (target: string) => `
export async function keep(client, v) {
  await client.query(
    'insert into extracted_tag (uipath_value_id, application_id, value, page) values ($1, $2, $3, $4) on conflict (${target}) do nothing',
    [v.id, v.applicationId, v.value, v.page],
  );
}
`;
    const named = (target: string) =>
      lintProject({ 'prisma/schema.prisma': schema, 'src/jobs/tags.js': insert(target) }).then(({ findings }) =>
        findings.filter((finding) => finding.includes('no-claim-without-unique-key')),
      );
    expect(await named('uipath_value_id, application_id, value')).toEqual([]);
    expect(await named('uipath_value_id, value')).toEqual([
      'src/jobs/tags.js:3 idempotency/no-claim-without-unique-key/noMatchingKey',
    ]);
  });

  it('a partial unique index Prisma Migrate appends by hand, on a quoted table, settles the caught claim', async () => {
    const files = (index: string) => ({
      'prisma/schema.prisma': prismaSchema,
      'prisma/migrations/20260101000000_webhook_key/migration.sql': index,
      'src/claims.js': recordWebhook,
    });
    const keyed = await lintProject(
      files('CREATE UNIQUE INDEX "Webhook_pending_event" ON "Webhook"("eventId") WHERE "payload" = \'seen\';'),
    );
    expect(keyed.findings.filter((finding) => finding.includes('no-claim-without-unique-key'))).toEqual([]);
    const elsewhere = await lintProject(
      files('CREATE UNIQUE INDEX "Other_pending_event" ON "Other"("eventId") WHERE "payload" = \'seen\';'),
    );
    expect(elsewhere.findings.filter((finding) => finding.includes('no-claim-without-unique-key'))).toEqual([
      'src/claims.js:4 idempotency/no-claim-without-unique-key/caughtNoKey',
    ]);
  });

  it("a schema moved by prisma.config.ts keeps Prisma Migrate's migrations beside it", async () => {
    const files = (index: string) => ({
      'prisma.config.ts': `import { defineConfig } from 'prisma/config';\nexport default defineConfig({ schema: './src/model' });`,
      'src/model/schema.prisma': prismaSchema,
      'src/model/migrations/20260101000000_webhook_key/migration.sql': index,
      'src/claims.js': recordWebhook,
    });
    const keyed = await lintProject(files('CREATE UNIQUE INDEX "Webhook_event" ON "Webhook"("eventId");'));
    expect(keyed.findings.filter((finding) => finding.includes('no-claim-without-unique-key'))).toEqual([]);
    const elsewhere = await lintProject(files('CREATE UNIQUE INDEX "Other_event" ON "Other"("eventId");'));
    expect(elsewhere.findings.filter((finding) => finding.includes('no-claim-without-unique-key'))).toEqual([
      'src/claims.js:4 idempotency/no-claim-without-unique-key/caughtNoKey',
    ]);
  });

  it('with the unique key added in a later migration, the same claim is silent', async () => {
    const { findings } = await lintProject({
      'migrations/001_inbox.sql': uncheckedInboxTable,
      'migrations/002_inbox_key.sql': 'CREATE UNIQUE INDEX inbox_message_id ON inbox (message_id);',
      'src/inbox.js': `export async function claim(db, id) { const r = await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]); return r.rowCount === 1; }`,
    });
    expect(findings.filter((finding) => finding.includes('no-claim-without-unique-key'))).toEqual([]);
  });

  it('a migration PostgreSQL cannot read leaves every table unsettled', async () => {
    const { findings } = await lintProject({
      'migrations/001_inbox.sql': uncheckedInboxTable,
      'migrations/002_mysql.sql':
        'ALTER TABLE inbox ADD UNIQUE KEY inbox_message_id (message_id) USING BTREE ENGINE=InnoDB;',
      'src/inbox.js': `export async function claim(db, id) { await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]); }`,
    });
    expect(findings.filter((finding) => finding.includes('no-claim-without-unique-key'))).toEqual([]);
  });
});
