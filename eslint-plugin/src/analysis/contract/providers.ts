/**
 * What an adapter says about providers whose calls move money or send something to a person:
 * which calls, which effect, and the field each provider settles repeats by.
 */

/** What a provider call does that a repeat does twice (`post`: an issue, a comment or a chat message in a team's tool). */
export type ProviderEffect =
  'charge' | 'refund' | 'transfer' | 'payout' | 'ledger' | 'usage' | 'email' | 'sms' | 'push' | 'post';

/**
 * Where a provider call takes its idempotency key: an option of an object argument (the request
 * options, `{ idempotencyKey }`), or a path into its first argument (the request body).
 */
export type ProviderKey = { option: string } | { field: string };

export interface ProviderCallSpec {
  /** The end of the call's member chain: `refunds.create` for `stripe.refunds.create(…)`. */
  path: string;
  effect: ProviderEffect;
  /**
   * The call sends a command object, `client.send(new SendEmailCommand(…))`: the class's name,
   * imported from one of the provider's modules (that import is the evidence, not the receiver).
   */
  command?: string;
  /** The call has the effect only when its request sets this field (`confirm` on a PaymentIntent). */
  onlyWith?: string;
  /** Where this call takes its key, when it differs from the provider's. */
  key?: ProviderKey;
}

/**
 * A field of a provider's request body by which the provider settles repeats, recognised by the
 * body around it wherever the body is built (a project's own client often sends it).
 */
export interface ProviderKeyField {
  name: string;
  /** The object holding the field is the value of a property of this name (`sender_batch_header`). */
  inside?: string;
  /** The object holding the field also has one of these (`event_name` beside `event_id`)… */
  besides?: readonly string[];
  /** …and one of these. */
  with?: readonly string[];
  /** How messages name it: "PayPal's payout batch key". */
  label: string;
}

export interface ProviderSpec {
  /** How messages name the provider: "Stripe". */
  label: string;
  /** Its SDK's modules: a call of two names or more (`refunds.create`) in a file importing one is the provider's. */
  modules: readonly string[];
  /** A receiver whose text reads so is the provider's client (`stripe`, `twilioClient`). */
  receiver: RegExp;
  /** Where its calls take their idempotency key; absent when it takes none. */
  key?: ProviderKey;
  calls: readonly ProviderCallSpec[];
  keyFields?: readonly ProviderKeyField[];
}
