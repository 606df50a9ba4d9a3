import { describe, expect, it } from 'vitest';

import { lintProject } from '../support/project.js';

/**
 * A purchase saved with TypeORM's `save()`, which looks the entity up by its primary key and
 * updates the row it finds: a second request that comes after the first one's save does not fail
 * on the key, it rewrites the row and goes on to what follows.
 */
const purchaseKey = {
  primary: `@PrimaryColumn('varchar') transactionId!: string;`,
  unique: `@PrimaryGeneratedColumn() id!: number;\n  @Column({ unique: true }) transactionId!: string;`,
};

const project = (key: keyof typeof purchaseKey, after: string) => ({
  'src/entities.ts': `
import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
@Entity('purchases')
export class Purchase {
  ${purchaseKey[key]}
  @Column() quantity!: number;
}
@Entity('users')
export class User {
  @PrimaryColumn() id!: string;
  @Column() membershipExpiration!: Date;
}
`,
  'src/purchases.ts': `
import { getRepository } from 'typeorm';
import { Purchase, User } from './entities';
export async function recordPurchase(receipt: any, userId: string) {
  const purchases = getRepository(Purchase);
  const found = await purchases.findOne({ transactionId: receipt.transactionId });
  if (found) return found;
  const purchase = Object.assign(new Purchase(), receipt);
  await purchases.save(purchase);
  const users = getRepository(User);
  ${after}
  return purchase;
}
`,
});

/** A year of membership added to the end the user already has. */
const extendsMembership = `const user = await users.findOneOrFail({ id: userId });
  const membershipExpiration = new Date(user.membershipExpiration.getTime() + 365 * 86400000);
  await users.update(userId, { membershipExpiration });`;

describe('no-check-then-insert: a save by the primary key', () => {
  it('reports the save when a year of membership is added after it', async () => {
    const { findings, messages } = await lintProject(project('primary', extendsMembership));
    expect(findings).toEqual(['src/purchases.ts:9 idempotency/no-check-then-insert/checkThenInsert']);
    expect(messages[0]).toContain('purchases.save() follows purchases.findOne() on line 6');
  });

  it('stays silent when nothing follows the save: the second save rewrites the same row', async () => {
    const { findings } = await lintProject(project('primary', ''));
    expect(findings).toEqual([]);
  });

  it('near miss: a unique key that is not the primary key refuses the second insert before the grant', async () => {
    const { findings } = await lintProject(project('unique', extendsMembership));
    expect(findings).toEqual([]);
  });

  it('near miss: a membership end counted from the clock is set, not added to, by a second run', async () => {
    const { findings } = await lintProject(
      project(
        'primary',
        `await users.update(userId, { membershipExpiration: new Date(Date.now() + 365 * 86400000) });`,
      ),
    );
    expect(findings).toEqual([]);
  });
});

/**
 * A settlement attempt recorded in a worker after a look for an active one: the migration's
 * partial unique index covers rows whose hash is set, of one direction, in an active status.
 */
const settlement = (direction: string) => ({
  'prisma/schema.prisma': `
model PaymentAttempt {
  id          String @id @default(cuid())
  payloadHash String?
  direction   String
  status      String
}
`,
  'prisma/migrations/20260712000000_active_settlement/migration.sql': `
CREATE UNIQUE INDEX "PaymentAttempt_active_payload_key" ON "PaymentAttempt" ("payloadHash")
WHERE "payloadHash" IS NOT NULL AND "direction" = 'InboundSettle' AND "status" IN ('Verified', 'Settled');
`,
  'src/workers/settle.ts': `
import { PrismaClient } from '@prisma/client';
import { Direction, Status } from './enums';
const prisma = new PrismaClient();
export async function settle(payloadHash: string) {
  const prior = await prisma.paymentAttempt.findFirst({ where: { payloadHash, direction: Direction.InboundSettle } });
  if (prior) return;
  await prisma.paymentAttempt.create({ data: { payloadHash, direction: ${direction}, status: Status.Verified } });
}
`,
  'src/workers/enums.ts': `
export const Direction = { InboundSettle: 'InboundSettle', OutboundSettle: 'OutboundSettle' } as const;
export const Status = { Verified: 'Verified', Settled: 'Settled' } as const;
`,
});

