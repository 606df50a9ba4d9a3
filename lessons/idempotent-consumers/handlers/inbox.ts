import type { Queryable } from '../../src/database.js';

/** The inbox claim every handler in this lesson starts with: the unique key decides, not the caller. */
export async function insertInbox(db: Queryable, messageId: string): Promise<boolean> {
  const claim = await db.query(
    'INSERT INTO inbox(message_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING message_id',
    [messageId],
  );
  return claim.rows.length === 1;
}
