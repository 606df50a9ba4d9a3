import type { BrokerAdapter } from '../analysis/index.js';

/**
 * Upstash QStash receivers: QStash calls an HTTP handler and names the delivery in request
 * headers. `Upstash-Message-Id` is its message id and `Upstash-Retried` the retry count; both are
 * read so only in files that import @upstash/qstash (its `Receiver`, `verifySignature…`).
 */
export const qstash: BrokerAdapter = {
  kind: 'broker',
  name: 'qstash',
  modules: ['@upstash/qstash', /^@upstash\/qstash\//],
  requestHeaders: {
    'upstash-message-id': { identity: 'the QStash message id' },
    'upstash-retried': { identity: 'the QStash retry count' },
    'upstash-schedule-id': { kind: 'unknown' },
  },
  // A message published with a key minted at the source is an outgoing message, not an effect.
  sends: { methods: ['publishJSON', 'batchJSON', 'enqueueJSON', 'enqueue'] },
  nameWords: ['qstash'],
};
