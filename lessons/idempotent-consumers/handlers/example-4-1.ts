import type { Queryable } from '../../src/database.js';
import { insertInbox } from './inbox.js';

export interface Notice {
  id: string;
}

/** The database arbitrates: whichever worker's insert creates the row owns the message. */
export async function claimNotice(db: Queryable, notice: Notice): Promise<boolean> {
  return insertInbox(db, notice.id);
}

/**
 * The application arbitrates instead. One worker at a time it gives the same answers; two workers
 * on two connections can both pass the check before either inserts.
 */
export async function claimNoticeByChecking(db: Queryable, notice: Notice): Promise<boolean> {
  const seen = await db.query('SELECT 1 FROM inbox WHERE message_id = $1', [notice.id]);
  if (seen.rows.length > 0) return false;
  await db.query('INSERT INTO inbox(message_id) VALUES ($1)', [notice.id]);
  return true;
}
