import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

const mikro = `import { EntityManager } from '@mikro-orm/postgresql';`;
const op = (kind: string, targets: string[], fields: string[] = [], extra: Record<string, unknown> = {}) => ({
  kind,
  library: 'mikro-orm',
  targets,
  fields,
  arbitrated: false,
  skipsDuplicates: false,
  ...extra,
});

describe('mikro-orm adapter', () => {
  it.each([
    [
      'em.findOne(Entity, where) is a read of the entity',
      `${mikro} await em.findOne(ProcessedMessage, { messageId });`,
      [op('read', ['processed_message'])],
    ],
    [
      'findOneOrFail and count, on this.em',
      `${mikro} await this.em.findOneOrFail(Refund, { refundId }); await this.em.count(Refund, { refundId });`,
      [op('read', ['refund']), op('read', ['refund'])],
    ],
    [
      'em.create(Entity, data) is the insert (the next flush writes it)',
      `${mikro} const row = em.create(Inbox, { messageId, seenAt }); await em.persistAndFlush(row);`,
      [op('insert', ['inbox'], ['messageId', 'seenAt'])],
    ],
    [
      'persistAndFlush(new Entity(…)) inserts',
      `${mikro} await em.persistAndFlush(new Inbox({ messageId }));`,
      [op('insert', ['inbox'], ['messageId'])],
    ],
    [
      "persistAndFlush is MikroORM's alone: no import needed",
      `const inbox = new Inbox({ messageId }); await this.em.persistAndFlush(inbox);`,
      [op('insert', ['inbox'], ['messageId'])],
    ],
    [
      'em.persist(new Entity(…)).flush()',
      `${mikro} await em.persist(new Inbox({ messageId })).flush();`,
      [op('insert', ['inbox'], ['messageId'])],
    ],
    [
      'em.insert and em.nativeInsert',
      `${mikro} await em.insert(Inbox, { messageId }); await em.nativeInsert(Inbox, { messageId });`,
      [op('insert', ['inbox'], ['messageId']), op('insert', ['inbox'], ['messageId'])],
    ],
    [
      'em.upsert is arbitrated',
      `${mikro} await em.upsert(Refund, { refundId, cents });`,
      [op('upsert', ['refund'], ['refundId', 'cents'], { arbitrated: true })],
    ],
    [
      'em.upsert with onConflictAction ignore writes nothing on a duplicate',
      `${mikro} await em.upsert(Inbox, { messageId }, { onConflictFields: ['messageId'], onConflictAction: 'ignore' });`,
      [
        op('upsert', ['inbox'], ['messageId'], {
          conflictTarget: ['messageId'],
          arbitrated: true,
          skipsDuplicates: true,
        }),
      ],
    ],
    [
      'a repository: findOne(where) and create(data)',
      `${mikro} await this.inboxRepository.findOne({ messageId }); this.inboxRepository.create({ messageId });`,
      [op('read', ['inbox']), op('insert', ['inbox'], ['messageId'])],
    ],
    [
      'em.getRepository(Entity)',
      `${mikro} await em.getRepository(Inbox).findOne({ messageId });`,
      [op('read', ['inbox'])],
    ],
    ['near miss: find() with no condition checks nothing', `${mikro} await em.find(Inbox);`, []],
    ['near miss: persisting something that is not a new entity', `${mikro} await em.persistAndFlush(found);`, []],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code)).toEqual(expected);
  });

  it('near miss: without a MikroORM import, em.findOne(Entity, …) is left to TypeORM', () => {
    expect(operationsIn(`await em.findOne(Inbox, { messageId });`).map((operation) => operation.library)).toEqual([
      'typeorm',
    ]);
  });

  it("in a file that imports TypeORM, its manager stays TypeORM's", () => {
    expect(
      operationsIn(`import { DataSource } from 'typeorm'; await manager.findOne(Inbox, { where: { messageId } });`).map(
        (operation) => operation.library,
      ),
    ).toEqual(['typeorm']);
  });
});
