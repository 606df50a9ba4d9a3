// The shape the rules ask for: the delivery is claimed in an inbox with a unique key, the effect
// is keyed by the business operation, and both commit in one transaction.
import { Worker, type Job } from 'bullmq';
import { Pool } from 'pg';

interface SaleRecorded {
  saleId: string;
  accountId: string;
  cents: number;
}

const pool = new Pool();

export const worker = new Worker('sales', async (job: Job<SaleRecorded>) => {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const claim = await client.query(
      'INSERT INTO inbox (message_id, received_at) VALUES ($1, now()) ON CONFLICT DO NOTHING RETURNING message_id',
      [job.id],
    );
    if (claim.rowCount === 0) {
      await client.query('ROLLBACK');
      return;
    }
    await client.query(
      'INSERT INTO sales (sale_id, account_id, cents, delivered_as) VALUES ($1, $2, $3, $4) ON CONFLICT (sale_id) DO NOTHING',
      [job.data.saleId, job.data.accountId, job.data.cents, job.id],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
});