describe('no-check-then-insert: a partial unique index', () => {
  it('is the key when the row is filled where it asks IS NOT NULL and written with the enum members it lists', async () => {
    const { findings } = await lintProject(settlement('Direction.InboundSettle'));
    expect(findings).toEqual([]);
  });

  it('near miss: a row of another direction falls outside the index', async () => {
    const { findings } = await lintProject(settlement('Direction.OutboundSettle'));
    expect(findings).toEqual(['src/workers/settle.ts:8 idempotency/no-check-then-insert/checkThenInsert']);
  });
});

/** Credits a helper module awards once per submission, called by a route that may claim the listing first. */
const announce = (claim: string) => ({
  'prisma/schema.prisma': `
model CreditLedger {
  id           String @id @default(uuid())
  userId       String
  submissionId String
  change       Int
}
model Listing {
  id        String  @id
  announced Boolean @default(false)
}
`,
  'src/credits.ts': `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function awardWinBonus(userId: string, submissionId: string) {
  const existing = await prisma.creditLedger.findFirst({ where: { userId, submissionId } });
  if (existing) return;
  await prisma.creditLedger.create({ data: { userId, submissionId, change: 1 } });
}
`,
  'src/announce.ts': `
import { PrismaClient } from '@prisma/client';
import { awardWinBonus } from './credits';
const prisma = new PrismaClient();
export async function announce(id: string, winners: { userId: string; submissionId: string }[]) {
  ${claim}
  for (const winner of winners) await awardWinBonus(winner.userId, winner.submissionId);
}
`,
});

describe('no-check-then-insert: a lock taken by the callers in other modules', () => {
  it('stays silent when every caller wins a compare-and-set first', async () => {
    const { findings } = await lintProject(
      announce(
        `const claimed = await prisma.listing.updateMany({ where: { id, announced: false }, data: { announced: true } });
  if (claimed.count === 0) return;`,
      ),
    );
    expect(findings).toEqual([]);
  });

  it('near miss: a caller that only reads the flag leaves two requests both awarding', async () => {
    const { findings } = await lintProject(
      announce(`const listing = await prisma.listing.findUnique({ where: { id } });
  if (listing?.announced) return;`),
    );
    expect(findings).toEqual(['src/credits.ts:7 idempotency/no-check-then-insert/checkThenInsert']);
  });
});

/**
 * A session service over DynamoDB whose get looks the item up by its `Key` and whose put stores the
 * item it is handed; the request handler checks, then puts, then announces the session.
 */
const sessionProject = (sessionId: string) => ({
  'src/session-service.ts': `
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
export class SessionService {
  constructor(private readonly dynamo: any, private readonly tableName: string) {}
  async getSessionById(sessionId: string) {
    const command = new GetCommand({ TableName: this.tableName, Key: { sessionId } });
    const session = await this.dynamo.send(command);
    return session.Item;
  }
  async createSession(session: any) {
    const command = new PutCommand({ TableName: this.tableName, Item: session });
    await this.dynamo.send(command);
  }
}
`,
  'src/start-session.ts': `
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { SessionService } from './session-service';
const service = new SessionService(dynamo, 'sessions');
export const handler = async (event: APIGatewayProxyEvent) => {
  const body = JSON.parse(event.body);
  const sessionId = ${sessionId};
  if (await service.getSessionById(sessionId)) return { statusCode: 500 };
  const session = { sessionId, clientId: body.client_id, createdAt: Date.now() };
  await service.createSession(session);
  await sqs.send(new SendMessageCommand({ QueueUrl: auditQueue, MessageBody: JSON.stringify({ event: 'SESSION_STARTED', sessionId }) }));
  return { statusCode: 200 };
};
`,
});

