import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

const imports = `import { connect } from 'nats';`;

describe('nats adapter', () => {
  it.each([
    [
      'a subscription iterated with for await',
      `${imports} const sub = nc.subscribe('orders'); for await (const m of sub) { probe(m.json().orderId); probe(m.subject); }`,
      [['business'], ['unknown']],
    ],
    [
      'a subscribe callback: (err, msg)',
      `${imports} nc.subscribe('orders', { callback: (err, msg) => { probe(msg.data); probe(err); } });`,
      [['unknown'], ['unknown']],
    ],
    [
      'JetStream consume callback: the stream sequence and delivery info',
      `${imports} const c = await js.consumers.get('ORDERS', 'worker'); await c.consume({ callback: (m) => { probe(m.seq); probe(m.info.redeliveryCount); probe(m.info.deliverySequence); } });`,
      [
        ['delivery:the JetStream stream sequence'],
        ['delivery:the JetStream redelivery count'],
        ['delivery:the JetStream delivery sequence'],
      ],
    ],
    [
      'JetStream consumed messages iterated with for await',
      `import { jetstream } from '@nats-io/jetstream'; const messages = await c.consume(); for await (const m of messages) { probe(m.info.streamSequence); probe(m.redelivered); }`,
      [['delivery:the JetStream stream sequence'], ['delivery:the JetStream redelivered flag']],
    ],
    [
      'the decoded string, parsed, is the payload',
      `${imports} nc.subscribe('x', { callback: (_e, msg) => { probe(JSON.parse(msg.string()).paymentId); } });`,
      [['business']],
    ],
    [
      "headers are the producer's",
      `${imports} const sub = nc.subscribe('x'); for await (const m of sub) probe(m.headers.refundId);`,
      [['business']],
    ],
    [
      'a typed JetStream message',
      `import type { JsMsg } from 'nats'; function handle(m: JsMsg) { probe(m.info.redeliveryCount); }`,
      [['delivery:the JetStream redelivery count']],
    ],
    [
      "near miss: another library's subscribe callback is not a NATS message",
      `bus.subscribe('orders', { callback: (err, msg) => { probe(msg.seq); } });`,
      [['unknown']],
    ],
    [
      'near miss: a callback given to another call of a NATS file',
      `${imports} scheduler.every('1m', { callback: (tick) => { probe(tick.seq); } });`,
      [['unknown']],
    ],
    [
      'near miss: an RxJS subscription is not iterated messages',
      `const sub = source.subscribe(); for await (const m of sub) probe(m.seq);`,
      [['unknown']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
