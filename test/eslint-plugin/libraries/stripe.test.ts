import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

describe('stripe adapter', () => {
  it.each([
    [
      'constructEvent: the event id identifies the event',
      `import Stripe from 'stripe'; const event = stripe.webhooks.constructEvent(req.body, sig, secret); probe(event.id); probe(event.type);`,
      [['delivery:the Stripe event id'], ['unknown']],
    ],
    [
      "the event's object is the payload: its id names the Stripe object",
      `const event = stripe.webhooks.constructEvent(body, sig, secret); const charge = event.data.object; probe(charge.id); probe(charge.amount);`,
      [['business'], ['amount']],
    ],
    [
      'constructEventAsync, awaited',
      `const event = await stripe.webhooks.constructEventAsync(body, sig, secret); probe(event.id);`,
      [['delivery:the Stripe event id']],
    ],
    [
      'the idempotency key of the request behind the event names the operation',
      `const event = stripe.webhooks.constructEvent(body, sig, secret); probe(event.request.idempotency_key);`,
      [['business']],
    ],
    [
      'a Stripe.Event parameter',
      `import Stripe from 'stripe'; async function onEvent(event: Stripe.Event) { probe(event.id); probe(event.data.object.id); }`,
      [['delivery:the Stripe event id'], ['business']],
    ],
    [
      'the event handed to a function in the same file',
      `const event = stripe.webhooks.constructEvent(body, sig, secret); await route(event); async function route(e) { probe(e.id); }`,
      [['delivery:the Stripe event id']],
    ],
    [
      'near miss: an Event type of another module is judged by names only',
      `import { Event } from './events'; function onEvent(event: Event) { probe(event.id); }`,
      [['delivery:named id']],
    ],
    [
      'near miss: a DOM Event is judged by names only',
      `function onClick(event: Event) { probe(event.id); }`,
      [['delivery:named id']],
    ],
    [
      'near miss: another constructEvent, in a file without Stripe',
      `const event = tracker.constructEvent(payload); probe(event.id);`,
      [['unknown']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
