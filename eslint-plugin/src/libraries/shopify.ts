import type { BrokerAdapter } from '../analysis/index.js';

/**
 * Shopify webhooks: Shopify names each delivery in request headers. `X-Shopify-Webhook-Id` is
 * the delivery's id (kept across its retries) and `X-Shopify-Event-Id` the event's (shared by
 * the webhooks one event sends to several subscriptions); both say which delivery this is, not
 * which business operation. They are read so in files that import a Shopify library, or a
 * project module that does (a Remix app's routes import `authenticate` from `shopify.server`).
 */
export const shopify: BrokerAdapter = {
  kind: 'broker',
  name: 'shopify',
  entry: 'Shopify webhook',
  entryKind: 'webhook',
  modules: [/^@shopify\/shopify-api(\/|$)/, /^@shopify\/shopify-app-[\w-]+(\/|$)/],
  requestHeaders: {
    'x-shopify-webhook-id': { identity: 'the Shopify webhook id' },
    'x-shopify-event-id': { identity: 'the Shopify event id' },
    'x-shopify-triggered-at': { kind: 'time' },
  },
  nameWords: ['shopify'],
};