describe('no-check-then-insert: a DynamoDB get by its Key before a put of the item', () => {
  it('reports the put when the session id comes from the request: two requests both pass the check and both announce', async () => {
    const { findings, messages } = await lintProject(sessionProject('body.session_id'));
    expect(findings).toEqual(['src/start-session.ts:12 idempotency/no-check-then-insert/checkThenInsert']);
    expect(messages[0]).toContain('service.createSession() follows service.getSessionById() on line 10');
  });

  it('near miss: a session id minted by the request names a new item, never one another request wrote', async () => {
    const { findings } = await lintProject(sessionProject('randomUUID()'));
    expect(findings).toEqual([]);
  });
});

describe('no-check-then-insert: a registry of camel-case models', () => {
  const registry = `
const fs = require('fs');
const path = require('path');
const { Sequelize, DataTypes } = require('sequelize');
const sequelize = new Sequelize(process.env.DATABASE_URL);
const db = {};
for (const file of fs.readdirSync(path.join(__dirname, 'models'))) {
  const model = require(path.join(__dirname, 'models', file))(sequelize, DataTypes);
  db[model.name] = model;
}
db.sequelize = sequelize;
module.exports = db;
`;
  const model = `
module.exports = (sequelize, DataTypes) =>
  sequelize.define('paymentRequest', {
    paymentRequestId: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    referenceId: DataTypes.UUID,
    status: DataTypes.STRING,
    value: DataTypes.INTEGER,
  }, { tableName: 'paymentRequests' });
`;
  const consumer = `
const db = require('../data');
module.exports = async function submit(paymentRequest) {
  const existing = await db.paymentRequest.findOne({ where: { referenceId: paymentRequest.referenceId } });
  if (existing) return;
  await db.paymentRequest.create({ referenceId: paymentRequest.referenceId, value: paymentRequest.value, status: 'completed' });
};
`;
  const files = (dependencies: Record<string, string>, more: Record<string, string> = {}) => ({
    'package.json': JSON.stringify({ name: 'payments', private: true, dependencies }),
    'app/data/index.js': registry,
    'app/data/models/payment-request.js': model,
    'app/workers/submit.js': consumer,
    ...more,
  });

  it('reads db.paymentRequest as the model its package defines', async () => {
    const { findings } = await lintProject(files({ sequelize: '^6.0.0' }));
    expect(findings).toEqual(['app/workers/submit.js:6 idempotency/no-check-then-insert/checkThenInsert']);
  });

  it('near miss: a unique constraint a Liquibase changelog adds settles it', async () => {
    const changelog = `<?xml version="1.1" encoding="UTF-8"?>
<databaseChangeLog xmlns="http://www.liquibase.org/xml/ns/dbchangelog">
  <changeSet author="team" id="2">
    <addUniqueConstraint tableName="paymentRequests" columnNames="referenceId" />
  </changeSet>
</databaseChangeLog>`;
    const { findings } = await lintProject(
      files({ sequelize: '^6.0.0' }, { 'changelog/db.changelog-1.1.xml': changelog }),
    );
    expect(findings).toEqual([]);
  });

  it('near miss: a write that shows every field, none of them the reference, stores another row', async () => {
    const shown = consumer.replace('referenceId: paymentRequest.referenceId, ', '');
    const { findings } = await lintProject({ ...files({ sequelize: '^6.0.0' }), 'app/workers/submit.js': shown });
    expect(findings).toEqual([]);
  });

  it('near miss: a write that spreads what it stores shows no field the check read: silent', async () => {
    const spread = consumer.replace(
      'referenceId: paymentRequest.referenceId, value: paymentRequest.value,',
      '...paymentRequest,',
    );
    const { findings } = await lintProject({ ...files({ sequelize: '^6.0.0' }), 'app/workers/submit.js': spread });
    expect(findings).toEqual([]);
  });

  it('near miss: a camel-case member of a registry in a package written without the library is no model', async () => {
    const { findings } = await lintProject(files({}));
    expect(findings).toEqual([]);
  });
});
