import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

describe('google-pubsub adapter', () => {
  it.each([
    [
      'on("message") in a file that imports Pub/Sub',
      `import { PubSub } from '@google-cloud/pubsub'; subscription.on('message', (m) => { probe(m.id); probe(m.deliveryAttempt); });`,
      [['delivery:the Pub/Sub message id'], ['delivery:the delivery attempt']],
    ],
    [
      "attributes are the producer's, judged by names",
      `import { PubSub } from '@google-cloud/pubsub'; subscription.on('message', (m) => { probe(m.attributes.orderId); });`,
      [['business']],
    ],
    [
      "another emitter's message event is not Pub/Sub: its ack id is judged by name",
      `socket.on('message', (m) => { probe(m.ackId); });`,
      [['business']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
