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
