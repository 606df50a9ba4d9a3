import type { BrokerAdapter } from '../analysis/index.js';

/**
 * Inngest functions: `inngest.createFunction(config, trigger, async ({ event, step, attempt }) => …)`.
 * The event's id and the attempt number identify the delivery; `event.data` is the content.
 */
export const inngest: BrokerAdapter = {
  kind: 'broker',
  name: 'inngest',
  entry: 'Inngest function',
  entryKind: 'job',
  oneRunAtATime: true,
  modules: ['inngest', /^inngest\//],
  shapes: {
    context: {
      otherMembers: 'opaque',
      members: {
        event: { shape: 'inngest:event' },
        events: { listOf: 'inngest:event' },
        attempt: { identity: 'the Inngest attempt' },
        runId: { identity: 'the Inngest run id' },
      },
    },
    event: {
      otherMembers: 'unknown',
      members: {
        id: { identity: 'the Inngest event id' },
        ts: { identity: 'the Inngest event time' },
        data: { shape: 'payload' },
        user: { shape: 'payload' },
        name: { kind: 'unknown' },
      },
    },
  },
  handlers: [
    // The handler is the last argument: argument 2 with a trigger, 1 without.
    {
      call: 'createFunction',
      argument: 1,
      shape: 'inngest:context',
      evidence: { imports: true, receiver: /inngest/i },
    },
  ],
  sends: { methods: ['sendEvent'], receiverMethods: [{ method: 'send', receiver: /inngest/i }] },
  nameWords: ['inngest'],
};
