import type { Queryable } from '../../src/database.js';
import { insertInbox } from './inbox.js';

/** A payment request as it reaches the provider: the key the client chose, and what to pay whom. */
export interface PaymentRequest {
  id: string;
  idempotencyKey: string;
  payee: string;
  cents: number;
}

/**
 * The provider's side, in tables that stand for the provider's own database. A request with a key it
 * has not seen is recorded as in progress, paid, then marked done with the charge it made. A key it
 * has seen is answered from its record: still in progress, the same charge again, or a refusal when
 * the parameters differ from the ones first sent with that key.
 */
export async function providerPays(db: Queryable, request: PaymentRequest): Promise<string> {
  const fingerprint = [request.payee, request.cents];
  const fresh = await db.query(
    "INSERT INTO provider_keys(idempotency_key, fingerprint, state) VALUES ($1, md5($2 || ':' || $3), 'in progress') ON CONFLICT DO NOTHING RETURNING idempotency_key",
    [request.idempotencyKey, ...fingerprint],
  );
  if (fresh.rows.length === 0) {
    const seen = await db.query<{ same: boolean; state: string; charge_id: string | null }>(
      "SELECT fingerprint = md5($2 || ':' || $3) AS same, state, charge_id FROM provider_keys WHERE idempotency_key = $1",
      [request.idempotencyKey, ...fingerprint],
    );
    const record = seen.rows[0];
    if (!record?.same) return 'rejected, the key came with other parameters';
    return record.state === 'in progress' ? 'in progress' : `replayed ${record.charge_id}`;
  }
  const charge = await db.query<{ charge_id: string }>(
    "INSERT INTO provider_charges(charge_id, payee, cents) VALUES ('charge-' || $1, $2, $3) RETURNING charge_id",
    [request.id, request.payee, request.cents],
  );
  const chargeId = charge.rows[0]?.charge_id ?? '';
  await db.query("UPDATE provider_keys SET state = 'done', charge_id = $2 WHERE idempotency_key = $1", [
    request.idempotencyKey,
    chargeId,
  ]);
  return `paid ${chargeId}`;
}

export interface PayoutOrdered {
  id: string;
  payoutId: string;
  payee: string;
  cents: number;
}

/** The request for a payout, keyed by the payout itself, so every retry of it sends the same key. */
export function paymentFor(payout: PayoutOrdered): PaymentRequest {
  return { id: payout.payoutId, idempotencyKey: payout.payoutId, payee: payout.payee, cents: payout.cents };
}

/** What the consumer's code sees of the provider: one call that answers, over the network. */
export type ProviderClient = (request: PaymentRequest) => Promise<string>;

/**
 * The provider called from inside the consumer's transaction: the claim, the call, the record of
 * the charge, and a COMMIT that may never come. The provider keeps what it did either way.
 */
export async function payOutInsideTransaction(
  db: Queryable,
  payout: PayoutOrdered,
  pay: ProviderClient,
): Promise<string | null> {
  if (!(await insertInbox(db, payout.id))) return null;
  const answer = await pay(paymentFor(payout));
  await db.query('INSERT INTO payouts(payout_id, answer) VALUES ($1, $2)', [payout.payoutId, answer]);
  return answer;
}
