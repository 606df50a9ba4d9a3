/**
 * A consumer file of a given length for the benchmark: Kafka and BullMQ handlers that write
 * effects with SQL, some keyed safely and some not, so the rules have real work on every line.
 */
const handler = (index: number) => `
export async function handleResult${index}(message: { id: string; key: string; value: Buffer; offset: string }) {
  const result = JSON.parse(String(message.value)) as { resultId: string; cents: number; courseId: string };
  const inboxId = message.id;
  const effectId = message.id;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const claim = await client.query(
      'INSERT INTO inbox(message_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING message_id',
      [inboxId],
    );
    if (claim.rowCount === 1) {
      await client.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [effectId, result.cents]);
      await client.query(\`INSERT INTO ledger(entry_id, course_id, amount) VALUES ($1, $2, $3)
        ON CONFLICT (entry_id) DO NOTHING\`, ['amount-' + result.cents, result.courseId, result.cents]);
    }
    const seen = await client.query('SELECT 1 FROM snapshots WHERE snapshot_id = $1', [result.resultId]);
    if (seen.rowCount === 0) {
      await client.query('INSERT INTO snapshots(snapshot_id, cents) VALUES ($1, $2)', [result.resultId, result.cents]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
`;

const header = `import { Kafka } from 'kafkajs';
import { Pool } from 'pg';

const pool = new Pool();
const kafka = new Kafka({ clientId: 'bench', brokers: ['127.0.0.1:9092'] });
export const consumer = kafka.consumer({ groupId: 'bench' });
`;

/** Whole handlers only (a cut one would not parse), so the file is `lines` long or a little longer. */
export function consumerFile(lines: number): string {
  let text = header;
  for (let index = 0; text.split('\n').length < lines; index += 1) text += handler(index);
  return `${text}// end\n`;
}
