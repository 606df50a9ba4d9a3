import type { BrokerAdapter } from '../analysis/index.js';

/**
 * Stripe webhooks as an entry point: the event `stripe.webhooks.constructEvent(body, signature,
 * secret)` returns. Its `id` is the same on every redelivery of the event, the right key for an
 * inbox of handled events; an effect keyed by it still follows the event, not the operation (one
 * refund, many events). `data.object` is the content: its `id` names the Stripe object.
 */
export const stripe: BrokerAdapter = {
  kind: 'broker',
  name: 'stripe',
  entry: 'Stripe webhook',
  entryKind: 'webhook',
  modules: ['stripe'],
  shapes: {
    event: {
      otherMembers: 'unknown',
      members: {
        id: { identity: 'the Stripe event id' },
        data: { shape: 'stripe:event-data' },
        request: { shape: 'stripe:request' },
        type: { kind: 'unknown' },
        created: { kind: 'unknown' },
        account: { kind: 'scope' },
      },
    },
    'event-data': {
      otherMembers: 'unknown',
      members: { object: { shape: 'payload' }, previous_attributes: { shape: 'payload' } },
    },
    request: {
      otherMembers: 'unknown',
      // The idempotency key of the API request that caused the event names that operation.
      members: { idempotency_key: { kind: 'business' }, id: { kind: 'unknown' } },
    },
  },
  // `Stripe.Event`, with Stripe imported from the SDK.
  types: [{ type: 'Event', from: ['stripe'], shape: 'stripe:event' }],
  results: [
    // stripe.webhooks.constructEvent(…): the receiver or an import of the SDK says it is Stripe's.
    { call: 'constructEvent', shape: 'stripe:event', evidence: { imports: true, receiver: /(^|\.)webhooks$/ } },
    { call: 'constructEventAsync', shape: 'stripe:event', evidence: { imports: true, receiver: /(^|\.)webhooks$/ } },
  ],
};
