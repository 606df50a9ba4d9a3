import type { Queryable } from '../../src/database.js';
import { insertInbox } from './inbox.js';

export interface ResultMessage {
  id: string;
  courseId: string;
  cents: number;
}

/** The shipped handler of question 1: it keys the effect by the message's own id. */
export async function handleResult(db: Queryable, message: ResultMessage): Promise<void> {
  const inboxId = message.id;
  const effectId = message.id;
  if (await insertInbox(db, inboxId)) {
    await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [effectId, message.cents]);
  }
}

export async function handleResultIgnoringClaim(db: Queryable, message: ResultMessage): Promise<void> {
  const inboxId = message.id;
  const effectId = message.id;
  await insertInbox(db, inboxId);
  await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [effectId, message.cents]);
}

export async function handleResultPerWorker(db: Queryable, message: ResultMessage, workerId: string): Promise<void> {
  const inboxId = `${workerId}:${message.id}`;
  const effectId = `${workerId}:${message.id}`;
  if (await insertInbox(db, inboxId)) {
    await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [effectId, message.cents]);
  }
}

export async function handleResultPerCourse(db: Queryable, message: ResultMessage): Promise<void> {
  const inboxId = message.courseId;
  const effectId = message.id;
  if (await insertInbox(db, inboxId)) {
    await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [effectId, message.cents]);
  }
}
