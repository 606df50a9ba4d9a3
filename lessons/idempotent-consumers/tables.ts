/** The tables the lesson's items start from. Each item creates only what it needs, on a fresh database. */

export const inboxTable = 'CREATE TABLE inbox (message_id text PRIMARY KEY);';

/** The inbox an application guards by itself: no unique key, only a check before the insert. */
export const uncheckedInboxTable = 'CREATE TABLE inbox (message_id text NOT NULL);';

/** Effects with no unique key, as the predict scenario and question 1 describe them. */
export const unkeyedEffectsTable = 'CREATE TABLE effects (effect_id text NOT NULL, amount integer NOT NULL);';

export const keyedEffectsTable = 'CREATE TABLE effects (effect_id text PRIMARY KEY, amount integer NOT NULL);';

export const saleEffectsTable =
  'CREATE TABLE effects (effect_id text PRIMARY KEY, sale_id text NOT NULL, amount integer NOT NULL);';

export const balancesTable = 'CREATE TABLE balances (account_id text PRIMARY KEY, cents integer NOT NULL);';

/** Balances that remember which snapshot set them, so an upsert can refuse an older one. */
export const sequencedBalancesTable =
  'CREATE TABLE balances (account_id text PRIMARY KEY, cents integer NOT NULL, as_of integer NOT NULL);';

/** A claims table with the key the old `inbox` beside it lacks, as question 7 has them. */
export const claimsTable = 'CREATE TABLE claims (message_id text PRIMARY KEY);';

/**
 * A producer's tables and, beside them, `broker`, which stands for the message broker: a row there
 * is a copy published. The consumer's inbox and effects are in the same database only because the
 * lesson runs on one.
 */
export const outboxTables =
  'CREATE TABLE orders (order_id text PRIMARY KEY, cents integer NOT NULL);' +
  'CREATE TABLE outbox (message_id text PRIMARY KEY, cashback_id text NOT NULL, cents integer NOT NULL, sent boolean NOT NULL DEFAULT false);' +
  'CREATE TABLE broker (copy serial PRIMARY KEY, message_id text NOT NULL, cashback_id text NOT NULL, cents integer NOT NULL);';

/**
 * One partition of a log and the offset its broker keeps for the consumer group (both stand for the
 * broker), and `positions`, where a consumer may keep its position itself, beside its effects.
 */
export const partitionTables =
  'CREATE TABLE partition_log (log_offset integer PRIMARY KEY, message_id text NOT NULL, cashback_id text NOT NULL, cents integer NOT NULL);' +
  "CREATE TABLE broker_offsets (consumer_group text PRIMARY KEY, next_offset integer NOT NULL); INSERT INTO broker_offsets VALUES ('cashback', 0);" +
  "CREATE TABLE positions (consumer_group text PRIMARY KEY, next_offset integer NOT NULL); INSERT INTO positions VALUES ('cashback', 0);";

/** A job queue in a table; `queuedTwice` is one order's cashback enqueued twice, as a retried producer does. */
export const jobsTable =
  "CREATE TABLE jobs (job_id text PRIMARY KEY, cashback_id text NOT NULL, cents integer NOT NULL, state text NOT NULL DEFAULT 'queued');";

/** An inbox that notes the day each claim was made, so that a job can prune old ones. */
export const datedInboxTable = 'CREATE TABLE inbox (message_id text PRIMARY KEY, received_day integer NOT NULL);';

/**
 * Tables that stand for a payment provider's own database: the idempotency keys it has seen, each
 * with a fingerprint of the parameters first sent with it, and the charges it made.
 */
export const providerTables =
  'CREATE TABLE provider_keys (idempotency_key text PRIMARY KEY, fingerprint text NOT NULL, state text NOT NULL, charge_id text);' +
  'CREATE TABLE provider_charges (charge_id text PRIMARY KEY, payee text NOT NULL, cents integer NOT NULL);';

/** The consumer's record of the payouts it asked the provider for, and the answer it got. */
export const payoutsTable = 'CREATE TABLE payouts (payout_id text PRIMARY KEY, answer text NOT NULL);';
